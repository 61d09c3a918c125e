module cairn.test/clients/gitea-sdk

go 1.26

require (
	code.gitea.io/sdk/gitea v0.25.1
	golang.org/x/crypto v0.50.0
)

require (
	github.com/42wim/httpsig v1.2.4 // indirect
	github.com/davidmz/go-pageant v1.0.2 // indirect
	github.com/go-fed/httpsig v1.1.0 // indirect
	github.com/hashicorp/go-version v1.9.0 // indirect
	golang.org/x/sys v0.43.0 // indirect
)

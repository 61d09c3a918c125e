package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"slices"
	"strings"

	"code.gitea.io/sdk/gitea"
	"golang.org/x/crypto/openpgp"        //nolint:staticcheck // the SDK's own dependency; enough to make a test key
	"golang.org/x/crypto/openpgp/armor"  //nolint:staticcheck
	"golang.org/x/crypto/openpgp/packet" //nolint:staticcheck
	"golang.org/x/crypto/ssh"
)

func (r *Run) misc() {
	r.do("ServerVersion", func() error {
		v, _, err := r.c.ServerVersion()
		if err != nil {
			return err
		}
		return expect(strings.HasPrefix(v, "1."), "version %q", v)
	})
	r.do("CheckServerVersionConstraint", func() error { return r.c.CheckServerVersionConstraint(">= 1.20") })
	r.do("GetGlobalAPISettings", func() error {
		s, _, err := r.c.GetGlobalAPISettings()
		if err != nil {
			return err
		}
		return expect(s.MaxResponseItems > 0 && s.DefaultPagingNum > 0, "settings %+v", s)
	})
	r.signingKeys("GetSigningKeyGPG", "GetSigningKeySSH", r.c.GetSigningKeyGPG, r.c.GetSigningKeySSH)
	r.templates()
}

// templates checks the .gitignore and licence templates a repository's auto_init can add.
func (r *Run) templates() {
	r.do("ListGitignoresTemplates", func() error {
		names, _, err := r.c.ListGitignoresTemplates()
		if err != nil {
			return err
		}
		return expect(slices.Contains(names, "Go") && slices.Contains(names, "Node"), "gitignores %v", names)
	})
	r.do("GetGitignoreTemplateInfo", func() error {
		t, _, err := r.c.GetGitignoreTemplateInfo("Go")
		if err != nil {
			return err
		}
		return expect(t.Name == "Go" && strings.Contains(t.Source, "*.exe"), "gitignore %.60q", t.Source)
	})
	r.do("ListLicenseTemplates", func() error {
		list, _, err := r.c.ListLicenseTemplates()
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(list, func(l *gitea.LicensesTemplateListEntry) bool {
			return l.Key == "MIT" && strings.HasSuffix(l.URL, "/api/v1/licenses/MIT")
		}), "licenses %d", len(list))
	})
	r.do("GetLicenseTemplateInfo", func() error {
		l, _, err := r.c.GetLicenseTemplateInfo("Apache-2.0")
		if err != nil {
			return err
		}
		return expect(l.Key == "Apache-2.0" && strings.Contains(l.Body, "Apache License"), "license %+v", l.Name)
	})
}

// signingKeys checks the instance's public signing key in the configured format, and 404 for the other one (Gitea
// signs with one key, of one format).
func (r *Run) signingKeys(gpgMethod, sshMethod string, gpg, ssh func() (string, *gitea.Response, error)) {
	check := func(get func() (string, *gitea.Response, error), format, prefix string) error {
		k, resp, err := get()
		if r.signing != format {
			return notFound(resp, err, "a signing key of a format not configured")
		}
		if err != nil {
			return err
		}
		return expect(strings.HasPrefix(k, prefix), "key %.60q", k)
	}
	r.do(gpgMethod, func() error { return check(gpg, "openpgp", "-----BEGIN PGP PUBLIC KEY BLOCK") })
	r.do(sshMethod, func() error { return check(ssh, "ssh", "ssh-") })
}

// admin makes the second user the other families need, and checks the admin user and org routes.
func (r *Run) adminFamily() {
	r.otherUser = r.name("sdk-bob")
	r.otherPass = "Pw-" + randomHex(12)
	r.do("AdminCreateUser", func() error {
		no := false
		u, _, err := r.c.AdminCreateUser(gitea.CreateUserOption{Username: r.otherUser, Email: r.otherUser + "@example.com",
			Password: r.otherPass, MustChangePassword: &no})
		if err != nil {
			return err
		}
		return expect(u.UserName == r.otherUser && u.ID > 0, "user %q id %d", u.UserName, u.ID)
	})
	other, err := gitea.NewClient(r.url, gitea.SetBasicAuth(r.otherUser, r.otherPass))
	if err == nil {
		r.other = other
	}
	r.do("AdminListUsers", func() error {
		users, _, err := r.c.AdminListUsers(gitea.AdminListUsersOptions{ListOptions: gitea.ListOptions{PageSize: 50}})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(users, func(u *gitea.User) bool { return u.UserName == r.otherUser }), "%s not listed", r.otherUser)
	})
	r.do("AdminEditUser", func() error {
		full := "Bob Builder"
		if _, err := r.c.AdminEditUser(r.otherUser, gitea.EditUserOption{LoginName: r.otherUser, FullName: &full}); err != nil {
			return err
		}
		u, _, err := r.c.GetUserInfo(r.otherUser)
		if err != nil {
			return err
		}
		return expect(u.FullName == full, "full name %q", u.FullName)
	})
	pub := sshPublicKey()
	var key *gitea.PublicKey
	r.do("AdminCreateUserPublicKey", func() (err error) {
		key, _, err = r.c.AdminCreateUserPublicKey(r.otherUser, gitea.CreateKeyOption{Title: "bob's laptop", Key: pub})
		if err != nil {
			return err
		}
		return expect(key.ID > 0 && key.Title == "bob's laptop", "key %+v", key)
	})
	r.do("AdminDeleteUserPublicKey", func() error {
		if _, err := r.c.AdminDeleteUserPublicKey(r.otherUser, int(key.ID)); err != nil {
			return err
		}
		keys, _, err := r.c.ListPublicKeys(r.otherUser, gitea.ListPublicKeysOptions{})
		if err != nil {
			return err
		}
		return expect(len(keys) == 0, "%d keys left", len(keys))
	})
	r.do("AdminCreateOrg", func() error {
		name := r.name("sdk-bob-org")
		o, _, err := r.c.AdminCreateOrg(r.otherUser, gitea.CreateOrgOption{Name: name})
		if err != nil {
			return err
		}
		if err := expect(o.UserName == name, "org %q", o.UserName); err != nil {
			return err
		}
		_, err = r.c.DeleteOrg(name)
		return err
	})
	r.do("AdminCreateRepo", func() error {
		name := r.name("bob-repo")
		repo, _, err := r.c.AdminCreateRepo(r.otherUser, gitea.CreateRepoOption{Name: name})
		if err != nil {
			return err
		}
		return expect(repo.Name == name && repo.Owner != nil && repo.Owner.UserName == r.otherUser, "repo %q of %v", repo.Name, repo.Owner)
	})
}

func (r *Run) users() {
	var me *gitea.User
	r.do("GetMyUserInfo", func() (err error) {
		me, _, err = r.c.GetMyUserInfo()
		if err != nil {
			return err
		}
		return expect(me.UserName == r.admin && me.IsAdmin, "me %q admin %v", me.UserName, me.IsAdmin)
	})
	r.do("GetUserInfo", func() error {
		u, _, err := r.c.GetUserInfo(r.otherUser)
		if err != nil {
			return err
		}
		return expect(u.UserName == r.otherUser, "user %q", u.UserName)
	})
	r.do("GetUserByID", func() error {
		u, _, err := r.c.GetUserByID(me.ID)
		if err != nil {
			return err
		}
		return expect(u.UserName == r.admin, "user %q", u.UserName)
	})
	r.do("SearchUsers", func() error {
		users, _, err := r.c.SearchUsers(gitea.SearchUsersOption{KeyWord: "sdk-bob-" + r.suffix})
		if err != nil {
			return err
		}
		return expect(len(users) == 1 && users[0].UserName == r.otherUser, "found %d", len(users))
	})
	loc := "Lisbon " + r.suffix
	r.do("UpdateUserSettings", func() error {
		s, _, err := r.c.UpdateUserSettings(gitea.UserSettingsOptions{Location: &loc})
		if err != nil {
			return err
		}
		return expect(s.Location == loc, "location %q", s.Location)
	})
	r.do("GetUserSettings", func() error {
		s, _, err := r.c.GetUserSettings()
		if err != nil {
			return err
		}
		return expect(s.Location == loc, "location %q", s.Location)
	})
	extra := r.name("sdk-extra") + "@example.com"
	r.do("AddEmail", func() error {
		emails, _, err := r.c.AddEmail(gitea.CreateEmailOption{Emails: []string{extra}})
		if err != nil {
			return err
		}
		return expect(len(emails) == 1 && emails[0].Email == extra, "emails %v", emails)
	})
	r.do("ListEmails", func() error {
		emails, _, err := r.c.ListEmails(gitea.ListEmailsOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(emails, func(e *gitea.Email) bool { return e.Email == extra }), "%s not listed", extra)
	})
	r.do("DeleteEmail", func() error {
		if _, err := r.c.DeleteEmail(gitea.DeleteEmailOption{Emails: []string{extra}}); err != nil {
			return err
		}
		emails, _, err := r.c.ListEmails(gitea.ListEmailsOptions{})
		if err != nil {
			return err
		}
		return expect(!slices.ContainsFunc(emails, func(e *gitea.Email) bool { return e.Email == extra }), "%s still listed", extra)
	})

	// Tokens are managed with Basic auth (Gitea refuses token-authenticated token management).
	basic, err := gitea.NewClient(r.url, gitea.SetBasicAuth(r.admin, r.password))
	if err != nil {
		panic(err)
	}
	tokenName := r.name("sdk-token")
	r.do("CreateAccessToken", func() error {
		t, _, err := basic.CreateAccessToken(gitea.CreateAccessTokenOption{Name: tokenName,
			Scopes: []gitea.AccessTokenScope{"read:repository"}})
		if err != nil {
			return err
		}
		return expect(t.Name == tokenName && t.Token != "", "token %q (%d chars)", t.Name, len(t.Token))
	})
	r.do("ListAccessTokens", func() error {
		ts, _, err := basic.ListAccessTokens(gitea.ListAccessTokensOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ts, func(t *gitea.AccessToken) bool { return t.Name == tokenName }), "%s not listed", tokenName)
	})
	r.do("DeleteAccessToken", func() error {
		if _, err := basic.DeleteAccessToken(tokenName); err != nil {
			return err
		}
		ts, _, err := basic.ListAccessTokens(gitea.ListAccessTokensOptions{})
		if err != nil {
			return err
		}
		return expect(!slices.ContainsFunc(ts, func(t *gitea.AccessToken) bool { return t.Name == tokenName }), "%s still listed", tokenName)
	})
}

func sshPublicKey() string {
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	k, err := ssh.NewPublicKey(pub)
	if err != nil {
		panic(err)
	}
	return strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
}

func (r *Run) keys() {
	pub := sshPublicKey()
	var key *gitea.PublicKey
	r.do("CreatePublicKey", func() (err error) {
		key, _, err = r.c.CreatePublicKey(gitea.CreateKeyOption{Title: "laptop", Key: pub})
		if err != nil {
			return err
		}
		return expect(key.Title == "laptop" && strings.HasPrefix(key.Key, "ssh-ed25519 "), "key %+v", key)
	})
	r.do("GetPublicKey", func() error {
		k, _, err := r.c.GetPublicKey(key.ID)
		if err != nil {
			return err
		}
		return expect(k.ID == key.ID && k.Fingerprint == key.Fingerprint && k.Fingerprint != "", "key %+v", k)
	})
	r.do("ListMyPublicKeys", func() error {
		ks, _, err := r.c.ListMyPublicKeys(gitea.ListPublicKeysOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ks, func(k *gitea.PublicKey) bool { return k.ID == key.ID }), "key not listed")
	})
	r.do("ListPublicKeys", func() error {
		ks, _, err := r.c.ListPublicKeys(r.admin, gitea.ListPublicKeysOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ks, func(k *gitea.PublicKey) bool { return k.ID == key.ID }), "key not listed")
	})
	r.do("DeletePublicKey", func() error {
		if _, err := r.c.DeletePublicKey(key.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetPublicKey(key.ID)
		return notFound(resp, err, "public key")
	})

	entity, armored := gpgKey(r.admin + "@example.com")
	var gk *gitea.GPGKey
	r.do("CreateGPGKey", func() (err error) {
		gk, _, err = r.c.CreateGPGKey(gitea.CreateGPGKeyOption{ArmoredKey: armored})
		if err != nil {
			return err
		}
		return expect(gk.KeyID == fmt.Sprintf("%016X", entity.PrimaryKey.KeyId), "key id %q", gk.KeyID)
	})
	r.do("GetGPGKey", func() error {
		k, _, err := r.c.GetGPGKey(gk.ID)
		if err != nil {
			return err
		}
		return expect(k.KeyID == gk.KeyID, "key id %q", k.KeyID)
	})
	r.do("ListMyGPGKeys", func() error {
		ks, _, err := r.c.ListMyGPGKeys(&gitea.ListGPGKeysOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ks, func(k *gitea.GPGKey) bool { return k.ID == gk.ID }), "key not listed")
	})
	r.do("ListGPGKeys", func() error {
		ks, _, err := r.c.ListGPGKeys(r.admin, gitea.ListGPGKeysOptions{})
		if err != nil {
			return err
		}
		return expect(slices.ContainsFunc(ks, func(k *gitea.GPGKey) bool { return k.ID == gk.ID }), "key not listed")
	})
	var token string
	r.do("GetGPGKeyVerificationToken", func() (err error) {
		token, _, err = r.c.GetGPGKeyVerificationToken()
		if err != nil {
			return err
		}
		return expect(len(strings.TrimSpace(token)) >= 20, "token %q", token)
	})
	r.do("VerifyGPGKey", func() error {
		var sig bytes.Buffer
		if err := openpgp.ArmoredDetachSignText(&sig, entity, strings.NewReader(strings.TrimSpace(token)), nil); err != nil {
			return err
		}
		k, _, err := r.c.VerifyGPGKey(gitea.VerifyGPGKeyOption{KeyID: gk.KeyID, Signature: sig.String()})
		if err != nil {
			return err
		}
		return expect(k.KeyID == gk.KeyID && k.Verified, "key %q verified %v", k.KeyID, k.Verified)
	})
	r.do("DeleteGPGKey", func() error {
		if _, err := r.c.DeleteGPGKey(gk.ID); err != nil {
			return err
		}
		_, resp, err := r.c.GetGPGKey(gk.ID)
		return notFound(resp, err, "GPG key")
	})
}

// gpgKey makes an OpenPGP key with one identity and returns it with its armored public key.
func gpgKey(email string) (*openpgp.Entity, string) {
	e, err := openpgp.NewEntity("SDK Tester", "", email, &packet.Config{RSABits: 2048})
	if err != nil {
		panic(err)
	}
	for _, id := range e.Identities {
		if err := id.SelfSignature.SignUserId(id.UserId.Id, e.PrimaryKey, e.PrivateKey, nil); err != nil {
			panic(err)
		}
	}
	var buf bytes.Buffer
	w, err := armor.Encode(&buf, openpgp.PublicKeyType, nil)
	if err != nil {
		panic(err)
	}
	if err := e.Serialize(w); err != nil {
		panic(err)
	}
	_ = w.Close()
	return e, buf.String()
}

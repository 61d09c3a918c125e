// Command gitea-sdk-client drives a running Cairn with Gitea's own Go SDK (code.gitea.io/sdk/gitea): it calls every
// SDK method whose Gitea operation Cairn's published description implements, with real data, checks that each answer
// decodes into the SDK's types and means what it should, and prints a JSON summary and one human line.
//
// Environment: CAIRN_URL (base URL), CAIRN_ADMIN_USER, CAIRN_ADMIN_PASSWORD (a site administrator), CAIRN_TOKEN (an
// access token of that administrator with every scope), CAIRN_OPENAPI (path of Cairn's swagger.v1.json),
// CAIRN_SDK_OPERATIONS (path of sdk-operations.json), CAIRN_SIGNING_FORMAT (the instance's signing key format).
package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"

	"fmt"
	"net/http"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"code.gitea.io/sdk/gitea"
)

// Run is the state shared by every family of calls: the clients, the names of what was created, the record.
type Run struct {
	url       string
	admin     string
	password  string
	token     string
	c         *gitea.Client // the administrator, by token
	ops       map[string][]string
	impl      map[string]bool
	results   []result
	called    map[string]bool
	suffix    string
	otherUser string        // a second, ordinary user (created by the admin family)
	other     *gitea.Client // that user, by basic auth
	otherPass string
	repo      string // the administrator's main repository (auto-initialised, default branch main)
	org       string // an organisation of the administrator
	signing   string // the instance's signing format (CAIRN_SIGNING_FORMAT: ssh or openpgp); the other key is 404
}

type result struct {
	Method      string `json:"method"`
	OperationID string `json:"operationId"`
	OK          bool   `json:"ok"`
	Error       string `json:"error,omitempty"`
}

// do calls one SDK method (fn) and records whether it succeeded; a panic (a prerequisite that failed earlier left
// nil behind) is a failure of this call, not of the program.
func (r *Run) do(method string, fn func() error) {
	ops, known := r.ops[method]
	if !known {
		fmt.Fprintf(os.Stderr, "program error: %s is not in sdk-operations.json\n", method)
		os.Exit(2)
	}
	implemented := false
	for _, op := range ops {
		implemented = implemented || r.impl[op]
	}
	if !implemented {
		return // the coverage counts only what Cairn describes; a call of anything else would test nothing of Cairn
	}
	r.called[method] = true
	err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v (a prerequisite failed?)\n%s", p, firstLines(string(debug.Stack()), 12))
			}
		}()
		return fn()
	}()
	res := result{Method: method, OperationID: strings.Join(ops, ","), OK: err == nil}
	if err != nil {
		res.Error = err.Error()
	}
	r.results = append(r.results, res)
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// expect turns a failed expectation into an error naming what was found.
func expect(ok bool, format string, args ...any) error {
	if ok {
		return nil
	}
	return fmt.Errorf("unexpected: "+format, args...)
}

// notFound checks that a lookup after a delete answers 404.
func notFound(resp *gitea.Response, err error, what string) error {
	if err == nil {
		return fmt.Errorf("%s still there after delete", what)
	}
	if resp == nil || resp.StatusCode != http.StatusNotFound {
		return fmt.Errorf("%s after delete: want 404, got %v", what, err)
	}
	return nil
}

// status checks the status code of an answer that carries no body worth decoding.
func status(resp *gitea.Response, err error, want int) error {
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("status %d, want %d", resp.StatusCode, want)
	}
	return nil
}

func (r *Run) name(stem string) string { return stem + "-" + r.suffix }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func mustEnv(name string) string {
	v := os.Getenv(name)
	if v == "" {
		fmt.Fprintf(os.Stderr, "%s is not set\n", name)
		os.Exit(2)
	}
	return v
}

func loadJSON(path string, into any) {
	data, err := os.ReadFile(path)
	if err == nil {
		err = json.Unmarshal(data, into)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "reading %s: %v\n", path, err)
		os.Exit(2)
	}
}

func main() {
	r := &Run{
		url:      strings.TrimRight(mustEnv("CAIRN_URL"), "/"),
		admin:    mustEnv("CAIRN_ADMIN_USER"),
		password: mustEnv("CAIRN_ADMIN_PASSWORD"),
		token:    mustEnv("CAIRN_TOKEN"),
		called:   map[string]bool{},
		impl:     map[string]bool{},
		suffix:   randomHex(3),
		signing:  os.Getenv("CAIRN_SIGNING_FORMAT"),
	}
	var sdkOps struct {
		SDK     string                     `json:"sdk"`
		Methods map[string]json.RawMessage `json:"methods"`
	}
	loadJSON(mustEnv("CAIRN_SDK_OPERATIONS"), &sdkOps)
	r.ops = map[string][]string{}
	for m, raw := range sdkOps.Methods {
		var one string
		if json.Unmarshal(raw, &one) == nil {
			r.ops[m] = []string{one}
			continue
		}
		var many []string
		if err := json.Unmarshal(raw, &many); err != nil {
			fmt.Fprintf(os.Stderr, "sdk-operations.json: %s: %v\n", m, err)
			os.Exit(2)
		}
		r.ops[m] = many
	}
	var described struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	loadJSON(mustEnv("CAIRN_OPENAPI"), &described)
	for _, item := range described.Paths {
		for _, op := range item {
			if op.OperationID != "" {
				r.impl[op.OperationID] = true
			}
		}
	}

	c, err := gitea.NewClient(r.url, gitea.SetToken(r.token))
	if err != nil {
		fmt.Fprintf(os.Stderr, "gitea.NewClient: %v\n", err)
		os.Exit(1)
	}
	r.c = c

	for _, family := range families {
		family(r)
	}
	r.report(sdkOps.SDK)
}

// families run in order: later ones use what earlier ones made (the admin family makes the second user).
var families = []func(*Run){
	(*Run).misc, (*Run).adminFamily, (*Run).users, (*Run).keys, (*Run).repos, (*Run).contents, (*Run).gitData,
	(*Run).issues, (*Run).pulls, (*Run).releases, (*Run).orgs, (*Run).hooks, (*Run).actions, (*Run).notifications,
	(*Run).packages, (*Run).cleanup,
}

type summary struct {
	SDK       string   `json:"sdk"`
	Calls     int      `json:"calls"`
	Succeeded int      `json:"succeeded"`
	Failed    int      `json:"failed"`
	Failures  []result `json:"failures"`
	Coverage  struct {
		// Mapped: SDK methods whose operation Cairn implements; Called: how many of them this program called.
		Mapped    int      `json:"mapped"`
		Called    int      `json:"called"`
		NotCalled []string `json:"notCalled"`
		// CalledUnimplemented: methods called although their operation is not in Cairn's description.
		CalledUnimplemented []string `json:"calledUnimplemented"`
	} `json:"coverage"`
	Results []result `json:"results"`
}

func (r *Run) report(sdkVersion string) {
	s := summary{SDK: sdkVersion, Calls: len(r.results), Results: r.results, Failures: []result{}}
	for _, res := range r.results {
		if res.OK {
			s.Succeeded++
		} else {
			s.Failed++
			s.Failures = append(s.Failures, res)
		}
	}
	s.Coverage.NotCalled = []string{}
	s.Coverage.CalledUnimplemented = []string{}
	for m, ops := range r.ops {
		implemented := false
		for _, op := range ops {
			implemented = implemented || r.impl[op]
		}
		switch {
		case implemented && r.called[m]:
			s.Coverage.Mapped++
			s.Coverage.Called++
		case implemented:
			s.Coverage.Mapped++
			s.Coverage.NotCalled = append(s.Coverage.NotCalled, m)
		case r.called[m]:
			s.Coverage.CalledUnimplemented = append(s.Coverage.CalledUnimplemented, m)
		}
	}
	sort.Strings(s.Coverage.NotCalled)
	sort.Strings(s.Coverage.CalledUnimplemented)
	out, _ := json.MarshalIndent(s, "", "  ")
	fmt.Println(string(out))
	fmt.Printf("gitea-sdk %s: %d calls, %d succeeded, %d failed; %d of %d SDK methods of implemented operations called\n",
		sdkVersion, s.Calls, s.Succeeded, s.Failed, s.Coverage.Called, s.Coverage.Mapped)
}

package main

import (
	"bytes"
	"strings"
	"testing"
)

// The generated files are what api/local-api.json and docs/protocol.md give today.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	root, err := findRoot()
	if err != nil {
		t.Fatal(err)
	}
	names, _, err := stale(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) > 0 {
		t.Fatalf("stale: %v; run `go run ./internal/gen` in clients/go", names)
	}
}

// A method added to the description needs no hand edit: any param and result type renders.
func TestANewMethodRendersWithoutHandEdits(t *testing.T) {
	api := &apiFile{Methods: []method{{
		Name: "requestAccess", Summary: "Asks a manager for a role.", Role: "none", Result: "AccessDecision",
		Params: []param{{Name: "role", Type: "string", Values: []string{"observer", "reader", "manager"}},
			{Name: "reason", Type: "string", Optional: true}, {Name: "grantId", Type: "GrantRef", Optional: true}},
	}, {Name: "listAccessGrants", Summary: "The remembered grants.", Role: "manager", Result: "AccessGrants"}}}
	chunks, err := renderMethods(api)
	if err != nil {
		t.Fatal(err)
	}
	text := string(bytes.Join(chunks, nil))
	for _, want := range []string{
		"func (c *Client) RequestAccess(ctx context.Context, params RequestAccessParams) (*json.RawMessage, error)",
		"func (c *Client) ListAccessGrants(ctx context.Context) (*json.RawMessage, error)",
		"GrantID json.RawMessage `json:\"grantId,omitempty\"`",
		"Role    string          `json:\"role\"`",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in\n%s", want, text)
		}
	}
}

func TestWireNamesBecomeGoNames(t *testing.T) {
	for wire, want := range map[string]string{"signInWithIdp": "SignInWithIdp", "providerId": "ProviderID",
		"redirectUri": "RedirectURI", "callbackUrl": "CallbackURL", "email-already-in-use": "EmailAlreadyInUse",
		"uid": "UID", "enrollTotp": "EnrollTotp"} {
		if got := exported(wire); got != want {
			t.Errorf("%s: %s, want %s", wire, got, want)
		}
	}
}

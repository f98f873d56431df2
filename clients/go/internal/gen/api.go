package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// apiFile is the part of api/local-api.json the Go client reads.
type apiFile struct {
	Methods       []method       `json:"methods"`
	Notifications []notification `json:"notifications"`
}

type method struct {
	Name           string  `json:"name"`
	Summary        string  `json:"summary"`
	Role           string  `json:"role"`
	Result         string  `json:"result"`
	ResultField    string  `json:"resultField"`
	ResultFallback string  `json:"resultFallback"`
	Retryable      bool    `json:"retryable"`
	Clients        *bool   `json:"clients"`
	Params         []param `json:"params"`
	Rules          []rule  `json:"rules"`
}

type param struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"`
	Optional bool     `json:"optional"`
	Nullable bool     `json:"nullable"`
	Flag     bool     `json:"flag"`
	Secret   bool     `json:"secret"`
	Values   []string `json:"values"`
}

type rule struct {
	ExactlyOne  []string `json:"exactlyOne"`
	AtMostOne   []string `json:"atMostOne"`
	Requires    []string `json:"requires"`
	Message     string   `json:"message"`
	ClientCheck *bool    `json:"clientCheck"`
}

type notification struct {
	Name             string `json:"name"`
	AdvancesSequence bool   `json:"advancesSequence"`
}

func readAPI(path string) (*apiFile, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var api apiFile
	if err := json.Unmarshal(text, &api); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &api, nil
}

// handWritten are the methods with a hand-written member in client.go (another shape than a
// call with a params struct).
var handWritten = map[string]bool{"hello": true, "getState": true, "getIdToken": true}

// generated is whether a method gets a generated member: not a subscription's (clients:
// false), not a hand-written one.
func (m method) generated() bool {
	return (m.Clients == nil || *m.Clients) && !handWritten[m.Name]
}

type reason struct {
	code int
	name string
}

var tableRow = regexp.MustCompile("^\\|\\s*(-?\\d+)\\s*\\|[^|]*\\|(.*)\\|\\s*$")
var reasonName = regexp.MustCompile("`([a-z-]+)`")

// readReasons is [code, reason] for every reason in docs/protocol.md's table under "## Errors",
// read as clients/node/scripts/generate-reasons.mjs and the Python generator read it.
func readReasons(text string) ([]reason, error) {
	parts := strings.SplitN(text, "\n## Errors", 2)
	if len(parts) < 2 {
		return nil, fmt.Errorf(`docs/protocol.md has no "## Errors" section`)
	}
	section := strings.SplitN(parts[1], "\n## ", 2)[0]
	var reasons []reason
	seen := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		match := tableRow.FindStringSubmatch(line)
		if match == nil {
			continue
		}
		var code int
		fmt.Sscan(match[1], &code)
		for _, name := range reasonName.FindAllStringSubmatch(match[2], -1) {
			if !seen[name[1]] {
				seen[name[1]] = true
				reasons = append(reasons, reason{code, name[1]})
			}
		}
	}
	if len(reasons) == 0 {
		return nil, fmt.Errorf("docs/protocol.md's error table names no reasons")
	}
	return reasons, nil
}

// exported is a wire name as an exported Go name: signInWithIdp → SignInWithIdp, providerId
// → ProviderID, redirectUri → RedirectURI, email-already-in-use → EmailAlreadyInUse.
func exported(name string) string {
	var out strings.Builder
	for _, word := range splitWords(name) {
		switch upper := strings.ToUpper(word); upper {
		case "ID", "URI", "URL", "UID", "JSON", "HTTP":
			out.WriteString(upper)
		default:
			out.WriteString(strings.ToUpper(word[:1]) + word[1:])
		}
	}
	return out.String()
}

// splitWords splits camelCase and kebab-case names into words.
func splitWords(name string) []string {
	var words []string
	start := 0
	for i := 1; i <= len(name); i++ {
		boundary := i == len(name) || name[i] == '-' || name[i] == '_' ||
			(name[i] >= 'A' && name[i] <= 'Z' && !(name[i-1] >= 'A' && name[i-1] <= 'Z'))
		if boundary {
			if word := strings.Trim(name[start:i], "-_"); word != "" {
				words = append(words, word)
			}
			start = i
		}
	}
	return words
}

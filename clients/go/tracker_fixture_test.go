package sesame

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The shared tracker table (tests/fixtures/stream-tracker.json), run against the tracker: the
// same rows the Node, Python and Swift trackers' tests run, so the clients cannot drift.

type fixtureFile struct {
	Base  map[string]json.RawMessage `json:"base"`
	Cases []struct {
		Name  string `json:"name"`
		Steps []struct {
			Op       string                     `json:"op"`
			Instance string                     `json:"instance"`
			State    map[string]json.RawMessage `json:"state"`
			Method   string                     `json:"method"`
			Params   map[string]json.RawMessage `json:"params"`
			Expect   []map[string]any           `json:"expect"`
			Resync   bool                       `json:"resync"`
		} `json:"steps"`
	} `json:"cases"`
}

func readFixture(t *testing.T) fixtureFile {
	t.Helper()
	text, err := os.ReadFile("../../tests/fixtures/stream-tracker.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture fixtureFile
	if err := json.Unmarshal(text, &fixture); err != nil {
		t.Fatal(err)
	}
	return fixture
}

// full is base with the step's fields over it (nil stays nil: a failed getState).
func full(base, partial map[string]json.RawMessage) json.RawMessage {
	if partial == nil {
		return nil
	}
	merged := map[string]json.RawMessage{}
	for key, value := range base {
		merged[key] = value
	}
	for key, value := range partial {
		merged[key] = value
	}
	encoded, _ := json.Marshal(merged)
	return encoded
}

// observed is the fields the row names, read from a given state as the fixture defines them.
func observed(state State, fields map[string]any) map[string]any {
	var token, rateLimit, uid any
	if state.Token != nil {
		token = state.Token.ExpiresAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	if state.RateLimit != nil {
		rateLimit = state.RateLimit.Operation
	}
	if state.User != nil {
		uid = state.User.UID
	}
	values := map[string]any{"sequence": float64(state.Sequence), "reason": state.Reason, "status": state.Status,
		"uid": uid, "connectivity": state.Connectivity, "tokenExpiresAt": token, "rateLimitOperation": rateLimit}
	got := map[string]any{}
	for key := range fields {
		got[key] = values[key]
	}
	return got
}

func TestTrackerFixture(t *testing.T) {
	fixture := readFixture(t)
	for _, testCase := range fixture.Cases {
		testCase := testCase
		t.Run(testCase.Name, func(t *testing.T) {
			var tracker tracker
			for index, step := range testCase.Steps {
				var states []State
				var resync bool
				switch step.Op {
				case "connect":
					tracker.connected(step.Instance)
				case "snapshot":
					var err error
					if states, err = tracker.snapshot(full(fixture.Base, step.State), "snapshot"); err != nil {
						t.Fatalf("step %d: %v", index, err)
					}
				case "notification":
					params := map[string]json.RawMessage{}
					for key, value := range step.Params {
						params[key] = value
					}
					var state map[string]json.RawMessage
					if json.Unmarshal(params["state"], &state) == nil && state != nil {
						params["state"] = full(fixture.Base, state)
					}
					encoded, _ := json.Marshal(params)
					states, resync = tracker.notification(step.Method, encoded)
				case "resynced":
					states, resync = tracker.resynced(full(fixture.Base, step.State))
				default:
					t.Fatalf("unknown op %s", step.Op)
				}
				got := make([]map[string]any, len(states))
				for i, state := range states {
					fields := map[string]any{}
					if i < len(step.Expect) {
						fields = step.Expect[i]
					}
					got[i] = observed(state, fields)
				}
				want := step.Expect
				if want == nil {
					want = []map[string]any{}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d (%s): gave %v, want %v", index, step.Op, got, want)
				}
				if resync != step.Resync {
					t.Fatalf("step %d (%s): resync %v, want %v", index, step.Op, resync, step.Resync)
				}
			}
		})
	}
}

func TestTrackerFixtureCoversEveryRule(t *testing.T) {
	var names []string
	for _, testCase := range readFixture(t).Cases {
		names = append(names, testCase.Name)
	}
	all := strings.Join(names, " ")
	for _, rule := range []string{"snapshot comes first", "gap", "new instance", "no duplicates"} {
		if !strings.Contains(all, rule) {
			t.Errorf("the fixture has no case about %q", rule)
		}
	}
}

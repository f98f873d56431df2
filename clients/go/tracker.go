package sesame

import (
	"encoding/json"
	"errors"
)

type object = map[string]json.RawMessage

type heldNotification struct {
	method string
	params object
}

// tracker is the state stream's logic, free of I/O. It is told what arrived (a new
// connection's instance, a snapshot, a notification, a getState answer) and answers with the
// states to give and whether a getState must be sent. Within one daemon instance it gives a
// state only when its sequence is newer than the last one given; a new instance starts over
// with its snapshot. tests/fixtures/stream-tracker.json holds the rules as rows, which the
// Node, Python and Swift trackers run alike.
type tracker struct {
	instance      string
	lastSequence  int64
	state         object // nil before the first snapshot of this instance
	givenInstance string
	givenSequence int64 // 0: nothing given yet
	resyncing     bool
	held          []heldNotification
}

// connected is a new connection greeted by instance; a new instance means the sequence
// started over.
func (t *tracker) connected(instance string) {
	if instance != t.instance || instance == "" {
		t.instance = instance
		t.lastSequence = 0
		t.state = nil
	}
	t.resyncing = false
	t.held = nil
}

// snapshot is an authoritative state: subscribe's, or getState's after a gap (reason
// "resynchronized").
func (t *tracker) snapshot(raw json.RawMessage, reason string) ([]State, error) {
	var state object
	if json.Unmarshal(raw, &state) != nil || state == nil {
		return nil, errNotAState
	}
	sequence, ok := integer(state["sequence"])
	var status string
	if !ok || json.Unmarshal(state["status"], &status) != nil {
		return nil, errNotAState
	}
	if t.state == nil || t.lastSequence == 0 || sequence > t.lastSequence {
		t.state = state
		t.lastSequence = sequence
	}
	return t.offer(nil, t.state, reason), nil
}

var errNotAState = errors.New("a State without status or sequence")

// notification is a notification; resync is true when a gap needs a getState.
func (t *tracker) notification(method string, raw json.RawMessage) (states []State, resync bool) {
	var params object
	if !stateEvents[method] || json.Unmarshal(raw, &params) != nil {
		return nil, false
	}
	sequence, ok := integer(params["sequence"])
	if !ok {
		return nil, false
	}
	if t.resyncing {
		t.held = append(t.held, heldNotification{method, params})
		return nil, false
	}
	if t.lastSequence != 0 {
		if sequence <= t.lastSequence {
			return nil, false
		}
		if sequence > t.lastSequence+1 {
			t.resyncing = true
			t.held = append(t.held, heldNotification{method, params})
			return nil, true
		}
	}
	return t.apply(method, params, sequence), false
}

// resynced is the getState answer after a gap; nil when that call failed (the gap is then
// accepted).
func (t *tracker) resynced(raw json.RawMessage) (states []State, resync bool) {
	t.resyncing = false
	held := t.held
	t.held = nil
	repaired := false
	if raw != nil {
		given, err := t.snapshot(raw, "resynchronized")
		states, repaired = given, err == nil
	}
	if !repaired && len(held) > 0 {
		first, _ := integer(held[0].params["sequence"])
		t.lastSequence = first - 1
	}
	for _, notification := range held {
		encoded, _ := json.Marshal(notification.params)
		more, again := t.notification(notification.method, encoded)
		states = append(states, more...)
		resync = resync || again
	}
	return states, resync
}

func (t *tracker) apply(method string, params object, sequence int64) []State {
	t.lastSequence = sequence
	var next object
	var reason string
	switch {
	case method == "authStateChanged":
		next = objectOf(params["state"])
		if json.Unmarshal(params["reason"], &reason) != nil || reason == "" {
			reason = "auth-state-changed"
		}
	case method == "userUpdated":
		next, reason = objectOf(params["state"]), "user-updated"
	case method == "signInFlowChanged":
		next, reason = objectOf(params["state"]), "sign-in-flow-changed"
	case method == "idTokenChanged" && t.state != nil:
		next, reason = copyObject(t.state), "token-refreshed"
		token, _ := json.Marshal(map[string]json.RawMessage{"expiresAt": orNull(params["expiresAt"])})
		next["token"] = token
	case method == "connectivityChanged" && t.state != nil:
		next, reason = copyObject(t.state), "connectivity-changed"
		next["connectivity"] = orNull(params["connectivity"])
		next["rateLimit"] = orNull(params["rateLimit"])
	case objectOf(params["state"]) != nil: // a newer state event carrying the state
		next, reason = objectOf(params["state"]), kebab(method)
	case t.state != nil: // a newer state event carrying the fields that changed
		next, reason = copyObject(t.state), kebab(method)
		for key, value := range params {
			if key != "sequence" {
				next[key] = value
			}
		}
	}
	var status string
	if next == nil || json.Unmarshal(next["status"], &status) != nil {
		return nil
	}
	next = copyObject(next)
	next["sequence"], _ = json.Marshal(sequence)
	t.state = next
	return t.offer(nil, next, reason)
}

func (t *tracker) offer(states []State, state object, reason string) []State {
	sequence, _ := integer(state["sequence"])
	if t.givenSequence != 0 && t.givenInstance == t.instance && sequence <= t.givenSequence {
		return states
	}
	t.givenInstance, t.givenSequence = t.instance, sequence
	return append(states, givenState(state, reason))
}

// givenState is the State a stream gives, with its reason.
func givenState(state object, reason string) State {
	encoded, _ := json.Marshal(state)
	var given State
	if err := json.Unmarshal(encoded, &given); err != nil {
		given = State{JSON: encoded} // a field of a shape this package does not know: the JSON has it all
		_ = json.Unmarshal(state["status"], &given.Status)
		given.Sequence, _ = integer(state["sequence"])
	}
	given.Reason = reason
	return given
}

func integer(raw json.RawMessage) (int64, bool) {
	var value int64
	if raw == nil || json.Unmarshal(raw, &value) != nil || string(raw) == "null" {
		return 0, false
	}
	return value, true
}

func objectOf(raw json.RawMessage) object {
	var value object
	if json.Unmarshal(raw, &value) != nil {
		return nil
	}
	return value
}

func copyObject(source object) object {
	copied := make(object, len(source)+2)
	for key, value := range source {
		copied[key] = value
	}
	return copied
}

func orNull(raw json.RawMessage) json.RawMessage {
	if raw == nil {
		return json.RawMessage("null")
	}
	return raw
}

// kebab is a notification's name as a reason: accessRequestsChanged → access-requests-changed.
func kebab(method string) string {
	var out []byte
	for i := 0; i < len(method); i++ {
		if c := method[i]; c >= 'A' && c <= 'Z' {
			out = append(out, '-', c+'a'-'A')
		} else {
			out = append(out, c)
		}
	}
	return string(out)
}

package sesame

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// paramsError is the -32602 a client detects before sending (the daemon would answer the
// same).
func paramsError(method, message string) error {
	return &Error{Code: -32602, Reason: ErrInvalidParams, Message: method + " " + message,
		Data: map[string]json.RawMessage{"reason": json.RawMessage(`"invalid-params"`)}}
}

// count is how many of the conditions hold.
func count(conditions ...bool) int {
	n := 0
	for _, condition := range conditions {
		if condition {
			n++
		}
	}
	return n
}

// redacted prints params as name{field: value, …} with the secret fields' values left out.
func redacted(name string, params any, secrets ...string) string {
	encoded, err := json.Marshal(params)
	var fields map[string]json.RawMessage
	if err != nil || json.Unmarshal(encoded, &fields) != nil {
		return name + "{…}"
	}
	keys := make([]string, 0, len(fields))
	for key := range fields {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	hidden := map[string]bool{}
	for _, secret := range secrets {
		hidden[secret] = true
	}
	parts := make([]string, 0, len(keys))
	for _, key := range keys {
		if hidden[key] {
			parts = append(parts, key+": (hidden)")
		} else {
			parts = append(parts, fmt.Sprintf("%s: %s", key, fields[key]))
		}
	}
	return name + "{" + strings.Join(parts, ", ") + "}"
}

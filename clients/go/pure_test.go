package sesame

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSocketDiscovery(t *testing.T) {
	env := func(values map[string]string) func(string) string {
		return func(key string) string { return values[key] }
	}
	exists := func(path string) bool { return path == "/run/user/1000/sesame/sesamed.sock" }
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"SESAME_SOCKET": "/tmp/s.sock", "XDG_RUNTIME_DIR": "/run/user/1000"}, "/tmp/s.sock"},
		{map[string]string{"SESAME_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000/"}, "/run/user/1000/sesame/sesamed.sock"},
		{map[string]string{"XDG_RUNTIME_DIR": "/run/user/1001"}, SystemSocket},
		{map[string]string{}, SystemSocket},
	}
	for _, c := range cases {
		if got := resolveSocketPath(env(c.env), exists); got != c.want {
			t.Errorf("%v: %s, want %s", c.env, got, c.want)
		}
	}
}

func TestErrorsMatchTheirReasonAndClass(t *testing.T) {
	answer := `{"code":1000,"message":"That email has an account: sign in instead.",` +
		`"data":{"reason":"email-already-in-use","email":"ann@example.com","providerId":"password"}}`
	var w wireError
	if err := json.Unmarshal([]byte(answer), &w); err != nil {
		t.Fatal(err)
	}
	err := fmt.Errorf("creating the account: %w", w.err())
	if !errors.Is(err, ErrEmailAlreadyInUse) || !errors.Is(err, ErrAuthentication) {
		t.Fatalf("%v is not email-already-in-use and authentication", err)
	}
	if errors.Is(err, ErrCredentialAlreadyInUse) || errors.Is(err, ErrRetryLater) || errors.Is(err, ErrDaemonUnavailable) {
		t.Fatalf("%v matches another reason or class", err)
	}
	var sesameError *Error
	if !errors.As(err, &sesameError) || sesameError.Email() != "ann@example.com" || sesameError.ProviderID() != "password" {
		t.Fatalf("the data is not read: %#v", sesameError)
	}
	if ErrEmailAlreadyInUse.Code() != 1000 || ErrTooManyRequests.Code() != 2000 || ErrParseError.Code() != -32700 {
		t.Fatal("a reason's code is wrong")
	}
	retry := wireError{Code: 2000, Message: "later", Data: map[string]json.RawMessage{
		"reason": json.RawMessage(`"too-many-requests"`), "retryAfterMs": json.RawMessage(`1500`)}}.err()
	if ms, ok := retry.RetryAfterMs(); !ok || ms != 1500 || !errors.Is(retry, ErrRetryLater) {
		t.Fatalf("retryAfterMs %d %v", ms, ok)
	}
	lost := connectionLost("/tmp/s.sock", "getState")
	if !errors.Is(lost, ErrConnectionLost) || !errors.Is(lost, ErrDaemonUnavailable) || errors.Is(lost, ErrProtocol) {
		t.Fatal("connection-lost is daemon-unavailable and no protocol class")
	}
}

func TestSecondFactorErrorCarriesItsChallenge(t *testing.T) {
	answer := `{"code":1000,"message":"complete the sign-in","data":{"reason":"second-factor-required",` +
		`"challengeId":"sf-1","factors":[{"factorId":"f1","type":"totp","displayName":"Phone"}],"expiresAt":"2026-11-21T10:05:00Z"}}`
	var w wireError
	_ = json.Unmarshal([]byte(answer), &w)
	challenge := w.err().Challenge()
	if challenge == nil || challenge.ChallengeID != "sf-1" || len(challenge.Factors) != 1 || challenge.Factors[0].FactorID != "f1" {
		t.Fatalf("challenge %#v", challenge)
	}
	if (&Error{Code: 1000, Reason: ErrWeakPassword}).Challenge() != nil {
		t.Fatal("a challenge without challengeId")
	}
}

func TestRequestsAreOneLineWithoutEmptyParams(t *testing.T) {
	line, err := encodeRequest(7, "getState", nil)
	if err != nil || string(line) != `{"jsonrpc":"2.0","id":7,"method":"getState"}`+"\n" {
		t.Fatalf("%q %v", line, err)
	}
	line, _ = encodeRequest(8, "signOut", SignOutParams{})
	if string(line) != `{"jsonrpc":"2.0","id":8,"method":"signOut"}`+"\n" {
		t.Fatalf("%q", line)
	}
	line, _ = encodeRequest(9, "updateProfile", UpdateProfileParams{DisplayName: Null()})
	if string(line) != `{"jsonrpc":"2.0","id":9,"method":"updateProfile","params":{"displayName":null}}`+"\n" {
		t.Fatalf("%q", line)
	}
	_, err = encodeRequest(10, "signIn", SignInParams{Identifier: strings.Repeat("a", maxRequestLine)})
	if !errors.Is(err, ErrRequestTooLarge) || strings.Contains(err.Error(), "aaaa") {
		t.Fatalf("a long request: %v", err)
	}
	if _, err = encodeRequest(11, "signIn", []string{"x"}); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("params that are not an object: %v", err)
	}
}

func TestLinesOverTheLimitOrNotJSONAreInvalidResponses(t *testing.T) {
	read := func(text string) (*message, error) {
		return readMessage(bufio.NewReaderSize(strings.NewReader(text), 16), "/tmp/s.sock")
	}
	m, err := read("\n  \n" + `{"jsonrpc":"2.0","method":"userUpdated","params":{"sequence":3}}` + "\n")
	if err != nil || m.Method != "userUpdated" || m.ID != nil {
		t.Fatalf("%#v %v", m, err)
	}
	m, _ = read(`{"jsonrpc":"2.0","id":null,"error":{"code":4000,"message":"full","data":{"reason":"too-many-connections"}}}` + "\n")
	if string(m.ID) != "null" {
		t.Fatalf("a null id reads as %q", m.ID)
	}
	if _, err = read("[1,2]\n"); !errors.Is(err, ErrInvalidResponse) {
		t.Fatalf("an array: %v", err)
	}
	if _, err = read(`"` + strings.Repeat("x", maxResponseLine+1) + `"` + "\n"); !errors.Is(err, ErrInvalidResponse) {
		t.Fatalf("a long line: %v", err)
	}
}

func TestParamsRulesAreCheckedBeforeSending(t *testing.T) {
	if err := (ConfirmPasswordResetParams{NewPassword: "x"}).check(); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("neither link nor code: %v", err)
	}
	if err := (ConfirmPasswordResetParams{Code: "1", NewPassword: "x"}).check(); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("a code without email: %v", err)
	}
	if err := (ConfirmPasswordResetParams{Code: "1", Email: "a@b.c", NewPassword: "x"}).check(); err != nil {
		t.Fatal(err)
	}
	if err := (ReauthenticateParams{Password: "p", Code: "1"}).check(); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("both: %v", err)
	}
}

func TestSecretsNeverPrint(t *testing.T) {
	params := SignInParams{Identifier: "ann", Password: "correct horse battery"}
	token := IDToken{Token: "eyJhbGciOi.secret.sig", UID: "u1", ExpiresAt: time.Unix(0, 0).UTC()}
	for _, text := range []string{fmt.Sprint(params), fmt.Sprintf("%v %+v", params, &params), fmt.Sprint(token),
		fmt.Sprintf("%#v %v", token, &token)} {
		if strings.Contains(text, "horse") || strings.Contains(text, "secret") {
			t.Fatalf("a secret printed: %s", text)
		}
	}
	if !strings.Contains(fmt.Sprint(params), `identifier: "ann"`) {
		t.Fatalf("the rest is shown: %s", fmt.Sprint(params))
	}
}

func TestBackoffDoublesToTwoSecondsWithJitter(t *testing.T) {
	b := newBackoff()
	limits := []time.Duration{50, 100, 200, 400, 800, 1600, 2000, 2000}
	for _, limit := range limits {
		delay := b.next()
		if delay < limit*time.Millisecond/2 || delay > limit*time.Millisecond {
			t.Fatalf("delay %v outside %v…%v", delay, limit*time.Millisecond/2, limit*time.Millisecond)
		}
	}
	b.reset()
	if b.next() > 50*time.Millisecond {
		t.Fatal("reset starts over")
	}
}

// A state event this version does not know (a newer api/local-api.json marks it as advancing
// sequence) still moves the state: its fields are merged in, named after the event.
func TestANewStateEventMergesItsFields(t *testing.T) {
	stateEvents["accessRequestsChanged"] = true
	defer delete(stateEvents, "accessRequestsChanged")
	var tr tracker
	tr.connected("i1")
	if _, err := tr.snapshot(json.RawMessage(`{"status":"anonymous","user":null,"sequence":4,"accessRequests":[]}`), "snapshot"); err != nil {
		t.Fatal(err)
	}
	states, resync := tr.notification("accessRequestsChanged", json.RawMessage(`{"accessRequests":[{"requestId":"r1"}],"sequence":5}`))
	if resync || len(states) != 1 || states[0].Reason != "access-requests-changed" || states[0].Sequence != 5 ||
		len(states[0].AccessRequests) != 1 || states[0].Status != "anonymous" {
		t.Fatalf("%+v %v", states, resync)
	}
}

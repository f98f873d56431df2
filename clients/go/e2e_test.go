package sesame

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Against the real sesamed and sesame-emulator: the token, the state stream (snapshot then
// changes, across a daemon restart), typed errors, a guest upgraded, a merge acknowledged,
// and the RoundTripper with the daemon's tokens.

func TestDaemonGivesHelloStateAndTokens(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	hello, err := client.Hello(ctx)
	if err != nil || hello.Server != "sesamed" || hello.Role != "manager" || hello.Protocol != 1 || hello.Instance == "" {
		t.Fatalf("hello %+v %v", hello, err)
	}
	state, err := client.State(ctx)
	if err != nil || state.Status != "anonymous" || state.User == nil || !state.User.IsAnonymous {
		t.Fatalf("state %+v %v", state, err)
	}
	token, err := client.IDToken(ctx)
	if err != nil || token.UID != state.UID() || len(strings.Split(token.Token, ".")) != 3 {
		t.Fatalf("token %v %v", token, err)
	}
	if time.Until(token.ExpiresAt) < 5*time.Minute {
		t.Fatalf("a token valid for less than the default 300 s: %v", token.ExpiresAt)
	}
	forced, err := client.IDTokenWith(ctx, TokenOptions{ForceRefresh: true, MinValidity: time.Minute})
	if err != nil || forced.UID != state.UID() {
		t.Fatalf("forced %v %v", forced, err)
	}
}

func TestDaemonErrorsAreTypedByReason(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	email := uniqueEmail("go")
	theEmulator(t).createAccount(t, email, "correct horse battery")
	_, err := client.CreateAccount(ctx, CreateAccountParams{Email: email, Password: "another horse battery"})
	var sesameError *Error
	if !errors.Is(err, ErrEmailAlreadyInUse) || !errors.Is(err, ErrAuthentication) || !errors.As(err, &sesameError) ||
		sesameError.Code != 1000 || sesameError.Email() != email || strings.Contains(err.Error(), "horse") {
		t.Fatalf("createAccount: %v", err)
	}
	if _, err = client.SignOut(ctx, SignOutParams{}); !errors.Is(err, ErrRequiresResetConfirmation) ||
		!errors.Is(err, ErrWrongState) {
		t.Fatalf("signOut: %v", err)
	}
	if err = client.Call(ctx, "noSuchMethod", nil, nil); !errors.Is(err, ErrMethodNotFound) || !errors.Is(err, ErrProtocol) {
		t.Fatalf("noSuchMethod: %v", err)
	}
	if err = client.Call(ctx, "signIn", map[string]any{"identifier": 42}, nil); !errors.Is(err, ErrInvalidParams) {
		t.Fatalf("a bad param: %v", err)
	}
	if _, err = client.SignIn(ctx, SignInParams{Identifier: email, Password: "correct horse battery"}); err != nil {
		t.Fatal(err)
	}
	if _, err = client.SignOut(ctx, SignOutParams{Scope: "everywhere"}); !errors.Is(err, ErrOperationNotAllowed) {
		t.Fatalf("signOut everywhere on Firebase: %v", err)
	}
}

func TestSubscribeGivesTheSnapshotThenChangesAsTheGuestIsUpgraded(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	states, err := client.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := next(t, states, "the snapshot")
	if first.Reason != "snapshot" || first.Status != "anonymous" || first.UID() == "" {
		t.Fatalf("first %+v", first)
	}
	upgraded, err := client.CreateAccount(ctx, CreateAccountParams{Email: uniqueEmail("go"), Password: "correct horse battery"})
	if err != nil || upgraded.UID() != first.UID() || upgraded.User.IsAnonymous {
		t.Fatalf("createAccount %+v %v", upgraded, err)
	}
	linked := next(t, states, "linked")
	if linked.Reason != "linked" || linked.Status != "authenticated" || linked.UID() != first.UID() ||
		linked.Sequence != first.Sequence+1 {
		t.Fatalf("linked %+v after %d", linked, first.Sequence)
	}
	if _, err = client.IDTokenWith(ctx, TokenOptions{ForceRefresh: true}); err != nil {
		t.Fatal(err)
	}
	previous := linked
	for state := previous; state.Reason != "token-refreshed"; previous = state {
		state = next(t, states, "the refreshed token")
		if state.Sequence != previous.Sequence+1 {
			t.Fatalf("%s at %d after %d", state.Reason, state.Sequence, previous.Sequence)
		}
		if state.Reason == "token-refreshed" {
			break
		}
	}
}

func TestSubscribeGoesOnAcrossADaemonRestartWithNothingStaleOrTwice(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	states, err := client.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := next(t, states, "the snapshot")
	before, _ := client.Hello(ctx)
	d.restart()
	after, err := client.Hello(ctx)
	if err != nil || after.Instance == before.Instance {
		t.Fatalf("hello after the restart: %+v %v", after, err)
	}
	again := next(t, states, "the new instance's snapshot")
	if again.Reason != "snapshot" || again.UID() != first.UID() {
		t.Fatalf("after the restart %+v", again)
	}
	if _, err = client.SignOut(ctx, SignOutParams{Reset: true}); err != nil {
		t.Fatal(err)
	}
	changes := []State{again}
	for changes[len(changes)-1].Reason != "anonymous-created" {
		changes = append(changes, next(t, states, "anonymous-created"))
	}
	reasons := []string{}
	for i, state := range changes {
		reasons = append(reasons, state.Reason)
		if i > 0 && state.Sequence != changes[i-1].Sequence+1 {
			t.Fatalf("sequences not consecutive: %v", changes)
		}
	}
	if !strings.Contains(strings.Join(reasons, " "), "reset") || changes[len(changes)-1].UID() == first.UID() {
		t.Fatalf("reasons %v", reasons)
	}
	select {
	case extra := <-states:
		if extra.Sequence <= changes[len(changes)-1].Sequence {
			t.Fatalf("a state given again: %+v", extra)
		}
	default:
	}
}

func TestAMigratorGetsTheMergeOnceAndCompletesIt(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	email := uniqueEmail("merge")
	owner := theEmulator(t).createAccount(t, email, "secret-12")
	guest, err := client.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	result, err := client.SignIn(ctx, SignInParams{Identifier: email, Password: "secret-12"})
	if err != nil || result.Merge == nil || result.Merge.FromUID != guest.UID() || result.State.UID() != owner {
		t.Fatalf("signIn %+v %v", result, err)
	}
	merges, err := client.Merges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	merge := next(t, merges, "the pending merge")
	if merge.MergeID != result.Merge.MergeID || merge.ToUID != owner {
		t.Fatalf("merge %+v, signIn said %+v", merge, result.Merge)
	}
	guestToken, err := client.IDTokenWith(ctx, TokenOptions{UID: merge.FromUID})
	if err != nil || guestToken.UID != guest.UID() {
		t.Fatalf("the guest's token: %v %v", guestToken, err)
	}
	state, err := client.CompleteMerge(ctx, CompleteMergeParams{MergeID: merge.MergeID})
	if err != nil || len(state.PendingMerges) != 0 || state.UID() != owner {
		t.Fatalf("completeMerge %+v %v", state, err)
	}
	if _, err = client.CompleteMerge(ctx, CompleteMergeParams{MergeID: merge.MergeID}); !errors.Is(err, ErrNoSuchMerge) {
		t.Fatalf("a merge completed twice: %v", err)
	}
	waitUntil(t, "the guest account is deleted", func() bool { return !theEmulator(t).accountExists(t, guest.UID()) })
}

func TestTheHTTPClientSendsTheDaemonsTokenAndRetriesA401WithAFreshOne(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	var mu sync.Mutex
	var seen []string
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, r.Header.Get("Authorization"))
		if len(seen) == 1 {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		_, _ = io.WriteString(w, "ok")
	}))
	defer backend.Close()
	request, _ := http.NewRequestWithContext(ctx, http.MethodGet, backend.URL, nil)
	response, err := client.HTTPClient().Do(request)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(response.Body)
	response.Body.Close()
	token, _ := client.IDToken(ctx)
	if response.StatusCode != 200 || string(body) != "ok" || len(seen) != 2 || seen[1] != "Bearer "+token.Token ||
		!strings.HasPrefix(seen[0], "Bearer ey") {
		t.Fatalf("%d %q after %d requests", response.StatusCode, body, len(seen))
	}
}

func TestCallsReconnectAfterTheDaemonRestarts(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	before, err := client.Hello(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d.kill()
	if _, err = client.State(ctx); !errors.Is(err, ErrDaemonUnavailable) {
		t.Fatalf("with the daemon down: %v", err)
	}
	d.generation++
	d.launch()
	d.waitForStatus("anonymous")
	after, err := client.Hello(ctx)
	if err != nil || after.Instance == before.Instance {
		t.Fatalf("%+v %v", after, err)
	}
	client.Close()
	if _, err = client.State(ctx); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("after Close: %v", err)
	}
}

func TestManyCallsAtOnceShareOneConnectionBeyondTheInFlightLimit(t *testing.T) {
	d := startDaemon(t)
	client, ctx := d.client(), testContext(t)
	state, err := client.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3*maxInFlight)
	for i := 0; i < cap(errs); i++ {
		go func() {
			token, err := client.IDToken(ctx)
			if err == nil && token.UID != state.UID() {
				err = errors.New("a token of another uid: " + token.UID)
			}
			errs <- err
		}()
	}
	for i := 0; i < cap(errs); i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if client.current.nextID < uint64(cap(errs)+1) {
		t.Fatalf("the calls went over %d ids of one connection", client.current.nextID)
	}
}

func TestStreamsCloseWhenTheirContextEndsOrTheClientCloses(t *testing.T) {
	d := startDaemon(t)
	client := d.client()
	ctx, cancel := context.WithCancel(testContext(t))
	states, err := client.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	next(t, states, "the snapshot")
	cancel()
	for range states { // drains to the close
	}
	merges, err := client.Merges(testContext(t))
	if err != nil {
		t.Fatal(err)
	}
	client.Close()
	for range merges {
	}
	if _, err = client.Subscribe(testContext(t)); !errors.Is(err, ErrClientClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
}

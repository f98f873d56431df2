// Package sesame is the Go client of sesamed, the daemon that owns a Linux machine's
// sign-in session (Firebase Auth or Supabase Auth): ID tokens for calls to a backend, the
// session's state and its changes, and every method of the local API.
//
//	client := sesame.New(sesame.Options{})        // $SESAME_SOCKET, the user's socket, the system's
//	defer client.Close()
//	token, err := client.IDToken(ctx)              // "Authorization: Bearer " + token.Token
//	states, err := client.Subscribe(ctx)           // the current state first, then every change
//	for state := range states { … }
//
// Calls share one connection and are pipelined; a read (hello, getState, getIdToken,
// checkUsername) is sent once more on a new connection when the first closed before its
// answer. Errors the daemon answers with are *Error values carrying the protocol's code,
// reason and data; branch on them with errors.Is(err, sesame.ErrEmailAlreadyInUse) or on a
// class with errors.Is(err, sesame.ErrRetryLater). The methods in methods_gen_*.go and the
// reasons in reasons_gen.go are generated from api/local-api.json and docs/protocol.md by
// `go run ./internal/gen` (run from clients/go; `-check` fails while they are stale).
//
// The package uses the standard library only and builds with Go 1.19.
package sesame

// Command token prints who is signed in, then calls a backend with the machine's ID token
// and follows the session's changes until Ctrl-C:
//
//	go run ./examples/token https://example.com/api/me
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	sesame "github.com/sesame/sesame/clients/go"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	client := sesame.New(sesame.Options{}) // $SESAME_SOCKET, the user's socket, else the system's
	defer client.Close()

	token, err := client.IDToken(ctx)
	if errors.Is(err, sesame.ErrDaemonUnavailable) {
		fmt.Fprintln(os.Stderr, err) // says how to start sesamed
		os.Exit(1)
	} else if err != nil {
		fmt.Fprintln(os.Stderr, "no token:", err)
		os.Exit(1)
	}
	fmt.Printf("uid %s, token valid until %s\n", token.UID, token.ExpiresAt.Format("15:04:05"))

	if len(os.Args) > 1 { // the bearer is added, and a 401 retried once with a fresh token
		response, err := client.HTTPClient().Get(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		response.Body.Close()
		fmt.Println(os.Args[1], "answered", response.Status)
	}

	states, err := client.Subscribe(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for state := range states { // the current state first, then every change
		fmt.Printf("%d %s %s %s\n", state.Sequence, state.Reason, state.Status, state.UID())
	}
}

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
)

// fakeTokens gives "t1", then "t2", … counting the forced refreshes.
type fakeTokens struct {
	mu     sync.Mutex
	issued int
	forced int
	err    error
}

func (f *fakeTokens) IDTokenWith(_ context.Context, options TokenOptions) (*IDToken, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return nil, f.err
	}
	if options.ForceRefresh || f.issued == 0 {
		f.issued++
	}
	if options.ForceRefresh {
		f.forced++
	}
	return &IDToken{Token: "t" + string(rune('0'+f.issued)), UID: "u1"}, nil
}

// server answers 401 to every bearer but the accepted one, and records what it saw.
type server struct {
	mu       sync.Mutex
	accepted string
	seen     []string
	bodies   []string
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.seen = append(s.seen, r.Header.Get("Authorization"))
	s.bodies = append(s.bodies, string(body))
	accepted := s.accepted
	s.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+accepted {
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte("expired"))
		return
	}
	_, _ = w.Write([]byte("hello " + string(body)))
}

func TestTransportRetriesA401OnceAfterAForcedRefresh(t *testing.T) {
	backend := &server{accepted: "t2"}
	listener := httptest.NewServer(backend)
	defer listener.Close()
	tokens := &fakeTokens{}
	client := &http.Client{Transport: &Transport{Source: tokens}}
	request, _ := http.NewRequest(http.MethodPost, listener.URL, strings.NewReader("payload"))
	response, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(response.Body)
	response.Body.Close()
	if response.StatusCode != 200 || string(body) != "hello payload" {
		t.Fatalf("%d %q", response.StatusCode, body)
	}
	if strings.Join(backend.seen, ",") != "Bearer t1,Bearer t2" || strings.Join(backend.bodies, ",") != "payload,payload" {
		t.Fatalf("sent %v with %v", backend.seen, backend.bodies)
	}
	if tokens.forced != 1 || request.Header.Get("Authorization") != "" {
		t.Fatalf("forced %d; the caller's request changed: %v", tokens.forced, request.Header)
	}
}

func TestTransportGivesTheSecond401AndSendsOnceWithoutAProblem(t *testing.T) {
	backend := &server{accepted: "never"}
	listener := httptest.NewServer(backend)
	defer listener.Close()
	tokens := &fakeTokens{}
	client := &http.Client{Transport: &Transport{Source: tokens}}
	response, err := client.Get(listener.URL)
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()
	if response.StatusCode != 401 || len(backend.seen) != 2 || tokens.forced != 1 {
		t.Fatalf("%d after %v, %d forced", response.StatusCode, backend.seen, tokens.forced)
	}
	backend.accepted, backend.seen = "t2", nil
	response, err = client.Get(listener.URL)
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()
	if response.StatusCode != 200 || len(backend.seen) != 1 || tokens.forced != 1 {
		t.Fatalf("a request that passes is sent once: %v, %d forced", backend.seen, tokens.forced)
	}
}

func TestTransportDoesNotResendABodyItCannotReadAgain(t *testing.T) {
	backend := &server{accepted: "t2"}
	listener := httptest.NewServer(backend)
	defer listener.Close()
	client := &http.Client{Transport: &Transport{Source: &fakeTokens{}}}
	request, _ := http.NewRequest(http.MethodPost, listener.URL, io.NopCloser(strings.NewReader("once")))
	response, err := client.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()
	if response.StatusCode != 401 || len(backend.seen) != 1 {
		t.Fatalf("%d after %v", response.StatusCode, backend.seen)
	}
}

func TestTransportFailsWithTheTokenError(t *testing.T) {
	listener := httptest.NewServer(&server{})
	defer listener.Close()
	unavailable := clientError(ErrDaemonUnavailable, nil, "sesamed is not running")
	client := &http.Client{Transport: &Transport{Source: &fakeTokens{err: unavailable}}}
	_, err := client.Get(listener.URL)
	if !errors.Is(err, ErrDaemonUnavailable) {
		t.Fatalf("%v", err)
	}
}

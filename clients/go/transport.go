package sesame

import (
	"context"
	"io"
	"net/http"
)

// TokenSource gives ID tokens; *Client is one.
type TokenSource interface {
	IDTokenWith(ctx context.Context, options TokenOptions) (*IDToken, error)
}

// Transport is an http.RoundTripper that adds "Authorization: Bearer <ID token>" to each
// request and, when the server answers 401, sends the request once more with a freshly
// refreshed token (as the Python and Node clients' fetch helpers do). A request whose body
// cannot be read again (no GetBody) gets the first 401 as it is.
type Transport struct {
	// Source gives the tokens (a *Client).
	Source TokenSource
	// Base sends the requests; nil is http.DefaultTransport.
	Base http.RoundTripper
	// Options are passed to each token call (MinValidity 0 is the daemon's default, 300 s);
	// ForceRefresh is set for the second try only.
	Options TokenOptions
}

// HTTPClient is an http.Client whose requests carry this client's ID token (see Transport).
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{Transport: &Transport{Source: c}}
}

// RoundTrip sends the request with the bearer, and once more after a 401 with a forced
// refresh. It never changes the caller's request.
func (t *Transport) RoundTrip(request *http.Request) (*http.Response, error) {
	options := t.Options
	options.ForceRefresh = false
	response, err := t.send(request, options, false)
	if err != nil || response.StatusCode != http.StatusUnauthorized {
		return response, err
	}
	if request.Body != nil && request.Body != http.NoBody && request.GetBody == nil {
		return response, nil
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(response.Body, 64*1024))
	response.Body.Close()
	options.ForceRefresh = true
	return t.send(request, options, true)
}

// send sends a copy of the request with the bearer: the first time with the request's body,
// again with a new one from GetBody.
func (t *Transport) send(request *http.Request, options TokenOptions, again bool) (*http.Response, error) {
	token, err := t.Source.IDTokenWith(request.Context(), options)
	if err != nil {
		if !again {
			closeBody(request)
		}
		return nil, err
	}
	copied := request.Clone(request.Context())
	if again && request.Body != nil && request.Body != http.NoBody {
		if copied.Body, err = request.GetBody(); err != nil {
			return nil, err
		}
	}
	copied.Header.Set("Authorization", "Bearer "+token.Token)
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(copied)
}

// closeBody closes the request's body, as a RoundTripper must even when it fails.
func closeBody(request *http.Request) {
	if request.Body != nil {
		request.Body.Close()
	}
}

package sesame

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"sync"
	"time"
)

// Options configure a Client; the zero value is the usual one.
type Options struct {
	// Socket is the daemon's socket; "" resolves it as ResolveSocketPath does.
	Socket string
	// ClientName is sent in hello (default "sesame-client-go").
	ClientName string
}

// Client is a connection to sesamed, made on first use and made again after it closed. It is
// safe for concurrent use: calls share the connection and are pipelined. Each Subscribe has
// a connection of its own. Deadlines and cancellation come from each call's context.
type Client struct {
	socketPath string
	clientName string

	mu      sync.Mutex
	current *conn
	streams map[*conn]bool
	closed  bool
	done    chan struct{}
}

// New makes a Client; nothing connects until the first call.
func New(options Options) *Client {
	client := &Client{socketPath: options.Socket, clientName: options.ClientName, streams: map[*conn]bool{},
		done: make(chan struct{})}
	if client.socketPath == "" {
		client.socketPath = ResolveSocketPath()
	}
	if client.clientName == "" {
		client.clientName = "sesame-client-go"
	}
	return client
}

// SocketPath is the socket the client connects to.
func (c *Client) SocketPath() string { return c.socketPath }

// Close closes the connections: pending calls fail with ErrClientClosed, streams end
// (their channels close).
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.done)
	open := []*conn{}
	if c.current != nil {
		open = append(open, c.current)
	}
	for stream := range c.streams {
		open = append(open, stream)
	}
	c.mu.Unlock()
	for _, connection := range open {
		connection.close(closedError())
	}
	return nil
}

func closedError() *Error {
	return clientError(ErrClientClosed, nil, "this sesame.Client was closed")
}

// connection is the open shared connection, or a new one.
func (c *Client) connection(ctx context.Context) (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, closedError()
	}
	if c.current != nil && c.current.failed() == nil {
		return c.current, nil
	}
	connection, err := dial(ctx, c.socketPath, nil)
	if err != nil {
		return nil, err
	}
	c.current = connection
	return connection, nil
}

// Call sends any method of the protocol with params (any value that encodes as a JSON
// object, or nil) and decodes its result into result (a pointer, or nil to drop it). A read
// (retryable in api/local-api.json) is sent once more on a new connection when the first
// closed before its answer.
func (c *Client) Call(ctx context.Context, method string, params any, result any) error {
	for attempt := 0; ; attempt++ {
		connection, err := c.connection(ctx)
		if err != nil {
			return err
		}
		raw, err := connection.call(ctx, method, params)
		if err != nil {
			var lost *Error
			retry := attempt == 0 && retryableMethods[method] && errors.As(err, &lost) &&
				lost.Reason == ErrConnectionLost
			if retry {
				continue
			}
			return err
		}
		return decodeResult(raw, method, c.socketPath, result)
	}
}

func decodeResult(raw json.RawMessage, method, socketPath string, result any) error {
	if result == nil {
		return nil
	}
	if err := json.Unmarshal(raw, result); err != nil {
		return clientError(ErrInvalidResponse, err, "sesamed at %s answered %s with a result of another shape "+
			"than this client knows; check that the client and the daemon are of the same protocol", socketPath, method)
	}
	return nil
}

// Hello is who the daemon is (version, instance, backend) and which role it gives this caller.
func (c *Client) Hello(ctx context.Context) (*Hello, error) {
	var hello Hello
	if err := c.Call(ctx, "hello", map[string]string{"client": c.clientName}, &hello); err != nil {
		return nil, err
	}
	return &hello, nil
}

// State is the current state.
func (c *Client) State(ctx context.Context) (*State, error) {
	var state State
	if err := c.Call(ctx, "getState", nil, &state); err != nil {
		return nil, err
	}
	return &state, nil
}

// TokenOptions are getIdToken's params.
type TokenOptions struct {
	// MinValidity is how long the token must stay valid; 0 is the daemon's default (300 s).
	MinValidity time.Duration
	// ForceRefresh asks for a new token even when the held one is valid.
	ForceRefresh bool
	// UID names the fromUid of a pending merge (managers only) for that guest's token.
	UID string
}

// IDToken is an ID token valid for at least 300 seconds (a refresh when the held one is not):
// for "Authorization: Bearer " + token.Token.
func (c *Client) IDToken(ctx context.Context) (*IDToken, error) {
	return c.IDTokenWith(ctx, TokenOptions{})
}

// IDTokenWith is IDToken with getIdToken's params.
func (c *Client) IDTokenWith(ctx context.Context, options TokenOptions) (*IDToken, error) {
	params := map[string]any{}
	if options.MinValidity > 0 {
		params["minValidity"] = int64(math.Ceil(options.MinValidity.Seconds()))
	}
	if options.ForceRefresh {
		params["forceRefresh"] = true
	}
	if options.UID != "" {
		params["uid"] = options.UID
	}
	var token IDToken
	if err := c.Call(ctx, "getIdToken", params, &token); err != nil {
		return nil, err
	}
	return &token, nil
}

// openStream is a connection of a stream's own, tracked so that Close ends it.
func (c *Client) openStream(ctx context.Context, notify func(string, json.RawMessage)) (*conn, error) {
	connection, err := dial(ctx, c.socketPath, notify)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		connection.close(closedError())
		return nil, closedError()
	}
	c.streams[connection] = true
	return connection, nil
}

func (c *Client) closeStream(connection *conn) {
	connection.close(nil)
	c.mu.Lock()
	delete(c.streams, connection)
	c.mu.Unlock()
}

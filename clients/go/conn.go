package sesame

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"sync"
)

// conn is one connection to sesamed: requests pipelined by id (at most maxInFlight in
// flight, the daemon's limit; more wait for a slot), answers matched by id in any order,
// notifications handed to notify on the reading goroutine, in the order they arrived. When
// it ends, every pending call fails with the reason.
type conn struct {
	path   string
	socket net.Conn
	notify func(method string, params json.RawMessage)

	writing sync.Mutex
	slots   chan struct{}
	done    chan struct{}

	mu      sync.Mutex
	nextID  uint64
	pending map[uint64]pendingCall // sent and not answered, abandoned ones too: the daemon counts them
	failure *Error
}

type pendingCall struct {
	method string
	answer chan answer
}

type answer struct {
	result json.RawMessage
	err    error
}

// dial connects; ErrDaemonUnavailable says what to do next, naming the socket.
func dial(ctx context.Context, path string, notify func(string, json.RawMessage)) (*conn, error) {
	var dialer net.Dialer
	socket, err := dialer.DialContext(ctx, "unix", path)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, connectError(err, path)
	}
	c := &conn{path: path, socket: socket, notify: notify, slots: make(chan struct{}, maxInFlight),
		done: make(chan struct{}), pending: map[uint64]pendingCall{}}
	go c.read()
	return c, nil
}

// call sends one request and waits for its result. A caller that gives up (ctx) leaves its
// slot taken until the daemon answers, as the daemon still counts the request.
func (c *conn) call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	select {
	case c.slots <- struct{}{}:
	case <-c.done:
		return nil, c.closedError(method)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	c.mu.Lock()
	if c.failure != nil {
		c.mu.Unlock()
		<-c.slots
		return nil, c.closedError(method)
	}
	c.nextID++
	id := c.nextID
	line, err := encodeRequest(id, method, params)
	if err != nil {
		c.mu.Unlock()
		<-c.slots
		return nil, err
	}
	waiting := pendingCall{method: method, answer: make(chan answer, 1)}
	c.pending[id] = waiting
	c.mu.Unlock()

	c.writing.Lock()
	deadline, _ := ctx.Deadline() // a daemon that stops reading fails the write at the caller's deadline
	_ = c.socket.SetWriteDeadline(deadline)
	_, err = c.socket.Write(line)
	c.writing.Unlock()
	if err != nil {
		c.fail(nil)
	}
	select {
	case got := <-waiting.answer:
		return got.result, got.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (c *conn) closedError(method string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.failure != nil && c.failure.Reason != ErrConnectionLost {
		return c.failure
	}
	return connectionLost(c.path, method)
}

// close ends the connection; pending calls fail with err (ErrConnectionLost when nil).
func (c *conn) close(err *Error) { c.fail(err) }

func (c *conn) read() {
	reader := bufio.NewReaderSize(c.socket, 64*1024)
	for {
		m, err := readMessage(reader, c.path)
		if err != nil {
			var failure *Error
			if !errors.Is(err, io.EOF) && !errors.As(err, &failure) {
				failure = nil
			}
			c.fail(failure)
			return
		}
		c.dispatch(m)
	}
}

func (c *conn) dispatch(m *message) {
	if m.ID == nil {
		if m.Method != "" && c.notify != nil {
			c.notify(m.Method, m.Params)
		}
		return
	}
	var id uint64
	if string(m.ID) == "null" || json.Unmarshal(m.ID, &id) != nil {
		if m.Error != nil { // about the whole connection (too-many-connections)
			c.fail(m.Error.err())
		}
		return
	}
	c.mu.Lock()
	waiting, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		return
	}
	<-c.slots
	if m.Error != nil {
		waiting.answer <- answer{err: m.Error.err()}
	} else {
		waiting.answer <- answer{result: m.Result}
	}
}

// fail ends the connection once, with err; nil means it closed (each call is told which
// answer it lost).
func (c *conn) fail(err *Error) {
	c.mu.Lock()
	if c.failure != nil {
		c.mu.Unlock()
		return
	}
	c.failure = err
	if err == nil {
		c.failure = connectionLost(c.path, "")
	}
	pending := c.pending
	c.pending = map[uint64]pendingCall{}
	c.mu.Unlock()
	c.socket.Close()
	close(c.done)
	for _, waiting := range pending {
		if err != nil {
			waiting.answer <- answer{err: err}
		} else {
			waiting.answer <- answer{err: connectionLost(c.path, waiting.method)}
		}
	}
}

// failed is the error that ended the connection (nil while open).
func (c *conn) failed() *Error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failure
}

package sesame

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand"
	"time"
)

// Subscribe gives the current state first (Reason "snapshot"), then every change, in
// sequence order, on a connection of its own. When the connection closes (a daemon restart,
// a crash) it connects again with backoff and goes on: within one daemon instance it gives a
// state only when it is newer than the last one given, so nothing arrives stale or twice; a
// restarted daemon (a new instance) starts over with its snapshot. A lost notification is
// repaired with getState (Reason "resynchronized").
//
// The error is the first connection's (the daemon is not running, the role is too low); the
// channel closes when ctx ends or the Client is closed. Read it steadily: a subscriber whose
// unread notifications pass 1 MiB is disconnected by the daemon (and then reconnects).
func (c *Client) Subscribe(ctx context.Context) (<-chan State, error) {
	return follow[State](ctx, c, &stateLogic{})
}

// Merges gives each pending merge once, as a migrator (managers only): those pending when it
// subscribes, then each new one, across reconnections. Move the guest's data (a token for it:
// IDTokenWith(ctx, TokenOptions{UID: merge.FromUID})), then CompleteMerge.
func (c *Client) Merges(ctx context.Context) (<-chan Merge, error) {
	return follow[Merge](ctx, c, &mergeLogic{given: map[string]bool{}})
}

// streamLogic is what a stream does with what arrives; the loop around it is follow's.
type streamLogic[T any] interface {
	subscribeParams() map[string]any
	connected(instance string)
	snapshot(state json.RawMessage) ([]T, error)
	notification(method string, params json.RawMessage) ([]T, bool)
	resynced(state json.RawMessage) ([]T, bool)
}

type stateLogic struct{ tracker tracker }

func (s *stateLogic) subscribeParams() map[string]any { return nil }
func (s *stateLogic) connected(instance string)       { s.tracker.connected(instance) }
func (s *stateLogic) snapshot(state json.RawMessage) ([]State, error) {
	return s.tracker.snapshot(state, "snapshot")
}
func (s *stateLogic) notification(method string, params json.RawMessage) ([]State, bool) {
	return s.tracker.notification(method, params)
}
func (s *stateLogic) resynced(state json.RawMessage) ([]State, bool) {
	return s.tracker.resynced(state)
}

type mergeLogic struct{ given map[string]bool }

func (m *mergeLogic) subscribeParams() map[string]any {
	return map[string]any{"events": []string{"accountMerge"}, "migrator": true}
}
func (m *mergeLogic) connected(string) {}
func (m *mergeLogic) snapshot(raw json.RawMessage) ([]Merge, error) {
	var state struct{ PendingMerges []Merge }
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	return m.offer(state.PendingMerges...), nil
}
func (m *mergeLogic) notification(method string, raw json.RawMessage) ([]Merge, bool) {
	var params struct{ Merge *Merge }
	if method != "accountMerge" || json.Unmarshal(raw, &params) != nil || params.Merge == nil {
		return nil, false
	}
	return m.offer(*params.Merge), false
}
func (m *mergeLogic) resynced(json.RawMessage) ([]Merge, bool) { return nil, false }

func (m *mergeLogic) offer(merges ...Merge) []Merge {
	var fresh []Merge
	for _, merge := range merges {
		if merge.MergeID != "" && !m.given[merge.MergeID] {
			m.given[merge.MergeID] = true
			fresh = append(fresh, merge)
		}
	}
	return fresh
}

type note struct {
	method string
	params json.RawMessage
}

// attachment is one subscribed connection of a stream.
type attachment struct {
	conn  *conn
	notes chan note
	stop  chan struct{}
}

func (a *attachment) end(c *Client) {
	close(a.stop)
	c.closeStream(a.conn)
}

// attach connects, says hello, and subscribes.
func attach[T any](ctx context.Context, c *Client, logic streamLogic[T]) (*attachment, []T, error) {
	a := &attachment{notes: make(chan note, 64), stop: make(chan struct{})}
	notify := func(method string, params json.RawMessage) {
		select {
		case a.notes <- note{method, params}:
		case <-a.stop:
		}
	}
	connection, err := c.openStream(ctx, notify)
	if err != nil {
		return nil, nil, err
	}
	a.conn = connection
	var hello Hello
	raw, err := connection.call(ctx, "hello", map[string]string{"client": c.clientName})
	if err == nil {
		err = decodeResult(raw, "hello", c.socketPath, &hello)
	}
	var subscribed struct{ State json.RawMessage }
	if err == nil {
		logic.connected(hello.Instance)
		raw, err = connection.call(ctx, "subscribe", logic.subscribeParams())
	}
	if err == nil {
		err = decodeResult(raw, "subscribe", c.socketPath, &subscribed)
	}
	var items []T
	if err == nil {
		if items, err = logic.snapshot(subscribed.State); err != nil {
			err = clientError(ErrInvalidResponse, err, "sesamed at %s answered subscribe without a state", c.socketPath)
		}
	}
	if err != nil {
		a.end(c)
		return nil, nil, err
	}
	return a, items, nil
}

type resyncAnswer struct {
	conn  *conn
	state json.RawMessage
}

func follow[T any](ctx context.Context, c *Client, logic streamLogic[T]) (<-chan T, error) {
	current, items, err := attach(ctx, c, logic)
	if err != nil {
		return nil, err
	}
	out := make(chan T)
	go func() {
		stopped := make(chan struct{})
		defer close(out)
		defer close(stopped)
		defer func() {
			if current != nil {
				current.end(c)
			}
		}()
		resyncs := make(chan resyncAnswer)
		resync := func(connection *conn) {
			raw, err := connection.call(ctx, "getState", nil)
			if err != nil {
				raw = nil
			}
			select {
			case resyncs <- resyncAnswer{connection, raw}:
			case <-stopped:
			}
		}
		backoff := newBackoff()
		for {
			for _, item := range items {
				select {
				case out <- item:
				case <-ctx.Done():
					return
				case <-c.done:
					return
				}
			}
			items = nil
			again := false
			select {
			case n := <-current.notes:
				items, again = logic.notification(n.method, n.params)
			case answer := <-resyncs:
				if answer.conn == current.conn {
					items, again = logic.resynced(answer.state)
				}
			case <-current.conn.done:
				items = drain(current, logic)
				current.end(c)
				current = nil
				var more []T
				if current, more = reattach(ctx, c, logic, backoff); current == nil {
					return
				}
				items = append(items, more...)
			case <-ctx.Done():
				return
			case <-c.done:
				return
			}
			if again {
				go resync(current.conn)
			}
		}
	}()
	return out, nil
}

// drain gives what arrived before the connection closed (the reader queued it first).
func drain[T any](a *attachment, logic streamLogic[T]) []T {
	var items []T
	for {
		select {
		case n := <-a.notes:
			more, _ := logic.notification(n.method, n.params)
			items = append(items, more...)
		default:
			return items
		}
	}
}

// reattach connects again with backoff until it is subscribed, ctx ends or the client is
// closed (then nil).
func reattach[T any](ctx context.Context, c *Client, logic streamLogic[T], b *backoff) (*attachment, []T) {
	for {
		timer := time.NewTimer(b.next())
		select {
		case <-timer.C:
		case <-ctx.Done():
			timer.Stop()
			return nil, nil
		case <-c.done:
			timer.Stop()
			return nil, nil
		}
		a, items, err := attach(ctx, c, logic)
		if err == nil {
			b.reset()
			return a, items
		}
		if errors.Is(err, ErrClientClosed) || ctx.Err() != nil {
			return nil, nil
		}
	}
}

// backoff is the reconnection delay: 50 ms doubling to 2 s, each times a random 0.5…1.0.
type backoff struct {
	current time.Duration
	random  *rand.Rand
}

const (
	backoffInitial = 50 * time.Millisecond
	backoffMaximum = 2 * time.Second
)

func newBackoff() *backoff {
	return &backoff{current: backoffInitial, random: rand.New(rand.NewSource(time.Now().UnixNano()))}
}

func (b *backoff) next() time.Duration {
	delay := b.current
	if b.current *= 2; b.current > backoffMaximum {
		b.current = backoffMaximum
	}
	return time.Duration(float64(delay) * (0.5 + b.random.Float64()/2))
}

func (b *backoff) reset() { b.current = backoffInitial }

package sesame

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"path/filepath"
	"sync"
	"testing"
)

// proxy forwards a socket to the daemon's, line by line from the daemon, dropping the
// notifications of the method named in drop.
type proxy struct {
	path    string
	mu      sync.Mutex
	drop    string
	dropped int
}

func startProxy(t *testing.T, target string) *proxy {
	p := &proxy{path: filepath.Join(t.TempDir(), "p.sock")}
	listener, err := net.Listen("unix", p.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { listener.Close() })
	go func() {
		for {
			client, err := listener.Accept()
			if err != nil {
				return
			}
			daemon, err := net.Dial("unix", target)
			if err != nil {
				client.Close()
				continue
			}
			go func() {
				_, _ = io.Copy(daemon, client)
				daemon.Close()
			}()
			go p.forward(daemon, client)
		}
	}()
	return p
}

func (p *proxy) forward(daemon, client net.Conn) {
	defer client.Close()
	lines := bufio.NewReaderSize(daemon, maxResponseLine+2)
	for {
		line, err := lines.ReadBytes('\n')
		if err != nil {
			return
		}
		var m struct{ Method string }
		_ = json.Unmarshal(line, &m)
		p.mu.Lock()
		drop := m.Method != "" && m.Method == p.drop
		if drop {
			p.dropped++
		}
		p.mu.Unlock()
		if !drop {
			if _, err := client.Write(line); err != nil {
				return
			}
		}
	}
}

func (p *proxy) dropping(method string) {
	p.mu.Lock()
	p.drop = method
	p.mu.Unlock()
}

func TestALostNotificationIsRepairedWithGetState(t *testing.T) {
	d := startDaemon(t)
	p := startProxy(t, d.socket)
	direct, ctx := d.client(), testContext(t)
	client := New(Options{Socket: p.path})
	defer client.Close()
	states, err := client.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := next(t, states, "the snapshot")
	p.dropping("authStateChanged")
	if _, err = direct.SignOut(ctx, SignOutParams{Reset: true}); err != nil {
		t.Fatal(err)
	}
	latest, err := direct.State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seen := []State{first}
	for seen[len(seen)-1].Sequence < latest.Sequence {
		seen = append(seen, next(t, states, "the repaired state"))
	}
	repaired := false
	for i, state := range seen {
		repaired = repaired || state.Reason == "resynchronized"
		if i > 0 && state.Sequence <= seen[i-1].Sequence {
			t.Fatalf("out of order or twice: %d after %d", state.Sequence, seen[i-1].Sequence)
		}
	}
	p.mu.Lock()
	dropped := p.dropped
	p.mu.Unlock()
	if !repaired || dropped == 0 || seen[len(seen)-1].UID() != latest.UID() {
		t.Fatalf("repaired %v after %d dropped; ended at %s, want %s", repaired, dropped, seen[len(seen)-1].UID(), latest.UID())
	}
}

package sesame

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// The end-to-end tests start the built sesame-emulator and sesamed on temporary paths and
// free ports, as the Python and Node clients' harnesses do. The binaries come from
// $SESAME_BIN_DIR, else the repository's .build/debug.

const project = "demo-project"

var sharedEmulator *emulator

func TestMain(m *testing.M) {
	code := m.Run()
	if sharedEmulator != nil {
		sharedEmulator.stop()
	}
	os.Exit(code)
}

func binary(t *testing.T, name string) string {
	t.Helper()
	directory := os.Getenv("SESAME_BIN_DIR")
	if directory == "" {
		directory = filepath.Join("..", "..", ".build", "debug")
	}
	path, err := filepath.Abs(filepath.Join(directory, name))
	if err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode()&0o111 == 0 {
		t.Fatalf("%s is missing: build it (swift build --product %s) or set SESAME_BIN_DIR", path, name)
	}
	return path
}

// waitUntil polls a readiness condition (a process starting up), bounded; not for ordering
// events.
func waitUntil(t *testing.T, what string, condition func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !condition() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type emulator struct {
	process        *exec.Cmd
	auth, database string
}

// theEmulator is the emulator the tests share, started by the first test that needs it.
func theEmulator(t *testing.T) *emulator {
	t.Helper()
	if sharedEmulator != nil {
		return sharedEmulator
	}
	process := exec.Command(binary(t, "sesame-emulator"), "--auth-port", "0", "--database-port", "0", "--project", project)
	stdout, err := process.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := process.Start(); err != nil {
		t.Fatal(err)
	}
	ports := make(chan [2]string, 4)
	go func() {
		listening := regexp.MustCompile(`(auth|database) listening on http://[^:]+:(\d+)`)
		lines := bufio.NewScanner(stdout)
		for lines.Scan() {
			if match := listening.FindStringSubmatch(lines.Text()); match != nil {
				ports <- [2]string{match[1], "127.0.0.1:" + match[2]}
			}
		}
		close(ports)
	}()
	e := &emulator{process: process}
	for e.auth == "" || e.database == "" {
		select {
		case port, ok := <-ports:
			if !ok {
				t.Fatal("sesame-emulator exited before it listened")
			}
			if port[0] == "auth" {
				e.auth = port[1]
			} else {
				e.database = port[1]
			}
		case <-time.After(30 * time.Second):
			t.Fatal("sesame-emulator did not print its ports")
		}
	}
	sharedEmulator = e
	return e
}

func (e *emulator) stop() {
	_ = e.process.Process.Kill()
	_ = e.process.Wait()
}

func (e *emulator) request(t *testing.T, path string, body any, owner bool) map[string]any {
	t.Helper()
	encoded, _ := json.Marshal(body)
	request, _ := http.NewRequest(http.MethodPost, "http://"+e.auth+path, bytes.NewReader(encoded))
	request.Header.Set("Content-Type", "application/json")
	if owner {
		request.Header.Set("Authorization", "Bearer owner")
	}
	response, err := http.DefaultClient.Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	var answer map[string]any
	_ = json.NewDecoder(response.Body).Decode(&answer)
	return answer
}

func (e *emulator) createAccount(t *testing.T, email, password string) string {
	answer := e.request(t, "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test",
		map[string]any{"email": email, "password": password, "returnSecureToken": true}, false)
	uid, _ := answer["localId"].(string)
	if uid == "" {
		t.Fatalf("the emulator made no account: %v", answer)
	}
	return uid
}

func (e *emulator) accountExists(t *testing.T, uid string) bool {
	answer := e.request(t, "/identitytoolkit.googleapis.com/v1/projects/"+project+"/accounts:lookup",
		map[string]any{"localId": []string{uid}}, true)
	users, _ := answer["users"].([]any)
	return len(users) > 0
}

// daemon is sesamed against the emulator, with its socket, keyring and config in a short
// temporary folder; the test's cleanup stops it.
type daemon struct {
	t          *testing.T
	directory  string
	socket     string
	process    *exec.Cmd
	generation int
}

func startDaemon(t *testing.T) *daemon {
	t.Helper()
	e := theEmulator(t)
	directory, err := os.MkdirTemp("/tmp", "god-")
	if err != nil {
		t.Fatal(err)
	}
	d := &daemon{t: t, directory: directory, socket: filepath.Join(directory, "s.sock")}
	config := fmt.Sprintf("[firebase]\napi_key = \"go-key\"\nproject_id = %q\nauth_emulator_host = %q\n"+
		"database_emulator_host = %q\n[socket]\npath = %q\n", project, e.auth, e.database, d.socket)
	if err := os.WriteFile(filepath.Join(directory, "sesamed.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		d.kill()
		os.RemoveAll(directory)
	})
	d.launch()
	d.waitForStatus("anonymous")
	return d
}

func (d *daemon) launch() {
	log, err := os.Create(filepath.Join(d.directory, fmt.Sprintf("sesamed.%d.err", d.generation)))
	if err != nil {
		d.t.Fatal(err)
	}
	defer log.Close()
	d.process = exec.Command(binary(d.t, "sesamed"), "--config", filepath.Join(d.directory, "sesamed.toml"),
		"--state-dir", filepath.Join(d.directory, "state"), "--log-level", "debug")
	d.process.Stderr = log
	if err := d.process.Start(); err != nil {
		d.t.Fatal(err)
	}
}

func (d *daemon) client() *Client {
	client := New(Options{Socket: d.socket})
	d.t.Cleanup(func() { client.Close() })
	return client
}

func (d *daemon) waitForStatus(status string) {
	probe := New(Options{Socket: d.socket})
	defer probe.Close()
	waitUntil(d.t, "sesamed reports "+status, func() bool {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		state, err := probe.State(ctx)
		if err != nil && !errors.Is(err, ErrDaemonUnavailable) {
			d.t.Fatalf("sesamed: %v", err)
		}
		return err == nil && state.Status == status
	})
}

func (d *daemon) kill() {
	if d.process != nil && d.process.ProcessState == nil {
		_ = d.process.Process.Kill()
		_ = d.process.Wait()
	}
}

// restart kills sesamed (no goodbye) and starts it again on the same keyring.
func (d *daemon) restart() {
	d.kill()
	d.generation++
	d.launch()
	d.waitForStatus("anonymous")
}

func uniqueEmail(prefix string) string {
	random := make([]byte, 5)
	_, _ = rand.Read(random)
	return prefix + "-" + hex.EncodeToString(random) + "@example.com"
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// next is the next value of a stream, failing the test when none comes.
func next[T any](t *testing.T, values <-chan T, what string) T {
	t.Helper()
	select {
	case value, ok := <-values:
		if !ok {
			t.Fatalf("the stream ended before %s", what)
		}
		return value
	case <-time.After(30 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
	panic("unreachable")
}

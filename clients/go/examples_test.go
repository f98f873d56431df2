package sesame

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The example, compiled and run against the real daemon: it prints the uid, calls a server
// with the bearer, then the stream's snapshot, and ends cleanly on Ctrl-C.
func TestTheTokenExampleRunsAgainstTheDaemon(t *testing.T) {
	d := startDaemon(t)
	ctx := testContext(t)
	state, err := d.client().State(ctx)
	if err != nil {
		t.Fatal(err)
	}
	program := filepath.Join(t.TempDir(), "token")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", program, "./examples/token")
	if output, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/token: %v\n%s", err, output)
	}
	authorized := make(chan string, 1)
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		authorized <- r.Header.Get("Authorization")
	}))
	defer backend.Close()

	run := exec.Command(program, backend.URL)
	run.Env = append(os.Environ(), "SESAME_SOCKET="+d.socket)
	stdout, _ := run.StdoutPipe()
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		scanner := bufio.NewScanner(stdout)
		for scanner.Scan() {
			lines <- scanner.Text()
		}
		close(lines)
	}()
	var output []string
	for len(output) < 3 {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("the example ended early: %v", output)
			}
			output = append(output, line)
		case <-time.After(30 * time.Second):
			t.Fatalf("the example printed only %v", output)
		}
	}
	if !strings.HasPrefix(output[0], "uid "+state.UID()+",") || !strings.HasSuffix(output[1], "answered 200 OK") ||
		!strings.Contains(output[2], " snapshot anonymous "+state.UID()) {
		t.Fatalf("the example printed %v", output)
	}
	if bearer := <-authorized; !strings.HasPrefix(bearer, "Bearer ey") {
		t.Fatal("the example sent no bearer")
	}
	_ = run.Process.Signal(os.Interrupt)
	for range lines {
	}
	if err := run.Wait(); err != nil {
		t.Fatalf("the example did not end cleanly on Ctrl-C: %v", err)
	}
}

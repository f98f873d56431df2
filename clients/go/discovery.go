package sesame

import (
	"os"
	"strings"
)

// SystemSocket is the system instance's socket.
const SystemSocket = "/run/sesame/sesamed.sock"

// UserSocket is the user instance's socket under runtimeDirectory ($XDG_RUNTIME_DIR).
func UserSocket(runtimeDirectory string) string {
	return strings.TrimRight(runtimeDirectory, "/") + "/sesame/sesamed.sock"
}

// ResolveSocketPath decides where the daemon's socket is, as sesamectl and the Swift, Python
// and Node clients do: $SESAME_SOCKET when set and not empty, else the user instance's socket
// when it exists, else the system one.
func ResolveSocketPath() string {
	return resolveSocketPath(os.Getenv, func(path string) bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

func resolveSocketPath(getenv func(string) string, exists func(string) bool) string {
	if path := getenv("SESAME_SOCKET"); path != "" {
		return path
	}
	if runtime := getenv("XDG_RUNTIME_DIR"); runtime != "" {
		if candidate := UserSocket(runtime); exists(candidate) {
			return candidate
		}
	}
	return SystemSocket
}

// Command gen writes the generated files of the Go client from the two descriptions the
// other clients generate theirs from: api/local-api.json (the methods, their params and
// results, the reads a client may send again, the notifications that advance sequence) and
// the error table of docs/protocol.md (the reasons). Run it from clients/go after either
// changes:
//
//	go run ./internal/gen          # writes reasons_gen.go, api_gen.go, methods_gen_*.go
//	go run ./internal/gen -check   # writes nothing; exits 1 while a file is stale
//
// A new method needs no hand edit: its params become a struct, its result the type of the
// same name (json.RawMessage for a result type this generator does not know).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	check := flag.Bool("check", false, "write nothing; exit 1 while a generated file is stale")
	flag.Parse()
	root, err := findRoot()
	if err == nil {
		err = run(root, *check)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// findRoot is the repository's root: the first folder up from here holding
// api/local-api.json and clients/go/go.mod.
func findRoot() (string, error) {
	directory, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		_, api := os.Stat(filepath.Join(directory, "api", "local-api.json"))
		_, module := os.Stat(filepath.Join(directory, "clients", "go", "go.mod"))
		if api == nil && module == nil {
			return directory, nil
		}
		parent := filepath.Dir(directory)
		if parent == directory {
			return "", errors.New("no api/local-api.json with clients/go/go.mod above the working directory")
		}
		directory = parent
	}
}

// render is every generated file (its name in clients/go and its text).
func render(root string) (map[string][]byte, error) {
	api, err := readAPI(filepath.Join(root, "api", "local-api.json"))
	if err != nil {
		return nil, err
	}
	table, err := os.ReadFile(filepath.Join(root, "docs", "protocol.md"))
	if err != nil {
		return nil, err
	}
	reasons, err := readReasons(string(table))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	if files["reasons_gen.go"], err = renderReasons(reasons); err != nil {
		return nil, err
	}
	if files["api_gen.go"], err = renderAPI(api); err != nil {
		return nil, err
	}
	chunks, err := renderMethods(api)
	if err != nil {
		return nil, err
	}
	for i, chunk := range chunks {
		files[fmt.Sprintf("methods_gen_%d.go", i+1)] = chunk
	}
	return files, nil
}

// stale names the files that differ from what render gives, and generated files that should
// not be there.
func stale(root string) ([]string, map[string][]byte, error) {
	files, err := render(root)
	if err != nil {
		return nil, nil, err
	}
	directory := filepath.Join(root, "clients", "go")
	var names []string
	for name, text := range files {
		if current, err := os.ReadFile(filepath.Join(directory, name)); err != nil || !bytes.Equal(current, text) {
			names = append(names, name)
		}
	}
	extra, err := filepath.Glob(filepath.Join(directory, "methods_gen_*.go"))
	if err != nil {
		return nil, nil, err
	}
	for _, path := range extra {
		if _, ok := files[filepath.Base(path)]; !ok {
			names = append(names, filepath.Base(path))
		}
	}
	sort.Strings(names)
	return names, files, nil
}

func run(root string, check bool) error {
	names, files, err := stale(root)
	if err != nil {
		return err
	}
	if check {
		if len(names) > 0 {
			return fmt.Errorf("stale: %v; run `go run ./internal/gen` in clients/go", names)
		}
		return nil
	}
	directory := filepath.Join(root, "clients", "go")
	for _, name := range names {
		path := filepath.Join(directory, name)
		text, ok := files[name]
		if !ok {
			if err := os.Remove(path); err != nil {
				return err
			}
			continue
		}
		if err := os.WriteFile(path, text, 0o644); err != nil {
			return err
		}
	}
	return nil
}

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeCommands returns every arbor command of README.md's ```sh blocks,
// as argument lists (backslash continuations joined, comments dropped;
// "go run ./cmd/arbor ARGS" counts as "arbor ARGS").
func readmeCommands(t *testing.T, readme string) [][]string {
	t.Helper()
	var out [][]string
	for _, b := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(readme, -1) {
		text := strings.ReplaceAll(b[1], "\\\n", " ")
		for _, line := range strings.Split(text, "\n") {
			if k := strings.Index(line, " #"); k >= 0 {
				line = line[:k]
			}
			f := strings.Fields(line)
			switch {
			case len(f) > 1 && f[0] == "arbor":
				out = append(out, f[1:])
			case len(f) > 3 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/arbor":
				out = append(out, f[3:])
			}
		}
	}
	return out
}

// readmeCheaper lists the README commands the test runs with smaller
// settings, to keep the package's tests fast: the full commands differ only
// in size, not in the code they exercise.
var readmeCheaper = map[string][]string{
	"bench --sizes 2000,8000": {"bench", "--sizes", "300"},
	"demo":                    {"demo", "--quick"},
}

// TestREADMECommands runs every arbor command of README.md through run(),
// from a scratch directory holding the repository files the commands read
// (so no command needs a file a fresh clone lacks, such as ../shared), and
// fails on any error: the README's examples stay runnable as written.
func TestREADMECommands(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds := readmeCommands(t, string(b))
	if len(cmds) < 10 {
		t.Fatalf("found %d arbor commands in README.md", len(cmds))
	}
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range cmds {
		line := strings.Join(args, " ")
		if c, ok := readmeCheaper[line]; ok {
			args = c
		}
		// Inputs the command names that live in the repository.
		for _, a := range args {
			for _, p := range []string{a, strings.TrimPrefix(a, "--data=")} {
				if strings.Contains(p, "..") || filepath.IsAbs(p) {
					t.Errorf("arbor %s: path %q outside the repository", line, p)
					continue
				}
				if st, err := os.Stat(filepath.Join(root, p)); err == nil && !st.IsDir() && filepath.Dir(p) != "." {
					os.MkdirAll(filepath.Dir(p), 0o755)
					data, _ := os.ReadFile(filepath.Join(root, p))
					os.WriteFile(p, data, 0o644)
				}
			}
		}
		var so, se bytes.Buffer
		start := time.Now()
		err := run(context.Background(), append(args, quietFor(args)...), &so, &se)
		t.Logf("%5.1fs arbor %s", time.Since(start).Seconds(), strings.Join(args, " "))
		if err != nil {
			t.Errorf("arbor %s: %v\n%s", line, err, se.String())
		}
	}
}

// quietFor adds --quiet where the command has it (progress would only
// clutter the test log).
func quietFor(args []string) []string {
	switch args[0] {
	case "cluster", "kernel", "classify", "eval", "svc":
		for _, a := range args {
			if a == "--quiet" || a == "--json" && args[0] == "eval" {
				return nil
			}
		}
		return []string{"--quiet"}
	}
	return nil
}

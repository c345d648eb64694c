package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
)

// transcript is an arbor command of the manual with the output the page
// quotes for it: the commands run before it (setup: those of the same sh
// block, such as the classify that saves the model a predict reads), its
// arguments and the lines it must print.
type transcript struct {
	file  string
	line  int
	setup [][]string
	args  []string
	want  []string
}

// fence is one fenced block of a Markdown page: its info string (sh,
// text, go or empty), its lines and the page line of its first line.
type fence struct {
	info  string
	lines []string
	line  int
	after bool // the block follows the previous block with only blank lines between
}

// fences returns the fenced blocks of a Markdown text in order.
func fences(text string) []fence {
	var out []fence
	var cur *fence
	gap := true
	for i, l := range strings.Split(text, "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "```"):
			cur = &fence{info: strings.TrimSpace(strings.TrimPrefix(l, "```")), line: i + 2, after: !gap && len(out) > 0}
		case cur != nil && strings.TrimSpace(l) == "```":
			out = append(out, *cur)
			cur = nil
			gap = false
		case cur != nil:
			cur.lines = append(cur.lines, l)
		case strings.TrimSpace(l) != "":
			gap = true
		}
	}
	return out
}

// transcriptArgs returns the arbor arguments of a command line ("arbor
// ARGS" or "go run ./cmd/arbor ARGS", a trailing comment dropped), or nil.
func transcriptArgs(line string) []string {
	if k := strings.Index(line, " #"); k >= 0 {
		line = line[:k]
	}
	f := strings.Fields(line)
	switch {
	case len(f) > 1 && f[0] == "arbor":
		return f[1:]
	case len(f) > 3 && f[0] == "go" && f[1] == "run" && f[2] == "./cmd/arbor":
		return f[3:]
	}
	return nil
}

// joinContinued joins lines ending in a backslash with the next.
func joinContinued(lines []string) []string {
	var out []string
	cur := ""
	for _, l := range lines {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// wantLines keeps a quoted output's lines that must appear: "..." and
// "…" stand for lines left out.
func wantLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		if s := strings.TrimSpace(l); s == "" || s == "..." || s == "…" {
			continue
		}
		out = append(out, strings.TrimRight(l, " "))
	}
	return out
}

// pageTranscripts returns a page's transcripts, in two forms:
//
//   - a ```text block of "$ arbor ARGS" lines, each followed by the lines
//     it prints;
//   - a ```sh block followed at once by a ```text (or bare ```) block: the
//     second holds lines the last arbor command of the first prints or
//     writes to its --out file; the sh block's other arbor commands run
//     before it.
func pageTranscripts(file, text string) []transcript {
	var out []transcript
	blocks := fences(text)
	for i, b := range blocks {
		if b.info != "text" && b.info != "" {
			continue
		}
		if i > 0 && b.after && blocks[i-1].info == "sh" {
			var cmds [][]string
			for _, l := range joinContinued(blocks[i-1].lines) {
				if args := transcriptArgs(l); args != nil {
					cmds = append(cmds, args)
				}
			}
			if len(cmds) > 0 {
				out = append(out, transcript{file: file, line: b.line, setup: cmds[:len(cmds)-1],
					args: cmds[len(cmds)-1], want: wantLines(b.lines)})
				continue
			}
		}
		var cur *transcript
		for k, l := range joinContinued(b.lines) {
			if strings.HasPrefix(l, "$ ") {
				if cur != nil {
					out = append(out, *cur)
					cur = nil
				}
				if args := transcriptArgs(strings.TrimPrefix(l, "$ ")); args != nil {
					cur = &transcript{file: file, line: b.line + k, args: args}
				}
				continue
			}
			if cur != nil {
				cur.want = append(cur.want, wantLines([]string{l})...)
			}
		}
		if cur != nil {
			out = append(out, *cur)
		}
	}
	return out
}

// manualTranscripts returns the transcripts of README.md and docs/*.md.
func manualTranscripts(t *testing.T, root string) []transcript {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(docs)
	var out []transcript
	for _, f := range append([]string{filepath.Join(root, "README.md")}, docs...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		out = append(out, pageTranscripts(rel, string(b))...)
	}
	return out
}

// outFile is the file a command writes its main output to (--out FILE),
// or "" for standard output.
func outFile(args []string) string {
	for i, a := range args {
		if a == "--out" && i+1 < len(args) && args[i+1] != "-" {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, "--out="); ok && v != "-" {
			return v
		}
	}
	return ""
}

// TestManualTranscripts runs every command whose output README.md or a
// docs/*.md page quotes and checks that it prints each quoted line (on
// standard output, on standard error, as its error "arbor: …", or in its
// --out file), and that it fails exactly when the page quotes an error
// line "arbor: …": the outputs the manual shows are the outputs a reader
// gets.
func TestManualTranscripts(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ts := manualTranscripts(t, root)
	if len(ts) < 6 {
		t.Fatalf("found %d transcripts in README.md and docs/*.md", len(ts))
	}
	start := time.Now()
	for _, tr := range ts {
		t.Run(fmt.Sprintf("%s:%d", tr.file, tr.line), func(t *testing.T) {
			t.Chdir(t.TempDir())
			for _, args := range append(tr.setup, tr.args) {
				stageInputs(t, root, args)
			}
			for _, args := range tr.setup {
				var so, se bytes.Buffer
				if err := run(t.Context(), append(args, quietFor(args)...), &so, &se); err != nil {
					t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, se.String())
				}
			}
			var so, se bytes.Buffer
			code := mainExit(tr.args, &so, &se, make(chan os.Signal, 1), func(int) { t.Error("forced exit") })
			got := map[string]bool{}
			add := func(text string) {
				for _, l := range strings.Split(text, "\n") {
					got[strings.TrimRight(l, " ")] = true
				}
			}
			add(so.String())
			add(se.String())
			if f := outFile(tr.args); f != "" && code == 0 {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatalf("arbor %s: %v", strings.Join(tr.args, " "), err)
				}
				add(string(b))
			}
			wantErr := false
			for _, w := range tr.want {
				wantErr = wantErr || strings.HasPrefix(w, "arbor: ")
			}
			if (code != 0) != wantErr {
				t.Errorf("arbor %s: exit status %d, but the page quotes %s", strings.Join(tr.args, " "), code,
					map[bool]string{true: "an error line", false: "no error line"}[wantErr])
			}
			for _, w := range tr.want {
				if !got[w] {
					t.Errorf("arbor %s does not print the line the page quotes:\n%s\nit printed:\n%s%s",
						strings.Join(tr.args, " "), w, so.String(), se.String())
				}
			}
		})
	}
	t.Logf("%d transcripts in %.1fs", len(ts), time.Since(start).Seconds())
}

// TestPageTranscripts checks the parser on a page of each form.
func TestPageTranscripts(t *testing.T) {
	page := "text\n\n```sh\narbor classify --data a.csv \\\n    --save-model m.arbor\narbor predict --model m.arbor --out p.csv # labels\n```\n```\nrow,label\n...\n0,x\n```\n\n" +
		"```text\n$ arbor cluster --data iris --max-memory 0.4\narbor: usage: bad\n$ ls\n$ arbor eval --data iris\n```\n\n```sh\narbor kernel --data iris\n```\n\nprose\n\n```text\nnot output\n```\n"
	got := pageTranscripts("p.md", page)
	want := []transcript{
		{file: "p.md", line: 9, setup: [][]string{{"classify", "--data", "a.csv", "--save-model", "m.arbor"}},
			args: []string{"predict", "--model", "m.arbor", "--out", "p.csv"}, want: []string{"row,label", "0,x"}},
		{file: "p.md", line: 15, args: []string{"cluster", "--data", "iris", "--max-memory", "0.4"}, want: []string{"arbor: usage: bad"}},
		{file: "p.md", line: 18, args: []string{"eval", "--data", "iris"}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("pageTranscripts:\n got %v\nwant %v", got, want)
	}
}

// manualPictures are the pictures of docs/img with the command of the
// manual that draws each (its picture flag's value is P; the HiBUST tree
// of gauss9, whose run takes seconds, is left out).
var manualPictures = map[string][]string{
	"docs/img/cluster_iris.png": {"cluster", "--data", "iris", "--linkage", "average", "--clusters", "3", "--plot", "P"},
	"docs/img/classify_moons_hibust.png": {"classify", "--data", "examples/two_moons_10_labels.csv", "--label", "moon", "--id", "id",
		"--scale", "minmax", "--learner", "hibust", "--restarts", "10", "--theta", "0.9", "--seed", "1", "--out", "pred.csv", "--plot", "P"},
	"docs/img/svc_moons_bsv.png": {"svc", "--data", "two_moons", "--q", "20", "--C", "0.0028", "--out", "labels.csv", "--plot", "P"},
}

// TestManualPictures: the pictures the manual shows are, byte for byte,
// those its commands draw now (pictures are the same bytes on every run).
// The pictures were drawn on amd64; elsewhere the compiler may fuse
// multiply-adds, which can move an anti-aliased pixel.
func TestManualPictures(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the manual's pictures were drawn on amd64")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for img, args := range manualPictures {
		want, err := os.ReadFile(filepath.Join(root, img))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(img, func(t *testing.T) {
			t.Chdir(t.TempDir())
			stageInputs(t, root, args)
			args := append([]string(nil), args...)
			for i, a := range args {
				if a == "P" {
					args[i] = filepath.Base(img)
				}
			}
			var so, se bytes.Buffer
			if err := run(t.Context(), append(args, "--quiet"), &so, &se); err != nil {
				t.Fatalf("arbor %s: %v\n%s", strings.Join(args, " "), err, se.String())
			}
			got, err := os.ReadFile(filepath.Base(img))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("arbor %s draws another picture than %s (%d bytes, the manual's %d): redraw it with that command",
					strings.Join(args, " "), img, len(got), len(want))
			}
		})
	}
}

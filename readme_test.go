package arbor_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// TestREADMESnippet: the README's library snippet (its ```go block) is the
// body of Example in example_test.go, verbatim, so it compiles, runs and
// prints what its // Output: says.
func TestREADMESnippet(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```go\n(.*?)```").FindAllStringSubmatch(string(readme), -1)
	if len(blocks) != 1 {
		t.Fatalf("README has %d ```go blocks, want 1", len(blocks))
	}
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)\nfunc Example\(\) \{\n(.*?)\n\t// Output:`).FindStringSubmatch(string(src))
	if m == nil {
		t.Fatal("example_test.go has no func Example with an // Output: comment")
	}
	var body []string
	for _, line := range strings.Split(m[1], "\n") {
		body = append(body, strings.TrimPrefix(line, "\t"))
	}
	want := strings.Join(body, "\n") + "\n"
	if got := blocks[0][1]; got != want {
		t.Errorf("README snippet differs from Example's body; paste this into README.md:\n%s", want)
	}
}

// manualFiles returns README.md, CHANGELOG.md and docs/*.md.
func manualFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md", "CHANGELOG.md"}, docs...)
}

// TestREADMEFrontPage: the README is the manual's front page — at most 250
// lines, with the two commands a fresh clone needs — and neither it nor the
// manual names issue numbers, sessions or the machine's load (a number is
// stated with the command that measures it, not the circumstances of one run).
func TestREADMEFrontPage(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(readme), "\n"); n > 250 {
		t.Errorf("README.md has %d lines, want at most 250 (the rest belongs in docs/)", n)
	}
	sh := strings.Join(regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllString(string(readme), -1), "\n")
	for _, c := range []string{"go run ./cmd/arbor demo", "go test ./..."} {
		if !strings.Contains(sh, c) {
			t.Errorf("README.md has no %q in a sh block", c)
		}
	}
	issue := regexp.MustCompile(`(?i)issue\s*#?[0-9]|\bsession\b|\bload (average|~|≈|[0-9])`)
	for _, f := range manualFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if issue.MatchString(line) {
				t.Errorf("%s:%d names an issue number, a session or the machine's load: %s", f, i+1, line)
			}
		}
	}
}

// TestManualLinks: every relative link of README.md, CHANGELOG.md and
// docs/*.md names a file of the repository and, with a #fragment into a
// Markdown file, one of its headings (GitHub's anchors: lower case,
// punctuation dropped, spaces as hyphens).
func TestManualLinks(t *testing.T) {
	fence := regexp.MustCompile("(?s)```.*?```")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading := regexp.MustCompile(`(?m)^#+\s+(.*)$`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		a := map[string]bool{}
		if b, err := os.ReadFile(path); err == nil {
			seen := map[string]int{}
			for _, m := range heading.FindAllStringSubmatch(fence.ReplaceAllString(string(b), ""), -1) {
				s := slug(m[1])
				if n := seen[s]; n > 0 {
					a[fmt.Sprintf("%s-%d", s, n)] = true
				} else {
					a[s] = true
				}
				seen[s]++
			}
		}
		anchors[path] = a
		return a
	}
	for _, f := range manualFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(fence.ReplaceAllString(string(b), ""), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			resolved := f
			if path != "" {
				resolved = filepath.Join(filepath.Dir(f), path)
				if _, err := os.Stat(resolved); err != nil {
					t.Errorf("%s: link %s: no such file", f, target)
					continue
				}
			}
			if frag != "" && strings.HasSuffix(resolved, ".md") && !anchorsOf(resolved)[frag] {
				t.Errorf("%s: link %s: no heading with that anchor in %s", f, target, resolved)
			}
		}
	}
}

// slug is GitHub's anchor of a heading: code marks dropped, lower case,
// letters, digits, '-', '_' and spaces kept, spaces as hyphens.
func slug(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(strings.ReplaceAll(h, "`", ""))) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

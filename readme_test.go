package arbor_test

import (
	"os"
	"regexp"
	"strings"
	"testing"
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

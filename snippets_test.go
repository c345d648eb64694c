package arbor_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// snippetPrelude declares, for a ```go block of the manual (page#n, the
// n-th block of the page), the variables it uses without defining them:
// the data a reader already has. Every block also has ctx.
var snippetPrelude = map[string]string{
	"docs/library.md#6":         "var X, Xt *mat.Dense; var y []int",
	"docs/library.md#7":         "var ds *dataset.Dataset",
	"docs/library.md#8":         "var ds *dataset.Dataset; var s clustering.Settings; var c clustering.Cost; var r *clustering.Result; var err error",
	"docs/model-selection.md#1": "var ds *dataset.Dataset",
	"docs/probabilities.md#1":   "var ds *dataset.Dataset; var Xtest, Xnew *mat.Dense",
	"docs/svc.md#1":             "var X, grid *mat.Dense; var w io.Writer",
}

// snippetImports are the packages a snippet may name besides the
// module's own: by the name it uses.
var snippetImports = map[string]string{
	"context": "context",
	"fmt":     "fmt",
	"io":      "io",
	"log":     "log",
	"math":    "math",
	"mat":     "gonum.org/v1/gonum/mat",
}

// goSnippet is one ```go block of the manual.
type goSnippet struct {
	key  string // page#n
	body string
}

func manualGoSnippets(t *testing.T) []goSnippet {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(pages)
	var out []goSnippet
	for _, p := range pages {
		if p == filepath.Join("docs", "beam.md") { // the beam module's API: checked in beam/
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range regexp.MustCompile("(?s)\n```go\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
			out = append(out, goSnippet{key: fmt.Sprintf("%s#%d", filepath.ToSlash(p), i+1), body: m[1]})
		}
	}
	return out
}

// TestManualGoSnippets type-checks every ```go block of docs/*.md (beam.md
// aside) against the module's current API, as the body of a func main
// with ctx and the block's snippetPrelude declared: a renamed function,
// field or type, or a changed signature, fails here rather than in a
// reader's program. (The README's block is Example's body:
// TestREADMESnippet.) Variables a block declares and leaves unused are
// not errors here: the blocks show calls, not whole programs.
func TestManualGoSnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list -export")
	}
	snips := manualGoSnippets(t)
	if len(snips) < 10 {
		t.Fatalf("found %d ```go blocks in docs/*.md", len(snips))
	}
	used := map[string]bool{}
	srcs, err := filepath.Glob("*/*.go")
	if err != nil {
		t.Fatal(err)
	}
	module := map[string]string{} // package name → import path: the module's top-level packages
	for _, f := range srcs {
		if name := filepath.Dir(f); !strings.HasSuffix(f, "_test.go") && name != "cmd" && name != "bench" {
			module[name] = "github.com/arbor-ml/arbor/" + name
		}
	}
	fset := token.NewFileSet()
	type file struct {
		key  string
		src  string
		ast  *ast.File
		deps []string
	}
	var files []file
	need := map[string]bool{}
	for _, s := range snips {
		used[s.key] = true
		body := "ctx := context.Background()\n_ = ctx\n" + snippetPrelude[s.key] + "\n" + s.body
		// The packages the block names: the identifiers the parser cannot
		// resolve in the file, which are a known package's name.
		probe, err := parser.ParseFile(fset, s.key, "package main\nfunc main() {\n"+body+"\n}\n", 0)
		if err != nil {
			t.Errorf("%s: %v", s.key, err)
			continue
		}
		imports := map[string]bool{"context": true}
		for _, id := range probe.Unresolved {
			if _, ok := module[id.Name]; ok {
				imports[module[id.Name]] = true
			} else if p, ok := snippetImports[id.Name]; ok {
				imports[p] = true
			}
		}
		var deps []string
		var src strings.Builder
		src.WriteString("package main\n\nimport (\n")
		for p := range imports {
			deps = append(deps, p)
		}
		sort.Strings(deps)
		for _, p := range deps {
			fmt.Fprintf(&src, "\t%q\n", p)
			need[p] = true
		}
		src.WriteString(")\n\nfunc main() {\n" + body + "\n}\n")
		f, err := parser.ParseFile(fset, s.key, src.String(), 0)
		if err != nil {
			t.Errorf("%s: %v", s.key, err)
			continue
		}
		files = append(files, file{key: s.key, src: src.String(), ast: f, deps: deps})
	}
	for k := range snippetPrelude {
		if !used[k] {
			t.Errorf("snippetPrelude names a block the manual no longer has: %s", k)
		}
	}
	export := exportData(t, need)
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		f, ok := export[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(f)
	})
	for _, f := range files {
		var errs []string
		conf := types.Config{Importer: imp, Error: func(err error) {
			if te, ok := err.(types.Error); ok && strings.Contains(te.Msg, "declared and not used") {
				return
			}
			errs = append(errs, err.Error())
		}}
		conf.Check("main", fset, []*ast.File{f.ast}, nil)
		if len(errs) > 0 {
			t.Errorf("%s does not compile against the current API (line numbers count the prelude: imports, ctx and snippetPrelude):\n%s\n%s",
				f.key, strings.Join(errs, "\n"), f.src)
		}
	}
}

// exportData returns the compiler's export data file of each package of
// need and of their dependencies (go list -export).
func exportData(t *testing.T, need map[string]bool) map[string]string {
	t.Helper()
	args := []string{"list", "-export", "-deps", "-json=ImportPath,Export"}
	for p := range need {
		args = append(args, p)
	}
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	export := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		export[p.ImportPath] = p.Export
	}
	return export
}

// snippetExamples names the ```go blocks of the manual that are the body
// of an Example function (file and name), verbatim, // Output: included:
// go test runs them and checks what they print.
var snippetExamples = map[string][2]string{
	"docs/library.md#4": {"pipeline/cost_example_test.go", "ExampleCost"},
}

// TestManualExampleSnippets: each block of snippetExamples is its
// Example's body, so the output the page quotes is the output go test
// checks.
func TestManualExampleSnippets(t *testing.T) {
	blocks := map[string]string{}
	for _, s := range manualGoSnippets(t) {
		blocks[s.key] = s.body
	}
	for key, ex := range snippetExamples {
		block, ok := blocks[key]
		if !ok {
			t.Errorf("snippetExamples names a block the manual no longer has: %s", key)
			continue
		}
		src, err := os.ReadFile(ex[0])
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`(?s)\nfunc ` + ex[1] + `\(\) \{\n(.*?)\n\}\n`).FindStringSubmatch(string(src))
		if m == nil {
			t.Errorf("%s has no func %s", ex[0], ex[1])
			continue
		}
		var body []string
		for _, line := range strings.Split(m[1], "\n") {
			body = append(body, strings.TrimPrefix(line, "\t"))
		}
		if want := strings.Join(body, "\n") + "\n"; block != want {
			t.Errorf("%s differs from %s's body in %s; paste this into the page:\n%s", key, ex[1], ex[0], want)
		}
	}
}

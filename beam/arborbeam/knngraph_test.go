package arborbeam_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
)

// TestKNNGraphEqualsArborGraph: the graph computed by blocks (blocks of
// 97 rows, so 11 × 11 tasks) is arbor graph's, line for line, on data
// with tied distances and repeated rows (the lower row wins ties).
func TestKNNGraphEqualsArborGraph(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("x,y,label\n")
	n := 1000
	for i := 0; i < n; i++ {
		// A grid (many equal distances), some rows repeated.
		x, y := (i*7)%23, (i*11)%19
		if i%50 == 3 {
			x, y = 5, 5
		}
		fmt.Fprintf(&b, "%d,%d.5,c%d\n", x, y, i%2)
	}
	data := filepath.Join(dir, "grid.csv")
	os.WriteFile(data, []byte(b.String()), 0o644)
	want := filepath.Join(dir, "edges.csv")
	arbor(t, "graph", "--data", data, "--k", "6", "--out", want, "--quiet")
	opt := arborbeam.GraphOptions{Data: data, K: 6, Block: 97, CSV: dataset.CSVOptions{LabelOptional: true, AllowMissing: true}}
	out := arborbeam.NewOutput(filepath.Join(dir, "beam"))
	nb := (n + 96) / 97
	if err := runPipeline(t, func(s beam.Scope) {
		arborbeam.Finalize(s, arborbeam.WriteGraph(s, arborbeam.KNNGraph(s, opt, n), out, nb), out)
	}); err != nil {
		t.Fatal(err)
	}
	wantText, _ := os.ReadFile(want)
	wantLines := strings.Split(strings.TrimSpace(string(wantText)), "\n")
	var got []string
	for q := 0; q < nb; q++ {
		text, err := os.ReadFile(filepath.Join(out.Dir, arborbeam.GraphPartName(q, nb)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(text)), "\n")
		if lines[0] != wantLines[0] {
			t.Fatalf("block %d header %q, want %q", q, lines[0], wantLines[0])
		}
		got = append(got, lines[1:]...)
	}
	if len(got) != len(wantLines)-1 {
		t.Fatalf("%d edges, arbor graph %d", len(got), len(wantLines)-1)
	}
	for i, l := range got {
		if l != wantLines[i+1] {
			t.Fatalf("edge %d: %q, arbor graph %q", i, l, wantLines[i+1])
		}
	}
}

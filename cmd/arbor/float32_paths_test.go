package main

import (
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/pipeline"
)

// TestFloat32ClusterKernels: classify with the cluster kernels in float32
// (kernel.Build32) writes the same prediction file as with float64, for
// svm (C = 1, 100) and knn, transductively and with --test
// through the tree rule. Two moons, 200 rows: the float32 tree is the
// float64 one (no near-tied distances) and the kernel entries move by
// ≤ 2e-7 of max|K|, far inside these labellings' margins.
func TestFloat32ClusterKernels(t *testing.T) {
	dir := t.TempDir()
	train, test := moonsFiles(t, dir)
	for _, k := range []string{"hck:average", "hck:ward", "hckg:average", "connectivity"} {
		for _, l := range [][]string{{"--learner", "svm"}, {"--learner", "svm", "--C", "100"}, {"--learner", "knn", "--k", "3"}} {
			for _, withTest := range []bool{false, true} {
				args := append([]string{"classify", "--data", train, "--kernel", k, "--quiet"}, l...)
				if withTest {
					args = append(args, "--test", test)
				}
				p64, p32 := filepath.Join(dir, "p64.csv"), filepath.Join(dir, "p32.csv")
				mustArbor(t, append(args, "--out", p64)...)
				mustArbor(t, append(args, "--out", p32, "--float32")...)
				a, _ := os.ReadFile(p64)
				b, _ := os.ReadFile(p32)
				if string(a) != string(b) || len(a) == 0 {
					t.Errorf("%v: --float32 predictions differ from float64", args)
				}
			}
		}
	}
	_, _, err := arbor(t, "classify", "--data", train, "--test", test, "--kernel", "hck:average", "--extension", "linear", "--float32", "--out", filepath.Join(dir, "p.csv"))
	if err == nil || !strings.Contains(err.Error(), "--extension linear needs the float64 kernel") {
		t.Errorf("--extension linear with --float32: %v", err)
	}
}

// TestEvalFloat32: eval --float32 builds each kernel in float32 and gives
// the float64 run's accuracies, row for row in the same order (JSON
// records without the timings), on the embedded two moons and wine; kNN
// on the connectivity kernel may move one row (see below).
func TestEvalFloat32(t *testing.T) {
	for _, c := range []struct {
		data, kernels, learners string
		records                 int
	}{
		{"two_moons", "rbf,hck:average,connectivity", "svm,knn", 2 * 3 * 2},
		{"wine", "rbf,hck:ward,hckg:average", "svm,knn", 2 * 3 * 2},
		{"two_moons", "rbf,laplacian:gamma=1", "lp,spreading", 2 * 2 * 2},
	} {
		data := c.data
		args := []string{"eval", "--data", data, "--labeled-per-class", "5", "--repeats", "2", "--kernel", c.kernels, "--learner", c.learners, "--json", "--quiet"}
		if strings.Contains(c.learners, "lp") {
			args = append(args, "--affinity", "kernel")
		}
		a := mustArbor(t, args...)
		b := mustArbor(t, append(args, "--float32")...)
		ra, rb := evalRecords(t, a), evalRecords(t, b)
		if len(ra) != c.records || len(ra) != len(rb) {
			t.Fatalf("%s: %d and %d records", data, len(ra), len(rb))
		}
		for i := range ra {
			if ra[i] == rb[i] {
				continue
			}
			// kNN on the single-linkage kernel ranks an ultrametric: ties
			// everywhere, kept as ties on float32 by knn's 2⁻²⁰ quantum
			// except where rounding moves a d² across a quantum boundary
			// (one row of 390 on two moons split 0).
			ca, cb := correctOf(t, ra[i]), correctOf(t, rb[i])
			if !(strings.Contains(ra[i], `"knn1_connectivity"`) && math.Abs(ca-cb) <= 1) {
				t.Errorf("%s record %d: float64 %s, float32 %s", data, i, ra[i], rb[i])
			}
		}
	}
	_, _, err := arbor(t, "eval", "--data", "two_moons", "--labeled-per-class", "5", "--kernel", "isomap", "--float32")
	if err == nil || !strings.Contains(err.Error(), "--float32 takes point kernels and hck") {
		t.Errorf("eval isomap --float32: %v", err)
	}
}

// correctOf reads "correct" from an eval --json record.
func correctOf(t *testing.T, rec string) float64 {
	t.Helper()
	_, v, ok := strings.Cut(rec, `"correct":`)
	if !ok {
		t.Fatalf("no correct in %s", rec)
	}
	v, _, _ = strings.Cut(v, ",")
	x, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// evalRecords returns eval --json's lines without the timing fields.
func evalRecords(t *testing.T, out string) []string {
	t.Helper()
	var recs []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var kept []string
		for _, f := range strings.Split(line, ",") {
			if !strings.Contains(f, `"fit_s"`) && !strings.Contains(f, `"kernel_s"`) {
				kept = append(kept, f)
			}
		}
		recs = append(recs, strings.Join(kept, ","))
	}
	return recs
}

// TestClusterFloat32SharedSets: cluster --float32 on three of the shared
// sets (embedded wine, two moons, gauss9), every linkage: the same merges
// and sizes as the float64 run, heights within 8·2⁻²⁴ relative (the
// float32 rounding of the distances and of each update, see hclust), the
// same cut labels. (On iris, whose one-decimal features make float64
// distances differ by 1e-16 where the exact ones tie, float32 ties them
// and the trees differ: see the README.)
func TestClusterFloat32SharedSets(t *testing.T) {
	dir := t.TempDir()
	for _, data := range []string{"wine", "two_moons", "gauss9"} {
		for _, m := range []string{"single", "complete", "average", "weighted", "ward", "centroid", "median"} {
			z64, z32 := filepath.Join(dir, "z64.csv"), filepath.Join(dir, "z32.csv")
			l64, l32 := filepath.Join(dir, "l64.csv"), filepath.Join(dir, "l32.csv")
			args := []string{"cluster", "--data", data, "--linkage", m, "--clusters", "3", "--quiet"}
			mustArbor(t, append(args, "--linkage-out", z64, "--out", l64)...)
			mustArbor(t, append(args, "--linkage-out", z32, "--out", l32, "--float32")...)
			a, b := readFloats(t, z64), readFloats(t, z32)
			if len(a) != len(b) || len(a) == 0 {
				t.Fatalf("%s %s: %d and %d linkage rows", data, m, len(a), len(b))
			}
			for i := range a {
				if a[i][0] != b[i][0] || a[i][1] != b[i][1] || a[i][3] != b[i][3] ||
					math.Abs(a[i][2]-b[i][2]) > 8*0x1p-24*a[i][2] {
					t.Fatalf("%s %s: linkage row %d float64 %v, float32 %v", data, m, i, a[i], b[i])
				}
			}
			la, _ := os.ReadFile(l64)
			lb, _ := os.ReadFile(l32)
			if string(la) != string(lb) {
				t.Errorf("%s %s: cut labels differ", data, m)
			}
		}
	}
}

func readFloats(t *testing.T, path string) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := make([][]float64, len(rows))
	for i, r := range rows {
		for _, v := range r {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = append(out[i], x)
		}
	}
	return out
}

// TestFloat32MemoryErrors runs the --float32 memory table over the
// commands that hold an N×N matrix: under a --max-memory the float64 run
// exceeds, the one-line error gives the size needed and names --float32
// (with its size) exactly where --float32 is accepted for that path; and
// where it is named, the same command with --float32 runs within the same
// budget. Where it is not, the error still names an option that fits
// (--landmarks), and --float32 itself is refused with a usage error or
// has no N×N matrix to shrink.
func TestFloat32MemoryErrors(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir) // 200 rows: 8N² = 313 KiB
	out := filepath.Join(dir, "o.csv")
	cl := func(a ...string) []string {
		return append([]string{"classify", "--data", train, "--out", out}, a...)
	}
	for _, c := range []struct {
		args    []string
		budget  string
		f32     bool   // --float32 is named and works within the budget
		other   string // another option the message names
		refused string // with --float32: this usage error ("" when f32)
	}{
		{[]string{"kernel", "--data", train, "--kernel", "rbf", "--out", out}, "250K", true, "--landmarks", ""},
		{[]string{"kernel", "--data", train, "--kernel", "hck:average", "--out", out}, "250K", true, "--landmarks", ""},
		{[]string{"kernel", "--data", train, "--kernel", "hckg:average", "--out", out}, "600K", true, "--landmarks", ""},
		{[]string{"kernel", "--data", train, "--kernel", "connectivity", "--out", out}, "600K", true, "--landmarks", ""},
		{[]string{"kernel", "--data", train, "--kernel", "isomap", "--out", out}, "600K", false, "--landmarks", "--float32 takes a point kernel or hck"},
		{[]string{"kernel", "--data", train, "--kernel", "rbf", "--embed", "2", "--embed-out", filepath.Join(dir, "e.csv"), "--out", out}, "250K", false, "", "--embed needs the float64 kernel matrix"},
		{cl("--kernel", "hck:average", "--learner", "svm"), "250K", true, "--landmarks", ""},
		{cl("--kernel", "hckg:single", "--learner", "knn"), "600K", true, "--landmarks", ""},
		{cl("--kernel", "rbf", "--learner", "lp", "--affinity", "kernel"), "550K", true, "--landmarks", ""},
		{cl("--kernel", "isomap", "--learner", "svm"), "600K", false, "--landmarks", "--float32 takes a point kernel or hck"},
		// lp on a dense rbf affinity of the points uses no kernel matrix:
		// --float32 is not named and changes nothing
		{cl("--learner", "lp", "--affinity", "rbf:20"), "550K", false, "", "needs about"},
		// eval: the embedded two moons, 400 rows (8N² = 1.2 MiB)
		{[]string{"eval", "--data", "two_moons", "--labeled-per-class", "3", "--repeats", "1", "--kernel", "rbf,hck:average", "--learner", "svm,knn"}, "1M", true, "--landmarks", ""},
		{[]string{"eval", "--data", "two_moons", "--labeled-per-class", "3", "--repeats", "1", "--kernel", "isomap", "--learner", "knn"}, "2M", false, "--landmarks", "--float32 takes point kernels and hck"},
		// Euclidean linkages now fall back by themselves when the matrix does
		// not fit (single, ward, centroid, median to the points path;
		// complete, average, weighted to the exact cells: TestClusterLowMemory);
		// on graph distances the memory error names --float32
		{[]string{"cluster", "--data", train, "--linkage", "weighted", "--distance", "graph", "--clusters", "2"}, "600K", true, "--landmarks", ""},
		{[]string{"cluster", "--data", train, "--linkage", "average", "--distance", "graph", "--clusters", "2"}, "600K", true, "--landmarks", ""},
		{[]string{"cluster", "--data", train, "--linkage", "average", "--clusters", "2", "--landmarks", "150"}, "100K", false, "fewer --landmarks", "--float32 and --landmarks"},
		{cl("--kernel", "hck:average", "--learner", "svm", "--landmarks", "150"), "100K", false, "fewer --landmarks", "--float32 and --landmarks"},
		{[]string{"kernel", "--data", train, "--kernel", "rbf", "--landmarks", "150", "--out", out}, "100K", false, "fewer --landmarks", "--float32 and --landmarks"},
		{[]string{"svc", "--data", train, "--q", "1", "--C", "1", "--out", out}, "250K", false, "--landmarks", "flag provided but not defined: --float32"},
		// kernel treelets rotate their matrix in place: --sample fits, not --float32
		{[]string{"treelets", "--data", train, "--kernel", "rbf:scale", "--out", out}, "250K", false, "--sample ", "flag provided but not defined: --float32"},
		{[]string{"cluster", "--data", train, "--method", "treelets", "--kernel", "rbf:scale", "--clusters", "2", "--out", out}, "250K", false, "--sample ", "--float32 is not available with --method treelets"},
	} {
		args := append(c.args, "--max-memory", c.budget, "--quiet")
		_, _, err := arbor(t, args...)
		if !errors.Is(err, pipeline.ErrMemory) {
			t.Errorf("%v: err = %v, want the memory error", c.args, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "needs about") || !strings.Contains(msg, "budget of") {
			t.Errorf("%v: %q: want one line with the size and the budget", c.args, msg)
		}
		if c.other != "" && !strings.Contains(msg, c.other) {
			t.Errorf("%v: %q does not name %s", c.args, msg, c.other)
		}
		if named := strings.Contains(msg, "--float32 needs about"); named != c.f32 {
			t.Errorf("%v: %q: names --float32 = %v, want %v", c.args, msg, named, c.f32)
		}
		_, _, err = arbor(t, append(args, "--float32")...)
		switch {
		case c.f32 && err != nil:
			t.Errorf("%v --float32 within %s: %v", c.args, c.budget, err)
		case !c.f32 && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%v --float32: err = %v, want %q", c.args, err, c.refused)
		}
	}
}

// TestFloat32NoEffectNote: svm and knn on a point kernel hold no N×N
// matrix, so --float32 changes nothing there; classify says so on stderr
// (it used to ignore the flag silently) and writes the same predictions.
func TestFloat32NoEffectNote(t *testing.T) {
	dir := t.TempDir()
	train, _ := moonsFiles(t, dir)
	for _, l := range []string{"svm", "knn"} {
		p64, p32 := filepath.Join(dir, "p64.csv"), filepath.Join(dir, "p32.csv")
		args := []string{"classify", "--data", train, "--kernel", "rbf", "--learner", l}
		mustArbor(t, append(args, "--out", p64)...)
		_, stderr, err := arbor(t, append(args, "--out", p32, "--float32")...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, "--float32 has no effect here") {
			t.Errorf("%s: no note on stderr:\n%s", l, stderr)
		}
		a, _ := os.ReadFile(p64)
		b, _ := os.ReadFile(p32)
		if string(a) != string(b) || len(a) == 0 {
			t.Errorf("%s: --float32 changed the predictions", l)
		}
	}
}

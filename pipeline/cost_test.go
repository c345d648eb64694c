package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// TestCostClosedForms: Cost's estimate for each way of fitting is its
// documented closed form in N, d, M, K, C.
func TestCostClosedForms(t *testing.T) {
	sh := pipeline.Shape{Rows: 1000, Labeled: 100, Features: 10, Classes: 3, Test: 50}
	n, nn := 1050.0, 8*1000.0*1000.0
	proc := 16<<20 + 16*n*12
	for _, c := range []struct {
		s    pipeline.Settings
		want float64
		what string
	}{
		{pipeline.Settings{Kernel: "rbf:0.5"}, 8*n*(10+8) + 200<<20, "the svm on 1050 rows (kernel columns on demand)"},
		{pipeline.Settings{Kernel: "rbf:0.5", Learner: "knn"}, 8*n*12 + 8*900*100, "knn on 1050 rows (900 queries × 100 labelled rows of kernel values)"},
		{pipeline.Settings{Kernel: "hck:average"}, 1.5 * nn, "the exact svm run on 1000 rows"},
		{pipeline.Settings{Kernel: "isomap", Learner: "knn", Params: map[string]string{"k": "3"}}, 4 * nn, "the exact knn run on 1000 rows"},
		{pipeline.Settings{Kernel: "hck:average", Float32: true}, nn / 2, "the exact svm run on 1000 rows (--float32)"},
		// the points, labels, the process (16 MiB and the reading's 16
		// bytes a cell), map, grafts, labelled features and blocks; for
		// hck:average the tree of all rows instead when it is larger (it
		// is freed before the map is made): the larger of the k-NN lists
		// that find the exact tree's K clusters (with a copy of the points)
		// and their K(K−1)/2 linkage distances, K² ≤ N·M; the map's terms
		// with an eighth for the collector
		{pipeline.Settings{Kernel: "hck:average", Landmarks: 100}, 16*n*10 + 32*n + proc + max(1.125*(64*100*100+12*n+8*100*100+8*(1050+4096)*100), 12*40*1000+8*1000*10, 4*1000*100), "100 landmarks for 1050 rows"},
		{pipeline.Settings{Kernel: "rbf:0.5", Learner: "knn", Landmarks: 100}, 16*n*10 + 32*n + proc + 1.125*(64*100*100+12*n+8*100*100+8*(1050+4096)*100), "100 landmarks for 1050 rows"},
		// the points, labels, the process's 16 MiB, anchors and the M×M system
		{pipeline.Settings{Learner: "lp", Landmarks: 100}, 16*n*10 + 32*n + 16<<20 + 60*n + 56*100*100, "100 landmarks for 1050 rows"},
		{pipeline.Settings{Learner: "spreading", Params: map[string]string{"affinity": "rbf:1"}, Landmarks: 100}, 16*n*10 + 32*n + 16<<20 + 76*n + 32*100*100, "100 landmarks for 1050 rows"},
		// the points, labels, the process; the N×M geodesics with the
		// features and their copy (isomap) or the N×M rows, the features
		// and a block of rows (multitype, hckg); the map's copy of the
		// points, the M×M eigenproblem, the labelled rows' features and
		// a block of features (at most all rows)
		{pipeline.Settings{Kernel: "isomap", Learner: "knn", Landmarks: 100}, 16*n*10 + 32*n + proc + 1.125*(24*n*100+8*n*10+32*100*100+8*100*100+8*n*100), "100 landmarks for 1050 rows"},
		{pipeline.Settings{Kernel: "multitype:step:0.1:1", Landmarks: 100}, 16*n*10 + 32*n + proc + 1.125*(16*n*100+8*4096*100+8*n*10+32*100*100+8*100*100+8*n*100), "100 landmarks for 1050 rows"},
		{pipeline.Settings{Kernel: "hckg:average", Landmarks: 100}, 16*n*10 + 32*n + proc + 1.125*(16*n*100+8*4096*100+8*n*10+32*100*100+8*100*100+8*n*100), "100 landmarks for 1050 rows"},
		{pipeline.Settings{Learner: "lp", Params: map[string]string{"affinity": "knn:7"}}, 8*1000*10 + 3*2*1000*7*16 + 6*8*1000*3, "lp_knn:7 on the 7-NN graph of 1000 rows"},
		{pipeline.Settings{Learner: "lp", Params: map[string]string{"affinity": "rbf:20"}}, 2 * nn, "the exact lp run on 1000 rows"},
	} {
		e, err := pipeline.Cost(c.s, sh)
		if err != nil {
			t.Errorf("%+v: %v", c.s, err)
			continue
		}
		if e.Bytes != c.want || e.What != c.what {
			t.Errorf("%+v: %v bytes for %q, want %v for %q", c.s, e.Bytes, e.What, c.want, c.what)
		}
	}
	// s4vm and hibust: the kernel matrix, the process and their work with
	// GOMAXPROCS p running: S4VM's float32 block, min(p, 3) pairs'
	// matrices and p caches (4·N² each), and per pair what its refits drop,
	// (400 + 101)·N + 8·101²; HiBUST twice its live heap (the
	// kernel, its copy, the root's block, the root S4VM's block, pair
	// matrix and caches) less the kernel.
	p := float64(runtime.GOMAXPROCS(0))
	s4vmWork := 4e6 + min(p, 3)*4e6 + p*4e6 + 3*((400+101)*1000+8*101*101)
	hibustWork := 2*(3*nn+4e6+4e6+p*4e6) - nn
	for _, c := range []struct {
		learner string
		want    float64
	}{{"s4vm", nn + proc + s4vmWork}, {"hibust", nn + proc + hibustWork}} {
		e, err := pipeline.Cost(pipeline.Settings{Learner: c.learner}, sh)
		if err != nil || e.Bytes != c.want || e.What != "the exact "+c.learner+" run on 1000 rows" {
			t.Errorf("%s: %v bytes for %q (%v), want %v", c.learner, e.Bytes, e.What, err, c.want)
		}
	}
	// Float32 storage with landmarks, or for a kernel without it, and
	// linsvm without landmarks are settings errors.
	for _, s := range []pipeline.Settings{{Kernel: "rbf", Landmarks: 10, Float32: true}, {Kernel: "isomap", Float32: true}, {Learner: "linsvm"}} {
		if _, err := pipeline.Cost(s, sh); !errors.Is(err, learner.ErrSettings) {
			t.Errorf("%+v: err = %v, want a settings error", s, err)
		}
	}
}

// TestCostHints: over the budget, the hint names the landmarks and the
// float32 storage that fit it, and the refusal reads as the command
// line's.
func TestCostHints(t *testing.T) {
	sh := pipeline.Shape{Rows: 20000, Labeled: 200, Features: 50, Classes: 10}
	s := pipeline.Settings{Kernel: "hck:average", MemoryBudget: 3 << 30, MemoryBudgetSource: "--max-memory"}
	e, err := pipeline.Cost(s, sh)
	if err != nil {
		t.Fatal(err)
	}
	// the landmark run: points, labels, the process, and the larger of
	// the map's phase (map, grafts, labelled features, blocks) and the
	// tree's (the K² ≤ N·M cells' linkage)
	lm := 16*20000*50 + 32*20000 + (16<<20 + 16*20000*52) + max(1.125*(64*2000*2000+12*20000+8*200*2000+8*(8192+4096)*2000), 4*20000*2000)
	want := fmt.Sprintf("not enough memory: the exact svm run on 20000 rows needs about 4.5 GiB, more than the budget of 3.0 GiB (--max-memory); --float32 needs about 1.5 GiB; use --landmarks 2000 (about %.0f MiB)", float64(lm)/(1<<20))
	if err := e.Err(); !errors.Is(err, pipeline.ErrMemory) || err.Error() != want || e.Fits() {
		t.Errorf("Err() = %v\nwant %s", err, want)
	}
	s.MemoryBudget = 5 << 30
	if e, _ := pipeline.Cost(s, sh); !e.Fits() || e.Err() != nil {
		t.Errorf("within the budget: %v", e.Err())
	}
}

// TestFitRefusesOverBudget: Fit stops before the work with Cost's
// refusal, and fits within the budget.
func TestFitRefusesOverBudget(t *testing.T) {
	ds, _, _, newX := fixture(t)
	s := pipeline.Settings{Scale: "none", Kernel: "hck:average", MemoryBudget: 100 << 10}
	e, err := pipeline.Cost(s, pipeline.ShapeOf(ds, &dataset.Dataset{X: newX, Y: make([]int, 60)}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = pipeline.Fit(context.Background(), s, ds, newX)
	if !errors.Is(err, pipeline.ErrMemory) || err.Error() != e.Err().Error() {
		t.Fatalf("Fit: %v, want %v", err, e.Err())
	}
	s.MemoryBudget = 1 << 30
	if _, err := pipeline.Fit(context.Background(), s, ds, newX); err != nil {
		t.Fatal(err)
	}
}

// TestFitImpute: Fit with Impute equals Fit on the rows filled by hand
// with the column means of the present values, for the training and the
// test rows, and the saved pipeline fills new points the same way.
func TestFitImpute(t *testing.T) {
	ds, _, _, newX := fixture(t)
	n, d := ds.X.Dims()
	holes := mat.DenseCopyOf(ds.X)
	for i := 0; i < n; i += 7 {
		holes.Set(i, i%d, math.NaN())
	}
	testHoles := mat.DenseCopyOf(newX)
	testHoles.Set(3, 1, math.NaN())
	filled, testFilled := mat.DenseCopyOf(holes), mat.DenseCopyOf(testHoles)
	for j := 0; j < d; j++ {
		var sum float64
		var k int
		for i := 0; i < n; i++ {
			if v := holes.At(i, j); !math.IsNaN(v) {
				sum, k = sum+v, k+1
			}
		}
		for _, X := range []*mat.Dense{filled, testFilled} {
			r, _ := X.Dims()
			for i := 0; i < r; i++ {
				if math.IsNaN(X.At(i, j)) {
					X.Set(i, j, sum/float64(k))
				}
			}
		}
	}
	ctx := context.Background()
	s := pipeline.Settings{Kernel: "rbf:0.5"}
	a := *ds
	a.X = filled
	want, err := pipeline.Fit(ctx, s, &a, testFilled)
	if err != nil {
		t.Fatal(err)
	}
	b := *ds
	b.X = holes
	s.Impute = "mean"
	got, err := pipeline.Fit(ctx, s, &b, testHoles)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Labels, want.Labels) {
		t.Errorf("labels with Impute differ from those of the filled rows")
	}
	if !math.IsNaN(holes.At(0, 0)) {
		t.Errorf("Fit filled the caller's rows")
	}
	p, err := got.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	pred, err := p.Predict(ctx, testHoles)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, want.Labels[n:]) {
		t.Errorf("the saved pipeline labels the test rows %v, want %v", pred, want.Labels[n:])
	}
	s.Impute = "mode"
	if _, err := pipeline.Fit(ctx, s, &b, nil); !errors.Is(err, learner.ErrSettings) {
		t.Errorf("Impute mode: %v, want a settings error", err)
	}
}

// TestCostLandmarksMillion: the landmark runs on 10⁶ rows of 10 features
// with 2,000 landmarks hold no N×M matrix: hck:average + svm and the
// anchor graph are estimated under 8 GiB (the measured peaks are in
// docs/performance.md), while the N×M features alone would be 16 GB.
func TestCostLandmarksMillion(t *testing.T) {
	sh := pipeline.Shape{Rows: 1000000, Labeled: 100, Features: 10, Classes: 10}
	for _, s := range []pipeline.Settings{{Kernel: "hck:average", Landmarks: 2000}, {Learner: "lp", Landmarks: 2000}} {
		e, err := pipeline.Cost(s, sh)
		if err != nil {
			t.Fatal(err)
		}
		if e.Bytes > 8<<30 || e.Bytes < 8*1e6*10 {
			t.Errorf("%+v: %.3g bytes, want the points and more, under 8 GiB", s, e.Bytes)
		}
	}
}

// TestTally: the counts per class and the rows left unlabelled add up to
// the unlabelled rows, each counted by its label; TestCorrect counts the
// test rows whose label names their own class.
func TestTally(t *testing.T) {
	ds, _, _, newX := fixture(t)
	fit, err := pipeline.Fit(context.Background(), pipeline.Settings{Scale: "none", Kernel: "rbf:0.5"}, ds, newX)
	if err != nil {
		t.Fatal(err)
	}
	counts, left := fit.Tally()
	want := make([]int, len(ds.Classes))
	for _, r := range ds.UnlabeledRows() {
		want[fit.Labels[r]]++
	}
	if !slices.Equal(counts, want) || left != 0 {
		t.Errorf("Tally = %v, %d; want %v, 0", counts, left, want)
	}
	// Test rows labelled with the names of the classes in reverse order,
	// every other one without a label.
	test := &dataset.Dataset{X: newX, Y: make([]int, 60), Classes: slices.Clone(ds.Classes)}
	slices.Reverse(test.Classes)
	right, labelled := 0, 0
	for i := range test.Y {
		test.Y[i] = dataset.Unlabeled
		if i%2 == 0 {
			test.Y[i] = i % 3
			labelled++
			if ds.Classes[fit.Labels[ds.Len()+i]] == test.Classes[i%3] {
				right++
			}
		}
	}
	if c, l := fit.TestCorrect(test); c != right || l != labelled {
		t.Errorf("TestCorrect = %d of %d, want %d of %d", c, l, right, labelled)
	}
}

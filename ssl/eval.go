package ssl

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/internal/quote"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

// Eval runs every learner on every kernel for every labelled split and
// measures accuracy on the unlabelled rows, as the papers' protocol does.
// Kernels are label-free, so each is built once over all rows and shared by
// all splits and learners (kernel.BuildAll shares distances and geodesics).
type Eval struct {
	Kernels  []kernel.Spec
	Learners []learner.Learner
	// Progress, if not nil, reports kernel building and ("eval", done, total)
	// over split × method runs.
	Progress func(stage string, done, total int)
	// Warn, if not nil, receives the learners' non-fatal problems.
	Warn func(error)
	// Float32, if set, builds each kernel in float32 storage
	// (kernel.Build32; Problem.K32) one at a time, runs every split and
	// learner on it and frees it before the next: the peak is one float32
	// matrix (4N² bytes) instead of all the float64 ones. Results come in
	// the same order as without it.
	Float32 bool
}

// Result is the accuracy of one learner with one kernel on one split.
type Result struct {
	Kernel   string  `json:"kernel"`  // kernel spec, or "-" for a learner that uses none
	Learner  string  `json:"learner"` // learner name
	Split    int     `json:"split"`   // index of the split
	Labeled  int     `json:"n_labeled"`
	Correct  int     `json:"correct"`
	Total    int     `json:"total"`    // unlabelled rows scored
	Accuracy float64 `json:"accuracy"` // Correct / Total
	FitS     float64 `json:"fit_s"`    // seconds spent in the learner
	KernelS  float64 `json:"kernel_s"` // seconds spent building the kernel (shared)
	Info     string  `json:"info,omitempty"`
	// Unreached counts the scored rows no label could reach (label
	// propagation and spreading on a graph with unlabelled components):
	// they are class 0 under the scikit-learn policy, unlabelled (wrong)
	// otherwise; a report should say so beside the accuracy.
	Unreached int `json:"unreached,omitempty"`
}

// Run evaluates on points X with true labels y (every row labelled) and the
// given splits (sorted lists of labelled rows). Accuracy counts only rows
// outside the split.
func (e Eval) Run(ctx context.Context, X *mat.Dense, y []int, splits [][]int) ([]Result, error) {
	n, _ := X.Dims()
	if len(y) != n {
		return nil, fmt.Errorf("%w: %d labels for %d rows", ErrSplit, len(y), n)
	}
	for i, c := range y {
		if c == learner.Unlabeled {
			return nil, fmt.Errorf("%w: row %d has no true label to score against", ErrSplit, i)
		}
	}
	if len(splits) == 0 {
		return nil, fmt.Errorf("%w: no splits", ErrSplit)
	}
	for s, l := range splits {
		if err := checkSplit(l, n); err != nil {
			return nil, fmt.Errorf("split %d: %w", s, err)
		}
		if err := SplitClasses(l, y, nil); err != nil {
			return nil, fmt.Errorf("split %d: %w", s, err)
		}
	}
	var kernelLearners, freeLearners []learner.Learner
	for _, l := range e.Learners {
		if UsesKernel(l) {
			kernelLearners = append(kernelLearners, l)
		} else {
			freeLearners = append(freeLearners, l)
		}
	}
	var built []kernel.Built
	var kernelSecs []float64
	if len(kernelLearners) > 0 && e.Float32 {
		if len(e.Kernels) == 0 {
			return nil, fmt.Errorf("ssl: learners %s need a kernel", kernelLearners[0].Name())
		}
		built = make([]kernel.Built, len(e.Kernels)) // filled one at a time below
		kernelSecs = make([]float64, len(e.Kernels))
	} else if len(kernelLearners) > 0 {
		if len(e.Kernels) == 0 {
			return nil, fmt.Errorf("ssl: learners %s need a kernel", kernelLearners[0].Name())
		}
		t0 := time.Now()
		var err error
		built, err = kernel.BuildAll(ctx, X, e.Kernels, kernel.BuildOptions{Progress: e.Progress})
		if err != nil {
			return nil, err
		}
		// BuildAll shares work between kernels; charge each its share evenly.
		per := time.Since(t0).Seconds() / float64(len(built))
		kernelSecs = make([]float64, len(built))
		for i := range kernelSecs {
			kernelSecs[i] = per
		}
	}
	total := len(splits) * (len(built)*len(kernelLearners) + len(freeLearners))
	done := 0
	var out []Result
	labelsOf := func(l []int) []int {
		yl := make([]int, n)
		for i := range yl {
			yl[i] = learner.Unlabeled
		}
		for _, r := range l {
			yl[r] = y[r]
		}
		return yl
	}
	var K32 *kernel.Sym32 // Float32: the one kernel in memory
	for bi := range built {
		if !e.Float32 {
			break
		}
		t0 := time.Now()
		var err error
		built[bi], K32, err = kernel.Build32(ctx, X, e.Kernels[bi], kernel.BuildOptions{Progress: e.Progress})
		if err != nil {
			return nil, err
		}
		kernelSecs[bi] = time.Since(t0).Seconds()
		for s, l := range splits {
			for _, ln := range kernelLearners {
				yl := labelsOf(l)
				r, err := e.score(ctx, s, l, y, yl, built[bi].Spec.String(), kernelSecs[bi], ln, Problem{X: X, K32: K32, Y: yl, Spec: &built[bi].Spec})
				if err != nil {
					return nil, err
				}
				out = append(out, r)
				done++
				if e.Progress != nil {
					e.Progress("eval", done, total)
				}
			}
		}
		// collect this kernel before the next is built, or the runtime
		// (which collects when the heap doubles) holds two of them
		K32 = nil
		runtime.GC()
	}
	for s, l := range splits {
		yl := labelsOf(l)
		score := func(kname string, ks float64, ln learner.Learner, p Problem) error {
			r, err := e.score(ctx, s, l, y, yl, kname, ks, ln, p)
			if err != nil {
				return err
			}
			out = append(out, r)
			done++
			if e.Progress != nil {
				e.Progress("eval", done, total)
			}
			return nil
		}
		for bi, b := range built {
			if e.Float32 {
				break // scored above, one kernel at a time
			}
			for _, ln := range kernelLearners {
				if err := score(b.Spec.String(), kernelSecs[bi], ln, Problem{X: X, K: b.K, Y: yl, Spec: &built[bi].Spec}); err != nil {
					return nil, err
				}
			}
		}
		for _, ln := range freeLearners {
			if err := score("-", 0, ln, Problem{X: X, Y: yl}); err != nil {
				return nil, err
			}
		}
	}
	if e.Float32 {
		// the order of the float64 path: split, then kernel, then learner
		sort.SliceStable(out, func(a, b int) bool { return out[a].Split < out[b].Split })
	}
	return out, nil
}

// score fits ln on p (the labels yl of split s) and scores it on the rows
// outside the split.
func (e Eval) score(ctx context.Context, s int, l, y, yl []int, kname string, ks float64, ln learner.Learner, p Problem) (Result, error) {
	if e.Warn != nil {
		p.Warn = func(err error) { e.Warn(fmt.Errorf("%s, kernel %s, split %d: %w", ln.Name(), kname, s, err)) }
	}
	t0 := time.Now()
	pred, m, err := Transduce(ctx, ln, p)
	if err != nil {
		return Result{}, fmt.Errorf("%s with kernel %s, split %d: %w", ln.Name(), kname, s, err)
	}
	r := Result{Kernel: kname, Learner: ln.Name(), Split: s, Labeled: len(l),
		FitS: time.Since(t0).Seconds(), KernelS: ks}
	if pm, ok := m.(*propagate.Model); ok {
		for _, i := range pm.Unreachable {
			if yl[i] == learner.Unlabeled {
				r.Unreached++
			}
		}
	}
	for i := range y {
		if yl[i] == learner.Unlabeled {
			r.Total++
			if pred[i] == y[i] {
				r.Correct++
			}
		}
	}
	r.Accuracy = float64(r.Correct) / float64(r.Total)
	return r, ctx.Err()
}

// SplitClasses returns an ErrSplit error when the labelled rows l of a
// split (y: every row's true class) hold fewer than two classes: no
// learner can be fitted on them. The error names the class they hold and
// the classes they miss with their sizes, by names[c] when names is given
// (the data's class names), else by number.
func SplitClasses(l, y []int, names []string) error {
	if len(l) == 0 {
		return nil // checkSplit's error
	}
	c0 := y[l[0]]
	for _, r := range l[1:] {
		if y[r] != c0 {
			return nil
		}
	}
	name := func(c int) string {
		if c >= 0 && c < len(names) {
			return quote.Cell(names[c])
		}
		return strconv.Itoa(c)
	}
	size := map[int]int{}
	for _, c := range y {
		size[c]++
	}
	var miss []string
	for _, c := range slices.Sorted(maps.Keys(size)) {
		if c != c0 {
			rows := fmt.Sprintf("%d rows", size[c])
			if size[c] == 1 {
				rows = "1 row"
			}
			miss = append(miss, fmt.Sprintf("%s (%s)", name(c), rows))
		}
	}
	rows := "its labelled row is"
	if len(l) > 1 {
		rows = fmt.Sprintf("its %d labelled rows are all", len(l))
	}
	return fmt.Errorf("%w: %s of class %s and none of class %s: a learner needs labelled rows of two classes", ErrSplit, rows, name(c0), strings.Join(miss, ", "))
}

func checkSplit(l []int, n int) error {
	if len(l) == 0 {
		return fmt.Errorf("%w: no labelled rows", ErrSplit)
	}
	if len(l) >= n {
		return fmt.Errorf("%w: every row is labelled, nothing to predict", ErrSplit)
	}
	seen := make([]bool, n)
	for _, r := range l {
		if r < 0 || r >= n {
			return fmt.Errorf("%w: row %d out of range 0..%d", ErrSplit, r, n-1)
		}
		if seen[r] {
			return fmt.Errorf("%w: row %d listed twice", ErrSplit, r)
		}
		seen[r] = true
	}
	return nil
}

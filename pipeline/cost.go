package pipeline

import (
	"fmt"
	"runtime"
	"slices"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/ssl"
)

// ErrMemory is wrapped by the error of a fit that would need more memory
// than its budget (Settings.MemoryBudget): Fit's refusal and Estimate.Err.
var ErrMemory = memory.ErrMemory

// Shape is the size of a fit, all Cost needs of the data: training rows
// (Labeled of them with a class), features, classes, and test rows.
type Shape struct {
	Rows, Labeled, Features, Classes, Test int
}

// ShapeOf is the shape of a fit on ds with test rows test (nil: none).
func ShapeOf(ds, test *dataset.Dataset) Shape {
	s := Shape{Rows: ds.Len(), Labeled: len(ds.Labeled()), Features: ds.Dim(), Classes: len(ds.Classes)}
	if test != nil {
		s.Test = test.Len()
	}
	return s
}

// Estimate is the memory a fit needs, checked against a budget.
type Estimate struct {
	// Bytes is the estimated peak, about: the models are within about a
	// third of the measured peak.
	Bytes float64
	// What names what needs the memory ("the exact svm run on 5000 rows").
	What string
	// Hint names the settings that fit the budget, "" when none is known
	// ("use --landmarks 2000 (about 1.2 GiB)").
	Hint string
	// Budget is Settings.MemoryBudget (0: none) and Source
	// Settings.MemoryBudgetSource.
	Budget int64
	Source string
}

// Fits reports whether the estimate is within the budget (or there is no
// budget).
func (e Estimate) Fits() bool { return memory.Estimate(e).Fits() }

// Err is nil when the estimate fits the budget, else the one-line refusal
// wrapping ErrMemory: "not enough memory: WHAT needs about X GiB, more
// than the budget of Y GiB (SOURCE); HINT".
func (e Estimate) Err() error { return memory.Estimate(e).Err() }

// Cost is the memory Fit(ctx, s, ds, test) needs for data of shape sh,
// known before the work: the SVM's points and kernel column cache on a
// point kernel, kNN's kernel block, the sparse kNN graph of label
// propagation and spreading, the landmark run's N×M blocks, or the exact
// (float32 with Float32) kernel matrix and a dense affinity, with S4VM's
// and HiBUST's work besides the matrix (transductiveWork). Its Hint
// names the settings that fit s.MemoryBudget. Errors: settings that do not
// fit together (wrapping learner.ErrSettings), as Fit's.
func Cost(s Settings, sh Shape) (Estimate, error) {
	ln, family, err := s.learner()
	if err != nil {
		return Estimate{}, err
	}
	spec, err := kernel.ParseSpec(orDefault(s.Kernel, "linear"))
	if err != nil {
		return Estimate{}, learner.Settingsf("kernel %q: %v", s.Kernel, err)
	}
	return CostLearner(s, spec, ln, family, sh)
}

// CostLearner is Cost with the kernel and learner built by the caller, as
// FitLearner.
func CostLearner(s Settings, spec kernel.Spec, ln learner.Learner, family string, sh Shape) (Estimate, error) {
	if err := NeedLandmarks([]learner.Learner{ln}, s.Landmarks); err != nil {
		return Estimate{}, err
	}
	e := Estimate{Budget: s.MemoryBudget, Source: s.MemoryBudgetSource}
	method := s.method(spec, ln, family)
	if method == methodKNNPoints {
		e.Bytes, e.What = knnPointsBytes(sh)
		return e, nil
	}
	if b, what, ok := PropagationBytes(ln, sh); ok {
		if _, graph := KNNGraphSpreading(ln, sh.Rows, sh.Features); s.Landmarks == 0 || graph {
			// lp and spreading on a kNN graph: sparse; with landmarks too
			// for spreading on the kNN graph of all rows.
			e.Bytes, e.What = b, what
			if s.Landmarks > 0 {
				e.Bytes += landmarkOutputBytes(s, family, sh.Rows+sh.Test, sh.Classes, sh.Labeled, s.Landmarks)
			}
			return e, nil
		}
	}
	n, d := sh.Rows+sh.Test, sh.Features
	landmarkCost := func(m int) float64 { return LandmarkRunBytes(spec, family, sh, m) }
	if method == methodSVMPoints {
		// The points, the solver's state and its kernel column cache.
		e.Bytes = 8*float64(n)*float64(d+8) + svmCacheBytes
		e.What = fmt.Sprintf("the svm on %d rows (kernel columns on demand)", n)
		return e, nil
	}
	if s.Landmarks > 0 {
		if s.Float32 {
			return Estimate{}, learner.Settingsf("--float32 and --landmarks: the landmark features are N×M, not an N×N matrix; leave out --float32")
		}
		e.Bytes, e.What, e.Hint = LandmarkRunBytes(spec, family, sh, s.Landmarks), fmt.Sprintf("%d landmarks for %d rows", s.Landmarks, n), "use fewer --landmarks"
		e.Bytes += landmarkOutputBytes(s, family, n, sh.Classes, sh.Labeled, s.Landmarks)
		return e, nil
	}
	need, need32 := kernel.Bytes(spec, sh.Rows), kernel.Bytes32(spec, sh.Rows)
	if !ssl.UsesKernel(ln) {
		need32 = 0 // float32 storage is for a kernel matrix; this learner has none
	} else if s.Float32 && need32 == 0 {
		return Estimate{}, learner.Settingsf("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix); %s", spec, LandmarkHint(s.MemoryBudget, n, landmarkCost))
	}
	name := orDefault(s.Learner, "svm")
	if name == "lp" || name == "spreading" {
		// The kernel and a dense affinity matrix (float32 from a float32
		// kernel: propagate keeps it in float32).
		nn := 8 * float64(sh.Rows) * float64(sh.Rows)
		need = 2 * nn
		if need32 > 0 {
			need32 += nn / 2
		}
	}
	if w, ok := transductiveWork(ln, sh); ok {
		need += w
		if need32 > 0 {
			need32 += w
		}
	}
	e.What = fmt.Sprintf("the exact %s run on %d rows", name, sh.Rows)
	if s.Float32 && need32 > 0 {
		e.Bytes, e.What, e.Hint = need32, e.What+" (--float32)", LandmarkHint(s.MemoryBudget, n, landmarkCost)
		return e, nil
	}
	e.Bytes, e.Hint = need, memory.JoinHints(Float32Hint(s.MemoryBudget, need32), LandmarkHint(s.MemoryBudget, n, landmarkCost))
	return e, nil
}

// transductiveWork is what s4vm and hibust hold besides the kernel matrix
// on data of shape sh: S4VM's float32 block, class pairs' matrices,
// candidates' caches and the collector's share of what its refits drop
// (s4vm.S4VM.WorkBytes); HiBUST's copy of the kernel, its root node's
// blocks and twice its live heap for the collector
// (hibust.Classifier.WorkBytes); each with the process (processBytes).
// It reports false for the other learners.
func transductiveWork(ln learner.Learner, sh Shape) (float64, bool) {
	procs := runtime.GOMAXPROCS(0)
	var w float64
	if s, ok := learner.As[s4vm.S4VM](ln); ok {
		w = s.WorkBytes(sh.Rows, sh.Classes, procs)
	} else if h, ok := learner.As[hibust.Classifier](ln); ok {
		w = h.WorkBytes(sh.Rows, procs)
	} else {
		return 0, false
	}
	return w + processBytes(float64(sh.Rows+sh.Test), float64(sh.Features)), true
}

// svmCacheBytes is the SVM's default kernel column cache (svm.Classifier).
const svmCacheBytes = 200 << 20

// LandmarkRunBytes estimates Fit with m landmarks, the learner of family
// and kernel spec on data of shape sh (n training and test rows, N of them
// training rows, d features, ℓ labelled). Every run holds the points as
// read and their scaled copy and the labels, 16·n·d + 32·n bytes;
// besides, by method:
//
//   - lp on the anchor graph: each row's 3 anchors with weights and
//     distances, 60·n; the sums ZᵀZ and Z_lᵀZ_l and, while the M×M system
//     is solved, its five M×M matrices (ZᵀZ·Λ⁻¹, a copy of ZᵀZ, their
//     product, the system and its Cholesky factor): 56·M²; and the
//     process besides its data (anchorSlack);
//   - spreading on the anchor graph: the anchors, 60·n, and 1/√D, 1/E per
//     row, 16·n; the system, its block's part, the symmetric system and
//     its Cholesky factor: 32·M²; and anchorSlack;
//   - svm, linsvm and knn on the Nyström features of a point kernel, hck
//     or connectivity: the map (K_LL, its eigenvectors, W, and the
//     landmark tree's 2·(2M−1)·r graft coefficients: 64·M²), each row's
//     graft (12·n), the labelled rows' features (8·ℓ·M), one block of
//     features (min(LabelBlockRows(family), n) × M) and one of kernel rows
//     (landmark.BlockRows × M) — O(M² + n + block·M), no N×M matrix; with
//     complete, average or weighted linkage on the tree of all rows (up to
//     landmark.CellsAllRowsMaxN rows) the tree is built first, and its
//     memory is freed before the map's: the larger of the two counts,
//     the tree's being the k-NN lists that find the exact tree's K
//     clusters (12·k·N, k = landmark.ExactCellsNeighbors, and a copy of the
//     points, 8·N·d) or their linkage, used when K² ≤ N·M (K(K−1)/2
//     distances: at most 4·N·M);
//   - isomap, multitype and hckg: the map's N×M geodesics or kernel rows
//     and the N×r features (r ≤ M) — isomap keeps its features and gives
//     the run a copy, 8·N·M + 16·N·r ≤ 24·N·M; multitype holds the
//     Nyström features and the features made from them, 16·N·r, hckg the
//     geodesics and the features, 16·N·M, each with one block of
//     landmark.BlockRows kernel or geodesic rows — with the points' copy
//     the map searches (8·N·d), the M×M eigenproblem (32·M²), the
//     labelled rows' features and one block of features
//     (min(LabelBlockRows(family), n) × M) (MapRowsBytes).
//
// Every run on features also counts the process (processBytes), and the
// map's terms an eighth more for the collector (heapSlack). M is at most
// n.
func LandmarkRunBytes(spec kernel.Spec, family string, sh Shape, m int) float64 {
	n, d, l := float64(sh.Rows+sh.Test), float64(sh.Features), float64(sh.Labeled)
	mm := float64(min(m, sh.Rows+sh.Test))
	base := 16*n*d + 32*n
	switch family {
	case "lp":
		return base + anchorSlack + 60*n + 56*mm*mm
	case "spreading":
		return base + anchorSlack + 76*n + 32*mm*mm
	case "svm", "linsvm", "knn":
	default:
		return LandmarkBytes(sh.Rows+sh.Test, sh.Features, m)
	}
	switch {
	case spec.Kind == kernel.KindPoint, spec.Kind == kernel.KindConnectivity,
		spec.Kind == kernel.KindHCK && spec.Graph == nil:
	default:
		return MapRowsBytes(spec, family, sh, m)
	}
	features := 64*mm*mm + 12*n + 8*l*mm + 8*float64(min(LabelBlockRows(family), sh.Rows+sh.Test)+landmark.BlockRows)*mm
	if spec.Kind == kernel.KindHCK && sh.Rows <= landmark.CellsAllRowsMaxN {
		switch spec.Method {
		case hclust.Complete, hclust.Average, hclust.Weighted:
			rows := float64(sh.Rows)
			tree := max(4*rows*mm, 12*float64(landmark.ExactCellsNeighbors)*rows+8*rows*d)
			return base + processBytes(n, d) + max(heapSlack*features, tree)
		}
	}
	return base + processBytes(n, d) + heapSlack*features
}

// heapSlack is the factor by which a landmark run's heap passes the data
// it holds while the collector runs concurrently with the blocks' work:
// measured with /usr/bin/time -v, arbor kernel --kernel hck:single
// --landmarks 2000 on bench/million's 10⁵ rows peaked at 477 and 486 MiB
// in two runs where its data and process come to 485 MiB, and one
// classify --kernel isomap at 389 and 448 MiB. (The tree phase's term is a
// bound on the clusters' linkage that the runs do not reach, and takes no
// slack.)
const heapSlack = 1.125

// processBytes is what a run's process holds besides the data its
// estimate counts: the Go runtime and the collector's slack (anchorSlack)
// and the pages the reading of n rows of d features left behind, 16 bytes
// per cell of the file (the features, a label and an ID or ignored
// column). Measured with /usr/bin/time -v on bench/million's 10⁵ rows (d =
// 10, with a truth and a label column): arbor kernel --landmarks 2 peaks
// at 41 MiB where the points and labels (16·n·d + 32·n) are 18 MiB.
func processBytes(n, d float64) float64 {
	return anchorSlack + 16*n*(d+2)
}

// MapRowsBytes is LandmarkRunBytes for the maps that hold N×M rows
// (isomap, multitype, hckg: a spec of another kind counts as multitype and
// hckg do) with learner family svm, linsvm or knn on n = sh.Rows + sh.Test
// rows, M = m.
func MapRowsBytes(spec kernel.Spec, family string, sh Shape, m int) float64 {
	n, d, l := float64(sh.Rows+sh.Test), float64(sh.Features), float64(sh.Labeled)
	mm := float64(min(m, sh.Rows+sh.Test))
	base := 16*n*d + 32*n
	rows := 16*n*mm + 8*float64(landmark.BlockRows)*mm
	if spec.Kind == kernel.KindISOMAP {
		rows = 24 * n * mm
	}
	block := 8 * float64(min(LabelBlockRows(family), sh.Rows+sh.Test)) * mm
	return base + processBytes(n, d) + heapSlack*(rows+8*n*d+32*mm*mm+8*l*mm+block)
}

// anchorSlack is what a landmark run's process holds besides the data
// its estimate counts (processBytes adds the reading's pages): the Go runtime (10 MiB for a run on a few
// rows) and the collector's slack over the live heap. Measured with
// /usr/bin/time -v on bench/million's data (d = 10, M = 2,000), the peak
// is the counted data plus 13 MiB at 10⁵ rows and plus 20 MiB at 10⁶.
const anchorSlack = 16 << 20

// KernelLandmarkBytes estimates arbor kernel --landmarks m on n rows of d
// features with kernel spec, which writes the features a block at a time
// (WriteFeatures): LandmarkRunBytes' svm run without labelled rows (the
// map, the blocks of features and kernel rows, the process); for the maps
// whose features come from N×M geodesics or kernel rows, MapRowsBytes'.
func KernelLandmarkBytes(spec kernel.Spec, n, d, m int) float64 {
	return LandmarkRunBytes(spec, "svm", Shape{Rows: n, Features: d}, m)
}

// LandmarkBytes estimates a landmark run that holds its N×M features on n
// rows of d features with m landmarks (the maps whose features come from
// N×M geodesics): the N×M kernel rows and features (twice, in blocks),
// the M×M eigendecomposition and the points.
func LandmarkBytes(n, d, m int) float64 {
	return 8 * (2*float64(n)*float64(m) + 4*float64(m)*float64(m) + float64(n)*float64(d))
}

// LandmarkHint names the number of landmarks (2000, 1000, 500 or 200)
// whose run on n rows fits budget (0: any) by cost, the run's estimate
// with that many landmarks (LandmarkRunBytes), with its size; or says
// that landmarks cannot help.
func LandmarkHint(budget int64, n int, cost func(m int) float64) string {
	for _, lm := range []int{2000, 1000, 500, 200} {
		if lm < n && (budget == 0 || cost(lm) <= float64(budget)) {
			return fmt.Sprintf("use --landmarks %d (about %s)", lm, memory.Human(cost(lm)))
		}
	}
	if n <= 200 {
		return fmt.Sprintf("--landmarks cannot help with %d rows: raise --max-memory", n)
	}
	return "even --landmarks 200 does not fit: use a sample of the rows"
}

// Float32Hint names float32 storage with the memory it needs, need32,
// when it is an option (need32 > 0) and fits budget (0: any); else "".
func Float32Hint(budget int64, need32 float64) string {
	if need32 <= 0 || (budget > 0 && need32 > float64(budget)) {
		return ""
	}
	return fmt.Sprintf("--float32 needs about %s", memory.Human(need32))
}

// knnPointsBytes is the kNN points path's memory: the points and the
// (unlabelled + test) × labelled kernel block.
func knnPointsBytes(sh Shape) (float64, string) {
	n, q := sh.Rows+sh.Test, sh.Rows-sh.Labeled
	if sh.Test > 0 {
		q = max(q, sh.Test)
	}
	return 8*float64(n)*float64(sh.Features+2) + 8*float64(q)*float64(sh.Labeled),
		fmt.Sprintf("knn on %d rows (%d queries × %d labelled rows of kernel values)", n, q, sh.Labeled)
}

// PropagationBytes estimates lp and spreading on a kNN affinity (the
// default, knn:10), which is a sparse graph of about 2·N·K edges, not an
// N×N matrix: the points, the graph (index and weight per edge, the
// symmetrised copy and the solver's), and a few N×C label matrices. It
// reports false for the dense affinities (rbf, kernel), whose N×N matrix
// the exact estimate counts.
func PropagationBytes(ln learner.Learner, sh Shape) (float64, string, bool) {
	aff, ok := propagationAffinity(ln)
	if !ok || aff.Kind != propagate.KNN {
		return 0, "", false
	}
	k := aff.K
	if k <= 0 {
		k = 7
	}
	n, c := float64(sh.Rows), float64(max(sh.Classes, 1))
	need := 8*n*float64(sh.Features) + 3*2*n*float64(k)*16 + 6*8*n*c
	return need, fmt.Sprintf("%s on the %d-NN graph of %d rows", ln.Name(), k, sh.Rows), true
}

// Savable says whether a fit of ln (with landmarks landmark rows, 0 for
// the exact fit) gives a pipeline that labels new points: every landmark
// fit does, and the learners on a kernel matrix and label propagation and
// spreading on the points (affinities rbf:G and knn:K); label propagation
// on another affinity does not (an error naming the learner, wrapping
// learner.ErrSettings).
func Savable(ln learner.Learner, landmarks int) error {
	if landmarks > 0 || ssl.UsesKernel(ln) {
		return nil
	}
	if a, ok := propagationAffinity(ln); ok && (a.Kind == propagate.RBF || a.Kind == propagate.KNN) {
		return nil
	}
	return learner.Settingsf("%s cannot label new points (affinities rbf:G, knn:K and kernel can)", ln.Name())
}

// NeedLandmarks refuses learners that run on landmark features only
// (linsvm) without landmarks (landmarks = 0), with an error wrapping
// learner.ErrSettings.
func NeedLandmarks(learners []learner.Learner, landmarks int) error {
	if landmarks > 0 {
		return nil
	}
	for _, l := range learners {
		if _, ok := learner.As[linsvm.Classifier](l); ok {
			return learner.Settingsf("--learner linsvm (LIBLINEAR's linear SVM, scikit-learn's LinearSVC) runs on landmark features: add --landmarks M (with --kernel linear and M ≥ the number of features it is LinearSVC on the scaled points)")
		}
	}
	return nil
}

// CheckGiven refuses settings given (flag names, in the order given) that
// would be silently ignored by the learners of names (comma-separated
// --learner names, built as learners): a learner setting no family of
// names reads ("--k has no effect on --learner svm (it is for knn)"; also
// for the flags outputs lists with the families that read them), or a
// kernel flag (--kernel, a kernel parameter) when no learner uses a
// kernel. Errors wrap learner.ErrSettings; the first setting given that
// is refused is named.
func CheckGiven(names string, learners []learner.Learner, given []string, outputs map[string][]string) error {
	var fams []string
	for _, n := range strings.Split(names, ",") {
		if f := learner.Family(n); f != "" {
			fams = append(fams, f)
		}
	}
	_, users := learner.Flags()
	for k, v := range outputs {
		users[k] = v
	}
	usesKernel := anyUsesKernel(learners)
	for _, name := range given {
		if users, ok := users[name]; ok {
			if !slices.ContainsFunc(users, func(u string) bool { return slices.Contains(fams, u) }) {
				return learner.Settingsf("--%s has no effect on --learner %s (it is for %s)", name, names, strings.Join(users, ", "))
			}
			continue
		}
		if !usesKernel && (name == "kernel" || kernel.IsParam(name)) {
			return learner.Settingsf("--%s has no effect on --learner %s: it uses no kernel (label propagation and spreading use --affinity; --affinity kernel uses the --kernel matrix)", name, names)
		}
	}
	return nil
}

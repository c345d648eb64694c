package kernel

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/graph"
	"gonum.org/v1/gonum/mat"
)

// Family is one named kind of kernel, registered once (Register) so that
// everything that names kernels follows from the registration: ParseSpec
// and Spec.String (the grammar), Lookup and Names, BuildAll (Build) and
// the out-of-sample rows of new points (Built.Extend).
//
// A point kernel family has Kind KindPoint and a Parse that returns
// Spec{Kind: KindPoint, Point: k}: Build and Extend then default to Gram
// and Cross. A data-dependent family has its own Kind, keeps its settings
// in Spec.Data (or the built-in fields), and supplies Build; Extend
// defaults to the least-squares extension of paper 000 §3.5 (Extend).
type Family struct {
	// Name is the spec name ("rbf"); Aliases are other names ParseSpec
	// and the command line accept ("gaussian").
	Name    string
	Aliases []string
	// Kind is Spec.Kind of the family's specs; several families may share
	// one (every point kernel is KindPoint; hck and hckg are KindHCK).
	Kind string
	// Grammar documents the spec forms, e.g. "rbf[:GAMMA|:sigma=S|:scale]".
	Grammar string
	// Expand, if not nil, turns the bare name (lower case, as given) and
	// the parameter values (Params) into spec text (see Expand).
	Expand func(name string, v ParamValues) (string, error)
	// Parse reads the fields after "NAME:" (split at ':' and ','); text is
	// the whole specification for messages, name the (lower-case) name
	// used. It returns a validated Spec.
	Parse func(text, name string, args []string) (Spec, error)
	// Format returns the canonical text of sp, which Parse reads back, and
	// whether sp belongs to this family.
	Format func(sp Spec) (string, bool)
	// Validate checks a Spec built by hand (nil: valid).
	Validate func(sp Spec) error
	// Build computes the N×N Gram matrix over the rows of X; sh shares the
	// Euclidean distances and geodesics between the kernels of one
	// BuildAll. nil for point kernels (Gram). Shares lists the shared
	// inputs Build reads (keys of Shared), so BuildAll can free them after
	// their last use.
	Build  func(ctx context.Context, X mat.Matrix, sp Spec, sh *Shared) (Built, error)
	Shares func(sp Spec) []string
	// Extend returns the t×N kernel rows of new points Xt against the N
	// rows of X the kernel b was built on, and their self-similarities
	// k(x, x), by the out-of-sample rule named rule ("" = the family's
	// default; a family may ignore it). nil: Cross for point kernels, the
	// one-step least-squares extension (Extend) for data-dependent ones.
	Extend func(ctx context.Context, X mat.Matrix, b Built, Xt mat.Matrix, rule string) (*mat.Dense, []float64, error)
}

var (
	families    []*Family
	builtinOnce sync.Once
)

// registry returns the registered families, the built-in ones first.
func registry() []*Family {
	builtinOnce.Do(registerBuiltins)
	return families
}

// Register adds a kernel family (after the built-in ones). It panics on a
// duplicate name or alias or a family without Name, Kind, Parse or Format
// (a programming error, at init time).
func Register(f Family) {
	builtinOnce.Do(registerBuiltins)
	register(f)
}

func register(f Family) {
	if f.Name == "" || f.Kind == "" || f.Parse == nil || f.Format == nil {
		panic(fmt.Sprintf("kernel: Register %q: Name, Kind, Parse and Format are required", f.Name))
	}
	for _, n := range append([]string{f.Name}, f.Aliases...) {
		if lookup(n) != nil {
			panic(fmt.Sprintf("kernel: Register: kernel name %q registered twice", n))
		}
	}
	families = append(families, &f)
}

// Lookup returns the family registered under name or alias (case
// insensitive), or nil.
func Lookup(name string) *Family {
	registry()
	return lookup(name)
}

func lookup(name string) *Family {
	name = strings.ToLower(strings.TrimSpace(name))
	for _, f := range families {
		if f.Name == name || slices.Contains(f.Aliases, name) {
			return f
		}
	}
	return nil
}

// Names returns the registered family names in registration order.
func Names() []string {
	fs := registry()
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// familyOf returns the family of a Spec: the first of its Kind whose
// Format accepts it.
func familyOf(sp Spec) (*Family, string) {
	for _, f := range registry() {
		if f.Kind == sp.Kind {
			if s, ok := f.Format(sp); ok {
				return f, s
			}
		}
	}
	return nil, ""
}

// Shared holds the expensive inputs several data-dependent kernels of one
// BuildAll read: the Euclidean distance matrix and, per neighbourhood
// graph, the geodesic distances. Each is computed on first use.
type Shared struct {
	x        mat.Matrix
	progress func(stage string, done, total int)
	euclid   *distance.Condensed
	geos     map[graph.Spec]*geoEntry
}

type geoEntry struct {
	res  graph.GeodesicResult
	cond *distance.Condensed
}

func newShared(X mat.Matrix, progress func(string, int, int)) *Shared {
	return &Shared{x: X, progress: progress, geos: map[graph.Spec]*geoEntry{}}
}

// Euclidean returns the condensed Euclidean distances of the rows of X
// (distance.Euclidean), computed once. Key "pdist".
func (s *Shared) Euclidean(ctx context.Context) (distance.Condensed, error) {
	if s.euclid == nil {
		s.progress("pdist", 0, 1)
		d, err := distance.Euclidean(ctx, s.x)
		if err != nil {
			return distance.Condensed{}, err
		}
		s.euclid = &d
		s.progress("pdist", 1, 1)
	}
	return *s.euclid, nil
}

// Geodesic returns the geodesic distances over graph g
// (graph.Geodesic), computed once per graph. Key "geodesic:" + g.String().
func (s *Shared) Geodesic(ctx context.Context, g graph.Spec) (graph.GeodesicResult, error) {
	ge := s.geos[g]
	if ge == nil {
		s.progress("geodesic:"+g.String(), 0, 1)
		res, err := graph.Geodesic(ctx, s.x, g)
		if err != nil {
			return graph.GeodesicResult{}, err
		}
		ge = &geoEntry{res: res}
		s.geos[g] = ge
		s.progress("geodesic:"+g.String(), 1, 1)
	}
	return ge.res, nil
}

// GeodesicCondensed returns the geodesic distances of graph g in condensed
// form (for hclust), computed once per graph.
func (s *Shared) GeodesicCondensed(ctx context.Context, g graph.Spec) (distance.Condensed, error) {
	res, err := s.Geodesic(ctx, g)
	if err != nil {
		return distance.Condensed{}, err
	}
	ge := s.geos[g]
	if ge.cond == nil {
		c := condense(ctx, res.G.RawSymmetric())
		ge.cond = &c
	}
	return *ge.cond, nil
}

// release frees a shared input after its last use.
func (s *Shared) release(key string) {
	if key == "pdist" {
		s.euclid = nil
		return
	}
	for g := range s.geos {
		if "geodesic:"+g.String() == key {
			delete(s.geos, g)
		}
	}
}

// Out-of-sample rules of the cluster kernels (Built.Extend).
const (
	RuleTree   = "tree"   // TreeExtension: new points enter the dendrogram (the default)
	RuleLinear = "linear" // Extension: paper 000 §3.5, linear in the features
)

// Extend returns the t×N kernel rows of the new points Xt against the N
// rows of X that b was built on, and their self-similarities k(x, x):
// point kernels evaluate directly (rbf:scale with the gamma b resolved);
// data-dependent kernels use their family's extension: the cluster kernels
// hck and hckg follow rule (RuleTree, the default "", or RuleLinear); the
// others use the one-step least-squares extension of paper 000 §3.5, and
// the linear rule of the graph cluster kernels goes two steps through the
// ISOMAP kernel of the same graph.
func (b Built) Extend(ctx context.Context, X, Xt mat.Matrix, rule string) (*mat.Dense, []float64, error) {
	f, _ := familyOf(b.Spec)
	if f != nil && f.Extend != nil {
		return f.Extend(ctx, X, b, Xt, rule)
	}
	if b.Spec.Kind == KindPoint {
		return extendPoint(ctx, b, X, Xt)
	}
	return extendLeastSquares(ctx, X, b.K, Xt, ExtendOptions{})
}

func extendPoint(ctx context.Context, b Built, X, Xt mat.Matrix) (*mat.Dense, []float64, error) {
	k := b.Kernel()
	Kt, err := Cross(ctx, nil, k, Xt, X)
	if err != nil {
		return nil, nil, err
	}
	t, d := Xt.Dims()
	diag := make([]float64, t)
	row := make([]float64, d)
	for i := range diag {
		mat.Row(row, i, Xt)
		diag[i] = k.Eval(row, row)
	}
	return Kt, diag, nil
}

func extendLeastSquares(ctx context.Context, X mat.Matrix, K mat.Symmetric, Xt mat.Matrix, opt ExtendOptions) (*mat.Dense, []float64, error) {
	ext, err := Extend(ctx, X, K, opt)
	if err != nil {
		return nil, nil, err
	}
	Kt, err := ext.Rows(ctx, Xt)
	if err != nil {
		return nil, nil, err
	}
	diag, err := ext.Diag(ctx, Xt)
	if err != nil {
		return nil, nil, err
	}
	return Kt, diag, nil
}

// Kernel returns the point kernel of a point-kernel Built with rbf:scale
// resolved (RBF{Gamma: b.Gamma}); nil for a data-dependent kernel.
func (b Built) Kernel() Kernel {
	if b.Spec.Kind != KindPoint {
		return nil
	}
	if b.Spec.Scale {
		return RBF{Gamma: b.Gamma}
	}
	return b.Spec.Point
}

// Resolve returns the point kernel of a point Spec over the points X, the
// one place rbf:scale is resolved: it becomes RBF{Gamma: 1/(d·Var X)}, Var
// the population variance of all entries of X (1 when X is constant), as
// scikit-learn's gamma="scale" and peers.py; gamma is that value, 0 for
// every other Spec. Which rows X holds is the caller's choice (the SVM's
// labelled rows, as SVC.fit sees them, or all rows). It panics on an empty
// X.
func (s Spec) Resolve(X mat.Matrix) (k Kernel, gamma float64) {
	if s.Scale {
		g := gammaScale(X)
		return RBF{Gamma: g}, g
	}
	return s.Point, 0
}

// gammaScale is scikit-learn's gamma="scale" for the RBF kernel,
// 1/(d·Var X) with Var the population variance of all entries of X (1
// when X is constant).
func gammaScale(X mat.Matrix) float64 {
	n, d := X.Dims()
	sum := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			sum += X.At(i, j)
		}
	}
	mean := sum / float64(n*d)
	ss := 0.0
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			v := X.At(i, j) - mean
			ss += v * v
		}
	}
	v := ss / float64(n*d)
	if !(v > 0) {
		return 1
	}
	return 1 / (float64(d) * v)
}

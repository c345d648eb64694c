package kernel

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// Kinds of Spec.
const (
	KindPoint        = "point"        // a point kernel (Linear, Poly, RBF, ...)
	KindHCK          = "hck"          // hierarchical cluster kernel (HCK)
	KindISOMAP       = "isomap"       // ISOMAP kernel
	KindConnectivity = "connectivity" // connectivity kernel
	KindMultiType    = "multitype"    // multi-type cluster kernel (Chapelle et al. 2002)
)

// Spec names one kernel over a data set, point or data-dependent; its text
// form is parsed by ParseSpec and printed by String (grammar in doc.go).
type Spec struct {
	Kind   string
	Point  Kernel        // KindPoint
	Scale  bool          // KindPoint RBF: Gamma from the data by Resolve (sklearn gamma="scale")
	Method hclust.Method // KindHCK
	Graph  *graph.Spec   // KindHCK: nil = Euclidean distances; KindISOMAP: nil = DefaultGraph
	Multi  *MultiType    // KindMultiType
	Data   Data          // settings of a kernel family registered elsewhere
}

// Data is the settings of a data-dependent kernel registered outside this
// file (Spec.Data): its family's Parse puts them there, its Format and
// Build read them back.
type Data any

// String returns the canonical text form of s, which ParseSpec reads back.
func (s Spec) String() string {
	if _, text := familyOf(s); text != "" {
		return text
	}
	if s.Kind == KindPoint {
		return fmt.Sprintf("point:%T", s.Point)
	}
	return "?" + s.Kind
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (s Spec) validate() error {
	if s.Kind == KindPoint {
		if s.Scale {
			if _, ok := s.Point.(RBF); !ok {
				return fmt.Errorf("%w: Scale is only for RBF, not %T", ErrBadParam, s.Point)
			}
			return nil
		}
		return Check(s.Point)
	}
	f, _ := familyOf(s)
	if f == nil {
		return fmt.Errorf("%w: kind %q", ErrUnknownKernel, s.Kind)
	}
	if f.Validate != nil {
		return f.Validate(s)
	}
	return nil
}

// ParseSpec parses one kernel specification (grammar in the package
// documentation; each registered Family reads its own fields), e.g.
// "linear", "poly:0.0041:1:3", "rbf:0.5", "rbf:sigma=4.082", "rbf:scale",
// "laplacian:0.3", "exponential:2", "hck:average", "hckg:complete",
// "hckg:average:knn:10", "isomap", "isomap:eps:0.5", "connectivity". Names
// are case-insensitive. Errors wrap ErrUnknownKernel (unknown name, wrong
// number of fields), ErrBadParam (a number out of range), hclust.ErrMethod
// or graph.ErrSpec.
func ParseSpec(s string) (Spec, error) {
	t := strings.TrimSpace(s)
	name, rest, _ := strings.Cut(t, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	var args []string
	if rest != "" {
		args = strings.FieldsFunc(rest, func(r rune) bool { return r == ':' || r == ',' })
	}
	f := Lookup(name)
	if f == nil {
		names := Names()
		want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
		return specError(s, "unknown kernel %q (want %s)", name, want)
	}
	return f.Parse(s, name, args)
}

// ParseSpecs parses a comma-separated list of specifications, e.g.
// "linear,hck:average,hckg:average,isomap". A comma followed by something
// that does not start with a letter continues the previous item, so
// "poly:1,1,3" is one spec.
func ParseSpecs(list string) ([]Spec, error) {
	var items []string
	for _, tok := range strings.Split(list, ",") {
		t := strings.TrimSpace(tok)
		c := byte(0)
		if t != "" {
			c = t[0] | 0x20
		}
		if len(items) > 0 && !(c >= 'a' && c <= 'z') {
			items[len(items)-1] += "," + t
			continue
		}
		items = append(items, t)
	}
	specs := make([]Spec, 0, len(items))
	for _, it := range items {
		sp, err := ParseSpec(it)
		if err != nil {
			return nil, err
		}
		specs = append(specs, sp)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%w: empty kernel list", ErrUnknownKernel)
	}
	return specs, nil
}

// BuildOptions are the settings of BuildAll.
type BuildOptions struct {
	// Progress, if not nil, is called with stage "kernel" (kernels done /
	// total) and stages "pdist" and "geodesic:GRAPH" (0/1, 1/1).
	Progress func(stage string, done, total int)
}

// Built is one kernel matrix made by BuildAll.
type Built struct {
	Spec Spec
	K    *mat.SymDense
	Info Info
	// Gamma is the RBF gamma used when Spec.Scale chose it from the data.
	Gamma float64
}

// BuildAll computes the kernels of specs over the rows of X, in order,
// sharing the expensive steps as peers.py build_kernels does: one Euclidean
// distance matrix (distance.Euclidean) for every Euclidean cluster kernel
// and the connectivity kernel, and one geodesic matrix (graph.Geodesic) per
// distinct graph for every graph cluster kernel and ISOMAP kernel. The
// matrices equal those of HCK.Gram, ISOMAP.Gram, Connectivity.Gram and Gram
// one by one. Memory: the results, plus one condensed distance matrix
// (4N² bytes) and one N×N matrix per distinct graph while needed.
// Errors: those of the individual kernels, ErrUnknownKernel/ErrBadParam for
// an invalid Spec, and ctx.Err().
func BuildAll(ctx context.Context, X mat.Matrix, specs []Spec, opt BuildOptions) ([]Built, error) {
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	for _, sp := range specs {
		if err := sp.validate(); err != nil {
			return nil, fmt.Errorf("kernel %v: %w", sp, err)
		}
	}
	if _, err := checkPoints(X); err != nil {
		return nil, err
	}
	// Last use of each shared input, so it can be released early.
	fams := make([]*Family, len(specs))
	last := map[string]int{}
	for i, sp := range specs {
		fams[i], _ = familyOf(sp)
		if fams[i] != nil && fams[i].Shares != nil {
			for _, key := range fams[i].Shares(sp) {
				last[key] = i
			}
		}
	}
	sh := newShared(X, progress)
	out := make([]Built, 0, len(specs))
	progress("kernel", 0, len(specs))
	for i, sp := range specs {
		var b Built
		var err error
		switch f := fams[i]; {
		case sp.Kind == KindPoint && (f == nil || f.Build == nil):
			b = Built{Spec: sp}
			var k Kernel
			k, b.Gamma = sp.Resolve(X)
			b.K, err = Gram(ctx, nil, k, X)
		case f == nil || f.Build == nil:
			err = fmt.Errorf("%w: kind %q has no build step", ErrUnknownKernel, sp.Kind)
		default:
			b, err = f.Build(ctx, X, sp, sh)
			b.Spec = sp
		}
		if err != nil {
			return nil, fmt.Errorf("kernel %v: %w", sp, err)
		}
		for key, l := range last {
			if l == i {
				sh.release(key)
			}
		}
		out = append(out, b)
		progress("kernel", i+1, len(specs))
	}
	return out, nil
}

func specGraph(sp Spec) graph.Spec {
	if sp.Graph == nil {
		return DefaultGraph()
	}
	return graphOrDefault(*sp.Graph)
}

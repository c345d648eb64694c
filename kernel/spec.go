package kernel

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/distance"
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
	Scale  bool          // KindPoint RBF: Gamma = GammaScale(X) (sklearn gamma="scale")
	Method hclust.Method // KindHCK
	Graph  *graph.Spec   // KindHCK: nil = Euclidean distances; KindISOMAP: nil = DefaultGraph
	Multi  *MultiType    // KindMultiType
}

// String returns the canonical text form of s, which ParseSpec reads back.
func (s Spec) String() string {
	switch s.Kind {
	case KindPoint:
		switch k := s.Point.(type) {
		case Linear:
			return "linear"
		case Poly:
			return "poly:" + ftoa(k.A) + ":" + ftoa(k.B) + ":" + strconv.Itoa(k.Degree)
		case RBF:
			if s.Scale {
				return "rbf:scale"
			}
			return "rbf:" + ftoa(k.Gamma)
		case Laplacian:
			return "laplacian:" + ftoa(k.Gamma)
		case Exponential:
			return "exponential:" + ftoa(k.Gamma)
		}
		return fmt.Sprintf("point:%T", s.Point)
	case KindHCK:
		if s.Graph == nil {
			return "hck:" + s.Method.String()
		}
		return "hckg:" + s.Method.String() + ":" + graphOrDefault(*s.Graph).String()
	case KindISOMAP:
		g := DefaultGraph()
		if s.Graph != nil {
			g = graphOrDefault(*s.Graph)
		}
		return "isomap:" + g.String()
	case KindConnectivity:
		return "connectivity"
	case KindMultiType:
		return s.Multi.specString()
	}
	return "?" + s.Kind
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func (s Spec) validate() error {
	switch s.Kind {
	case KindPoint:
		if s.Scale {
			if _, ok := s.Point.(RBF); !ok {
				return fmt.Errorf("%w: Scale is only for RBF, not %T", ErrBadParam, s.Point)
			}
			return nil
		}
		return Check(s.Point)
	case KindHCK:
		return HCK{Method: s.Method}.validate()
	case KindISOMAP, KindConnectivity:
		return nil
	case KindMultiType:
		if s.Multi == nil {
			return fmt.Errorf("%w: multitype without settings", ErrBadParam)
		}
		return s.Multi.validate()
	}
	return fmt.Errorf("%w: kind %q", ErrUnknownKernel, s.Kind)
}

// ParseSpec parses one kernel specification (grammar in the package
// documentation), e.g. "linear", "poly:0.0041:1:3", "rbf:0.5",
// "rbf:sigma=4.082", "rbf:scale", "laplacian:0.3", "exponential:2",
// "hck:average", "hckg:complete", "hckg:average:knn:10", "isomap",
// "isomap:eps:0.5", "connectivity". Names are case-insensitive. Errors wrap
// ErrUnknownKernel (unknown name, wrong number of fields), ErrBadParam (a
// number out of range), hclust.ErrMethod or graph.ErrSpec.
func ParseSpec(s string) (Spec, error) {
	t := strings.TrimSpace(s)
	name, rest, _ := strings.Cut(t, ":")
	name = strings.ToLower(strings.TrimSpace(name))
	var args []string
	if rest != "" {
		args = strings.FieldsFunc(rest, func(r rune) bool { return r == ':' || r == ',' })
	}
	bad := func(format string, a ...any) (Spec, error) {
		return Spec{}, fmt.Errorf("%w %q: "+format, append([]any{ErrUnknownKernel, s}, a...)...)
	}
	num := func(v string) (float64, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return 0, fmt.Errorf("%w %q: %q is not a number", ErrUnknownKernel, s, v)
		}
		return f, nil
	}
	point := func(k Kernel) (Spec, error) {
		sp := Spec{Kind: KindPoint, Point: k}
		if err := sp.validate(); err != nil {
			return Spec{}, fmt.Errorf("%q: %w", s, err)
		}
		return sp, nil
	}
	gamma := func(kind string) (float64, error) {
		if len(args) != 1 {
			return 0, fmt.Errorf("%w %q: want %s:GAMMA", ErrUnknownKernel, s, kind)
		}
		v := strings.TrimSpace(args[0])
		if g, ok := strings.CutPrefix(strings.ToLower(v), "gamma="); ok {
			v = g
		}
		return num(v)
	}
	switch name {
	case "linear":
		if len(args) != 0 {
			return bad("linear takes no parameters")
		}
		return point(Linear{})
	case "poly", "polynomial":
		if len(args) != 3 {
			return bad("want poly:A:B:DEGREE")
		}
		a, err := num(args[0])
		if err != nil {
			return Spec{}, err
		}
		b, err := num(args[1])
		if err != nil {
			return Spec{}, err
		}
		deg, err := strconv.Atoi(strings.TrimSpace(args[2]))
		if err != nil {
			return bad("degree %q is not an integer", args[2])
		}
		return point(Poly{A: a, B: b, Degree: deg})
	case "rbf", "gaussian":
		if len(args) == 0 || (len(args) == 1 && strings.EqualFold(strings.TrimSpace(args[0]), "scale")) {
			return Spec{Kind: KindPoint, Point: RBF{}, Scale: true}, nil
		}
		if len(args) == 1 {
			if v, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(args[0])), "sigma="); ok {
				sg, err := num(v)
				if err != nil {
					return Spec{}, err
				}
				if !(sg > 0) || math.IsInf(sg, 0) {
					return Spec{}, fmt.Errorf("%w: %q: sigma = %v, want finite sigma > 0", ErrBadParam, s, sg)
				}
				return point(RBFSigma(sg))
			}
		}
		g, err := gamma("rbf")
		if err != nil {
			return Spec{}, err
		}
		return point(RBF{Gamma: g})
	case "laplacian":
		g, err := gamma("laplacian")
		if err != nil {
			return Spec{}, err
		}
		return point(Laplacian{Gamma: g})
	case "exponential":
		g, err := gamma("exponential")
		if err != nil {
			return Spec{}, err
		}
		return point(Exponential{Gamma: g})
	case "hck", "hckg":
		if len(args) == 0 {
			return bad("want %s:METHOD", name)
		}
		m, err := hclust.ParseMethod(args[0])
		if err != nil {
			return Spec{}, fmt.Errorf("%q: %w", s, err)
		}
		sp := Spec{Kind: KindHCK, Method: m}
		if err := sp.validate(); err != nil {
			return Spec{}, fmt.Errorf("%q: %w", s, err)
		}
		if name == "hck" {
			if len(args) != 1 {
				return bad("hck takes only a method (use hckg:METHOD:GRAPH for graph distances)")
			}
			return sp, nil
		}
		g, err := parseGraph(s, args[1:])
		if err != nil {
			return Spec{}, err
		}
		sp.Graph = &g
		return sp, nil
	case "isomap":
		g, err := parseGraph(s, args)
		if err != nil {
			return Spec{}, err
		}
		return Spec{Kind: KindISOMAP, Graph: &g}, nil
	case "connectivity":
		if len(args) != 0 {
			return bad("connectivity takes no parameters")
		}
		return Spec{Kind: KindConnectivity}, nil
	case "multitype":
		m, err := parseMultiType(s, args)
		if err != nil {
			return Spec{}, err
		}
		return Spec{Kind: KindMultiType, Multi: &m}, nil
	}
	return bad("unknown kernel %q (want linear, poly, rbf, laplacian, exponential, hck, hckg, isomap, connectivity or multitype)", name)
}

func parseGraph(s string, args []string) (graph.Spec, error) {
	switch len(args) {
	case 0:
		return DefaultGraph(), nil
	case 2:
		g, err := graph.ParseSpec(args[0] + ":" + args[1])
		if err != nil {
			return graph.Spec{}, fmt.Errorf("%q: %w", s, err)
		}
		return g, nil
	}
	return graph.Spec{}, fmt.Errorf("%w %q: graph must be knn:K or eps:E", ErrUnknownKernel, s)
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

// GammaScale returns scikit-learn's gamma="scale" for the RBF kernel,
// 1/(d·Var X) with Var the population variance of all entries of X
// (1 when X is constant), as peers.py uses. It panics on an empty X.
func GammaScale(X mat.Matrix) float64 {
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
	lastEuclid, lastGraph := -1, map[graph.Spec]int{}
	for i, sp := range specs {
		switch {
		case sp.Kind == KindConnectivity || (sp.Kind == KindHCK && sp.Graph == nil):
			lastEuclid = i
		case sp.Kind == KindHCK || sp.Kind == KindISOMAP:
			lastGraph[specGraph(sp)] = i
		}
	}
	var euclid *distance.Condensed
	type geoEntry struct {
		res  graph.GeodesicResult
		cond *distance.Condensed
	}
	geos := map[graph.Spec]*geoEntry{}
	out := make([]Built, 0, len(specs))
	progress("kernel", 0, len(specs))
	for i, sp := range specs {
		b := Built{Spec: sp}
		var err error
		switch {
		case sp.Kind == KindMultiType:
			b.K, err = sp.Multi.Gram(ctx, X)
		case sp.Kind == KindPoint:
			k := sp.Point
			if sp.Scale {
				b.Gamma = GammaScale(X)
				k = RBF{Gamma: b.Gamma}
			}
			b.K, err = Gram(ctx, nil, k, X)
		case sp.Kind == KindConnectivity || (sp.Kind == KindHCK && sp.Graph == nil):
			m := hclust.Single
			if sp.Kind == KindHCK {
				m = sp.Method
			}
			if euclid == nil {
				progress("pdist", 0, 1)
				d, e := distance.Euclidean(ctx, X)
				if e != nil {
					return nil, fmt.Errorf("kernel %v: %w", sp, e)
				}
				euclid = &d
				progress("pdist", 1, 1)
			}
			b.Info.Tree, err = hclust.Linkage(ctx, *euclid, m)
			if err == nil {
				b.K, err = treeKernel(ctx, b.Info.Tree)
			}
			if i == lastEuclid {
				euclid = nil
			}
		default: // graph variants
			g := specGraph(sp)
			ge := geos[g]
			if ge == nil {
				progress("geodesic:"+g.String(), 0, 1)
				res, e := graph.Geodesic(ctx, X, g)
				if e != nil {
					return nil, fmt.Errorf("kernel %v: %w", sp, e)
				}
				ge = &geoEntry{res: res}
				geos[g] = ge
				progress("geodesic:"+g.String(), 1, 1)
			}
			if sp.Kind == KindISOMAP {
				b.K, b.Info, err = isomapFromGeodesic(ctx, ge.res)
			} else {
				if ge.cond == nil {
					c := condense(ctx, ge.res.G.RawSymmetric())
					ge.cond = &c
				}
				b.Info.Joins = ge.res.Joins
				b.Info.Tree, err = hclust.Linkage(ctx, *ge.cond, sp.Method)
				if err == nil {
					b.K, err = treeKernel(ctx, b.Info.Tree)
				}
			}
			if i == lastGraph[g] {
				delete(geos, g)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("kernel %v: %w", sp, err)
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

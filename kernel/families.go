package kernel

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// registerBuiltins registers the built-in kernel families, in the order of
// the grammar in doc.go, on the first use of the registry (not in an init
// function, so that a program using only point kernels, say through knn,
// does not link the data-dependent kernels' machinery). A new kernel is
// one Register call, in its own file.
func registerBuiltins() {
	register(Family{
		Name: "linear", Kind: KindPoint, Grammar: "linear",
		Parse: func(s, _ string, args []string) (Spec, error) {
			if len(args) != 0 {
				return specError(s, "linear takes no parameters")
			}
			return pointSpec(s, Linear{})
		},
		Format: formatPoint(func(k Kernel) (string, bool) { _, ok := k.(Linear); return "linear", ok }),
	})
	register(Family{
		Name: "poly", Aliases: []string{"polynomial"}, Kind: KindPoint, Grammar: "poly:A:B:DEGREE", Expand: expandPoly,
		Parse: func(s, _ string, args []string) (Spec, error) {
			if len(args) != 3 {
				return specError(s, "want poly:A:B:DEGREE")
			}
			a, err := specNum(s, args[0])
			if err != nil {
				return Spec{}, err
			}
			b, err := specNum(s, args[1])
			if err != nil {
				return Spec{}, err
			}
			deg, err := strconv.Atoi(strings.TrimSpace(args[2]))
			if err != nil {
				return specError(s, "degree %q is not an integer", args[2])
			}
			return pointSpec(s, Poly{A: a, B: b, Degree: deg})
		},
		Format: formatPoint(func(k Kernel) (string, bool) {
			p, ok := k.(Poly)
			return "poly:" + ftoa(p.A) + ":" + ftoa(p.B) + ":" + strconv.Itoa(p.Degree), ok
		}),
	})
	register(Family{
		Name: "rbf", Aliases: []string{"gaussian"}, Kind: KindPoint, Grammar: "rbf[:GAMMA|:gamma=G|:sigma=S|:scale]", Expand: expandRBF,
		Parse: func(s, _ string, args []string) (Spec, error) {
			if len(args) == 0 || (len(args) == 1 && strings.EqualFold(strings.TrimSpace(args[0]), "scale")) {
				return Spec{Kind: KindPoint, Point: RBF{}, Scale: true}, nil
			}
			if len(args) == 1 {
				if v, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(args[0])), "sigma="); ok {
					sg, err := specNum(s, v)
					if err != nil {
						return Spec{}, err
					}
					if !(sg > 0) || math.IsInf(sg, 0) {
						return Spec{}, fmt.Errorf("%w: %q: sigma = %v, want finite sigma > 0", ErrBadParam, s, sg)
					}
					return pointSpec(s, RBFSigma(sg))
				}
			}
			g, err := specGamma(s, "rbf", args)
			if err != nil {
				return Spec{}, err
			}
			return pointSpec(s, RBF{Gamma: g})
		},
		Format: func(sp Spec) (string, bool) {
			k, ok := sp.Point.(RBF)
			if sp.Scale {
				return "rbf:scale", ok
			}
			return "rbf:" + ftoa(k.Gamma), ok
		},
	})
	gammaKernel := func(name string, mk func(g float64) Kernel, is func(Kernel) (float64, bool)) Family {
		return Family{
			Name: name, Kind: KindPoint, Grammar: name + ":GAMMA", Expand: expandGamma(name),
			Parse: func(s, _ string, args []string) (Spec, error) {
				g, err := specGamma(s, name, args)
				if err != nil {
					return Spec{}, err
				}
				return pointSpec(s, mk(g))
			},
			Format: formatPoint(func(k Kernel) (string, bool) {
				g, ok := is(k)
				return name + ":" + ftoa(g), ok
			}),
		}
	}
	register(gammaKernel("laplacian", func(g float64) Kernel { return Laplacian{Gamma: g} },
		func(k Kernel) (float64, bool) { l, ok := k.(Laplacian); return l.Gamma, ok }))
	register(gammaKernel("exponential", func(g float64) Kernel { return Exponential{Gamma: g} },
		func(k Kernel) (float64, bool) { e, ok := k.(Exponential); return e.Gamma, ok }))

	register(Family{
		Name: "hck", Aliases: []string{"cluster"}, Kind: KindHCK, Grammar: "hck:METHOD", Expand: expandHCK,
		Parse: func(s, _ string, args []string) (Spec, error) {
			sp, err := parseHCK(s, "hck", args)
			if err != nil {
				return Spec{}, err
			}
			if len(args) != 1 {
				return specError(s, "hck takes only a method (use hckg:METHOD:GRAPH for graph distances)")
			}
			return sp, nil
		},
		Format: func(sp Spec) (string, bool) {
			return "hck:" + sp.Method.String(), sp.Graph == nil
		},
		Validate: validateHCK,
		Build:    buildHCK,
		Shares:   sharesOf,
		Extend:   extendHCK,
	})
	register(Family{
		Name: "hckg", Kind: KindHCK, Grammar: "hckg:METHOD[:GRAPH]", Expand: expandHCKG,
		Parse: func(s, _ string, args []string) (Spec, error) {
			sp, err := parseHCK(s, "hckg", args)
			if err != nil {
				return Spec{}, err
			}
			g, err := parseGraph(s, args[1:])
			if err != nil {
				return Spec{}, err
			}
			sp.Graph = &g
			return sp, nil
		},
		Format: func(sp Spec) (string, bool) {
			if sp.Graph == nil {
				return "", false
			}
			return "hckg:" + sp.Method.String() + ":" + graphOrDefault(*sp.Graph).String(), true
		},
		Validate: validateHCK,
		Build:    buildHCK,
		Shares:   sharesOf,
		Extend:   extendHCK,
	})
	register(Family{
		Name: "isomap", Kind: KindISOMAP, Grammar: "isomap[:GRAPH]", Expand: expandISOMAP,
		Parse: func(s, _ string, args []string) (Spec, error) {
			g, err := parseGraph(s, args)
			if err != nil {
				return Spec{}, err
			}
			return Spec{Kind: KindISOMAP, Graph: &g}, nil
		},
		Format: func(sp Spec) (string, bool) {
			g := DefaultGraph()
			if sp.Graph != nil {
				g = graphOrDefault(*sp.Graph)
			}
			return "isomap:" + g.String(), true
		},
		Build: func(ctx context.Context, X mat.Matrix, sp Spec, sh *Shared) (Built, error) {
			b := Built{Spec: sp}
			geo, err := sh.Geodesic(ctx, specGraph(sp))
			if err != nil {
				return b, err
			}
			b.K, b.Info, err = isomapFromGeodesic(ctx, geo)
			return b, err
		},
		Shares: sharesOf,
	})
	register(Family{
		Name: "connectivity", Kind: KindConnectivity, Grammar: "connectivity",
		Parse: func(s, _ string, args []string) (Spec, error) {
			if len(args) != 0 {
				return specError(s, "connectivity takes no parameters")
			}
			return Spec{Kind: KindConnectivity}, nil
		},
		Format: func(Spec) (string, bool) { return "connectivity", true },
		Build:  buildHCK,
		Extend: extendHCK,
		Shares: sharesOf,
	})
	register(Family{
		Name: "multitype", Kind: KindMultiType, Grammar: "multitype:TRANSFER:PARAM:GAMMA", Expand: expandMultiType,
		Parse: func(s, _ string, args []string) (Spec, error) {
			m, err := parseMultiType(s, args)
			if err != nil {
				return Spec{}, err
			}
			return Spec{Kind: KindMultiType, Multi: &m}, nil
		},
		Format: func(sp Spec) (string, bool) {
			if sp.Multi == nil {
				return "multitype", true
			}
			return sp.Multi.specString(), true
		},
		Validate: func(sp Spec) error {
			if sp.Multi == nil {
				return fmt.Errorf("%w: multitype without settings", ErrBadParam)
			}
			return sp.Multi.Validate()
		},
		Build: func(ctx context.Context, X mat.Matrix, sp Spec, _ *Shared) (Built, error) {
			b := Built{Spec: sp}
			var err error
			b.K, b.Info, err = sp.Multi.Gram(ctx, X)
			return b, err
		},
	})
}

// specError is ErrUnknownKernel for spec text s.
func specError(s, format string, a ...any) (Spec, error) {
	return Spec{}, fmt.Errorf("%w %q: "+format, append([]any{ErrUnknownKernel, s}, a...)...)
}

func parseFloat(v string) (float64, error) { return strconv.ParseFloat(strings.TrimSpace(v), 64) }

// specNum parses a number field of spec s.
func specNum(s, v string) (float64, error) {
	f, err := parseFloat(v)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %q is not a number", ErrUnknownKernel, s, v)
	}
	return f, nil
}

// specGamma parses the one GAMMA (or gamma=G) field of a kernel spec.
func specGamma(s, kind string, args []string) (float64, error) {
	if len(args) != 1 {
		return 0, fmt.Errorf("%w %q: want %s:GAMMA", ErrUnknownKernel, s, kind)
	}
	v := strings.TrimSpace(args[0])
	if g, ok := strings.CutPrefix(strings.ToLower(v), "gamma="); ok {
		v = g
	}
	return specNum(s, v)
}

// pointSpec validates a point kernel into a Spec.
func pointSpec(s string, k Kernel) (Spec, error) {
	sp := Spec{Kind: KindPoint, Point: k}
	if err := sp.validate(); err != nil {
		return Spec{}, fmt.Errorf("%q: %w", s, err)
	}
	return sp, nil
}

// formatPoint adapts a point-kernel formatter to Family.Format.
func formatPoint(f func(Kernel) (string, bool)) func(Spec) (string, bool) {
	return func(sp Spec) (string, bool) {
		if sp.Scale {
			return "", false
		}
		return f(sp.Point)
	}
}

func parseHCK(s, name string, args []string) (Spec, error) {
	if len(args) == 0 {
		return specError(s, "want %s:METHOD", name)
	}
	m, err := hclust.ParseMethod(args[0])
	if err != nil {
		return Spec{}, fmt.Errorf("%q: %w", s, err)
	}
	sp := Spec{Kind: KindHCK, Method: m}
	if err := sp.validate(); err != nil {
		return Spec{}, fmt.Errorf("%q: %w", s, err)
	}
	return sp, nil
}

func validateHCK(sp Spec) error { return HCK{Method: sp.Method}.Validate() }

// sharesOf names the shared inputs of the built-in data-dependent kernels.
func sharesOf(sp Spec) []string {
	if sp.Kind == KindConnectivity || (sp.Kind == KindHCK && sp.Graph == nil) {
		return []string{"pdist"}
	}
	return []string{"geodesic:" + specGraph(sp).String()}
}

// buildHCK builds the cluster kernels (and connectivity = hck:single).
func buildHCK(ctx context.Context, X mat.Matrix, sp Spec, sh *Shared) (Built, error) {
	b := Built{Spec: sp}
	var err error
	if sp.Kind == KindConnectivity || sp.Graph == nil {
		m := hclust.Single
		if sp.Kind == KindHCK {
			m = sp.Method
		}
		d, e := sh.Euclidean(ctx)
		if e != nil {
			return b, e
		}
		b.Info.Tree, err = hclust.Linkage(ctx, d, m)
	} else {
		g := specGraph(sp)
		geo, e := sh.Geodesic(ctx, g)
		if e != nil {
			return b, e
		}
		b.Info.Joins = geo.Joins
		cond, e := sh.GeodesicCondensed(ctx, g)
		if e != nil {
			return b, e
		}
		b.Info.Tree, err = hclust.Linkage(ctx, cond, sp.Method)
	}
	if err == nil {
		b.K, err = treeKernel(ctx, b.Info.Tree)
	}
	return b, err
}

// extendHCK is the out-of-sample step of the cluster kernels (hck, hckg,
// connectivity = hck:single): the tree
// rule (TreeExtension) unless rule is RuleLinear, else paper 000 §3.5, in
// two steps through the ISOMAP kernel of the same graph for hckg.
func extendHCK(ctx context.Context, X mat.Matrix, b Built, Xt mat.Matrix, rule string) (*mat.Dense, []float64, error) {
	if rule != RuleLinear && b.Info.Tree != nil {
		h := HCK{Method: b.Spec.Method, Graph: b.Spec.Graph}
		if b.Spec.Kind == KindConnectivity {
			h = HCK{Method: hclust.Single} // connectivity = hck:single
		}
		ext, err := NewTreeExtension(X, h, b.Info.Tree, nil)
		if err != nil {
			return nil, nil, err
		}
		Kt, err := ext.Rows(ctx, Xt)
		if err != nil {
			return nil, nil, err
		}
		diag, err := ext.Diag(ctx, Xt)
		return Kt, diag, err
	}
	if b.K == nil {
		return nil, nil, fmt.Errorf("%w: the linear out-of-sample rule of %s needs the float64 kernel matrix (Build32 keeps none); use the tree rule", ErrFloat32, b.Spec)
	}
	opt := ExtendOptions{}
	if b.Spec.Graph != nil {
		iso, err := BuildAll(ctx, X, []Spec{{Kind: KindISOMAP, Graph: b.Spec.Graph}}, BuildOptions{})
		if err != nil {
			return nil, nil, err
		}
		opt.Via = iso[0].K
	}
	return extendLeastSquares(ctx, X, b.K, Xt, opt)
}

func parseGraph(s string, args []string) (graph.Spec, error) {
	switch len(args) {
	case 0:
		return DefaultGraph(), nil
	case 2, 3:
		g, err := graph.ParseSpec(strings.Join(args, ":"))
		if err != nil {
			return graph.Spec{}, fmt.Errorf("%q: %w", s, err)
		}
		return g, nil
	}
	return graph.Spec{}, fmt.Errorf("%w %q: graph must be knn:K or eps:E", ErrUnknownKernel, s)
}

package kernel

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Param is a kernel parameter of the bare-name form of the specifications
// that the command line uses: --kernel NAME with parameter flags
// (--kernel rbf --gamma 0.5, --kernel hck --linkage ward, --kernel
// multitype --gamma 2) stands for spec text (rbf:0.5, hck:ward,
// multitype:linstep:0.1:2). Name is the flag's name, Type "float", "int"
// or "string", Default its value when not given ("NaN" for a float means
// unset).
type Param struct {
	Name    string
	Type    string
	Default string
	Usage   string
}

// ParamValues gives parameter values by name, each Param's Default when
// not given (a float that does not parse is NaN). Expand reads them.
type ParamValues interface {
	Float(name string) float64
	Int(name string) int
	String(name string) string
}

// params are the built-in families' parameters, each once.
var params = []Param{
	{Name: "a", Type: "float", Default: "1", Usage: "poly: (a·x·y + b)^degree"},
	{Name: "b", Type: "float", Default: "1", Usage: "poly: (a·x·y + b)^degree"},
	{Name: "degree", Type: "int", Default: "3", Usage: "poly degree"},
	{Name: "gamma", Type: "float", Default: "NaN", Usage: "gamma of rbf (exp(-γ‖x−y‖²); default 1/(d·Var X) as sklearn's 'scale'), laplacian, exponential"},
	{Name: "sigma", Type: "float", Default: "NaN", Usage: "rbf width σ: γ = 1/(2σ²)"},
	{Name: "linkage", Type: "string", Default: "average", Usage: "hck: single, complete, average, weighted or ward"},
	{Name: "distance", Type: "string", Default: "euclidean", Usage: "hck: euclidean or graph (shortest paths on --graph)"},
	{Name: "graph", Type: "string", Default: "knn:7", Usage: "graph for hck --distance graph and isomap: knn:K or eps:E"},
	{Name: "transfer", Type: "string", Default: "linstep", Usage: "multitype: transfer function step, linstep, poly or randomwalk"},
	{Name: "cut", Type: "float", Default: "0.1", Usage: "multitype step/linstep: eigenvalue cut λ_cut"},
	{Name: "t", Type: "float", Default: "2", Usage: "multitype poly/randomwalk: exponent t"},
}

// Params returns the parameters the built-in families' bare names read.
func Params() []Param { return slices.Clone(params) }

// IsParam reports whether name is one of Params.
func IsParam(name string) bool {
	return slices.ContainsFunc(params, func(p Param) bool { return p.Name == name })
}

// Expand turns a bare family name (any case, or an alias) and the
// parameter values into spec text that ParseSpec reads. A name with
// fields (rbf:0.5), a name no family has, and a family without an Expand
// (linear, connectivity) are returned as they are. Errors name the
// parameters as flags: "--kernel laplacian needs --gamma".
func Expand(name string, v ParamValues) (string, error) {
	if strings.Contains(name, ":") {
		return name, nil
	}
	f := Lookup(name)
	if f == nil || f.Expand == nil {
		return name, nil
	}
	return f.Expand(strings.ToLower(strings.TrimSpace(name)), v)
}

func expandPoly(_ string, v ParamValues) (string, error) {
	return fmt.Sprintf("poly:%s:%s:%d", ftoa(v.Float("a")), ftoa(v.Float("b")), v.Int("degree")), nil
}

func expandRBF(_ string, v ParamValues) (string, error) {
	g, sg := v.Float("gamma"), v.Float("sigma")
	switch {
	case !math.IsNaN(g) && !math.IsNaN(sg):
		return "", fmt.Errorf("--gamma and --sigma are mutually exclusive")
	case !math.IsNaN(g):
		return "rbf:" + ftoa(g), nil
	case !math.IsNaN(sg):
		return "rbf:sigma=" + ftoa(sg), nil
	}
	return "rbf:scale", nil
}

// expandGamma expands a family whose one parameter is gamma.
func expandGamma(family string) func(string, ParamValues) (string, error) {
	return func(name string, v ParamValues) (string, error) {
		g := v.Float("gamma")
		if math.IsNaN(g) {
			return "", fmt.Errorf("--kernel %s needs --gamma", name)
		}
		return family + ":" + ftoa(g), nil
	}
}

func expandHCK(_ string, v ParamValues) (string, error) {
	link := v.String("linkage")
	switch d := v.String("distance"); d {
	case "euclidean":
		return "hck:" + link, nil
	case "graph":
		return "hckg:" + link + ":" + v.String("graph"), nil
	default:
		return "", fmt.Errorf("--distance must be euclidean or graph, got %q", d)
	}
}

func expandHCKG(_ string, v ParamValues) (string, error) {
	return "hckg:" + v.String("linkage") + ":" + v.String("graph"), nil
}

func expandISOMAP(_ string, v ParamValues) (string, error) {
	return "isomap:" + v.String("graph"), nil
}

func expandMultiType(_ string, v ParamValues) (string, error) {
	g, tr := v.Float("gamma"), v.String("transfer")
	cut, t := v.Float("cut"), v.Float("t")
	if math.IsNaN(g) {
		return "", fmt.Errorf("--kernel multitype needs --gamma (1/(2σ²) of the Gaussian affinity)")
	}
	p := cut
	if tr == "poly" || tr == "randomwalk" {
		p = t
	}
	return fmt.Sprintf("multitype:%s:%s:%s", tr, ftoa(p), ftoa(g)), nil
}

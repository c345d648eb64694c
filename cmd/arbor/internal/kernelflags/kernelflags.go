// Package kernelflags is the command line's bare-name form of the kernel
// specifications: --kernel NAME with parameter flags (--kernel rbf --gamma
// 0.5, --kernel hck --linkage ward, --kernel multitype --gamma 2) becomes
// spec text that kernel.ParseSpec reads (rbf:0.5, hck:ward,
// multitype:linstep:0.1:2). A spec with fields (--kernel rbf:0.5) carries
// its own parameters and passes through unchanged.
//
// The flags belong to the kernel families of package kernel by name; a
// family listed in no Expand here (linear, connectivity, or one registered
// by a program) is used by its name alone.
package kernelflags

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// Flag is a kernel parameter flag: its name, type ("float", "int" or
// "string"), default (for "float", "NaN" means unset) and usage.
type Flag struct {
	Name  string
	Type  string
	Value string
	Usage string
}

// flags are the kernel parameter flags, each once.
var flags = []Flag{
	{Name: "a", Type: "float", Value: "1", Usage: "poly: (a·x·y + b)^degree"},
	{Name: "b", Type: "float", Value: "1", Usage: "poly: (a·x·y + b)^degree"},
	{Name: "degree", Type: "int", Value: "3", Usage: "poly degree"},
	{Name: "gamma", Type: "float", Value: "NaN", Usage: "gamma of rbf (exp(-γ‖x−y‖²); default 1/(d·Var X) as sklearn's 'scale'), laplacian, exponential"},
	{Name: "sigma", Type: "float", Value: "NaN", Usage: "rbf width σ: γ = 1/(2σ²)"},
	{Name: "linkage", Type: "string", Value: "average", Usage: "hck: single, complete, average, weighted or ward"},
	{Name: "distance", Type: "string", Value: "euclidean", Usage: "hck: euclidean or graph (shortest paths on --graph)"},
	{Name: "graph", Type: "string", Value: "knn:7", Usage: "graph for hck --distance graph and isomap: knn:K or eps:E"},
	{Name: "transfer", Type: "string", Value: "linstep", Usage: "multitype: transfer function step, linstep, poly or randomwalk"},
	{Name: "cut", Type: "float", Value: "0.1", Usage: "multitype step/linstep: eigenvalue cut λ_cut"},
	{Name: "t", Type: "float", Value: "2", Usage: "multitype poly/randomwalk: exponent t"},
}

// Flags returns the kernel parameter flags.
func Flags() []Flag { return slices.Clone(flags) }

// IsFlag reports whether name is --kernel or one of its parameter flags.
func IsFlag(name string) bool {
	return name == "kernel" || slices.ContainsFunc(flags, func(f Flag) bool { return f.Name == name })
}

// expanders turn a bare family name (as given, lower case) and the flag
// values into spec text, by the family's registered name.
var expanders = map[string]func(name string, v *Values) (string, error){
	"poly": func(_ string, v *Values) (string, error) {
		return fmt.Sprintf("poly:%s:%s:%d", ftoa(v.Float("a")), ftoa(v.Float("b")), v.Int("degree")), nil
	},
	"rbf": func(_ string, v *Values) (string, error) {
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
	},
	"laplacian":   gammaOnly("laplacian"),
	"exponential": gammaOnly("exponential"),
	"hck": func(_ string, v *Values) (string, error) {
		link := v.String("linkage")
		switch d := v.String("distance"); d {
		case "euclidean":
			return "hck:" + link, nil
		case "graph":
			return "hckg:" + link + ":" + v.String("graph"), nil
		default:
			return "", fmt.Errorf("--distance must be euclidean or graph, got %q", d)
		}
	},
	"hckg": func(_ string, v *Values) (string, error) {
		return "hckg:" + v.String("linkage") + ":" + v.String("graph"), nil
	},
	"isomap": func(_ string, v *Values) (string, error) {
		return "isomap:" + v.String("graph"), nil
	},
	"multitype": func(_ string, v *Values) (string, error) {
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
	},
}

// gammaOnly expands a kernel whose one parameter is --gamma.
func gammaOnly(family string) func(string, *Values) (string, error) {
	return func(name string, v *Values) (string, error) {
		g := v.Float("gamma")
		if math.IsNaN(g) {
			return "", fmt.Errorf("--kernel %s needs --gamma", name)
		}
		return family + ":" + ftoa(g), nil
	}
}

// Values holds the values of the kernel flags for Expand and records which
// ones a bare name read (Used), so that a flag with no effect can be
// rejected.
type Values struct {
	vals map[string]string
	set  map[string]bool
	used map[string]bool
}

// NewValues returns values from the flags' defaults, overridden by vals
// (name → text); given lists the flags the user set.
func NewValues(vals map[string]string, given []string) *Values {
	v := &Values{vals: map[string]string{}, set: map[string]bool{}, used: map[string]bool{}}
	for _, d := range flags {
		v.vals[d.Name] = d.Value
	}
	for k, s := range vals {
		v.vals[k] = s
	}
	for _, g := range given {
		v.set[g] = true
	}
	return v
}

// Float returns a float flag (NaN if unset) and marks it used.
func (v *Values) Float(name string) float64 {
	v.used[name] = true
	f, err := strconv.ParseFloat(strings.TrimSpace(v.vals[name]), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

// Int returns an int flag and marks it used.
func (v *Values) Int(name string) int {
	v.used[name] = true
	var n int
	fmt.Sscan(v.vals[name], &n)
	return n
}

// String returns a string flag and marks it used.
func (v *Values) String(name string) string {
	v.used[name] = true
	return v.vals[name]
}

// Given reports whether the user set the flag.
func (v *Values) Given(name string) bool { return v.set[name] }

// Used reports whether an Expand read the flag.
func (v *Values) Used(name string) bool { return v.used[name] }

// Expand turns a bare kernel name and the flag values into spec text; a
// name with fields, or a family without parameter flags, is returned as
// it is.
func Expand(name string, v *Values) (string, error) {
	if strings.Contains(name, ":") {
		return name, nil
	}
	fam := kernel.Lookup(name)
	if fam == nil {
		return name, nil
	}
	ex := expanders[fam.Name]
	if ex == nil {
		return name, nil
	}
	return ex(strings.ToLower(strings.TrimSpace(name)), v)
}

// Set is the --kernel flag and the parameter flags of one command.
type Set struct {
	Kernel string
	floats map[string]*float64
	ints   map[string]*int
	strs   map[string]*string
	fs     *flag.FlagSet // to tell which flags were given
}

// Register defines --kernel (default def) and the parameter flags on fs.
func (s *Set) Register(fs *flag.FlagSet, def string) {
	s.fs = fs
	s.floats, s.ints, s.strs = map[string]*float64{}, map[string]*int{}, map[string]*string{}
	fs.StringVar(&s.Kernel, "kernel", def, "kernel: "+strings.Join(kernel.Names(), ", ")+", or a spec such as rbf:0.5, hck:average, hckg:average:knn:7 (comma-separated list where several are allowed)")
	for _, f := range flags {
		switch f.Type {
		case "float":
			v, err := strconv.ParseFloat(f.Value, 64)
			if err != nil {
				v = math.NaN()
			}
			s.floats[f.Name] = fs.Float64(f.Name, v, f.Usage)
		case "int":
			v, _ := strconv.Atoi(f.Value)
			s.ints[f.Name] = fs.Int(f.Name, v, f.Usage)
		default:
			s.strs[f.Name] = fs.String(f.Name, f.Value, f.Usage)
		}
	}
}

// Values returns the parsed flag values for Expand.
func (s *Set) Values() *Values {
	vals := map[string]string{}
	for n, p := range s.floats {
		vals[n] = ftoa(*p)
	}
	for n, p := range s.ints {
		vals[n] = strconv.Itoa(*p)
	}
	for n, p := range s.strs {
		vals[n] = *p
	}
	var given []string
	if s.fs != nil {
		s.fs.Visit(func(f *flag.Flag) { given = append(given, f.Name) })
	}
	return NewValues(vals, given)
}

// UsageError is a mistake in the kernel flags (exit status 2 at the
// command line).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usage(format string, a ...any) error { return &UsageError{fmt.Sprintf(format, a...)} }

// Specs expands --kernel (a comma-separated list) with the flags and
// parses each spec. Errors are *UsageError: a spec that does not parse, an
// empty list, or a parameter flag given that no listed kernel reads.
func (s *Set) Specs() ([]kernel.Spec, error) {
	var out []kernel.Spec
	fv := s.Values()
	for _, name := range strings.Split(s.Kernel, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := Expand(name, fv)
		if err != nil {
			return nil, usage("%v", err)
		}
		sp, err := kernel.ParseSpec(text)
		if err != nil {
			return nil, usage("--kernel: %v", err)
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, usage("--kernel is empty")
	}
	if s.fs != nil {
		var unused error
		s.fs.Visit(func(f *flag.Flag) {
			if unused == nil && f.Name != "kernel" && IsFlag(f.Name) && !fv.Used(f.Name) {
				hint := ""
				switch {
				case strings.Contains(s.Kernel, ":"):
					hint = " (a spec such as rbf:0.5 or hck:average carries its own parameters)"
				case f.Name == "graph":
					hint = " (hck uses --graph with --distance graph)"
				}
				unused = usage("--%s has no effect on --kernel %s%s", f.Name, s.Kernel, hint)
			}
		})
		if unused != nil {
			return nil, unused
		}
	}
	return out, nil
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

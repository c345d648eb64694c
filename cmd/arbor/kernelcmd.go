package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/internal/npy"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

func init() {
	register(command{name: "kernel", summary: "compute an N×N kernel matrix (point or data-dependent) to CSV or .npy", run: runKernel})
}

// kernelFlags turn the flag form (--kernel rbf --gamma 0.5) or the spec form
// (--kernel rbf:0.5, --kernel hckg:average:knn:5) into kernel specs.
type kernelFlags struct {
	kernel   string
	gamma    float64
	sigma    float64
	a, b     float64
	degree   int
	linkage  string
	distance string
	graph    string
	transfer string
	cut      float64
	t        float64

	fs   *flag.FlagSet   // to tell which flags were given
	used map[string]bool // flags a bare kernel name consumed
}

// kernelParamFlags are the flags that only parameterise a bare --kernel name.
var kernelParamFlags = []string{"gamma", "sigma", "a", "b", "degree", "linkage", "distance", "graph", "transfer", "cut", "t"}

func (k *kernelFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
	Float64Var(p *float64, name string, value float64, usage string)
	IntVar(p *int, name string, value int, usage string)
}, def string) {
	if f, ok := fs.(*flag.FlagSet); ok {
		k.fs = f
	}
	fs.StringVar(&k.kernel, "kernel", def, "kernel: linear, poly, rbf, laplacian, exponential, hck, isomap, connectivity, multitype, or a spec such as rbf:0.5, hck:average, hckg:average:knn:7 (comma-separated list where several are allowed)")
	fs.Float64Var(&k.gamma, "gamma", math.NaN(), "gamma of rbf (exp(-γ‖x−y‖²); default 1/(d·Var X) as sklearn's 'scale'), laplacian, exponential")
	fs.Float64Var(&k.sigma, "sigma", math.NaN(), "rbf width σ: γ = 1/(2σ²)")
	fs.Float64Var(&k.a, "a", 1, "poly: (a·x·y + b)^degree")
	fs.Float64Var(&k.b, "b", 1, "poly: (a·x·y + b)^degree")
	fs.IntVar(&k.degree, "degree", 3, "poly degree")
	fs.StringVar(&k.linkage, "linkage", "average", "hck: single, complete, average, weighted or ward")
	fs.StringVar(&k.distance, "distance", "euclidean", "hck: euclidean or graph (shortest paths on --graph)")
	fs.StringVar(&k.graph, "graph", "knn:7", "graph for hck --distance graph and isomap: knn:K or eps:E")
	fs.StringVar(&k.transfer, "transfer", "linstep", "multitype: transfer function step, linstep, poly or randomwalk")
	fs.Float64Var(&k.cut, "cut", 0.1, "multitype step/linstep: eigenvalue cut λ_cut")
	fs.Float64Var(&k.t, "t", 2, "multitype poly/randomwalk: exponent t")
}

// specs expands the flags into spec strings and parses them.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	var out []kernel.Spec
	for _, name := range strings.Split(k.kernel, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := k.expand(name)
		if err != nil {
			return nil, err
		}
		sp, err := kernel.ParseSpec(text)
		if err != nil {
			return nil, usageError("--kernel: %v", err)
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, usageError("--kernel is empty")
	}
	if k.fs != nil {
		var unused error
		k.fs.Visit(func(f *flag.Flag) {
			if unused == nil && slices.Contains(kernelParamFlags, f.Name) && !k.used[f.Name] {
				hint := ""
				switch {
				case strings.Contains(k.kernel, ":"):
					hint = " (a spec such as rbf:0.5 or hck:average carries its own parameters)"
				case f.Name == "graph":
					hint = " (hck uses --graph with --distance graph)"
				}
				unused = usageError("--%s has no effect on --kernel %s%s", f.Name, k.kernel, hint)
			}
		})
		if unused != nil {
			return nil, unused
		}
	}
	return out, nil
}

func (k *kernelFlags) use(names ...string) {
	if k.used == nil {
		k.used = map[string]bool{}
	}
	for _, n := range names {
		k.used[n] = true
	}
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// expand turns a bare kernel name plus flags into a spec string.
func (k *kernelFlags) expand(name string) (string, error) {
	if strings.Contains(name, ":") {
		return name, nil
	}
	switch strings.ToLower(name) {
	case "rbf", "gaussian":
		k.use("gamma", "sigma")
		switch {
		case !math.IsNaN(k.gamma) && !math.IsNaN(k.sigma):
			return "", usageError("--gamma and --sigma are mutually exclusive")
		case !math.IsNaN(k.gamma):
			return "rbf:" + ftoa(k.gamma), nil
		case !math.IsNaN(k.sigma):
			return "rbf:sigma=" + ftoa(k.sigma), nil
		}
		return "rbf:scale", nil
	case "laplacian", "exponential":
		k.use("gamma")
		if math.IsNaN(k.gamma) {
			return "", usageError("--kernel %s needs --gamma", name)
		}
		return strings.ToLower(name) + ":" + ftoa(k.gamma), nil
	case "poly", "polynomial":
		k.use("a", "b", "degree")
		return fmt.Sprintf("poly:%s:%s:%d", ftoa(k.a), ftoa(k.b), k.degree), nil
	case "hck", "cluster":
		k.use("linkage", "distance")
		switch k.distance {
		case "euclidean":
			return "hck:" + k.linkage, nil
		case "graph":
			k.use("graph")
			return "hckg:" + k.linkage + ":" + k.graph, nil
		}
		return "", usageError("--distance must be euclidean or graph, got %q", k.distance)
	case "hckg":
		k.use("linkage", "graph")
		return "hckg:" + k.linkage + ":" + k.graph, nil
	case "isomap":
		k.use("graph")
		return "isomap:" + k.graph, nil
	case "multitype":
		k.use("gamma", "transfer", "cut", "t")
		if math.IsNaN(k.gamma) {
			return "", usageError("--kernel multitype needs --gamma (1/(2σ²) of the Gaussian affinity)")
		}
		p := k.cut
		if k.transfer == "poly" || k.transfer == "randomwalk" {
			p = k.t
		}
		return fmt.Sprintf("multitype:%s:%s:%s", k.transfer, ftoa(p), ftoa(k.gamma)), nil
	}
	return name, nil
}

func runKernel(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "kernel", "--data F --kernel NAME [params] --out K.csv|K.npy")
	var d dataFlags
	d.register(fs, "none")
	d.labelOptional = true
	d.command = "arbor kernel"
	var kf kernelFlags
	kf.register(fs, "linear")
	out := fs.String("out", "", "output file: .csv (comma-separated, full precision) or .npy (NumPy float64)")
	embed := fs.Int("embed", 0, "also write the embedding Z = U·√S with this many dimensions (to --embed-out)")
	embedOut := fs.String("embed-out", "", "embedding output file (.csv or .npy)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError("--out is required")
	}
	if err := checkMatrixExt(*out); err != nil {
		return err
	}
	if *embed < 0 {
		return usageError("--embed %d: give the number of dimensions, at least 1", *embed)
	}
	if (*embed > 0) != (*embedOut != "") {
		return usageError("--embed and --embed-out go together")
	}
	if *embedOut != "" {
		if err := checkMatrixExt(*embedOut); err != nil {
			return err
		}
	}
	if err := checkOutputs("data", d.path, "out", *out, "embed-out", *embedOut); err != nil {
		return err
	}
	specs, err := kf.specs()
	if err != nil {
		return err
	}
	if len(specs) != 1 {
		return usageError("arbor kernel computes one kernel; got %d", len(specs))
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	if *embed > ds.Len() {
		return usageError("--embed %d: at most the number of rows (%d)", *embed, ds.Len())
	}
	start := time.Now()
	built, err := kernel.BuildAll(ctx, ds.X, specs, kernel.BuildOptions{Progress: e.progress(*quiet)})
	if err != nil {
		return err
	}
	b := built[0]
	n := ds.Len()
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", b.Spec)
	if b.Gamma > 0 {
		fmt.Fprintf(e.stdout, " (gamma %.6g)", b.Gamma)
	}
	if b.Info.Joins > 0 {
		fmt.Fprintf(e.stdout, " (%d component joins)", b.Info.Joins)
	}
	if b.Info.NegEigs > 0 {
		fmt.Fprintf(e.stdout, " (%d negative eigenvalues clipped)", b.Info.NegEigs)
	}
	fmt.Fprintf(e.stdout, "\nsize    %d×%d, built in %.2fs\n", n, n, time.Since(start).Seconds())
	if err := writeMatrix(*out, b.K); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", *out)
	if *embed > 0 {
		Z, err := kernel.Embed(b.K, *embed)
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil { // Embed takes no context
			return err
		}
		if err := writeMatrix(*embedOut, Z); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote   %s (embedding, %d dims)\n", *embedOut, *embed)
	}
	return nil
}

func checkMatrixExt(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv", ".npy":
		return nil
	}
	return usageError("%s: output must end in .csv or .npy", path)
}

// writeMatrix writes m atomically as CSV or .npy by extension.
func writeMatrix(path string, m mat.Matrix) error {
	return writeAtomic(path, func(f *os.File) error {
		if strings.EqualFold(filepath.Ext(path), ".npy") {
			return npy.Write(f, m)
		}
		return writeMatrixCSV(f, m)
	})
}

package main

import (
	"flag"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
)

// kernelFlags are --kernel and its parameter flags (kernel.Params): the
// flag form (--kernel rbf --gamma 0.5, expanded by kernel.Expand) or the
// spec form (--kernel rbf:0.5, --kernel hckg:average:knn:5) of the kernel
// specs.
type kernelFlags struct {
	kernel string
	fs     *flag.FlagSet // to tell which flags were given and read them
}

// register defines --kernel (default def) and the parameter flags on fs.
func (k *kernelFlags) register(fs *flag.FlagSet, def string) {
	k.fs = fs
	fs.StringVar(&k.kernel, "kernel", def, "kernel: "+strings.Join(kernel.Names(), ", ")+", or a spec such as rbf:0.5, hck:average, hckg:average:knn:7 (comma-separated list where several are allowed)")
	for _, p := range kernel.Params() {
		switch p.Type {
		case "float":
			v, err := strconv.ParseFloat(p.Default, 64)
			if err != nil {
				v = math.NaN()
			}
			fs.Float64(p.Name, v, p.Usage)
		case "int":
			v, _ := strconv.Atoi(p.Default)
			fs.Int(p.Name, v, p.Usage)
		default:
			fs.String(p.Name, p.Default, p.Usage)
		}
	}
}

// isKernelFlag reports whether name is --kernel or one of its parameter
// flags.
func isKernelFlag(name string) bool { return name == "kernel" || kernel.IsParam(name) }

// paramValues reads the parameter flags for kernel.Expand and records
// which ones a bare name read.
type paramValues struct {
	fs   *flag.FlagSet
	used map[string]bool
}

func (v paramValues) text(name string) string {
	v.used[name] = true
	return v.fs.Lookup(name).Value.String()
}

func (v paramValues) Float(name string) float64 {
	f, err := strconv.ParseFloat(v.text(name), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func (v paramValues) Int(name string) int {
	n, _ := strconv.Atoi(v.text(name))
	return n
}

func (v paramValues) String(name string) string { return v.text(name) }

// specs expands --kernel (a comma-separated list) with the flags and
// parses each spec. Mistakes are usage errors: a spec that does not parse,
// an empty list, or a parameter flag given that no listed kernel reads.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	var out []kernel.Spec
	pv := paramValues{fs: k.fs, used: map[string]bool{}}
	for _, name := range strings.Split(k.kernel, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := kernel.Expand(name, pv)
		if err != nil {
			return nil, usageError("%v", err)
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
	var unused error
	k.fs.Visit(func(f *flag.Flag) {
		if unused == nil && kernel.IsParam(f.Name) && !pv.used[f.Name] {
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
	return out, nil
}

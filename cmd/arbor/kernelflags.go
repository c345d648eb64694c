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

// specs expands --kernel (a comma-separated list) with the parameter
// flags (kernel.ExpandList); its mistakes are usage errors.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	var set []string
	k.fs.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	out, err := kernel.ExpandList(k.kernel, func(name string) string { return k.fs.Lookup(name).Value.String() }, set)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return out, nil
}

package main

import (
	"flag"

	"github.com/arbor-ml/arbor/kernel"
)

// kernelFlags are --kernel and its parameter flags (kernel.AddFlags): the
// flag form (--kernel rbf --gamma 0.5) or the spec form (--kernel rbf:0.5,
// --kernel hckg:average:knn:5) of the kernel specs.
type kernelFlags struct {
	fs *flag.FlagSet // to tell which flags were given and read them
}

// register defines --kernel (default def) and the parameter flags on fs.
func (k *kernelFlags) register(fs *flag.FlagSet, def string) {
	k.fs = fs
	kernel.AddFlags(fs, def)
}

// isKernelFlag reports whether name is --kernel or one of its parameter
// flags.
func isKernelFlag(name string) bool { return name == "kernel" || kernel.IsParam(name) }

// specs expands --kernel with the parameter flags (kernel.FlagSpecs); its
// mistakes are usage errors.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	out, err := kernel.FlagSpecs(k.fs)
	if err != nil {
		return nil, usageError("%v", err)
	}
	return out, nil
}

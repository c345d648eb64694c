package main

import (
	"errors"
	"flag"

	"github.com/arbor-ml/arbor/cmd/arbor/internal/kernelflags"
	"github.com/arbor-ml/arbor/kernel"
)

// kernelFlags are --kernel and its parameter flags (kernelflags.Set): the
// flag form (--kernel rbf --gamma 0.5) or the spec form (--kernel rbf:0.5,
// --kernel hckg:average:knn:5) of the kernel specs.
type kernelFlags struct{ set kernelflags.Set }

func (k *kernelFlags) register(fs *flag.FlagSet, def string) { k.set.Register(fs, def) }

// specs expands the flags into specs; a mistake is a usage error.
func (k *kernelFlags) specs() ([]kernel.Spec, error) {
	specs, err := k.set.Specs()
	if ue := (*kernelflags.UsageError)(nil); errors.As(err, &ue) {
		return nil, usageError("%s", ue.Msg)
	}
	return specs, err
}

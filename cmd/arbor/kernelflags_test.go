package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestKernelFlagSpecs: bare names take the parameter flags; a parameter
// flag no listed kernel reads, an unknown kernel and an empty list are
// usage errors.
func TestKernelFlagSpecs(t *testing.T) {
	parse := func(args ...string) ([]kernel.Spec, error) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var k kernelFlags
		k.register(fs, "linear")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return k.specs()
	}
	specs, err := parse("--kernel", "rbf,hck", "--gamma", "0.5", "--linkage", "single")
	if err != nil || len(specs) != 2 || specs[0].String() != "rbf:0.5" || specs[1].String() != "hck:single" {
		t.Fatalf("%v %v", specs, err)
	}
	if _, err := parse("--kernel", "linear", "--gamma", "1"); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--gamma has no effect on --kernel linear") {
		t.Errorf("unused --gamma: %v", err)
	}
	if _, err := parse("--kernel", "nosuch"); !errors.Is(err, errUsage) {
		t.Errorf("unknown kernel: %v", err)
	}
	if _, err := parse("--kernel", " , "); !errors.Is(err, errUsage) {
		t.Errorf("empty list: %v", err)
	}
	if !isKernelFlag("kernel") || !isKernelFlag("gamma") || isKernelFlag("learner") {
		t.Error("isKernelFlag wrong")
	}
}

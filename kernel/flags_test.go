package kernel_test

import (
	"flag"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestFlagSpecs: the parameter flags have Params' types and defaults;
// bare names take the parameter flags; a parameter flag no listed kernel
// reads, an unknown kernel and an empty list are errors.
func TestFlagSpecs(t *testing.T) {
	parse := func(args ...string) (*flag.FlagSet, []kernel.Spec, error) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		kernel.AddFlags(fs, "linear")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		specs, err := kernel.FlagSpecs(fs)
		return fs, specs, err
	}
	fs, specs, err := parse()
	if err != nil || len(specs) != 1 || specs[0].String() != "linear" {
		t.Fatalf("default: %v %v", specs, err)
	}
	for _, p := range kernel.Params() {
		f := fs.Lookup(p.Name)
		if f == nil {
			t.Errorf("no flag --%s", p.Name)
			continue
		}
		if g, ok := f.Value.(flag.Getter); ok && p.Default == "NaN" {
			if v, _ := g.Get().(float64); !math.IsNaN(v) {
				t.Errorf("--%s default %v, want NaN (unset)", p.Name, g.Get())
			}
		} else if f.DefValue != p.Default {
			t.Errorf("--%s default %q, want %q", p.Name, f.DefValue, p.Default)
		}
	}
	_, specs, err = parse("--kernel", "rbf,hck", "--gamma", "0.5", "--linkage", "single")
	if err != nil || len(specs) != 2 || specs[0].String() != "rbf:0.5" || specs[1].String() != "hck:single" {
		t.Fatalf("%v %v", specs, err)
	}
	if _, _, err := parse("--kernel", "linear", "--gamma", "1"); err == nil || !strings.Contains(err.Error(), "--gamma has no effect on --kernel linear") {
		t.Errorf("unused --gamma: %v", err)
	}
	if _, _, err := parse("--kernel", "nosuch"); err == nil {
		t.Error("unknown kernel: no error")
	}
	if _, _, err := parse("--kernel", " , "); err == nil {
		t.Error("empty list: no error")
	}
}

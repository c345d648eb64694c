package kernelflags

import (
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
)

// TestExpand: each bare name with the flags' defaults or given values
// becomes the spec text documented for it, which ParseSpec reads; a name
// with fields passes through; the flags a name reads are marked used.
func TestExpand(t *testing.T) {
	for _, c := range []struct {
		name string
		vals map[string]string
		want string
		used []string
	}{
		{"linear", nil, "linear", nil},
		{"connectivity", nil, "connectivity", nil},
		{"poly", nil, "poly:1:1:3", []string{"a", "b", "degree"}},
		{"poly", map[string]string{"a": "0.5", "degree": "2"}, "poly:0.5:1:2", []string{"a", "b", "degree"}},
		{"rbf", nil, "rbf:scale", []string{"gamma", "sigma"}},
		{"Gaussian", map[string]string{"gamma": "0.25"}, "rbf:0.25", []string{"gamma", "sigma"}},
		{"rbf", map[string]string{"sigma": "2"}, "rbf:sigma=2", []string{"gamma", "sigma"}},
		{"laplacian", map[string]string{"gamma": "3"}, "laplacian:3", []string{"gamma"}},
		{"exponential", map[string]string{"gamma": "3"}, "exponential:3", []string{"gamma"}},
		{"hck", nil, "hck:average", []string{"linkage", "distance"}},
		{"cluster", map[string]string{"linkage": "ward"}, "hck:ward", []string{"linkage", "distance"}},
		{"hck", map[string]string{"distance": "graph", "graph": "knn:5"}, "hckg:average:knn:5", []string{"linkage", "distance", "graph"}},
		{"hckg", nil, "hckg:average:knn:7", []string{"linkage", "graph"}},
		{"isomap", map[string]string{"graph": "eps:0.5"}, "isomap:eps:0.5", []string{"graph"}},
		{"multitype", map[string]string{"gamma": "2"}, "multitype:linstep:0.1:2", []string{"gamma", "transfer", "cut", "t"}},
		{"multitype", map[string]string{"gamma": "2", "transfer": "poly", "t": "3"}, "multitype:poly:3:2", []string{"gamma", "transfer", "cut", "t"}},
		{"rbf:0.5", map[string]string{"gamma": "9"}, "rbf:0.5", nil},
	} {
		v := NewValues(c.vals, nil)
		got, err := Expand(c.name, v)
		if err != nil || got != c.want {
			t.Errorf("%s %v: %q %v, want %q", c.name, c.vals, got, err, c.want)
			continue
		}
		if _, err := kernel.ParseSpec(got); err != nil {
			t.Errorf("%s: %q does not parse: %v", c.name, got, err)
		}
		for _, f := range flags {
			if v.Used(f.Name) != slices.Contains(c.used, f.Name) {
				t.Errorf("%s: --%s used %v", c.name, f.Name, v.Used(f.Name))
			}
		}
	}
	for _, c := range []struct{ name, vals, msg string }{
		{"rbf", "gamma=1,sigma=1", "--gamma and --sigma are mutually exclusive"},
		{"laplacian", "", "--kernel laplacian needs --gamma"},
		{"multitype", "", "--kernel multitype needs --gamma"},
		{"hck", "distance=manhattan", `--distance must be euclidean or graph, got "manhattan"`},
	} {
		vals := map[string]string{}
		for _, kv := range strings.Split(c.vals, ",") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				vals[k] = v
			}
		}
		if _, err := Expand(c.name, NewValues(vals, nil)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %s: %v, want %q", c.name, c.vals, err, c.msg)
		}
	}
}

// TestSpecs: a parameter flag no listed kernel reads is a usage error, and
// every flag is registered on the flag set with its default.
func TestSpecs(t *testing.T) {
	parse := func(args ...string) ([]kernel.Spec, error) {
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var s Set
		s.Register(fs, "linear")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return s.Specs()
	}
	specs, err := parse("--kernel", "rbf,hck", "--gamma", "0.5", "--linkage", "single")
	if err != nil || len(specs) != 2 || specs[0].String() != "rbf:0.5" || specs[1].String() != "hck:single" {
		t.Fatalf("%v %v", specs, err)
	}
	var ue *UsageError
	if _, err := parse("--kernel", "linear", "--gamma", "1"); !errors.As(err, &ue) || !strings.Contains(err.Error(), "--gamma has no effect on --kernel linear") {
		t.Errorf("unused --gamma: %v", err)
	}
	if _, err := parse("--kernel", "nosuch"); !errors.As(err, &ue) {
		t.Errorf("unknown kernel: %v", err)
	}
	if _, err := parse("--kernel", " , "); !errors.As(err, &ue) {
		t.Errorf("empty list: %v", err)
	}
	for _, f := range flags {
		if !IsFlag(f.Name) {
			t.Errorf("IsFlag(%q) false", f.Name)
		}
	}
	if !IsFlag("kernel") || IsFlag("learner") {
		t.Error("IsFlag(kernel/learner) wrong")
	}
}

package kernel

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mapValues gives the parameters from a map over their defaults, and
// records which ones were read.
type mapValues struct {
	vals map[string]string
	used map[string]bool
}

func newMapValues(vals map[string]string) mapValues {
	v := mapValues{vals: map[string]string{}, used: map[string]bool{}}
	for _, p := range Params() {
		v.vals[p.Name] = p.Default
	}
	for k, s := range vals {
		v.vals[k] = s
	}
	return v
}

func (v mapValues) Float(name string) float64 {
	v.used[name] = true
	f, err := strconv.ParseFloat(v.vals[name], 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func (v mapValues) Int(name string) int {
	v.used[name] = true
	n, _ := strconv.Atoi(v.vals[name])
	return n
}

func (v mapValues) String(name string) string {
	v.used[name] = true
	return v.vals[name]
}

// TestExpand: each bare name with the parameters' defaults or given values
// becomes the spec text documented for it, which ParseSpec reads; a name
// with fields passes through; exactly the parameters a name reads are
// read.
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
		v := newMapValues(c.vals)
		got, err := Expand(c.name, v)
		if err != nil || got != c.want {
			t.Errorf("%s %v: %q %v, want %q", c.name, c.vals, got, err, c.want)
			continue
		}
		if _, err := ParseSpec(got); err != nil {
			t.Errorf("%s: %q does not parse: %v", c.name, got, err)
		}
		for _, p := range Params() {
			if v.used[p.Name] != slices.Contains(c.used, p.Name) {
				t.Errorf("%s: %s read %v", c.name, p.Name, v.used[p.Name])
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
		if _, err := Expand(c.name, newMapValues(vals)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%s %s: %v, want %q", c.name, c.vals, err, c.msg)
		}
	}
	for _, p := range Params() {
		if !IsParam(p.Name) {
			t.Errorf("IsParam(%q) false", p.Name)
		}
	}
	if IsParam("kernel") || IsParam("learner") {
		t.Error("IsParam(kernel/learner) true")
	}
}

package modelselect

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// KernelParam is the name of a grid's kernel axis (its values are
// kernel.Spec texts) among the learner's settings.
const KernelParam = "kernel"

// Grid is the parameter grid of one learner family: every combination of
// the values of its settings (flag names of the family's registered
// settings, learner.Entry.Flags) and, for a learner that uses a kernel,
// of its kernels. A setting not in Params takes its flag's default.
type Grid struct {
	Learner string              // a registered family (learner.Lookup): "svm", "knn", "lp", …
	Params  map[string][]string // setting → values, as flag text ("C": {"0.1", "1", "10"})
	Kernels []string            // kernel specs ("rbf:0.1", "hck:average"); none: "linear"
}

// Candidate is one setting of a search: a learner family, its settings
// and its kernel ("" for a learner on its own affinity, which uses none).
type Candidate struct {
	Learner string            `json:"learner"`
	Kernel  string            `json:"kernel,omitempty"`
	Params  map[string]string `json:"params"`
}

// String is the candidate as "svm C=10 kernel=rbf:0.1": the family, then
// its settings and kernel in sorted order.
func (c Candidate) String() string {
	var b strings.Builder
	b.WriteString(c.Learner)
	for _, k := range c.keys() {
		b.WriteString(" " + k + "=" + c.value(k))
	}
	return b.String()
}

func (c Candidate) keys() []string {
	keys := slices.Collect(maps.Keys(c.Params))
	if c.Kernel != "" {
		keys = append(keys, KernelParam)
	}
	slices.Sort(keys)
	return keys
}

func (c Candidate) value(k string) string {
	if k == KernelParam {
		return c.Kernel
	}
	return c.Params[k]
}

// values reads a candidate's settings as learner.Values: the value given,
// else the flag's default.
type values struct {
	p    map[string]string
	seed uint64
}

func (v values) text(name string) string {
	if s, ok := v.p[name]; ok {
		return s
	}
	flags, _ := learner.Flags()
	for _, f := range flags {
		if f.Name == name {
			return f.Default
		}
	}
	return ""
}

func (v values) Float(name string) float64 {
	f, err := strconv.ParseFloat(strings.TrimSpace(v.text(name)), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}
func (v values) Int(name string) int {
	i, _ := strconv.Atoi(strings.TrimSpace(v.text(name)))
	return i
}
func (v values) String(name string) string { return v.text(name) }
func (v values) Bool(name string) bool     { return v.text(name) == "true" }
func (v values) Seed() uint64              { return v.seed }

// build returns the one learner c's settings make (seed: the learners
// that draw). Errors wrap learner.ErrSettings.
func (c Candidate) build(seed uint64) (learner.Learner, error) {
	e, ok := learner.Lookup(c.Learner)
	if !ok {
		return nil, learner.Settingsf("unknown learner %q", c.Learner)
	}
	ls, err := e.New(e.Name, values{c.Params, seed})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c, err)
	}
	if len(ls) != 1 {
		return nil, learner.Settingsf("%s: %d learners from these settings, want one (give lists as several values of the grid)", c, len(ls))
	}
	return ls[0], nil
}

// Expand returns the candidates of the grids, grid by grid, each grid's
// in the order of scikit-learn's ParameterGrid: its axes (settings and
// "kernel") sorted by name, the last varying fastest. A learner that uses
// no kernel with some of its settings (label propagation on its own
// affinity) gets no kernel axis there: the kernels would repeat one
// candidate, which is kept once. Errors (wrapping learner.ErrSettings):
// an unknown family or a setting it does not read, an empty list of
// values, an invalid kernel spec, settings the family rejects.
func Expand(grids []Grid, seed uint64) ([]Candidate, error) {
	return expand(grids, seed, Accuracy)
}

// expand is Expand for a scoring (breakeven fits label propagation on the
// kernel: scoresNeedKernel).
func expand(grids []Grid, seed uint64, scoring string) ([]Candidate, error) {
	var out []Candidate
	seen := map[string]bool{}
	for _, g := range grids {
		e, ok := learner.Lookup(g.Learner)
		if !ok {
			return nil, learner.Settingsf("unknown learner %q", g.Learner)
		}
		reads := map[string]bool{}
		for _, f := range e.Flags {
			reads[f.Name] = true
		}
		names := slices.Sorted(maps.Keys(g.Params))
		for _, n := range names {
			if !reads[n] {
				return nil, learner.Settingsf("%s does not read setting %q (its settings: %s)", e.Name, n, flagNames(e))
			}
			if len(g.Params[n]) == 0 {
				return nil, learner.Settingsf("%s: no values for %s", e.Name, n)
			}
		}
		kernels := slices.Clone(g.Kernels)
		if len(kernels) == 0 {
			kernels = []string{"linear"}
		}
		for i, k := range kernels {
			sp, err := kernel.ParseSpec(k)
			if err != nil {
				return nil, learner.Settingsf("kernel %q: %v", k, err)
			}
			kernels[i] = sp.String()
		}
		axes := slices.Clone(names)
		axes = append(axes, KernelParam)
		slices.Sort(axes)
		vals := func(a string) []string {
			if a == KernelParam {
				return kernels
			}
			return g.Params[a]
		}
		idx := make([]int, len(axes))
		for {
			c := Candidate{Learner: e.Name, Params: map[string]string{}}
			for i, a := range axes {
				if a == KernelParam {
					c.Kernel = vals(a)[idx[i]]
				} else {
					c.Params[a] = vals(a)[idx[i]]
				}
			}
			ln, err := c.build(seed)
			if err != nil {
				return nil, err
			}
			if !ssl.UsesKernel(ln) && !scoresNeedKernel(scoring, ln) {
				c.Kernel = ""
			}
			if key := c.String(); !seen[key] {
				seen[key] = true
				out = append(out, c)
			}
			// the last axis fastest
			i := len(axes) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(vals(axes[i])) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	if len(out) == 0 {
		return nil, learner.Settingsf("an empty grid")
	}
	return out, nil
}

func flagNames(e learner.Entry) string {
	var n []string
	for _, f := range e.Flags {
		n = append(n, f.Name)
	}
	return strings.Join(n, ", ")
}

var intRange = regexp.MustCompile(`^\s*(\d+)\s*-\s*(\d+)\s*$`)

// ParseValues splits a list of a setting's values: comma-separated, an
// item "a-b" of two non-negative integers standing for a, a+1, …, b
// ("1-5,7" is 1, 2, 3, 4, 5, 7). Errors: an empty item, a descending
// range, a range of more than 100,000 values.
func ParseValues(list string) ([]string, error) {
	var out []string
	for _, it := range strings.Split(list, ",") {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, fmt.Errorf("empty value in %q", list)
		}
		if m := intRange.FindStringSubmatch(it); m != nil {
			a, err1 := strconv.Atoi(m[1])
			b, err2 := strconv.Atoi(m[2])
			if err1 != nil || err2 != nil || b < a || b-a >= 100000 {
				return nil, fmt.Errorf("range %q: want a-b with a ≤ b and at most 100000 values", it)
			}
			for v := a; v <= b; v++ {
				out = append(out, strconv.Itoa(v))
			}
			continue
		}
		out = append(out, it)
	}
	return out, nil
}

package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ExpandList turns a comma-separated list of kernel names or specs into
// specs: each item expanded with the parameter values (Expand) and parsed
// (ParseSpec). value gives a parameter's text by name (its Param.Default
// when not set); set names the parameters given explicitly. Errors, which
// name the parameters as flags: a spec that does not parse, an empty
// list, or a parameter in set that no listed kernel reads (the first in
// set's order).
func ExpandList(list string, value func(name string) string, set []string) ([]Spec, error) {
	v := textValues{value: value, used: map[string]bool{}}
	var out []Spec
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		text, err := Expand(name, v)
		if err != nil {
			return nil, err
		}
		sp, err := ParseSpec(text)
		if err != nil {
			return nil, fmt.Errorf("--kernel: %w", err)
		}
		out = append(out, sp)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--kernel is empty")
	}
	for _, p := range set {
		if IsParam(p) && !v.used[p] {
			hint := ""
			switch {
			case strings.Contains(list, ":"):
				hint = " (a spec such as rbf:0.5 or hck:average carries its own parameters)"
			case p == "graph":
				hint = " (hck uses --graph with --distance graph)"
			}
			return nil, fmt.Errorf("--%s has no effect on --kernel %s%s", p, list, hint)
		}
	}
	return out, nil
}

// textValues are ParamValues read from text, recording the names read.
type textValues struct {
	value func(name string) string
	used  map[string]bool
}

func (v textValues) text(name string) string {
	v.used[name] = true
	return v.value(name)
}

func (v textValues) Float(name string) float64 {
	f, err := strconv.ParseFloat(v.text(name), 64)
	if err != nil {
		return math.NaN()
	}
	return f
}

func (v textValues) Int(name string) int {
	n, _ := strconv.Atoi(v.text(name))
	return n
}

func (v textValues) String(name string) string { return v.text(name) }

package kernel

import (
	"strings"
	"testing"
)

// TestExpandList: bare names take the parameter values, specs keep
// their own; an unread parameter, an empty list and a spec that does not
// parse are errors naming the flags.
func TestExpandList(t *testing.T) {
	vals := map[string]string{"gamma": "0.5"}
	value := func(name string) string {
		if v, ok := vals[name]; ok {
			return v
		}
		for _, p := range Params() {
			if p.Name == name {
				return p.Default
			}
		}
		t.Fatalf("no parameter %q", name)
		return ""
	}
	specs, err := ExpandList("rbf, linear,,hck:average", value, []string{"gamma"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range specs {
		got = append(got, s.String())
	}
	if strings.Join(got, " ") != "rbf:0.5 linear hck:average" {
		t.Errorf("specs %q", got)
	}
	for _, c := range []struct{ list, set, want string }{
		{"linear", "gamma", "--gamma has no effect on --kernel linear"},
		{"rbf:0.5", "gamma", "--gamma has no effect on --kernel rbf:0.5 (a spec such as rbf:0.5 or hck:average carries its own parameters)"},
		{"linear", "graph", "--graph has no effect on --kernel linear (hck uses --graph with --distance graph)"},
		{" , ", "", "--kernel is empty"},
		{"rbf:x", "", "--kernel: "},
	} {
		var set []string
		if c.set != "" {
			set = []string{c.set}
		}
		_, err := ExpandList(c.list, value, set)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ExpandList(%q, set %q): %v, want %q", c.list, c.set, err, c.want)
		}
	}
}

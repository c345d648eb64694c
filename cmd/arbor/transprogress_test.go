package main

import (
	"strings"
	"testing"
)

// TestTransProgress: without --quiet, s4vm and hibust report their stages
// on stderr (S4VM candidates; HiBUST's MCCK runs, tree and node S4VMs);
// --quiet silences them.
func TestTransProgress(t *testing.T) {
	for _, c := range []struct {
		learner string
		extra   []string
		want    []string
	}{
		{"s4vm", nil, []string{"s4vm: 33 steps"}},
		{"hibust", []string{"--restarts", "2"}, []string{"mcck: 2 steps", "node 0 s4vm: 11 steps", "tree: "}},
	} {
		args := append([]string{"eval", "--data", "iris", "--labeled-per-class", "5", "--repeats", "1", "--learner", c.learner,
			"--samples", "10", "--scale", "minmax"}, c.extra...)
		_, stderr, err := arbor(t, args...)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.learner, err, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Fatalf("%s: stderr lacks %q:\n%s", c.learner, w, stderr)
			}
		}
		_, stderr, err = arbor(t, append(args, "--quiet")...)
		if err != nil || strings.Contains(stderr, "steps") {
			t.Fatalf("%s --quiet: %v, stderr:\n%s", c.learner, err, stderr)
		}
	}
}

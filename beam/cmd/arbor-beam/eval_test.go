package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// buildArbor builds the core's arbor command (the repository root is
// its own module) into dir.
func buildArbor(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "arbor")
	build := exec.Command("go", "build", "-o", bin, "./cmd/arbor")
	build.Dir = filepath.Join("..", "..", "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building arbor: %v\n%s", err, out)
	}
	return bin
}

// fitTime is the table's "fit s" column (seconds, three decimals), the
// one field of the table that is a measurement.
var fitTime = regexp.MustCompile(`(?m)  \d+\.\d{3}(  \*|$)`)

// untimed drops the measured seconds from arbor eval's output: the
// table's fit s column, the JSON lines' fit_s and kernel_s.
func untimed(t *testing.T, out string, asJSON bool) string {
	t.Helper()
	if !asJSON {
		return fitTime.ReplaceAllString(out, "  T$1")
	}
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("JSON line %q: %v", line, err)
		}
		delete(rec, "fit_s")
		delete(rec, "kernel_s")
		enc, _ := json.Marshal(rec)
		b.Write(enc)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestEvalEqualsArborEval: arbor-beam eval on prism, one task per
// kernel × learner × split, prints the table and the JSON lines arbor
// eval prints for the same flags (the measured seconds aside): exact
// kernels with kernel learners and learners on their own affinity, the
// landmark fits, and the breakeven metric.
func TestEvalEqualsArborEval(t *testing.T) {
	dir := t.TempDir()
	arbor := buildArbor(t, dir)
	var data strings.Builder
	data.WriteString("name,f1,f2,f3,label\n")
	for i := 0; i < 120; i++ {
		c := i % 3
		fmt.Fprintf(&data, "p%d,%.4f,%.4f,%.4f,c%d\n", i, float64(c)+1.3*math.Sin(float64(i)*0.9),
			float64(c)*0.7+1.1*math.Cos(float64(i)*1.7), 0.8*math.Sin(float64(i*i)*0.31), c)
	}
	file := filepath.Join(dir, "three.csv")
	if err := os.WriteFile(file, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"exact", []string{"--data", file, "--id", "name", "--kernel", "rbf:0.5,linear,hck:average", "--learner", "svm,knn,lp",
			"--labeled-per-class", "4", "--repeats", "3", "--seed", "7"}},
		{"affinity-kernel", []string{"--data", file, "--id", "name", "--kernel", "rbf", "--gamma", "0.3", "--learner", "lp,spreading",
			"--affinity", "kernel", "--labeled-per-class", "3", "--repeats", "2", "--scale", "minmax"}},
		{"landmarks", []string{"--data", file, "--id", "name", "--kernel", "rbf:0.5,hck:average", "--learner", "svm,lp,knn",
			"--landmarks", "30", "--labeled-per-class", "4", "--repeats", "2", "--seed", "3"}},
		{"bep", []string{"--data", file, "--id", "name", "--kernel", "rbf:0.5,linear", "--learner", "knn,lp", "--k", "3",
			"--metric", "bep", "--labeled-per-class", "4", "--repeats", "2", "--seed", "1"}},
		{"embedded", []string{"--data", "iris", "--kernel", "rbf:1", "--learner", "svm", "--labeled-per-class", "5", "--repeats", "2"}},
	} {
		for _, asJSON := range []bool{false, true} {
			name := c.name
			args := append([]string{}, c.args...)
			if asJSON {
				name += "-json"
				args = append(args, "--json")
			}
			t.Run(name, func(t *testing.T) {
				cmd := exec.Command(arbor, append([]string{"eval", "--quiet"}, args...)...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("arbor eval: %v\n%s", err, stderr.String())
				}
				out := filepath.Join(dir, name+".txt")
				var beamErr bytes.Buffer
				if code := run(context.Background(), append([]string{"eval", "--quiet", "--out", out}, args...), &beamErr); code != 0 {
					t.Fatalf("arbor-beam eval: exit %d\n%s", code, beamErr.String())
				}
				got, err := os.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				want := untimed(t, stdout.String(), asJSON)
				if g := untimed(t, string(got), asJSON); g != want {
					t.Fatalf("arbor-beam eval printed\n%s\narbor eval\n%s", g, want)
				}
				if strings.Count(want, "\n") < 2 {
					t.Fatalf("arbor eval printed too little to compare:\n%s", want)
				}
			})
		}
	}
}

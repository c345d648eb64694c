package builtin_test

import (
	"errors"
	"flag"
	"io"
	"testing"

	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/svm"
)

// TestList: the families in Rank order, joined with the last separator
// given, those on landmark features apart; Help names with help.
func TestList(t *testing.T) {
	exact, lm := learner.List(false, " or ")
	if want := "svm, knn, lp, spreading, s4vm or hibust"; exact != want || lm != "linsvm" {
		t.Errorf("List(false) = %q, %q; want %q, %q", exact, lm, want, "linsvm")
	}
	exact, _ = learner.List(true, ", ")
	if want := "svm, knn, lp (label propagation), spreading, s4vm, hibust"; exact != want {
		t.Errorf("List(true) = %q, want %q", exact, want)
	}
	if f := learner.Family(" Propagation "); f != "lp" {
		t.Errorf("Family(propagation) = %q, want lp", f)
	}
	if f := learner.Family(" NoSuch"); f != "nosuch" {
		t.Errorf("Family(NoSuch) = %q, want nosuch", f)
	}
}

// TestFlagValues: every registered setting is a flag of its kind and
// default; the values parsed from a command line build the learners
// Build names (one per family, knn's k as given, svm's C as given).
func TestFlagValues(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	learner.AddFlags(fs)
	flags, _ := learner.Flags()
	for _, f := range flags {
		g := fs.Lookup(f.Name)
		if g == nil || g.DefValue != f.Default || g.Usage != f.Usage {
			t.Fatalf("flag %s: %+v, want default %q", f.Name, g, f.Default)
		}
	}
	if err := fs.Parse([]string{"-C", "2.5", "-k", "7"}); err != nil {
		t.Fatal(err)
	}
	ls, err := learner.Build("svm, ,KNN", learner.FlagValues(fs, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 {
		t.Fatalf("%d learners, want 2", len(ls))
	}
	if c, ok := learner.As[svm.Classifier](ls[0]); !ok || c.C != 2.5 {
		t.Errorf("svm: %+v, want C 2.5", ls[0])
	}
	if k, ok := learner.As[knn.Classifier](ls[1]); !ok || k.K != 7 {
		t.Errorf("knn: %+v, want K 7", ls[1])
	}
	if err := fs.Parse([]string{"-k", "0"}); err != nil {
		t.Fatal(err)
	}
	for _, names := range []string{"knn", "nosuch", " , "} {
		if _, err := learner.Build(names, learner.FlagValues(fs, 3)); !errors.Is(err, learner.ErrSettings) {
			t.Errorf("Build(%q): %v, want a settings error", names, err)
		}
	}
}

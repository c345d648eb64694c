package builtin_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/learner"
	_ "github.com/arbor-ml/arbor/learner/builtin"
)

// defaults are every registered setting at its Flag's default.
type defaults map[string]string

func (d defaults) Float(n string) float64 { v, _ := strconv.ParseFloat(d[n], 64); return v }
func (d defaults) Int(n string) int       { v, _ := strconv.Atoi(d[n]); return v }
func (d defaults) String(n string) string { return d[n] }
func (d defaults) Bool(n string) bool     { return d[n] == "true" }
func (d defaults) Seed() uint64           { return 1 }

// TestRegistry: the built-in families are registered once each, in Rank
// order; each builds valid learners from its flags' defaults; a bad
// setting is learner.ErrSettings; every family that fits a kernel matrix
// saves a model the registry names and loads back to the same labels.
func TestRegistry(t *testing.T) {
	var names []string
	for _, e := range learner.Entries() {
		names = append(names, e.Name)
	}
	if want := []string{"svm", "knn", "lp", "spreading", "s4vm", "hibust", "linsvm"}; !slices.Equal(names, want) {
		t.Fatalf("registered %v, want %v", names, want)
	}
	flags, users := learner.Flags()
	d := defaults{}
	for _, f := range flags {
		d[f.Name] = f.Default
	}
	if !slices.Equal(users["C"], []string{"svm", "linsvm"}) {
		t.Errorf("--C is read by %v", users["C"])
	}
	// Two clusters on a line, one labelled row each; the linear kernel.
	x := []float64{0, 0.1, 0.2, 5, 5.1, 5.2}
	n := len(x)
	K := mat.NewSymDense(n, nil)
	Kt := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			K.SetSym(i, j, x[i]*x[j]+1)
			Kt.Set(i, j, x[i]*x[j]+1)
		}
	}
	y := []int{0, -1, -1, 1, -1, -1}
	ctx := context.Background()
	for _, e := range learner.Entries() {
		ls, err := e.New(e.Name, d)
		if err != nil || len(ls) != 1 {
			t.Fatalf("%s: %d learners, %v", e.Name, len(ls), err)
		}
		if err := ls[0].Validate(); err != nil {
			t.Errorf("%s: %v", e.Name, err)
		}
		if e.LandmarksOnly {
			continue
		}
		if _, ok := ls[0].(learner.PointFitter); ok {
			continue // lp, spreading on their own affinity (knn:10)
		}
		m, err := ls[0].FitGram(ctx, K, y)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if got := m.Transduction(); !slices.Equal(got, []int{0, 0, 0, 1, 1, 1}) {
			t.Errorf("%s: transduction %v", e.Name, got)
		}
		name, ok := learner.ModelName(m)
		if !ok {
			t.Fatalf("%s: model %T not registered", e.Name, m)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		back, err := learner.Load(name, &buf)
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		if got := back.(learner.Model).Classes(); !slices.Equal(got, m.Classes()) {
			t.Errorf("%s: loaded classes %v, fitted %v", e.Name, got, m.Classes())
		}
	}
	bad := defaults{}
	for k, v := range d {
		bad[k] = v
	}
	bad["C"] = "-1"
	e, _ := learner.Lookup("SVM ")
	if _, err := e.New("svm", bad); !errorsIs(err) {
		t.Errorf("svm with C = -1: %v, want learner.ErrSettings", err)
	}
	if _, ok := learner.Lookup("propagation"); !ok {
		t.Errorf("lp's alias propagation is not registered")
	}
}

func errorsIs(err error) bool { return err != nil && errors.Is(err, learner.ErrSettings) }

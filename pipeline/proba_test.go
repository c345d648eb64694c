package pipeline_test

import (
	"bytes"
	"context"
	"errors"
	"math"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/pipeline"
)

// probaData is the probability tests' data: iris with every 5th row
// labelled (the others learner.Unlabeled), and 30 new rows, row i that of
// training row 7i mod n moved by 0.05·((i+j) mod 5 − 2) in feature j.
func probaData(t *testing.T) (ds *dataset.Dataset, newX *mat.Dense) {
	t.Helper()
	base, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	n, d := base.X.Dims()
	y := make([]int, n)
	for i := range y {
		y[i] = learner.Unlabeled
		if i%5 == 0 {
			y[i] = base.Y[i]
		}
	}
	labelled := *base
	labelled.Y = y
	newX = mat.NewDense(30, d, nil)
	for i := range 30 {
		for j := range d {
			newX.Set(i, j, base.X.At((i*7)%n, j)+0.05*float64((i+j)%5-2))
		}
	}
	return &labelled, newX
}

// TestProbaRoundTrip: with Settings.Proba (and Decision for the SVM) Fit
// returns a label and a probability row per training and test row (each
// summing to 1, one column per class; label propagation and spreading on
// their own affinity label test rows too), and the saved pipeline, loaded,
// gives the test rows the same labels, probabilities and decision values (1e-12: the same
// arithmetic on kernel rows rebuilt from the file); an unlabelled row's
// kNN label is one of its most probable classes.
func TestProbaRoundTrip(t *testing.T) {
	ctx := context.Background()
	ds, newX := probaData(t)
	n, y := ds.Len(), ds.Y
	for _, c := range []struct {
		kernel, learner string
		params          map[string]string
		decision, test  bool
	}{
		{"rbf:0.5", "svm", nil, true, true},     // on points
		{"hck:average", "svm", nil, true, true}, // on the kernel matrix
		{"linear", "knn", map[string]string{"k": "5"}, false, true},
		{"hck:average", "knn", map[string]string{"k": "5"}, false, true},
		{"linear", "lp", map[string]string{"affinity": "rbf:2"}, false, true},
		{"linear", "spreading", map[string]string{"affinity": "knn:7"}, false, true},
		{"rbf:1", "lp", map[string]string{"affinity": "kernel"}, false, true}, // on the kernel matrix
	} {
		name := c.learner + "/" + c.kernel
		s := pipeline.Settings{Kernel: c.kernel, Learner: c.learner, Params: c.params, Proba: true, Decision: c.decision}
		var Xt *mat.Dense
		if c.test {
			Xt = newX
		}
		res, err := pipeline.Fit(ctx, s, ds, Xt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rows := n
		if c.test {
			rows += 30
		}
		if r, k := res.Proba.Dims(); r != rows || k != 3 {
			t.Fatalf("%s: Proba is %d×%d, want %d×3", name, r, k, rows)
		}
		for i := range rows {
			sum, best := 0.0, 0
			for k := range 3 {
				v := res.Proba.At(i, k)
				sum += v
				if v > res.Proba.At(i, best) {
					best = k
				}
			}
			if math.Abs(sum-1) > 1e-12 {
				t.Errorf("%s: row %d sums to %v", name, i, sum)
			}
			if c.learner == "knn" && i < n && y[i] == learner.Unlabeled && res.Proba.At(i, res.Labels[i]) != res.Proba.At(i, best) {
				t.Errorf("%s: row %d labelled %d with P %v", name, i, res.Labels[i], mat.Row(nil, i, res.Proba))
			}
		}
		if c.decision {
			if r, k := res.Decision.Dims(); r != rows || k != 3 || len(res.DecisionColumns) != 3 {
				t.Errorf("%s: Decision is %d×%d (%d columns named)", name, r, k, len(res.DecisionColumns))
			}
		} else if res.Decision != nil {
			t.Errorf("%s: decision values not asked for", name)
		}
		p, err := res.Pipeline()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			t.Fatal(err)
		}
		q, err := pipeline.Load(&buf, "m.arbor")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := q.PredictWant(ctx, newX, pipeline.Want{Proba: true, Decision: c.decision})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		labels, _ := q.Predict(ctx, newX)
		for i := range 30 {
			if got.Labels[i] != labels[i] || got.Labels[i] != res.Labels[n+i] {
				t.Errorf("%s: test row %d: PredictWant label %d, Predict's %d, the fit's %d", name, i, got.Labels[i], labels[i], res.Labels[n+i])
			}
			if !c.test {
				continue
			}
			for k := range 3 {
				if d := math.Abs(got.Proba.At(i, k) - res.Proba.At(n+i, k)); d > 1e-12 {
					t.Errorf("%s: test row %d class %d: loaded %v, fit %v", name, i, k, got.Proba.At(i, k), res.Proba.At(n+i, k))
				}
				if c.decision {
					if d := math.Abs(got.Decision.At(i, k) - res.Decision.At(n+i, k)); d > 1e-12 {
						t.Errorf("%s: test row %d decision %d: loaded %v, fit %v", name, i, k, got.Decision.At(i, k), res.Decision.At(n+i, k))
					}
				}
			}
		}
	}
	// What a model cannot give is ErrOutput.
	res, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "rbf:0.5"}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := res.Pipeline()
	if _, err := p.PredictWant(ctx, newX, pipeline.Want{Proba: true}); !errors.Is(err, pipeline.ErrOutput) {
		t.Errorf("SVM without Platt sigmoids: %v, want ErrOutput", err)
	}
	if _, err := p.PredictWant(ctx, newX, pipeline.Want{Unreachable: "first"}); !errors.Is(err, pipeline.ErrOutput) {
		t.Errorf("unreachable policy for an SVM: %v, want ErrOutput", err)
	}
	if _, err := pipeline.Fit(ctx, pipeline.Settings{Learner: "knn", Params: map[string]string{"k": "3"}, Decision: true}, ds, nil); !errors.Is(err, pipeline.ErrOutput) {
		t.Errorf("kNN decision values: %v, want ErrOutput", err)
	}
}

// TestProbaStream: the streaming predictor (Stream, then PredictWant on
// each chunk's columns) gives every row the same probabilities for any
// chunk size (a row's probabilities depend on that row alone).
func TestProbaStream(t *testing.T) {
	ctx := context.Background()
	ds, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "rbf:0.5", Proba: true}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := res.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	text.WriteString("f1,f2,f3,f4\n")
	for i := range ds.Len() {
		r := ds.X.RawRowView(i)
		text.WriteString(strconv.FormatFloat(r[0], 'g', -1, 64) + "," + strconv.FormatFloat(r[1], 'g', -1, 64) + "," +
			strconv.FormatFloat(r[2], 'g', -1, 64) + "," + strconv.FormatFloat(r[3], 'g', -1, 64) + "\n")
	}
	var first [][]float64
	for _, chunk := range []int{1, 7, 1000} {
		var got [][]float64
		err := p.Stream(ctx, bytes.NewReader(text.Bytes()), "new.csv", dataset.CSVOptions{}, chunk, func(c *dataset.Dataset) error {
			X, err := p.Columns(c)
			if err != nil {
				return err
			}
			out, err := p.PredictWant(ctx, X, pipeline.Want{Proba: true})
			if err != nil {
				return err
			}
			for i := range c.Len() {
				got = append(got, mat.Row(nil, i, out.Proba))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != ds.Len() {
			t.Fatalf("chunk %d: %d rows", chunk, len(got))
		}
		if first == nil {
			first = got
			// the training rows, streamed, have the fit's probabilities
			for i, row := range got {
				for k, v := range row {
					if math.Abs(v-res.Proba.At(i, k)) > 1e-12 {
						t.Fatalf("row %d class %d: streamed %v, fit %v", i, k, v, res.Proba.At(i, k))
					}
				}
			}
			continue
		}
		for i := range got {
			for k := range got[i] {
				if got[i][k] != first[i][k] {
					t.Fatalf("chunk %d, row %d: %v, chunk 1: %v", chunk, i, got[i], first[i])
				}
			}
		}
	}
}

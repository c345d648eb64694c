package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"testing"
)

// TestRunEmitsEveryOp: one small size emits one record per operation of
// peers.py timing, under peers.py's op names and fields; -ops keeps only
// the operations named.
func TestRunEmitsEveryOp(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), &out, config{sizes: []int{60}, dim: 3, reps: 1, geoMax: 100, svmMax: 100}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pdist_euclid(scipy)", "linkage_average(scipy)", "linkage_single(scipy)", "linkage_complete(scipy)",
		"cophenet+squareform(scipy)", "double_center(numpy,O(n^2))", "knn7_graph+dijkstra(sklearn+scipy)",
		"svc_precomputed_fit(hck_average,C=1,all N)", "svc_precomputed_fit(rbf matrix,C=1,all N)",
		"svc_rbf_fit(libsvm computes kernel,C=1,all N)",
	}
	if got := ops(t, out.Bytes()); !slices.Equal(got, want) {
		t.Errorf("ops %q, want %q", got, want)
	}
	out.Reset()
	if err := run(context.Background(), &out, config{sizes: []int{60}, dim: 3, reps: 1, geoMax: 10, svmMax: 100, only: "linkage_single,rbf matrix"}); err != nil {
		t.Fatal(err)
	}
	want = []string{"linkage_single(scipy)", "svc_precomputed_fit(rbf matrix,C=1,all N)"}
	if got := ops(t, out.Bytes()); !slices.Equal(got, want) {
		t.Errorf("-ops: ops %q, want %q", got, want)
	}
}

func ops(t *testing.T, lines []byte) []string {
	t.Helper()
	var got []string
	dec := json.NewDecoder(bytes.NewReader(lines))
	for dec.More() {
		var r struct {
			Mode, Impl, Op string
			N, Dim, Reps   int
			Time           *float64 `json:"time_s"`
		}
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		if r.Mode != "timing" || r.Impl != "arbor" || r.N != 60 || r.Dim != 3 || r.Reps != 1 || r.Time == nil || *r.Time < 0 {
			t.Errorf("record %+v", r)
		}
		got = append(got, r.Op)
	}
	return got
}

// TestData: the labels are x₁ + x₂ > 1 but for the flipped tenth, and the
// first draws are NumPy's RandomState(0).rand (0.5488135039273248,
// 0.7151893663724195, …).
func TestData(t *testing.T) {
	X, y := data(1000, 2)
	if X.At(0, 0) != 0.5488135039273248 || X.At(0, 1) != 0.7151893663724195 {
		t.Errorf("first row %v %v", X.At(0, 0), X.At(0, 1))
	}
	flipped := 0
	for i, c := range y {
		if (X.At(i, 0)+X.At(i, 1) > 1) != (c == 1) {
			flipped++
		}
	}
	if flipped < 70 || flipped > 130 {
		t.Errorf("%d of 1000 labels disagree with x₁ + x₂ > 1, want about 100", flipped)
	}
}

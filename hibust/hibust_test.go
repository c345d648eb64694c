package hibust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/s4vm"
	"gonum.org/v1/gonum/mat"
)

// Figure1 builds the pedagogical example of paper 003 Fig. 1 as the text
// describes it: two classes, the first (red circles) made of two clusters
// on either side of the second (black diamonds), so that no line separates
// the classes; 9 labelled objects (3 per cluster), the rest unlabelled.
// Cluster A1 is far to the left, the diamonds in the middle and A2 close
// to the diamonds on the right, so the closest centroids are those of the
// diamonds and A2 (Fig. 5b) and the root separates A1 from the rest
// (Fig. 5c).
func Figure1() (X *mat.Dense, y, truth []int) {
	rng := rand.New(rand.NewPCG(2013, 3))
	centers := [][2]float64{{0, 0}, {3.5, 0.5}, {6, 2}} // A1, diamonds, A2
	class := []int{0, 1, 0}
	const per = 40
	X = mat.NewDense(3*per, 2, nil)
	for b, c := range centers {
		for i := 0; i < per; i++ {
			r := b*per + i
			X.Set(r, 0, c[0]+0.35*rng.NormFloat64())
			X.Set(r, 1, c[1]+0.35*rng.NormFloat64())
			truth = append(truth, class[b])
			if i < 3 {
				y = append(y, class[b])
			} else {
				y = append(y, Unlabeled)
			}
		}
	}
	return X, y, truth
}

func accuracy(pred, truth, y []int) float64 {
	c, n := 0, 0
	for i := range y {
		if y[i] == Unlabeled {
			n++
			if pred[i] == truth[i] {
				c++
			}
		}
	}
	return float64(c) / float64(n)
}

// TestFigure1 asserts the tree of Fig. 5c on the pedagogical example:
// three clusters, the diamonds merged first with the nearer red cluster,
// the root separating the far red cluster; every unlabelled object right,
// which one linear SVM cannot do.
func TestFigure1(t *testing.T) {
	X, y, truth := Figure1()
	ctx := context.Background()
	m, err := Classifier{Node: SVMNode{}, Seed: 1}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	if m.Clusters != 3 || len(m.nodes) != 5 {
		var b strings.Builder
		m.WriteTree(&b, nil)
		t.Fatalf("%d clusters, %d nodes; want 3 and 5 (Fig. 5c):\n%s", m.Clusters, len(m.nodes), b.String())
	}
	root := m.nodes[0]
	far, near := m.nodes[root.Left], m.nodes[root.Right]
	if !far.Leaf {
		far, near = near, far
	}
	if !far.Leaf || far.Class != 0 || near.Leaf {
		t.Fatalf("root children: want a class-0 leaf and an internal node, got %+v and %+v", far, near)
	}
	// The far leaf holds A1's three labelled objects (rows 0..2).
	if !slices.Equal(far.Labeled, []int{0, 1, 2}) {
		t.Errorf("far leaf holds %v, want A1's labelled rows [0 1 2]", far.Labeled)
	}
	a, b := m.nodes[near.Left], m.nodes[near.Right]
	if !a.Leaf || !b.Leaf || a.Class == b.Class {
		t.Fatalf("internal node children %+v, %+v: want leaves of both classes", a, b)
	}
	if acc := accuracy(m.Transduction(), truth, y); acc != 1 {
		t.Errorf("HiBUST accuracy %.3f on Fig. 1, want 1 (two linear SVMs suffice)", acc)
	}
	// One linear SVM on the whole problem cannot separate the classes.
	K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	one, err := SVMNode{}.Transduce(ctx, K, y)
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(one, truth, y); acc > 0.9 {
		t.Errorf("one linear SVM reaches %.3f on Fig. 1: the example is too easy to show anything", acc)
	}
	// New points near each cluster's centre go to its class.
	Xt := mat.NewDense(3, 2, []float64{0, 0, 3.5, 0.5, 6, 2})
	Kt, _ := kernel.Cross(ctx, nil, kernel.Linear{}, Xt, X)
	got, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{0, 1, 0}) {
		t.Errorf("new points at the centres: %v, want [0 1 0]", got)
	}
}

// fitSmall fits on gauss9-like data small enough for quick invariant
// checks: a 3×3 grid of overlapping Gaussians, 5 labelled per class.
func smallProblem(seed uint64) (*mat.Dense, []int, []int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	const per = 30
	X := mat.NewDense(9*per, 2, nil)
	var y, truth []int
	for c := 0; c < 9; c++ {
		cx, cy := float64(c%3), float64(c/3)
		for i := 0; i < per; i++ {
			X.Set(c*per+i, 0, cx+0.3*rng.NormFloat64())
			X.Set(c*per+i, 1, cy+0.3*rng.NormFloat64())
			truth = append(truth, c)
			if i < 5 {
				y = append(y, c)
			} else {
				y = append(y, Unlabeled)
			}
		}
	}
	return X, y, truth
}

// TestInvariants checks, over several seeds, the invariants of Figs. 2–4:
// MCCK never puts labelled rows of two classes in one cluster and each
// labelled row lies in a cluster of its class; every leaf's labelled rows
// share the leaf's class; the tree is binary with one leaf per cluster
// holding labelled rows (less one per same-class merge of Fig. 3: leaves
// partition those clusters); confidence labels only where the posterior
// is ≥ θ.
func TestInvariants(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(0); seed < 3; seed++ {
		X, y, _ := smallProblem(seed)
		K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
		p, err := MCCK{Seed: seed, Restarts: 3}.Cluster(ctx, K, y)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range y {
			if c != Unlabeled && p.Class[p.Assign[i]] != c {
				t.Fatalf("seed %d: labelled row %d (class %d) in cluster %d of class %d", seed, i, c, p.Assign[i], p.Class[p.Assign[i]])
			}
		}
		for _, theta := range []float64{0, 0.6, 0.9} {
			m, err := Classifier{Node: SVMNode{}, Seed: seed, Restarts: 3, Theta: theta}.FitGram(ctx, K, y)
			if err != nil {
				t.Fatal(err)
			}
			lab := slices.Clone(y)
			for _, i := range m.confident {
				if y[i] != Unlabeled {
					t.Fatalf("θ %v: labelled row %d relabelled by confidence", theta, i)
				}
				lab[i] = m.transduction[i]
			}
			if theta == 0 && len(m.confident) > 0 {
				t.Fatalf("θ = 0 labelled %d rows", len(m.confident))
			}
			checkTreeInvariants(t, m, lab)
			// Confidence labels exactly where the posterior is ≥ θ, on
			// the partition the model was built from.
			if theta > 0 {
				g, _ := newGram(K)
				by, _ := classRows(y, g.n)
				q, _ := MCCK{Seed: seed, Restarts: 3}.cluster(ctx, g, y, by)
				post := make([]float64, q.K())
				for i, c := range y {
					if c != Unlabeled {
						continue
					}
					q.Posterior(post, i)
					j := 0
					for a := range post {
						if post[a] > post[j] {
							j = a
						}
					}
					_, in := slices.BinarySearch(m.confident, i)
					if in != (post[j] >= theta) {
						t.Fatalf("θ %v: row %d max posterior %.4f, confidence-labelled %v", theta, i, post[j], in)
					}
					if in && m.transduction[i] != q.Class[j] {
						t.Fatalf("θ %v: row %d labelled %d, its component's class is %d", theta, i, m.transduction[i], q.Class[j])
					}
				}
			}
		}
	}
}

// checkTreeInvariants asserts the tree invariants for labels lab (labelled plus
// confidence-labelled rows).
func checkTreeInvariants(t *testing.T, m *Model, lab []int) {
	t.Helper()
	leaves, internal := 0, 0
	seenCluster := map[int]bool{}
	for i, nd := range m.nodes {
		if nd.Leaf {
			leaves++
			for _, r := range nd.Labeled {
				if lab[r] != nd.Class {
					t.Fatalf("leaf %d (class %d) holds row %d of class %d", i, nd.Class, r, lab[r])
				}
			}
			for _, c := range nd.Clusters {
				if seenCluster[c] {
					t.Fatalf("cluster %d in two leaves", c)
				}
				seenCluster[c] = true
			}
			continue
		}
		internal++
		if nd.Left <= i || nd.Right <= i || nd.Left == nd.Right {
			t.Fatalf("node %d children %d, %d", i, nd.Left, nd.Right)
		}
		l, r := m.nodes[nd.Left].Labeled, m.nodes[nd.Right].Labeled
		if !slices.Equal(nd.Labeled, slices.Sorted(slices.Values(append(slices.Clone(l), r...)))) {
			t.Fatalf("node %d labelled rows are not its children's union", i)
		}
		if nd.Sent[0]+nd.Sent[1] != nd.Reached {
			t.Fatalf("node %d sent %v of %d", i, nd.Sent, nd.Reached)
		}
	}
	if leaves != internal+1 {
		t.Fatalf("%d leaves, %d internal nodes: not a binary tree", leaves, internal)
	}
	// Every labelled row is in exactly one leaf.
	count := 0
	for _, nd := range m.nodes {
		if nd.Leaf {
			count += len(nd.Labeled)
		}
	}
	want := 0
	for _, c := range lab {
		if c != Unlabeled {
			want++
		}
	}
	if count != want || len(m.nodes[0].Labeled) != want {
		t.Fatalf("leaves hold %d labelled rows, root %d, want %d", count, len(m.nodes[0].Labeled), want)
	}
	// One leaf per cluster with labelled rows, less the same-class merges.
	if len(seenCluster) > m.Clusters {
		t.Fatalf("%d clusters in leaves, partition has %d", len(seenCluster), m.Clusters)
	}
}

// TestDeterministic: the same seed gives the same model on 1, 2 or 4
// cores: with S4VMs at the nodes (Fig. 1) and with many MCCK clusters.
func TestDeterministic(t *testing.T) {
	X, y, _ := Figure1()
	deterministic(t, Classifier{Seed: 42, S4VM: s4vm.S4VM{Seed: 3}}, X, y)
	X, y, _ = smallProblem(3)
	deterministic(t, Classifier{Seed: 42, Theta: 0.8, Node: SVMNode{}}, X, y)
}

func deterministic(t *testing.T, c Classifier, X *mat.Dense, y []int) {
	var first []byte
	for _, procs := range []int{1, 2, 4} {
		old := runtime.GOMAXPROCS(procs)
		m, err := c.Fit(context.Background(), X, y)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := m.Save(&b); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b.Bytes()
		} else if !bytes.Equal(first, b.Bytes()) {
			t.Fatalf("GOMAXPROCS %d: model differs from GOMAXPROCS 1", procs)
		}
	}
}

// TestSaveLoad: save → load → predict equals predict, and the loaded model
// prints and saves the same.
func TestSaveLoad(t *testing.T) {
	ctx := context.Background()
	X, y, _ := smallProblem(5)
	m, err := Classifier{Node: SVMNode{}, Seed: 9}.Fit(ctx, X, y)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := m.Save(&b); err != nil {
		t.Fatal(err)
	}
	saved := slices.Clone(b.Bytes())
	m2, err := Load(&b)
	if err != nil {
		t.Fatal(err)
	}
	Xt, _, _ := smallProblem(11)
	Kt, _ := kernel.Cross(ctx, nil, kernel.Linear{}, Xt, X)
	p1, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := m2.Predict(ctx, nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p1, p2) {
		t.Error("loaded model predicts differently")
	}
	if !slices.Equal(m.Transduction(), m2.Transduction()) || !slices.Equal(m.Classes(), m2.Classes()) {
		t.Error("loaded model has another transduction or classes")
	}
	var b2 bytes.Buffer
	m2.Save(&b2)
	if !bytes.Equal(saved, b2.Bytes()) {
		t.Error("save → load → save changes the file")
	}
	var t1, t2 strings.Builder
	m.WriteTree(&t1, nil)
	m2.WriteTree(&t2, nil)
	if t1.String() != t2.String() || !strings.Contains(t1.String(), " vs ") {
		t.Errorf("printed trees differ or lack sub-problems:\n%s", t1.String())
	}
	// Routers reproduce most of the transduction on the training rows
	// (they are SVMs fitted to it; C = 1 allows a few errors).
	K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	tr, err := m.Predict(ctx, nil, K)
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, c := range tr {
		if c == m.transduction[i] {
			agree++
		}
	}
	if float64(agree) < 0.9*float64(len(tr)) {
		t.Errorf("routers agree with the transduction on %d of %d training rows", agree, len(tr))
	}
	// Corrupted files are errors, not panics.
	for _, bad := range []string{
		`{}`,
		`{"format":"arbor-hibust","version":2}`,
		strings.Replace(string(saved), `"version": 1`, `"version": 7`, 1),
		strings.Replace(string(saved), `"left": 1`, `"left": 5`, 1),
		strings.Replace(string(saved), `"n_train": 270`, `"n_train": 3`, 1),
		string(saved[:len(saved)/2]),
	} {
		if _, err := Load(strings.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("Load of a corrupted file: %v, want ErrFormat", err)
		}
	}
}

// TestBadInput: clear errors, no panics.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	X, y, _ := smallProblem(1)
	K, _ := kernel.Gram(ctx, nil, kernel.Linear{}, X)
	one := slices.Clone(y)
	for i := range one {
		if one[i] > 0 {
			one[i] = Unlabeled
		}
	}
	cases := []struct {
		name string
		c    Classifier
		K    mat.Symmetric
		y    []int
		want error
		text string
	}{
		{"one class", Classifier{}, K, one, ErrBadLabel, "only class 0"},
		{"no labels", Classifier{}, K, make([]int, len(y)), ErrBadLabel, "only class 0"},
		{"theta 0 < θ fails above 1", Classifier{Theta: 1.5}, K, y, ErrBadParam, "Theta"},
		{"theta negative", Classifier{Theta: -0.1}, K, y, ErrBadParam, "Theta"},
		{"restarts", Classifier{Restarts: -1}, K, y, ErrBadParam, "Restarts"},
		{"label", Classifier{}, K, append(slices.Clone(y[:len(y)-1]), -2), ErrBadLabel, "y[269] = -2"},
		{"shape", Classifier{}, K, y[:10], ErrShape, "10 labels"},
		{"empty", Classifier{}, mat.NewSymDense(1, nil), []int{0}, ErrBadLabel, ""},
	}
	for _, c := range cases {
		_, err := c.c.FitGram(ctx, c.K, c.y)
		if !errors.Is(err, c.want) || !strings.Contains(fmt.Sprint(err), c.text) {
			t.Errorf("%s: %v, want %v containing %q", c.name, err, c.want, c.text)
		}
	}
	// A class given in y with no labelled row simply does not exist for
	// HiBUST: its rows are unlabelled. The model says which classes it
	// can output.
	noTwo := slices.Clone(y)
	for i := range noTwo {
		if noTwo[i] == 2 {
			noTwo[i] = Unlabeled
		}
	}
	m, err := Classifier{Node: SVMNode{}}.FitGram(ctx, K, noTwo)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(m.Classes(), 2) {
		t.Errorf("classes %v include 2, which has no labelled row", m.Classes())
	}
	// Told the classes, it is an error.
	if _, err := (Classifier{Classes: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}}).FitGram(ctx, K, noTwo); !errors.Is(err, ErrBadLabel) || !strings.Contains(err.Error(), "class 2 has no labelled row") {
		t.Errorf("class 2 without labels: %v, want ErrBadLabel naming class 2", err)
	}
	if _, err := (Classifier{S4VM: s4vm.S4VM{C1: -1}}).FitGram(ctx, K, y); !errors.Is(err, ErrBadParam) {
		t.Errorf("node S4VM C1 = -1: %v, want ErrBadParam", err)
	}
	nan := mat.NewSymDense(len(y), nil)
	nan.CopySym(K)
	nan.SetSym(3, 4, 0/func() float64 { return 0 }())
	if _, err := (Classifier{}).FitGram(ctx, nan, y); !errors.Is(err, ErrNonFinite) {
		t.Errorf("NaN in K: %v, want ErrNonFinite", err)
	}
	m, _ = Classifier{Node: SVMNode{}}.FitGram(ctx, K, y)
	if _, err := m.Predict(ctx, nil, mat.NewDense(2, 5, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("Predict with 5 columns: %v, want ErrShape", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := (Classifier{}).FitGram(cctx, K, y); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

package s4vm

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/smo"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

// problemSet returns min–max scaled features, the Gram matrix (linear),
// the true labels and a label vector with perClass labelled rows per
// class (seeded), of an embedded set, optionally restricted to its first
// rows.
func problemSet(t testing.TB, name string, rows, perClass int, seed uint64) (*mat.Dense, *mat.SymDense, []int, []int) {
	t.Helper()
	d, err := dataset.Embedded(name)
	if err != nil {
		t.Fatal(err)
	}
	if rows > 0 {
		d = d.Subset(identity(rows))
	}
	X := dataset.MinMax(d.X)
	K, err := kernel.Gram(context.Background(), nil, kernel.Linear{}, X)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 9))
	y := make([]int, d.Len())
	cnt := map[int]int{}
	for i := range y {
		y[i] = -1
	}
	for _, i := range r.Perm(d.Len()) {
		if cnt[d.Y[i]] < perClass {
			cnt[d.Y[i]]++
			y[i] = d.Y[i]
		}
	}
	return X, K, d.Y, y
}

// TestDeterministicAcrossProcs: the same seed gives the same model on 1,
// 2 and 4 cores (candidates run in parallel, reduced in order).
func TestDeterministicAcrossProcs(t *testing.T) {
	_, K, _, y := problemSet(t, "iris", 0, 5, 1)
	s := S4VM{Samples: 20, Seed: 3}
	var ref []byte
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(p)
		m, saved := fitSaved(t, s, K, y)
		if ref == nil {
			ref = saved
		} else if !bytes.Equal(ref, saved) {
			t.Fatalf("GOMAXPROCS=%d: model differs from GOMAXPROCS=1", p)
		}
		// Transduce (no predictor SVMs) gives FitGram's transduction.
		tr, err := s.Transduce(context.Background(), K, y)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(tr, m.Transduction()) {
			t.Fatalf("GOMAXPROCS=%d: Transduce differs from FitGram's Transduction", p)
		}
	}
}

// TestBalance: relabel respects the balance constraint: at least h1 rows
// +1 and at least h2 rows −1, the h1 largest f are +1, the h2 smallest −1.
func TestBalance(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for trial := range 50 {
		n := 5 + r.IntN(200)
		l := 2 + r.IntN(n-2)
		lab := make([]int8, l)
		for i := range lab {
			lab[i] = int8(2*r.IntN(2) - 1)
		}
		bal := newBalance(n, lab)
		f := make([]float64, n)
		for i := range f {
			f[i] = float64(r.IntN(7) - 3) // ties
		}
		dst := make([]int8, n)
		bal.relabel(dst, f, make([]rankKey, n))
		// The reference's rule by a stable sort (R's order(-f) keeps tied
		// rows in index order): the same labels.
		ord := identity(n)
		slices.SortStableFunc(ord, func(a, c int) int { return cmp.Compare(f[c], f[a]) })
		for k, i := range ord {
			want := int8(1)
			if k >= n-bal.h2 || (k >= bal.h1 && f[i] < 0) {
				want = -1
			}
			if dst[i] != want {
				t.Fatalf("trial %d: row %d (rank %d, f %v) labelled %d, stable-sort rule %d", trial, i, k, f[i], dst[i], want)
			}
		}
		pos, neg := 0, 0
		for i, v := range dst {
			if v > 0 {
				pos++
			} else {
				neg++
			}
			// sign agreement away from the forced blocks
			_ = i
		}
		if pos < bal.h1 || neg < bal.h2 {
			t.Fatalf("trial %d: %d positive (h1 = %d), %d negative (h2 = %d)", trial, pos, bal.h1, neg, bal.h2)
		}
		// Monotone: a row with larger f is never −1 while one with smaller f is +1.
		for i := range n {
			for j := range n {
				if f[i] > f[j] && dst[i] < dst[j] {
					t.Fatalf("trial %d: f[%d] = %v > f[%d] = %v but labels %d < %d", trial, i, f[i], j, f[j], dst[i], dst[j])
				}
			}
		}
	}
}

// TestSaveLoadPredict: save → load → predict equals predict, and Predict
// on the training rows' kernel rows is the machines' vote.
func TestSaveLoadPredict(t *testing.T) {
	_, K, _, y := problemSet(t, "wine", 0, 5, 2)
	m, err := S4VM{Samples: 10, Seed: 1}.FitGram(context.Background(), K, y)
	if err != nil {
		t.Fatal(err)
	}
	Kt := mat.DenseCopyOf(K)
	p1, err := m.Predict(context.Background(), nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	m2, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := m2.Predict(context.Background(), nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p1, p2) || !slices.Equal(m.Transduction(), m2.Transduction()) || !slices.Equal(m.Classes(), m2.Classes()) {
		t.Fatal("loaded model differs")
	}
	if _, err := Load(bytes.NewReader([]byte(`{"format":"x"}`))); !errors.Is(err, ErrFormat) {
		t.Fatalf("bad file: %v", err)
	}
}

// TestBadInput: each bad input is a clear error or warning, no panic.
func TestBadInput(t *testing.T) {
	ctx := context.Background()
	_, K, truth, y := problemSet(t, "iris", 0, 5, 4)
	// one class only
	one := slices.Clone(y)
	for i, v := range one {
		if v > 0 {
			one[i] = -1
		}
	}
	if _, err := (S4VM{}).FitGram(ctx, K, one); !errors.Is(err, ErrOneClass) {
		t.Errorf("one class: %v", err)
	}
	// a class with no labelled point
	if _, err := (S4VM{Classes: []int{0, 1, 2, 3}}).FitGram(ctx, K, y); !errors.Is(err, ErrNoLabel) {
		t.Errorf("class without labels: %v", err)
	}
	// settings
	for _, s := range []S4VM{{C1: -1}, {C2: -0.1}, {Lambda: -1}, {Samples: 5, Groups: 6}, {Samples: -1}, {Tol: -1}} {
		if _, err := s.FitGram(ctx, K, y); !errors.Is(err, ErrBadParam) {
			t.Errorf("%+v: %v", s, err)
		}
	}
	if _, err := (S4VM{}).FitGram(ctx, K, y[:10]); !errors.Is(err, ErrShape) {
		t.Errorf("short y: %v", err)
	}
	bad := slices.Clone(y)
	bad[0] = -2
	if _, err := (S4VM{}).FitGram(ctx, K, bad); !errors.Is(err, ErrBadLabel) {
		t.Errorf("label -2: %v", err)
	}
	// all rows labelled: equals the inductive SVM, with a warning.
	m, err := S4VM{}.FitGram(ctx, K, truth)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Warnings) == 0 || !errors.Is(m.Warnings[0], ErrAllLabeled) {
		t.Fatalf("all labelled: warnings %v", m.Warnings)
	}
	if !slices.Equal(m.Transduction(), truth) {
		t.Fatal("all labelled: transduction differs from the labels")
	}
	// Its predictions are package svm's one-vs-one C-SVC with C = C1.
	sm, err := svm.Classifier{C: 100}.FitGram(ctx, K, truth)
	if err != nil {
		t.Fatal(err)
	}
	Kt := mat.DenseCopyOf(K)
	want, err := sm.Predict(ctx, nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Predict(ctx, nil, Kt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatal("all labelled: predictions differ from svm.Classifier{C: 100}")
	}
}

// TestWarmEqualsCold: along a local descent, each warm-started refit (the
// previous α, the kept cache and kernel sums) reaches the objective of
// the reference's cold fit (α = 0, fresh cache) on the same labels. Both
// stop at LIBSVM's tolerance 1e-3 on the maximal violation; their dual
// objectives agree to 1e-6 relative (measured: about 1e-8).
func TestWarmEqualsCold(t *testing.T) {
	_, K, _, y := problemSet(t, "wine", 0, 5, 3)
	var rows []int
	var lab []int8
	for i, v := range y {
		if v == 0 || v == 1 {
			rows = append(rows, i)
			lab = append(lab, int8(1-2*v))
		}
	}
	l := len(rows)
	for i, v := range y {
		if v < 0 {
			rows = append(rows, i)
		}
	}
	n := len(rows)
	raw := K.RawSymmetric()
	bn := &bin{src: &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: raw.N, Mirrored: true}, rows: rows, n: n, l: l, lab: lab, set: S4VM{}.resolve()}
	cs := make([]float64, n)
	for i := range cs {
		cs[i] = 0.1
		if i < l {
			cs[i] = 100
		}
	}
	ctx := context.Background()
	warm := newFitter(bn.source(), bn.rows, cs, 1e-3, 1, false)
	r := rand.New(rand.NewPCG(2, 2))
	yy := make([]int8, n)
	copy(yy, lab)
	for j := l; j < n; j++ {
		yy[j] = int8(2*r.IntN(2) - 1)
	}
	bal := newBalance(n, lab)
	idx := make([]rankKey, n)
	for step := range 8 {
		w, err := warm.fit(ctx, yy)
		if err != nil {
			t.Fatal(err)
		}
		cold := newFitter(bn.source(), bn.rows, cs, 1e-3, 1, true)
		c, err := cold.fit(ctx, yy)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(w.obj - c.obj); d > 1e-6*math.Abs(c.obj) {
			t.Fatalf("step %d: warm objective %v, cold %v", step, w.obj, c.obj)
		}
		next := make([]int8, n)
		bal.relabel(next, c.f, idx)
		copy(next[:l], lab)
		if slices.Equal(next, yy) {
			next[n-1] = -next[n-1]
		}
		yy = next
	}
}

// TestCancel: a cancelled context stops the fit with ctx.Err().
func TestCancel(t *testing.T) {
	_, K, _, y := problemSet(t, "iris", 0, 5, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (S4VM{}).FitGram(ctx, K, y); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

// TestFitPointsEqualsGram: Fit on points with a kernel is FitGram on that
// kernel's Gram matrix (an RBF kernel here: any kernel works).
func TestFitPointsEqualsGram(t *testing.T) {
	X, _, _, y := problemSet(t, "two_moons", 120, 5, 1)
	k := kernel.RBF{Gamma: 2}
	K, err := kernel.Gram(context.Background(), nil, k, X)
	if err != nil {
		t.Fatal(err)
	}
	s := S4VM{Samples: 10, Seed: 4, Kernel: k}
	a, err := s.Fit(context.Background(), X, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.FitGram(context.Background(), K, y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Transduction(), b.Transduction()) {
		t.Fatal("Fit and FitGram differ")
	}
}

// TestProgressSerial: candidates finish on several goroutines, yet the
// Progress callback (which keeps unsynchronised state here) is called on
// one goroutine at a time with done = 1, 2, ..., total. Run with -race,
// an unserialised call is also a reported race.
func TestProgressSerial(t *testing.T) {
	_, K, _, y := problemSet(t, "iris", 0, 5, 1)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var got []int
	inside := 0
	s := S4VM{Samples: 20, Seed: 3, Progress: func(stage string, done, total int) {
		inside++
		if inside != 1 {
			t.Errorf("Progress entered by %d goroutines at once", inside)
		}
		if stage != "s4vm" {
			t.Errorf("stage %q", stage)
		}
		got = append(got, done, total)
		inside--
	}}
	if _, err := s.FitGram(context.Background(), K, y); err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("Progress not called")
	}
	total := got[1]
	if len(got) != 2*total {
		t.Fatalf("%d calls, total %d", len(got)/2, total)
	}
	for c := 0; c < total; c++ {
		if got[2*c] != c+1 || got[2*c+1] != total {
			t.Fatalf("call %d: done %d total %d, want %d %d", c, got[2*c], got[2*c+1], c+1, total)
		}
	}
	if total != 3*21 {
		t.Errorf("total %d, want 3 pairs × (20 + 1) candidates", total)
	}
}

// fitSaved fits s on K, y and returns the model with its saved bytes.
func fitSaved(t *testing.T, s S4VM, K mat.Symmetric, y []int) (*Model, []byte) {
	t.Helper()
	m, err := s.FitGram(context.Background(), K, y)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return m, buf.Bytes()
}

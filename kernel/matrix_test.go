package kernel_test

import (
	"context"
	"errors"
	"math"
	"runtime"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

type matrixFixture struct {
	M, Center, S, Pinv, Clip [][]float64
	PinvRcond                float64 `json:"pinv_rcond"`
	PinvRank                 int     `json:"pinv_rank"`
	ClipNeg                  int     `json:"clip_neg"`
}

// TestCenterPeers: Center equals peers.py double_center to 1e-12 relative
// (numpy's pairwise summation of the means differs from ours by rounding).
func TestCenterPeers(t *testing.T) {
	var fx matrixFixture
	loadFixture(t, "matrices.json.gz", &fx)
	M := sym(fx.M)
	K := kernel.Center(nil, M)
	if d := maxRelDiff(t, K, fx.Center); d > 1e-12 {
		t.Fatalf("Center: max rel diff %.3g vs double_center", d)
	}
	rawFull(t, K)
	// In place gives the same bits.
	M2 := mat.NewSymDense(M.SymmetricDim(), nil)
	M2.CopySym(M)
	kernel.Center(M2, M2)
	if !mat.Equal(M2, K) {
		t.Fatal("in-place Center differs")
	}
	// Only the upper triangle is read: garbage below must not matter.
	raw := M2.RawSymmetric()
	M2.CopySym(M)
	for i := 1; i < raw.N; i++ {
		raw.Data[i*raw.Stride] = math.NaN()
	}
	if !mat.Equal(kernel.Center(nil, M2), K) {
		t.Fatal("Center read the lower triangle")
	}
}

// TestCenterSquaredClosedForm: for points X with centred columns, the
// classical-MDS identity -½·J·D²·J = X·Xᵀ holds (D Euclidean distances),
// and for any X it equals J·X·Xᵀ·J.
func TestCenterSquaredClosedForm(t *testing.T) {
	X := randDense(301, 3, 4)
	n := 301
	D := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			D.SetSym(i, j, math.Sqrt(sqd(X.RawRowView(i), X.RawRowView(j))))
		}
	}
	K := kernel.CenterSquared(nil, D)
	// Column-centre X and compare with X_c X_cᵀ.
	Xc := mat.DenseCopyOf(X)
	for j := 0; j < 3; j++ {
		col := mat.Col(nil, j, Xc)
		m := 0.0
		for _, v := range col {
			m += v
		}
		m /= float64(n)
		for i := range col {
			Xc.Set(i, j, col[i]-m)
		}
	}
	var want mat.Dense
	want.Mul(Xc, Xc.T())
	if !mat.EqualApprox(K, &want, 1e-12) {
		t.Fatal("CenterSquared(D) != Xc·Xcᵀ")
	}
}

func sqd(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += (a[i] - b[i]) * (a[i] - b[i])
	}
	return s
}

func TestCenterDeterministic(t *testing.T) {
	n := 700 // several column blocks and tiles, ragged edges
	X := randDense(n, n, 3)
	M := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			M.SetSym(i, j, X.At(i, j)+X.At(j, i))
		}
	}
	var got [2]*mat.SymDense
	for p := 1; p <= 2; p++ {
		old := runtime.GOMAXPROCS(p)
		got[p-1] = kernel.Center(nil, M)
		runtime.GOMAXPROCS(old)
	}
	if !mat.Equal(got[0], got[1]) {
		t.Fatal("Center differs between GOMAXPROCS 1 and 2")
	}
	// Row sums of a centred matrix are zero.
	for i := 0; i < n; i++ {
		s := 0.0
		for j := 0; j < n; j++ {
			s += got[0].At(i, j)
		}
		if math.Abs(s) > 1e-10 {
			t.Fatalf("row %d of centred matrix sums to %v", i, s)
		}
	}
}

func TestClipPSDAndPinv(t *testing.T) {
	ctx := context.Background()
	var fx matrixFixture
	loadFixture(t, "matrices.json.gz", &fx)
	S := sym(fx.S)
	C, neg, err := kernel.ClipPSD(ctx, nil, S)
	if err != nil {
		t.Fatal(err)
	}
	if neg != fx.ClipNeg {
		t.Errorf("ClipPSD: %d negative eigenvalues, peers %d", neg, fx.ClipNeg)
	}
	if d := maxRelDiff(t, C, fx.Clip); d > 1e-12 {
		t.Errorf("ClipPSD: max rel diff %.3g vs peers psd_clip", d)
	}
	rawFull(t, C)
	P, rank, err := kernel.PseudoInverse(ctx, nil, S, fx.PinvRcond)
	if err != nil {
		t.Fatal(err)
	}
	if rank != fx.PinvRank {
		t.Errorf("PseudoInverse rank %d, want %d", rank, fx.PinvRank)
	}
	if d := maxRelDiff(t, P, fx.Pinv); d > 1e-11 {
		t.Errorf("PseudoInverse: max rel diff %.3g vs numpy pinv", d)
	}
	// Penrose condition S·S⁺·S = S.
	var a, b mat.Dense
	a.Mul(S, P)
	b.Mul(&a, S)
	if !mat.EqualApprox(&b, S, 1e-10) {
		t.Error("S·S⁺·S != S")
	}
	// A full-rank matrix: pinv is the inverse.
	F := mat.NewSymDense(3, []float64{4, 1, 0, 1, 3, 1, 0, 1, 2})
	Fi, r, err := kernel.PseudoInverse(ctx, nil, F, 0)
	if err != nil || r != 3 {
		t.Fatal(err, r)
	}
	var id mat.Dense
	id.Mul(F, Fi)
	if !mat.EqualApprox(&id, eye(3), 1e-14) {
		t.Error("F·F⁺ != I")
	}
}

func eye(n int) *mat.Dense {
	m := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		m.Set(i, i, 1)
	}
	return m
}

// notSym is a mat.Symmetric whose At is not symmetric.
type notSym struct{ *mat.Dense }

func (s notSym) SymmetricDim() int { r, _ := s.Dims(); return r }

func TestMatrixErrors(t *testing.T) {
	ctx := context.Background()
	bad := notSym{mat.NewDense(2, 2, []float64{1, 2, 3, 4})}
	if _, _, err := kernel.ClipPSD(ctx, nil, bad); !errors.Is(err, kernel.ErrNotSymmetric) {
		t.Errorf("ClipPSD asymmetric: %v", err)
	}
	if _, err := kernel.Embed(ctx, bad, 1); !errors.Is(err, kernel.ErrNotSymmetric) {
		t.Errorf("Embed asymmetric: %v", err)
	}
	nan := mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1})
	if _, _, err := kernel.ClipPSD(ctx, nil, nan); !errors.Is(err, kernel.ErrNonFinite) {
		t.Errorf("ClipPSD NaN: %v", err)
	}
	if _, _, err := kernel.PseudoInverse(ctx, nil, nan, 0); !errors.Is(err, kernel.ErrNonFinite) {
		t.Errorf("PseudoInverse NaN: %v", err)
	}
	ok := mat.NewSymDense(2, []float64{2, 1, 1, 2})
	if _, _, err := kernel.PseudoInverse(ctx, nil, ok, -1); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("PseudoInverse rcond<0: %v", err)
	}
	if _, err := kernel.Embed(ctx, ok, 3); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("Embed dims>N: %v", err)
	}
	if _, err := kernel.Embed(ctx, ok, 0); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("Embed dims=0: %v", err)
	}
	if _, _, err := kernel.ClipPSD(ctx, mat.NewSymDense(3, nil), ok); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("ClipPSD dst: %v", err)
	}
	if _, err := kernel.ToSym(mat.NewDense(2, 2, []float64{1, 2, 2.5, 1}), 1e-9); !errors.Is(err, kernel.ErrNotSymmetric) {
		t.Errorf("ToSym asymmetric: %v", err)
	}
	if _, err := kernel.ToSym(mat.NewDense(2, 3, nil), 0); !errors.Is(err, kernel.ErrShape) {
		t.Errorf("ToSym non-square: %v", err)
	}
	if _, err := kernel.ToSym(mat.NewDense(1, 1, []float64{math.Inf(1)}), 0); !errors.Is(err, kernel.ErrNonFinite) {
		t.Errorf("ToSym Inf: %v", err)
	}
	s, err := kernel.ToSym(mat.NewDense(2, 2, []float64{1, 2, 2 + 1e-14, 1}), 1e-12)
	if err != nil || math.Abs(s.At(0, 1)-2) > 1e-13 {
		t.Errorf("ToSym within tolerance: %v %v", s, err)
	}
}

// TestEmbed: Z·Zᵀ reproduces a PSD matrix of rank ≤ dims, columns are in
// decreasing eigenvalue order and follow the sign convention.
func TestEmbed(t *testing.T) {
	ctx := context.Background()
	X := randDense(40, 3, 11)
	K, err := kernel.Gram(context.Background(), nil, kernel.Linear{}, X)
	if err != nil {
		t.Fatal(err)
	}
	Z, err := kernel.Embed(ctx, K, 3)
	if err != nil {
		t.Fatal(err)
	}
	var zz mat.Dense
	zz.Mul(Z, Z.T())
	if !mat.EqualApprox(&zz, K, 1e-12) {
		t.Fatal("Z·Zᵀ != K for a rank-3 K")
	}
	prev := math.Inf(1)
	for c := 0; c < 3; c++ {
		col := mat.Col(nil, c, Z)
		norm, best := 0.0, 0.0
		for _, v := range col {
			norm += v * v
			if math.Abs(v) > math.Abs(best) {
				best = v
			}
		}
		if norm > prev*(1+1e-12) {
			t.Errorf("column %d: eigenvalue %v above previous %v", c, norm, prev)
		}
		prev = norm
		if best < 0 {
			t.Errorf("column %d: largest component %v is negative", c, best)
		}
	}
}

func TestInducedDistance(t *testing.T) {
	X := randDense(30, 4, 5)
	K, err := kernel.Gram(context.Background(), nil, kernel.Linear{}, X)
	if err != nil {
		t.Fatal(err)
	}
	D := kernel.InducedDistance(K)
	for i := 0; i < 30; i++ {
		for j := 0; j < 30; j++ {
			want := math.Sqrt(sqd(X.RawRowView(i), X.RawRowView(j)))
			if math.Abs(D.At(i, j)-want) > 1e-12 {
				t.Fatalf("d(%d,%d) = %v, want %v", i, j, D.At(i, j), want)
			}
		}
	}
	// Rounding that would make d² negative is clamped to 0.
	Kr, _ := kernel.Gram(context.Background(), nil, kernel.RBF{Gamma: 1}, X)
	for _, v := range kernel.InducedDistance(Kr).Data {
		if !(v >= 0) {
			t.Fatalf("negative or NaN induced distance %v", v)
		}
	}
}

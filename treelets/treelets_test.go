package treelets

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// refLevel is one level of the straightforward reference.
type refLevel struct {
	sum, diff int
	sim       float64
	A         *mat.Dense // the matrix after the level
}

// reference is the algorithm of paper §2.2 run literally: every
// level scores all active pairs with M_ij = sqrt(A_ij²/(A_ii A_jj)) +
// λ|A_ij|, takes the largest (ties: the pair with the smaller larger
// index, then the smaller smaller index), builds the n×n Jacobi matrix J
// and forms JᵀAJ by dense products: O(n³) per level. It shares no code
// with the package.
func reference(A0 *mat.Dense, lambda float64) []refLevel {
	n, _ := A0.Dims()
	A := mat.DenseCopyOf(A0)
	active := make([]bool, n)
	for i := range active {
		active[i] = true
	}
	var out []refLevel
	for lev := 0; lev < n-1; lev++ {
		ba, bb, bv := -1, -1, math.Inf(-1)
		for j := 0; j < n; j++ { // larger index
			for i := 0; i < j; i++ {
				if !active[i] || !active[j] {
					continue
				}
				aij := A.At(i, j)
				v := math.Sqrt(aij*aij/(A.At(i, i)*A.At(j, j))) + lambda*math.Abs(aij)
				if v > bv {
					ba, bb, bv = i, j, v
				}
			}
		}
		al, be := ba, bb
		J := mat.NewDense(n, n, nil)
		for i := 0; i < n; i++ {
			J.Set(i, i, 1)
		}
		if e := A.At(al, be); e != 0 {
			b := (A.At(be, be) - A.At(al, al)) / (2 * e)
			sg := 1.0 // sign(b); b = 0: −sign(e) (the documented tie rule)
			if b < 0 || b == 0 && e > 0 {
				sg = -1
			}
			t := sg / (math.Abs(b) + math.Sqrt(b*b+1))
			c := 1 / math.Sqrt(t*t+1)
			s := c * t
			// Golub & Van Loan: J = [[c, s], [−s, c]] in the (α, β) plane
			J.Set(al, al, c)
			J.Set(al, be, s)
			J.Set(be, al, -s)
			J.Set(be, be, c)
		}
		var T, N mat.Dense
		T.Mul(J.T(), A)
		N.Mul(&T, J)
		A = &N
		sum, diff := al, be
		if A.At(al, al) < A.At(be, be) {
			sum, diff = be, al
		}
		active[diff] = false
		out = append(out, refLevel{sum: sum, diff: diff, sim: bv, A: mat.DenseCopyOf(A)})
	}
	return out
}

// randomCov returns a random covariance matrix XᵀX/m of d variables with
// mixed-sign correlations (m observations of correlated Gaussians).
func randomCov(rng *rand.Rand, d, m int) *mat.SymDense {
	X := mat.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		z := rng.NormFloat64()
		for j := 0; j < d; j++ {
			w := float64(j%3) - 1 // −1, 0, 1: groups with opposite signs
			X.Set(i, j, w*z+0.7*rng.NormFloat64()+0.1*float64(j)*rng.NormFloat64())
		}
	}
	var S mat.SymDense
	S.SymOuterK(1/float64(m), X.T())
	return &S
}

// randomRBF returns an RBF kernel matrix over n random 2-D points.
func randomRBF(rng *rand.Rand, n int, gamma float64) *mat.SymDense {
	x := make([][2]float64, n)
	for i := range x {
		c := float64(i % 3)
		x[i] = [2]float64{c*2 + rng.NormFloat64(), rng.NormFloat64()}
	}
	K := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			dx, dy := x[i][0]-x[j][0], x[i][1]-x[j][1]
			K.SetSym(i, j, math.Exp(-gamma*(dx*dx+dy*dy)))
		}
	}
	return K
}

func TestAbsAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name   string
		A      *mat.SymDense
		lambda float64
	}{
		{"cov d=12", randomCov(rng, 12, 40), 0},
		{"cov d=25 lambda=0.3", randomCov(rng, 25, 30), 0.3},
		{"rbf n=40", randomRBF(rng, 40, 0.5), 0},
		{"rbf n=30 lambda=1", randomRBF(rng, 30, 2), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.A.SymmetricDim()
			ref := reference(mat.DenseCopyOf(tc.A), tc.lambda)
			m, err := Settings{Lambda: tc.lambda}.Fit(context.Background(), tc.A)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Levels) != n-1 {
				t.Fatalf("%d levels, want %d", len(m.Levels), n-1)
			}
			for k, l := range m.Levels {
				r := ref[k]
				if l.Sum != r.sum || l.Diff != r.diff {
					t.Fatalf("level %d: merged (sum %d, diff %d), reference (sum %d, diff %d)", k+1, l.Sum, l.Diff, r.sum, r.diff)
				}
				// similarities: same formula up to rounding (|a|·r_i·r_j
				// against sqrt(a²/(A_ii·A_jj))), after up to n rotations
				if d := math.Abs(l.Similarity - r.sim); d > 1e-10*(1+math.Abs(r.sim)) {
					t.Errorf("level %d: similarity %v, reference %v", k+1, l.Similarity, r.sim)
				}
			}
			// the rotated matrix: B_{n−1}ᵀ A B_{n−1} from the model's basis
			// equals the reference's A after the last level
			B, err := m.Basis(nil, n-1)
			if err != nil {
				t.Fatal(err)
			}
			var T, R mat.Dense
			T.Mul(B.T(), tc.A)
			R.Mul(&T, B)
			if !mat.EqualApprox(&R, ref[n-2].A, 1e-10*mat.Norm(tc.A, math.Inf(1))) {
				t.Errorf("BᵀAB differs from the reference's rotated matrix")
			}
		})
	}
}

// TestInvariants: after every level the rotation has zeroed its entry,
// the basis is orthonormal to 1e-12, and the in-place run leaves an
// exactly symmetric matrix equal to BᵀAB.
func TestInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, rule := range []Similarity{Abs, Signed, Raw} {
		for _, A := range []*mat.SymDense{randomCov(rng, 20, 25), randomRBF(rng, 30, 1)} {
			n := A.SymmetricDim()
			A0 := mat.NewSymDense(n, nil)
			A0.CopySym(A)
			work := mat.NewSymDense(n, nil)
			work.CopySym(A)
			m, err := Settings{Similarity: rule}.FitInPlace(context.Background(), work)
			if err != nil {
				t.Fatal(err)
			}
			scale := mat.Norm(A0, math.Inf(1))
			B := mat.NewDense(n, n, nil)
			for lev := 1; lev < n; lev++ {
				if _, err := m.Basis(B, lev); err != nil {
					t.Fatal(err)
				}
				var I mat.Dense
				I.Mul(B.T(), B)
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						want := 0.0
						if i == j {
							want = 1
						}
						if d := math.Abs(I.At(i, j) - want); d > 1e-12 {
							t.Fatalf("%v level %d: (BᵀB)[%d,%d] off by %g", rule, lev, i, j, d)
						}
					}
				}
				var T, R mat.Dense
				T.Mul(B.T(), A0)
				R.Mul(&T, B)
				l := m.Levels[lev-1]
				if v := R.At(l.Sum, l.Diff); math.Abs(v) > 1e-12*scale {
					t.Fatalf("%v level %d: rotated entry (%d,%d) = %g, want 0", rule, lev, l.Sum, l.Diff, v)
				}
				if R.At(l.Diff, l.Diff) > R.At(l.Sum, l.Sum)+1e-12*scale {
					t.Fatalf("%v level %d: difference variable has the larger variance", rule, lev)
				}
				if lev == n-1 {
					for i := 0; i < n; i++ {
						for j := 0; j < n; j++ {
							if d := math.Abs(R.At(i, j) - work.At(i, j)); d > 1e-10*scale {
								t.Fatalf("%v: final A[%d,%d] = %v, BᵀAB = %v", rule, i, j, work.At(i, j), R.At(i, j))
							}
						}
					}
				}
			}
			raw := work.RawSymmetric()
			for i := 0; i < n; i++ {
				for j := 0; j < i; j++ {
					if raw.Data[i*raw.Stride+j] != raw.Data[j*raw.Stride+i] {
						t.Fatalf("%v: storage not symmetric at (%d,%d)", rule, i, j)
					}
				}
			}
			// the tree is valid and the cut sizes are right
			tr := m.Tree()
			if err := tr.Validate(); err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= n; k++ {
				lab, err := m.CutK(k)
				if err != nil {
					t.Fatal(err)
				}
				mx := 0
				for _, v := range lab {
					mx = max(mx, v)
				}
				if mx != k-1 {
					t.Fatalf("CutK(%d) gave %d clusters", k, mx+1)
				}
			}
			h := m.Heights()
			for k := 1; k < len(h); k++ {
				if h[k] < h[k-1] {
					t.Fatalf("heights not monotone at %d", k)
				}
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	good := mat.NewSymDense(2, []float64{1, .5, .5, 1})
	cases := []struct {
		name string
		s    Settings
		A    mat.Matrix
		want error
	}{
		{"lambda<0", Settings{Lambda: -1}, good, ErrBadParam},
		{"lambda NaN", Settings{Lambda: math.NaN()}, good, ErrBadParam},
		{"rule", Settings{Similarity: 7}, good, ErrBadParam},
		{"not square", Settings{}, mat.NewDense(2, 3, nil), ErrMatrix},
		{"not symmetric", Settings{}, mat.NewDense(2, 2, []float64{1, .5, .4, 1}), ErrMatrix},
		{"zero diagonal", Settings{}, mat.NewSymDense(2, []float64{0, 0, 0, 1}), ErrMatrix},
		{"negative diagonal", Settings{}, mat.NewSymDense(2, []float64{1, 0, 0, -1}), ErrMatrix},
		{"NaN", Settings{}, mat.NewSymDense(2, []float64{1, math.NaN(), math.NaN(), 1}), ErrMatrix},
		{"1x1", Settings{}, mat.NewSymDense(1, []float64{1}), ErrMatrix},
	}
	for _, tc := range cases {
		_, err := tc.s.Fit(ctx, tc.A)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
	m, err := Settings{}.Fit(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.CutK(3); !errors.Is(err, ErrK) {
		t.Errorf("CutK(3) of 2: %v", err)
	}
	if _, err := m.CutK(0); !errors.Is(err, ErrK) {
		t.Errorf("CutK(0): %v", err)
	}
	if _, err := ParseSimilarity("cosine"); !errors.Is(err, ErrBadParam) {
		t.Errorf("ParseSimilarity: %v", err)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	A := randomRBF(rand.New(rand.NewPCG(5, 6)), 50, 1)
	if _, err := (Settings{}).Fit(ctx, A); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run returned %v", err)
	}
}

// TestGOMAXPROCS: the parallel passes (n above parallelMin) give the same
// levels, bit for bit, on one goroutine and on several.
func TestGOMAXPROCS(t *testing.T) {
	A := randomRBF(rand.New(rand.NewPCG(11, 12)), 700, 0.7)
	var runs [][]Level
	for _, p := range []int{1, 4} {
		old := runtime.GOMAXPROCS(p)
		m, err := Settings{}.Fit(context.Background(), A)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, m.Levels)
	}
	for k := range runs[0] {
		if runs[0][k] != runs[1][k] {
			t.Fatalf("level %d: %+v with 1 thread, %+v with 4", k+1, runs[0][k], runs[1][k])
		}
	}
}

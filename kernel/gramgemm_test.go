package kernel_test

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// TestGramHighDim covers the inner-product path of Gram and Cross (32
// features or more; 300 crosses gemm's 256-value blocks): Cross(X, X)
// equals Gram(X) bit for bit, equal rows give a squared distance of
// exactly 0 (RBF and Exponential values of exactly 1), GOMAXPROCS 1 and 2
// agree bit for bit, and every entry is within the rounding bound of
// pairwise Eval: for a dot product 2(d+2)·ε·‖x‖·‖y‖ (Higham §3.1, both
// sides rounded), for a squared distance 4(d+4)·ε·(‖x‖² + ‖y‖²), carried
// through k's derivative.
func TestGramHighDim(t *testing.T) {
	ctx := context.Background()
	for _, d := range []int{32, 300} {
		X := randDense(61, d, 3)
		// Row 7 repeats row 2: an exact zero distance.
		X.SetRow(7, X.RawRowView(2))
		kernels := []kernel.Kernel{kernel.Linear{}, kernel.Poly{A: 0.1, B: 1, Degree: 3}, kernel.RBF{Gamma: 1 / float64(d)}, kernel.Exponential{Gamma: 0.5}, kernel.Laplacian{Gamma: 0.01}}
		for _, k := range kernels {
			var grams [2]*mat.SymDense
			for p := 1; p <= 2; p++ {
				old := runtime.GOMAXPROCS(p)
				g, err := kernel.Gram(ctx, nil, k, X)
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				grams[p-1] = g
			}
			K := grams[0]
			if !mat.Equal(K, grams[1]) {
				t.Fatalf("d=%d %#v: Gram differs between GOMAXPROCS 1 and 2", d, k)
			}
			C, err := kernel.Cross(ctx, nil, k, X, X)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := X.Dims()
			eps := 0x1p-52
			for i := 0; i < n; i++ {
				x := X.RawRowView(i)
				for j := 0; j < n; j++ {
					y := X.RawRowView(j)
					got := K.At(i, j)
					if c := C.At(i, j); math.Float64bits(c) != math.Float64bits(got) {
						t.Fatalf("d=%d %#v: Cross[%d,%d] = %v, Gram %v", d, k, i, j, c, got)
					}
					nx, ny := math.Sqrt(dot(x, x)), math.Sqrt(dot(y, y))
					want := k.Eval(x, y)
					var tol float64
					switch k := k.(type) {
					case kernel.Linear:
						tol = 2 * float64(d+2) * eps * nx * ny
					case kernel.Poly:
						u := k.A*dot(x, y) + k.B
						tol = float64(k.Degree)*math.Pow(math.Abs(u), float64(k.Degree-1))*k.A*2*float64(d+2)*eps*nx*ny + 8*eps*math.Abs(want)
					case kernel.RBF:
						tol = k.Gamma*4*float64(d+4)*eps*(nx*nx+ny*ny)*want + 8*eps
						if (i == 2 || i == 7) && (j == 2 || j == 7) || i == j {
							tol = 0 // equal rows: exactly 1
						}
					case kernel.Exponential:
						dist := math.Sqrt(sqDist(x, y))
						tol = 8 * eps
						if dist > 0 {
							tol += k.Gamma * 4 * float64(d+4) * eps * (nx*nx + ny*ny) / dist * want
						}
						if (i == 2 || i == 7) && (j == 2 || j == 7) || i == j {
							tol = 0
						}
					default: // Laplacian: the exact loop, as below 32 features
						tol = 1e-14
					}
					if diff := math.Abs(got - want); diff > tol {
						t.Fatalf("d=%d %#v: K[%d,%d] = %v, Eval %v: |diff| %.3g > %.3g", d, k, i, j, got, want, diff, tol)
					}
				}
			}
		}
	}
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

func sqDist(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += (v - y[i]) * (v - y[i])
	}
	return s
}

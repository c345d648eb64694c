package lanczos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// peerMatrix is the matrix of testdata/peer_time.py: n LCG points (seed 42)
// in 8-D, RBF with gamma 2.
var peerMatrix = sync.OnceValue(func() *mat.SymDense { return rbfMatrix(4000, 8, 42, 2) })

func BenchmarkMulVec(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var a *mat.SymDense
			if n == 4000 {
				a = peerMatrix()
			} else {
				a = rbfMatrix(n, 8, 42, 2)
			}
			op := NewSym(a)
			x, y := lcg(n, 1), make([]float64, n)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				op.MulVec(y, x)
			}
		})
	}
}

func BenchmarkTop(b *testing.B) {
	for _, k := range []int{10, 20, 50} {
		b.Run(fmt.Sprintf("n=4000/k=%d", k), func(b *testing.B) {
			op := NewSym(peerMatrix())
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := (Solver{K: k}).Top(context.Background(), op); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestPeerRatio times Solver.Top against SciPy's eigsh (testdata/peer_time.py)
// on the same 4000×4000 matrix, side by side. It runs only with
// ARBOR_PEER_TIME=1 (it needs /usr/bin/python3 with SciPy):
//
//	ARBOR_PEER_TIME=1 go test -run PeerRatio -v ./internal/lanczos/
func TestPeerRatio(t *testing.T) {
	if os.Getenv("ARBOR_PEER_TIME") == "" {
		t.Skip("set ARBOR_PEER_TIME=1 to time against SciPy eigsh")
	}
	ks := []int{10, 20, 50}
	cmd := exec.Command("/usr/bin/python3", "testdata/peer_time.py", "4000", "10", "20", "50")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("peer_time.py: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	peer := map[int]float64{}
	top := map[int]float64{}
	for {
		var rec struct {
			K       int
			Seconds float64
			Top     float64
		}
		if err := dec.Decode(&rec); err != nil {
			break
		}
		peer[rec.K] = rec.Seconds
		top[rec.K] = rec.Top
	}
	op := NewSym(peerMatrix())
	for _, k := range ks {
		for _, tol := range []float64{0, 2.2e-16} {
			best := time.Duration(1 << 62)
			var res *Result
			for rep := 0; rep < 3; rep++ {
				start := time.Now()
				res, err = Solver{K: k, Tol: tol}.Top(context.Background(), op)
				if err != nil {
					t.Fatal(err)
				}
				best = min(best, time.Since(start))
			}
			ratio := best.Seconds() / peer[k]
			t.Logf("n=4000 k=%d Tol=%g: lanczos %.3fs (%d matvecs) eigsh %.3fs ratio %.2f (λmax %.12g vs %.12g)",
				k, tol, best.Seconds(), res.MatVecs, peer[k], ratio, res.Values[0], top[k])
			if ratio > 2 {
				t.Errorf("k=%d: ratio %.2f > 2", k, ratio)
			}
		}
	}
}

package lanczos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
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

// BenchmarkPeerRatio times Solver.Top against SciPy's eigsh (testdata/peer_time.py)
// on the same 4000×4000 matrix, side by side: for each k the peer and Go
// runs alternate three times (so load changes on the machine hit both) and
// the best time of each is compared. It runs only with ARBOR_PEER_TIME=1 (it
// needs /usr/bin/python3 with SciPy):
//
//	ARBOR_PEER_TIME=1 go test -run '^$' -bench PeerRatio -benchtime 1x ./internal/lanczos/
func BenchmarkPeerRatio(b *testing.B) {
	if os.Getenv("ARBOR_PEER_TIME") == "" {
		b.Skip("set ARBOR_PEER_TIME=1 to time against SciPy eigsh")
	}
	op := NewSym(peerMatrix())
	for _, k := range []int{10, 20, 50} {
		peer, best := math.Inf(1), math.Inf(1)
		var top float64
		var res *Result
		for rep := 0; rep < 3; rep++ {
			out, err := exec.Command("/usr/bin/python3", "testdata/peer_time.py", "4000", fmt.Sprint(k)).Output()
			if err != nil {
				b.Fatalf("peer_time.py: %v", err)
			}
			var rec struct {
				Seconds, Top float64
			}
			if err := json.NewDecoder(bytes.NewReader(out)).Decode(&rec); err != nil {
				b.Fatal(err)
			}
			peer, top = math.Min(peer, rec.Seconds), rec.Top
			start := time.Now()
			res, err = Solver{K: k}.Top(context.Background(), op)
			if err != nil {
				b.Fatal(err)
			}
			best = math.Min(best, time.Since(start).Seconds())
		}
		ratio := best / peer
		b.Logf("n=4000 k=%d: lanczos %.3fs (%d matvecs, %d restarts) eigsh %.3fs ratio %.2f (λmax %.12g vs %.12g)",
			k, best, res.MatVecs, res.Iter, peer, ratio, res.Values[0], top)
		if math.Abs(res.Values[0]-top) > 1e-9*top {
			b.Errorf("k=%d: λmax %v, eigsh %v", k, res.Values[0], top)
		}
		if ratio > 2 {
			b.Errorf("k=%d: ratio %.2f > 2", k, ratio)
		}
	}
}

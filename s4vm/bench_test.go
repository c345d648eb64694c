package s4vm

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/arbor-ml/arbor/internal/smo"
	"github.com/arbor-ml/arbor/kernel"
)

// BenchmarkRetrain is one local-descent refit on USPS (1,500 rows,
// min–max scaled, linear kernel, 10 labelled rows, C1 = 100, C2 = 0.1)
// after 1 % of the unlabelled labels switched, from a descent's end
// state. warm keeps the column cache and starts from the previous α
// (smo.Warm sums) — what S4VM does; cold-points is the reference's fit
// (LIBSVM from the points: α = 0, an empty cache, LIBSVM's row order,
// decision values in float64); cold-gram is the same on the precomputed
// Gram matrix (columns gathered, not computed); cold-cached starts from
// α = 0 with the filled cache kept (the iterations alone).
func BenchmarkRetrain(b *testing.B) {
	X, K, _, y := problemSet(b, "usps", 0, 5, 1)
	n := len(y)
	var rows []int
	var lab []int8
	for i, v := range y {
		if v >= 0 {
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
	raw := K.RawSymmetric()
	src := &smo.DenseGram{Data: raw.Data, Stride: raw.Stride, N: n, Mirrored: true}
	bn := &bin{src: src, rows: rows, n: n, l: l, lab: lab, set: S4VM{}.resolve()}
	cs := make([]float64, n)
	for i := range cs {
		cs[i] = 0.1
		if i < l {
			cs[i] = 100
		}
	}
	ctx := context.Background()
	// A descent's end state.
	ysvm, _, _, err := bn.inductive(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ft := newFitter(bn.source(), bn.rows, cs, 1e-3, 200, false)
	r := rand.New(rand.NewPCG(1, 1))
	d, err := bn.localDescent(ctx, ft, newBalance(n, lab), ysvm, pcgChanger(r), 200)
	if err != nil {
		b.Fatal(err)
	}
	yA := d.labels
	yB := append([]int8(nil), yA...)
	for _, j := range r.Perm(n - l)[:(n-l)/100] {
		yB[l+j] = -yB[l+j]
	}
	Xr := X.RawMatrix()
	pts := &smo.Points{X: Xr.Data, D: Xr.Cols, Stride: Xr.Stride, K: kernel.Linear{}}
	for _, mode := range []string{"warm", "cold-points", "cold-gram", "cold-cached"} {
		b.Run(mode, func(b *testing.B) {
			var f *fitter
			switch mode {
			case "cold-points":
				f = newFitter(pts, rows, cs, 1e-3, 200, true)
			default:
				f = newFitter(bn.source(), bn.rows, cs, 1e-3, 200, mode == "cold-gram")
			}
			if _, err := f.fit(ctx, yA); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				yy := yB
				if i%2 == 1 {
					yy = yA
				}
				if mode == "cold-cached" {
					clear(f.alpha)
					f.warm = smo.Warm{}
				}
				if _, err := f.fit(ctx, yy); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(f.iter)/float64(f.fits), "smo-iter/fit")
			if f.alpha != nil {
				free, up := 0, 0
				for i, a := range f.alpha {
					if a > 0 && a < cs[i] {
						free++
					} else if a >= cs[i] {
						up++
					}
				}
				b.ReportMetric(float64(free), "free")
				b.ReportMetric(float64(up), "bounded")
			}
		})
	}
}

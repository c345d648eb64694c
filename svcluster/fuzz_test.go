package svcluster

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzFit: arbitrary small data and settings never panic; results are
// consistent (labels in range, every non-outlier labelled, eq. 13).
func FuzzFit(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, uint8(2), 1.0, 1.0, uint8(0), uint8(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint8(1), 0.5, 0.3, uint8(1), uint8(3))
	f.Add([]byte{9, 9, 9, 9, 200, 1, 7, 3, 3, 3, 3, 3, 90, 91}, uint8(2), 4.0, 0.5, uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, raw []byte, dim uint8, q, c float64, kind, lab uint8) {
		if len(raw) > 120 {
			// at most 40 points are used; longer inputs only slow the
			// fuzzer's minimisation (a 60-second run must keep executing)
			return
		}
		d := 1 + int(dim%3)
		n := len(raw) / d
		if n > 40 {
			n = 40
		}
		if n < 2 {
			return
		}
		X := mat.NewDense(n, d, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				X.Set(i, j, float64(int8(raw[i*d+j]))/16)
			}
		}
		cl := Clusterer{Q: q, C: c, Kernel: KernelKind(kind % 2), Labelling: Labelling(lab % 5)}
		r, err := cl.Fit(context.Background(), X)
		if err != nil {
			return // invalid settings are reported, not panicked on
		}
		if math.IsNaN(r.R2) {
			t.Fatalf("R² is NaN")
		}
		isB := map[int]bool{}
		for _, i := range r.BSV {
			isB[i] = true
		}
		for i, l := range r.Labels {
			if l < 0 && !isB[i] || l >= r.NClusters {
				t.Fatalf("row %d label %d of %d clusters", i, l, r.NClusters)
			}
		}
		if float64(r.NBSV) > 1/c+1e-9 || float64(r.NSV+r.NBSV) < 1/c-1e-6 && c < 1 {
			t.Fatalf("eq. 13 violated: n_sv %d, n_bsv %d, 1/C %g", r.NSV, r.NBSV, 1/c)
		}
	})
}

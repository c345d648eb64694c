package dataset

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// classStats returns, for each class, the mean and population std of each column.
func classStats(d *Dataset) (mean, sd [][]float64) {
	C := len(d.Classes)
	dim := d.Dim()
	mean, sd = make([][]float64, C), make([][]float64, C)
	for c := 0; c < C; c++ {
		mean[c], sd[c] = make([]float64, dim), make([]float64, dim)
		for j := 0; j < dim; j++ {
			var col []float64
			for i, y := range d.Y {
				if y == c {
					col = append(col, d.X.At(i, j))
				}
			}
			mean[c][j], sd[c][j] = stat.PopMeanStdDev(col, nil)
		}
	}
	return mean, sd
}

// noiseStd is the population std of all entries of a − b: the noise that
// Moons/Circles add after shuffling, since with one seed the noise-free and
// the noisy set share the permutation.
func noiseStd(a, b *mat.Dense) float64 {
	var d mat.Dense
	d.Sub(a, b)
	_, sd := stat.PopMeanStdDev(d.RawMatrix().Data, nil)
	return sd
}

func checkCommon(t *testing.T, d *Dataset, n, dim int, counts []int) {
	t.Helper()
	if err := d.Check(); err != nil {
		t.Fatal(err)
	}
	if d.Len() != n || d.Dim() != dim {
		t.Errorf("%s: %d×%d, want %d×%d", d.Name, d.Len(), d.Dim(), n, dim)
	}
	if got := d.ClassCounts(); !slices.Equal(got, counts) {
		t.Errorf("%s: class counts %v, want %v", d.Name, got, counts)
	}
}

// Statistical bounds below are >= 5 standard errors of the estimate, so a
// failure means a wrong distribution, not bad luck (the seeds are fixed anyway).

func TestMoons(t *testing.T) {
	const n = 4001
	clean := Moons(n, 0, 7)
	checkCommon(t, clean, n, 2, []int{2000, 2001})
	for i := 0; i < n; i++ {
		x, y := clean.X.At(i, 0), clean.X.At(i, 1)
		var r float64
		if clean.Y[i] == 0 {
			r = math.Hypot(x, y)
			if y < -1e-15 {
				t.Fatalf("outer moon point below the axis: %v,%v", x, y)
			}
		} else {
			r = math.Hypot(x-1, y-0.5)
			if y > 0.5+1e-15 {
				t.Fatalf("inner moon point above 0.5: %v,%v", x, y)
			}
		}
		if math.Abs(r-1) > 1e-12 {
			t.Fatalf("radius %v, want 1", r)
		}
	}
	mean, _ := classStats(clean)
	// means of (cos t, sin t) over evenly spaced t in [0, π]: (0, 2/π) as n → ∞
	for c, want := range [][]float64{{0, 2 / math.Pi}, {1, 0.5 - 2/math.Pi}} {
		for j := range want {
			if math.Abs(mean[c][j]-want[j]) > 1e-3 {
				t.Errorf("moon %d mean[%d] = %v, want %v", c, j, mean[c][j], want[j])
			}
		}
	}
	if first := clean.Y[:20]; slices.IsSorted(first) {
		t.Errorf("rows not shuffled: %v", first)
	}
	noisy := Moons(n, 0.1, 7)
	if !slices.Equal(noisy.Y, clean.Y) {
		t.Fatal("noise changed the permutation")
	}
	if sd := noiseStd(noisy.X, clean.X); math.Abs(sd-0.1) > 0.005 {
		t.Errorf("noise std %v, want 0.1", sd)
	}
	if !mat.Equal(Moons(n, 0.1, 7).X, noisy.X) {
		t.Error("same seed, different data")
	}
	if mat.Equal(Moons(n, 0.1, 8).X, noisy.X) {
		t.Error("different seeds, same data")
	}
}

func TestCircles(t *testing.T) {
	const n = 3000
	clean := Circles(n, 0, 0.4, 1)
	checkCommon(t, clean, n, 2, []int{1500, 1500})
	mean, _ := classStats(clean)
	for i := 0; i < n; i++ {
		want := 1.0
		if clean.Y[i] == 1 {
			want = 0.4
		}
		if r := math.Hypot(clean.X.At(i, 0), clean.X.At(i, 1)); math.Abs(r-want) > 1e-12 {
			t.Fatalf("row %d radius %v, want %v", i, r, want)
		}
	}
	// evenly spaced angles without the endpoint: the means are exactly 0
	for c := range mean {
		for j := range mean[c] {
			if math.Abs(mean[c][j]) > 1e-12 {
				t.Errorf("circle %d mean[%d] = %v, want 0", c, j, mean[c][j])
			}
		}
	}
	noisy := Circles(n, 0.05, 0.4, 1)
	if sd := noiseStd(noisy.X, clean.X); math.Abs(sd-0.05) > 0.0025 {
		t.Errorf("noise std %v, want 0.05", sd)
	}
}

func TestBlobs(t *testing.T) {
	d := Blobs(4002, 4, 3, 0.5, 3)
	checkCommon(t, d, 4002, 3, []int{1001, 1001, 1000, 1000})
	mean, sd := classStats(d)
	for c := range mean {
		for j := range mean[c] {
			if math.Abs(mean[c][j]) > 10+0.1 {
				t.Errorf("blob %d mean %v outside the (-10, 10) box", c, mean[c])
			}
			if math.Abs(sd[c][j]-0.5) > 0.06 {
				t.Errorf("blob %d std[%d] = %v, want 0.5", c, j, sd[c][j])
			}
		}
	}
	// centres uniform in the box: over many blobs their coordinates have
	// mean 0 and variance 20²/12.
	big := Blobs(3000, 300, 2, 0, 11)
	m, _ := classStats(big)
	var all []float64
	for _, c := range m {
		all = append(all, c...)
	}
	mu, s := stat.PopMeanStdDev(all, nil)
	if math.Abs(mu) > 1.2 || math.Abs(s-20/math.Sqrt(12)) > 0.6 {
		t.Errorf("centre coordinates mean %v std %v, want 0 and %v", mu, s, 20/math.Sqrt(12))
	}
	if slices.IsSorted(d.Y) {
		t.Error("rows not shuffled")
	}
}

func TestGaussGrid(t *testing.T) {
	d := GaussGrid(3, 400, 0.3, 5)
	checkCommon(t, d, 3600, 2, []int{400, 400, 400, 400, 400, 400, 400, 400, 400})
	if !slices.IsSorted(d.Y) {
		t.Error("rows not ordered by class like gauss9.csv")
	}
	mean, sd := classStats(d)
	for c := range mean {
		want := []float64{float64(c / 3), float64(c % 3)}
		for j := 0; j < 2; j++ {
			if math.Abs(mean[c][j]-want[j]) > 0.075 { // 5 × 0.3/√400
				t.Errorf("class %d mean %v, want %v", c, mean[c], want)
			}
			if math.Abs(sd[c][j]-0.3) > 0.055 {
				t.Errorf("class %d std %v, want 0.3", c, sd[c])
			}
		}
	}
	// the embedded gauss9 follows the same layout
	g9, err := Embedded("gauss9")
	if err != nil {
		t.Fatal(err)
	}
	m9, _ := classStats(g9)
	for c := range m9 {
		if math.Abs(m9[c][0]-float64(c/3)) > 0.15 || math.Abs(m9[c][1]-float64(c%3)) > 0.15 {
			t.Errorf("gauss9 class %d mean %v", c, m9[c])
		}
	}
}

func TestGeneratorsPanicOnBadArguments(t *testing.T) {
	for name, f := range map[string]func(){
		"Moons n=1":       func() { Moons(1, 0.1, 0) },
		"Moons noise<0":   func() { Moons(10, -1, 0) },
		"Moons noise NaN": func() { Moons(10, math.NaN(), 0) },
		"Circles factor1": func() { Circles(10, 0, 1, 0) },
		"Circles inf":     func() { Circles(10, math.Inf(1), 0.5, 0) },
		"Blobs n<centers": func() { Blobs(2, 3, 2, 1, 0) },
		"Blobs dim 0":     func() { Blobs(10, 3, 0, 1, 0) },
		"Blobs centers 0": func() { Blobs(10, 0, 2, 1, 0) },
		"GaussGrid 0":     func() { GaussGrid(0, 10, 0.1, 0) },
		"GaussGrid 1x1":   func() { GaussGrid(1, 1, 0.1, 0) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

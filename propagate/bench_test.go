package propagate

import (
	"bufio"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// loadMoons5000 reads testdata/moons5000.csv.gz, written by
// testdata/peer_time.py --write: the same points and labels scikit-learn is
// timed on.
func loadMoons5000(tb testing.TB) (*mat.Dense, []int) {
	tb.Helper()
	f, err := os.Open("testdata/moons5000.csv.gz")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Scan() // header
	var xs []float64
	var y []int
	for sc.Scan() {
		p := strings.Split(sc.Text(), ",")
		a, err1 := strconv.ParseFloat(p[0], 64)
		b, err2 := strconv.ParseFloat(p[1], 64)
		l, err3 := strconv.Atoi(p[2])
		if err1 != nil || err2 != nil || err3 != nil {
			tb.Fatalf("bad line %q", sc.Text())
		}
		xs = append(xs, a, b)
		y = append(y, l)
	}
	return mat.NewDense(len(y), 2, xs), y
}

// subset keeps the first n rows (the labelled rows among them stay labelled).
func subset(X *mat.Dense, y []int, n int) (*mat.Dense, []int) {
	return mat.DenseCopyOf(X.Slice(0, n, 0, 2)), y[:n]
}

// BenchmarkLabelPropagation times Fit on the peer_time.py data (two moons,
// z-scored, 10 labelled per class): rbf gamma=20 and knn k=7, closed and
// iterative. Compare with `/usr/bin/python3 testdata/peer_time.py`.
func BenchmarkLabelPropagation(b *testing.B) {
	X0, y0 := loadMoons5000(b)
	for _, n := range []int{1000, 5000} {
		X, y := subset(X0, y0, n)
		for _, aff := range []Affinity{{Kind: RBF, Gamma: 20}, {Kind: KNN, K: 7}} {
			for _, m := range []string{Closed, Iterative} {
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, aff.Kind, m), func(b *testing.B) {
					p := Propagation{Affinity: aff, Method: m, Unreachable: UnreachableUnlabeled}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						r, err := p.Fit(context.Background(), X, y)
						if err != nil {
							b.Fatal(err)
						}
						b.ReportMetric(float64(r.Iter), "iter")
					}
				})
			}
		}
	}
}

// BenchmarkLabelSpreading: as BenchmarkLabelPropagation for Spreading
// (scikit-learn's defaults: alpha 0.2, 30 iterations at most).
func BenchmarkLabelSpreading(b *testing.B) {
	X0, y0 := loadMoons5000(b)
	for _, n := range []int{1000, 5000} {
		X, y := subset(X0, y0, n)
		for _, aff := range []Affinity{{Kind: RBF, Gamma: 20}, {Kind: KNN, K: 7}} {
			for _, m := range []string{Iterative, Closed} {
				b.Run(fmt.Sprintf("n=%d/%s/%s", n, aff.Kind, m), func(b *testing.B) {
					s := Spreading{Affinity: aff, Method: m, Unreachable: UnreachableUnlabeled}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, err := s.Fit(context.Background(), X, y); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

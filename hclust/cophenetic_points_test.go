package hclust

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"gonum.org/v1/gonum/mat"
)

// copheneticCase is a case of testdata/cophenet.json.gz, written by
// testdata/gen_cophenet.py (SciPy 1.10.1): points and, per method,
// cophenet(linkage(pdist(X), m), pdist(X))[0].
type copheneticCase struct {
	Name string
	X    [][]float64
	Coph map[string]float64
}

func loadCopheneticCases(t *testing.T) []copheneticCase {
	t.Helper()
	f, err := os.Open("testdata/cophenet.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var all struct{ Cases []copheneticCase }
	if err := json.NewDecoder(zr).Decode(&all); err != nil {
		t.Fatal(err)
	}
	return all.Cases
}

func (c copheneticCase) points() *mat.Dense {
	X := mat.NewDense(len(c.X), len(c.X[0]), nil)
	for i, r := range c.X {
		X.SetRow(i, r)
	}
	return X
}

// FromPointsCophenetic (σ_c/σ_d for average linkage, the leaf-order pass
// otherwise) and CopheneticCorrelationPoints equal SciPy's cophenetic
// correlation. Tolerance 1e-12: sums over up to 720,000 pairs in other
// orders than NumPy's, and average linkage's heights are Lance–Williams
// means, equal to the block means up to rounding.
func TestCopheneticCorrelationPointsSciPy(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadCopheneticCases(t) {
		X := c.points()
		for _, m := range []Method{Single, Complete, Average, Weighted, Ward, Centroid, Median} {
			want, ok := c.Coph[m.String()]
			if !ok {
				t.Fatalf("%s: no %v in the fixture", c.Name, m)
			}
			tree, got, err := FromPointsCophenetic(ctx, X, m)
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := FromPoints(ctx, X, m)
			if !slices.Equal(tree.Merges, plain.Merges) {
				t.Errorf("%s %v: the tree differs from FromPoints's", c.Name, m)
			}
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("%s %v: FromPointsCophenetic %.16f, SciPy %.16f (diff %.1e)", c.Name, m, got, want, got-want)
			}
			rows, err := tree.CopheneticCorrelationPoints(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(rows-want) > 1e-12 {
				t.Errorf("%s %v: CopheneticCorrelationPoints %.16f, SciPy %.16f (diff %.1e)", c.Name, m, rows, want, rows-want)
			}
		}
	}
}

// The correlations do not depend on the number of threads, to the bit.
func TestCopheneticCorrelationPointsProcs(t *testing.T) {
	X := loadCopheneticCases(t)[0].points()
	ctx := context.Background()
	old := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(old)
	for _, m := range []Method{Average, Complete} {
		var ref [2]float64
		for i, p := range []int{1, 2, 3, 8} {
			runtime.GOMAXPROCS(p)
			tree, r, err := FromPointsCophenetic(ctx, X, m)
			if err != nil {
				t.Fatal(err)
			}
			rp, err := tree.CopheneticCorrelationPoints(ctx, X)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				ref = [2]float64{r, rp}
			} else if r != ref[0] || rp != ref[1] {
				t.Errorf("%v GOMAXPROCS %d: %v %v, with 1 thread %v %v", m, p, r, rp, ref[0], ref[1])
			}
		}
	}
}

func TestCopheneticCorrelationPointsErrors(t *testing.T) {
	ctx := context.Background()
	tree := &Tree{N: 3, Merges: []Merge{{0, 1, 1, 2}, {2, 3, 2, 3}}}
	if _, err := tree.CopheneticCorrelationPoints(ctx, mat.NewDense(4, 2, nil)); !errors.Is(err, ErrTree) {
		t.Errorf("4 points for a 3-leaf tree: %v, want ErrTree", err)
	}
	if _, err := tree.CopheneticCorrelationPoints(ctx, mat.NewDense(3, 1, []float64{0, math.NaN(), 1})); err == nil {
		t.Error("NaN coordinate accepted")
	}
	if _, _, err := FromPointsCophenetic(ctx, mat.NewDense(1, 2, nil), Average); !errors.Is(err, ErrTooFewRows) {
		t.Errorf("one point: %v, want ErrTooFewRows", err)
	}
	// all points equal: the correlation is undefined (SciPy: nan)
	for _, m := range []Method{Average, Complete} {
		if _, r, err := FromPointsCophenetic(ctx, mat.NewDense(5, 2, nil), m); err != nil || !math.IsNaN(r) {
			t.Errorf("%v on equal points: %v, %v; want NaN", m, r, err)
		}
	}
}

// CopheneticCorrelationRows on rows of pdist(X) equals SciPy's cophenetic
// correlation too (1e-12 as above), also for ward, whose heights are far
// larger than the distances.
func TestCopheneticCorrelationRowsSciPy(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadCopheneticCases(t) {
		X := c.points()
		for _, m := range []Method{Complete, Average, Ward} {
			tree, err := FromPoints(ctx, X, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tree.CopheneticCorrelationRows(ctx, func(i int, row []float64) {
				for j := i + 1; j < len(c.X); j++ {
					row[j] = distance.Dist(c.X[i], c.X[j])
				}
			})
			if want := c.Coph[m.String()]; err != nil || math.Abs(got-want) > 1e-12 {
				t.Errorf("%s %v: %.16f, SciPy %.16f (%v)", c.Name, m, got, want, err)
			}
		}
	}
}

package hclust

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/arbor-ml/arbor/distance"
)

// float32Tol bounds the relative height error of the float32 working
// matrix: each distance is rounded once (2⁻²⁴) and each Lance–Williams
// update, a convex combination for average/weighted (and a rounded sqrt
// for Ward, centroid, median), adds at most one more rounding along the
// chain of updates that leads to a height. The fixtures need at most
// 2.6·2⁻²⁴ (rand700 centroid); 8·2⁻²⁴ leaves room without hiding a wrong
// merge (a wrong pair changes heights by far more).
const float32Tol = 8.0 / (1 << 24)

// TestFloat32Fixtures: on the SciPy fixtures without near-ties (uniform
// random points, random dissimilarities, an integer grid whose ties are
// exact in float32 as in float64), FromPoints32 and LinkageSym32 give
// SciPy's merges, sizes and leaf order, with heights within float32Tol.
func TestFloat32Fixtures(t *testing.T) {
	ctx := context.Background()
	tieFree := map[string]bool{"rand60": true, "rand200": true, "rand700": true, "nonmetric": true, "grid": true, "zeros": true, "pair": true}
	checked := 0
	for _, c := range loadFixtures(t) {
		if !tieFree[c.Name] {
			continue
		}
		S := c.condensed().Square(nil)
		for _, m := range Methods() {
			want, ok := c.Methods[m.String()]
			if !ok {
				continue
			}
			// grid: Ward, centroid and median compute new distances
			// from tied ones, so rounding differs between the two
			// storages and near-ties appear; the linkages that only copy
			// (single, complete) or average tied values keep SciPy's tree.
			if c.Name == "grid" && (m == Ward || m == Centroid || m == Median) {
				continue
			}
			trees := map[string]func() (*Tree, error){
				"LinkageSym32": func() (*Tree, error) { return LinkageSym32(ctx, S, m) },
			}
			if c.X != nil {
				trees["FromPoints32"] = func() (*Tree, error) { return FromPoints32(ctx, c.points(), m) }
			}
			if c.Name == "grid" && m == Single {
				// the chain orders equal-height single merges otherwise
				// than SciPy's MST (TestFloat32RoundedInput compares them)
				delete(trees, "LinkageSym32")
			}
			for name, build := range trees {
				tr, err := build()
				if err != nil {
					t.Fatalf("%s %s/%v: %v", name, c.Name, m, err)
				}
				for k, mg := range tr.Merges {
					w := want.Z[k]
					if float64(mg.A) != w[0] || float64(mg.B) != w[1] || float64(mg.Size) != w[3] ||
						math.Abs(mg.Height-w[2]) > float32Tol*w[2] {
						t.Fatalf("%s %s/%v: row %d = %v, scipy %v", name, c.Name, m, k, mg, w)
					}
				}
				if got := tr.Leaves(); !equalInts(got, want.Leaves) {
					t.Fatalf("%s %s/%v: leaves differ from scipy", name, c.Name, m)
				}
				checked++
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d trees checked", checked)
	}
}

// TestFloat32RoundedInput: single and complete linkage do no arithmetic on
// distances, so LinkageSym32 on D equals the float64 Linkage on D rounded
// to float32, bit for bit — also on iris, whose one-decimal features give
// float64 distances that differ by 1e-16 where the exact ones tie (in
// float32 they tie exactly, so the float32 tree can differ from SciPy's on
// such data: tie order, documented in FromPoints32).
func TestFloat32RoundedInput(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		d := c.condensed()
		S := d.Square(nil)
		r := distance.Condensed{N: d.N, Data: make([]float64, len(d.Data))}
		for i, v := range d.Data {
			r.Data[i] = float64(float32(v))
		}
		for _, m := range []Method{Single, Complete} {
			want, err := Linkage(ctx, r, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := LinkageSym32(ctx, S, m)
			if err != nil {
				t.Fatal(err)
			}
			// Single linkage in float64 runs SLINK/Prim, LinkageSym32 the
			// chain: the same merges; equal heights may come in another
			// order, so compare the cophenetic distances.
			wc, gc := want.Cophenetic().Data, got.Cophenetic().Data
			for i := range wc {
				if wc[i] != gc[i] {
					t.Fatalf("%s/%v: cophenetic[%d] = %v, want %v", c.Name, m, i, gc[i], wc[i])
				}
			}
		}
	}
}

func TestFloat32Errors(t *testing.T) {
	ctx := context.Background()
	S := distance.Condensed{N: 3, Data: []float64{1, -2, 3}}.Square(nil)
	if _, err := LinkageSym32(ctx, S, Average); err == nil {
		t.Fatal("negative distance accepted")
	}
	S = distance.Condensed{N: 3, Data: []float64{1, 1e300, 3}}.Square(nil)
	if _, err := LinkageSym32(ctx, S, Average); err == nil {
		t.Fatal("distance overflowing float32 accepted")
	}
	if _, err := LinkageSym32(ctx, distance.Condensed{N: 1}.Square(nil), Average); err == nil {
		t.Fatal("one observation accepted")
	}
}

// BenchmarkFromPoints32 is BenchmarkFromPoints with the float32 working
// matrix (compare the two with benchstat: the float32 chain reads half the
// bytes per scan).
func BenchmarkFromPoints32(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		x := benchPoints(n, 10, 0)
		for _, m := range []Method{Average, Ward} {
			b.Run(fmt.Sprintf("method=%v/n=%d", m, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := FromPoints32(context.Background(), x, m); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestCopheneticCorrelationRows: the one-pass correlation from rows of
// distances equals CopheneticCorrelation on the condensed matrix to 1e-12
// (same pairs, different summation), for every fixture and method.
func TestCopheneticCorrelationRows(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for _, c := range loadFixtures(t) {
		d := c.condensed()
		for _, m := range Methods() {
			if _, ok := c.Methods[m.String()]; !ok {
				continue
			}
			tr, err := Linkage(ctx, d, m)
			if err != nil {
				t.Fatal(err)
			}
			want, err := tr.CopheneticCorrelation(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.CopheneticCorrelationRows(ctx, func(i int, row []float64) {
				for j := i + 1; j < d.N; j++ {
					row[j] = d.At(i, j)
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if !(math.Abs(got-want) <= 1e-12) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("%s/%v: %v, condensed %v", c.Name, m, got, want)
			}
			checked++
		}
	}
	if checked < 40 {
		t.Fatalf("only %d checked", checked)
	}
}

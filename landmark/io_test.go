package landmark

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestLandmarkMapSaveLoad: every landmark map (Nyström of a point kernel,
// of the Euclidean and graph cluster kernels, landmark ISOMAP on knn and
// eps graphs) gives new points bit-identical features after save → load;
// a cut file, another map's file and a newer version are ErrFormat.
func TestLandmarkMapSaveLoad(t *testing.T) {
	ctx := context.Background()
	X := randPoints(120, 3, 5)
	Xt := randPoints(30, 3, 6)
	lm, err := Choose(ctx, X, 25, KMeans, 3)
	if err != nil {
		t.Fatal(err)
	}
	knn5 := graph.Spec{Kind: graph.KindKNN, K: 5}
	type featuresFunc func(context.Context, mat.Matrix) (*mat.Dense, error)
	type mapCase struct {
		name string
		fit  func() (featuresFunc, func(*bytes.Buffer) error, error)
		load func(*bytes.Buffer) (featuresFunc, error)
	}
	var cases []mapCase
	nys := map[string]func() (*Nystrom, error){
		"rbf":         func() (*Nystrom, error) { return newNystrom(ctx, X, kernel.RBF{Gamma: 0.4}, lm, 0) },
		"poly":        func() (*Nystrom, error) { return newNystrom(ctx, X, kernel.Poly{A: 0.5, B: 1, Degree: 2}, lm, 0) },
		"hck:average": func() (*Nystrom, error) { return newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Average}, lm, 0) },
		"hck:single":  func() (*Nystrom, error) { return newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Single}, lm, 0) },
		"hckg:single": func() (*Nystrom, error) {
			return newNystromHCK(ctx, X, kernel.HCK{Method: hclust.Single, Graph: &knn5}, lm, 0)
		},
		"hckg:single geodesic": func() (*Nystrom, error) {
			ny, _, err := newNystromGraph(ctx, X, kernel.HCK{Method: hclust.Single, Graph: &knn5}, lm, 0)
			return ny, err
		},
		"hckg:average geodesic": func() (*Nystrom, error) {
			ny, _, err := newNystromGraph(ctx, X, kernel.HCK{Method: hclust.Average, Graph: &graph.Spec{}}, lm, 0)
			return ny, err
		},
	}
	for name, fit := range nys {
		cases = append(cases, mapCase{name, func() (featuresFunc, func(*bytes.Buffer) error, error) {
			ny, err := fit()
			if err != nil {
				return nil, nil, err
			}
			return ny.Features, func(b *bytes.Buffer) error { return ny.Save(b) }, nil
		}, func(b *bytes.Buffer) (featuresFunc, error) {
			ny, err := LoadNystrom(b)
			if err != nil {
				return nil, err
			}
			return ny.Features, nil
		}})
	}
	for _, g := range []graph.Spec{knn5, {Kind: graph.KindEps, Eps: 1.5}} {
		cases = append(cases, mapCase{"isomap/" + g.String(), func() (featuresFunc, func(*bytes.Buffer) error, error) {
			l, err := newISOMAP(ctx, X, g, lm, 0)
			if err != nil {
				return nil, nil, err
			}
			return l.Features, func(b *bytes.Buffer) error { return l.Save(b) }, nil
		}, func(b *bytes.Buffer) (featuresFunc, error) {
			l, err := LoadISOMAP(b)
			if err != nil {
				return nil, err
			}
			return l.Features, nil
		}})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			features, save, err := c.fit()
			if err != nil {
				t.Fatal(err)
			}
			want, err := features(ctx, Xt)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := save(&buf); err != nil {
				t.Fatal(err)
			}
			full := bytes.Clone(buf.Bytes())
			loaded, err := c.load(&buf)
			if err != nil {
				t.Fatal(err)
			}
			got, err := loaded(ctx, Xt)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(got, want) {
				t.Fatalf("features after save → load differ by %g", maxAbsDiff(got, want))
			}
			for _, bad := range [][]byte{full[:len(full)-40], full[:len(full)/2],
				bytes.Replace(full, []byte(`"version": 1`), []byte(`"version": 2`), 1),
				[]byte(`{"format":"arbor-svm","version":1}`)} {
				if _, err := c.load(bytes.NewBuffer(bad)); !errors.Is(err, ErrFormat) {
					t.Errorf("damaged file: %v, want ErrFormat", err)
				}
			}
		})
	}
	// One map's file is not another's.
	ny, _ := newNystrom(ctx, X, kernel.RBF{Gamma: 0.4}, lm, 0)
	var buf bytes.Buffer
	if err := ny.Save(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadISOMAP(&buf); !errors.Is(err, ErrFormat) {
		t.Errorf("a Nyström file read as landmark ISOMAP: %v, want ErrFormat", err)
	}
}

package landmark

import (
	"context"
	"errors"
	"testing"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"

	"gonum.org/v1/gonum/mat"
)

// TestSettingsFit: Fit builds the map its documentation names for each
// kernel and tree, with the features of that constructor bit for bit (the
// same computation), and rbf:scale takes gamma from X as Spec.Resolve.
func TestSettingsFit(t *testing.T) {
	ctx := context.Background()
	X := treeExtPoints(150, 11)
	lm, err := Choose(ctx, X, 20, KMeans, 3)
	if err != nil {
		t.Fatal(err)
	}
	knn5 := graph.Spec{Kind: graph.KindKNN, K: 5}
	scaled, _ := kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{}, Scale: true}.Resolve(X)
	nystrom := func(k kernel.Kernel) func() (Map, *mat.Dense, error) {
		return func() (Map, *mat.Dense, error) {
			ny, err := newNystrom(ctx, X, k, lm, 0)
			if err != nil {
				return nil, nil, err
			}
			Z, err := ny.Features(ctx, X)
			return ny, Z, err
		}
	}
	onLandmarks := func(h kernel.HCK) func() (Map, *mat.Dense, error) {
		return func() (Map, *mat.Dense, error) {
			ny, err := newNystromHCK(ctx, X, h, lm, 0)
			if err != nil {
				return nil, nil, err
			}
			Z, err := ny.Features(ctx, X)
			return ny, Z, err
		}
	}
	hck := func(m hclust.Method, g *graph.Spec) kernel.Spec {
		return kernel.Spec{Kind: kernel.KindHCK, Method: m, Graph: g}
	}
	for _, c := range []struct {
		name string
		s    Settings
		want func() (Map, *mat.Dense, error)
	}{
		{"rbf", Settings{Kernel: kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{Gamma: 0.7}}}, nystrom(kernel.RBF{Gamma: 0.7})},
		{"rbf:scale", Settings{Kernel: kernel.Spec{Kind: kernel.KindPoint, Point: kernel.RBF{}, Scale: true}}, nystrom(scaled)},
		{"hck:single", Settings{Kernel: hck(hclust.Single, nil)}, func() (Map, *mat.Dense, error) { return mapOf(newNystromSingle(ctx, X, lm, 0)) }},
		{"connectivity", Settings{Kernel: kernel.Spec{Kind: kernel.KindConnectivity}}, func() (Map, *mat.Dense, error) { return mapOf(newNystromSingle(ctx, X, lm, 0)) }},
		{"hck:average", Settings{Kernel: hck(hclust.Average, nil)}, func() (Map, *mat.Dense, error) {
			return mapOf(newNystromCells(ctx, X, kernel.HCK{Method: hclust.Average}, lm, 0))
		}},
		{"hck:average landmarks", Settings{Kernel: hck(hclust.Average, nil), Tree: TreeLandmarks}, onLandmarks(kernel.HCK{Method: hclust.Average})},
		{"hck:single landmarks", Settings{Kernel: hck(hclust.Single, nil), Tree: TreeLandmarks}, onLandmarks(kernel.HCK{Method: hclust.Single})},
		{"hckg:average", Settings{Kernel: hck(hclust.Average, &knn5)}, func() (Map, *mat.Dense, error) {
			return mapOf(newNystromGraph(ctx, X, kernel.HCK{Method: hclust.Average, Graph: &knn5}, lm, 0))
		}},
		{"hckg:average landmarks", Settings{Kernel: hck(hclust.Average, &knn5), Tree: TreeLandmarks}, onLandmarks(kernel.HCK{Method: hclust.Average, Graph: &knn5})},
		{"isomap", Settings{Kernel: kernel.Spec{Kind: kernel.KindISOMAP}}, func() (Map, *mat.Dense, error) {
			iso, err := newISOMAP(ctx, X, kernel.DefaultGraph(), lm, 0)
			if err != nil {
				return nil, nil, err
			}
			return iso, iso.Train(), nil
		}},
		{"multitype", Settings{Kernel: kernel.Spec{Kind: kernel.KindMultiType, Multi: &kernel.MultiType{Gamma: 0.5, Transfer: kernel.TransferPoly, T: 2}}}, func() (Map, *mat.Dense, error) {
			nm, F, err := newMultiType(ctx, X, kernel.MultiType{Gamma: 0.5, Transfer: kernel.TransferPoly, T: 2}, lm, 0)
			return nm, F, err
		}},
	} {
		fm, Z, err := c.s.Fit(ctx, X, lm)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		wm, wZ, err := c.want()
		if err != nil {
			t.Fatalf("%s: reference: %v", c.name, err)
		}
		if ft, wt := typeName(fm), typeName(wm); ft != wt {
			t.Errorf("%s: map %s, want %s", c.name, ft, wt)
		}
		if ny, ok := fm.(*Nystrom); ok && ny.AllRows != wm.(*Nystrom).AllRows {
			t.Errorf("%s: AllRows %v, want %v", c.name, ny.AllRows, wm.(*Nystrom).AllRows)
		}
		if !mat.Equal(Z, wZ) {
			t.Errorf("%s: features differ from the constructor's (max |Δ| %g)", c.name, maxAbsDiff(Z, wZ))
		}
	}
	if _, _, err := (Settings{Kernel: kernel.Spec{Kind: "nonesuch"}}).Fit(ctx, X, lm); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("unknown kind: %v, want ErrBadParam", err)
	}
	if _, _, err := (Settings{Kernel: hck(hclust.Average, nil), Tree: 7}).Fit(ctx, X, lm); !errors.Is(err, kernel.ErrBadParam) {
		t.Errorf("tree 7: %v, want ErrBadParam", err)
	}
}

func typeName(m Map) string {
	switch m.(type) {
	case *Nystrom:
		return "Nystrom"
	case *ISOMAP:
		return "ISOMAP"
	case *MultiType:
		return "MultiType"
	}
	return "?"
}

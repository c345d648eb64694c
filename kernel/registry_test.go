package kernel

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// gramLinear is a toy data-dependent family registered by this test only:
// "toylinear[:SCALE]" builds K = SCALE·XXᵀ through a Build step (not as a
// point kernel), so its new-point rows come from the default least-squares
// extension of paper 000 §3.5, which for K = SCALE·XXᵀ and X of full column
// rank is exactly SCALE·x·Xᵀ.
type gramLinear struct{ scale float64 }

func init() {
	Register(Family{
		Name: "toylinear", Kind: "toylinear", Grammar: "toylinear[:SCALE]",
		Parse: func(s, _ string, args []string) (Spec, error) {
			v := 1.0
			if len(args) == 1 {
				var err error
				if v, err = specNum(s, args[0]); err != nil {
					return Spec{}, err
				}
			} else if len(args) > 1 {
				return specError(s, "want toylinear[:SCALE]")
			}
			return Spec{Kind: "toylinear", Data: gramLinear{v}}, nil
		},
		Format: func(sp Spec) (string, bool) {
			g, ok := sp.Data.(gramLinear)
			return "toylinear:" + ftoa(g.scale), ok
		},
		Build: func(ctx context.Context, X mat.Matrix, sp Spec, _ *Shared) (Built, error) {
			K, err := Gram(ctx, nil, Linear{}, X)
			if err != nil {
				return Built{}, err
			}
			K.ScaleSym(sp.Data.(gramLinear).scale, K)
			return Built{K: K}, nil
		},
	})
}

// TestRegistry: one registration makes a kernel parse, print, build in
// BuildAll beside built-in kernels and extend to new points.
func TestRegistry(t *testing.T) {
	ctx := context.Background()
	sp, err := ParseSpec("ToyLinear:3")
	if err != nil {
		t.Fatal(err)
	}
	if sp.String() != "toylinear:3" {
		t.Errorf("String %q", sp.String())
	}
	if _, err := ParseSpec("toylinear:1:2"); err == nil {
		t.Error("toylinear:1:2 parsed")
	}
	if _, err := ParseSpec("nosuch"); err == nil || !strings.Contains(err.Error(), "toylinear") {
		t.Errorf("unknown kernel message does not list the registered names: %v", err)
	}
	X := mat.NewDense(6, 2, []float64{0, 1, 1, 0, 2, 1, -1, 3, 0.5, -2, 4, 4})
	lin, _ := ParseSpec("linear")
	built, err := BuildAll(ctx, X, []Spec{sp, lin, {Kind: KindHCK, Method: hclust.Average}}, BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		for j := range 6 {
			if got, want := built[0].K.At(i, j), 3*built[1].K.At(i, j); math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Fatalf("K[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	if built[0].Spec.String() != "toylinear:3" {
		t.Errorf("Built.Spec = %v", built[0].Spec)
	}
	Xt := mat.NewDense(2, 2, []float64{1, 1, -3, 0.25})
	Kt, diag, err := built[0].Extend(ctx, X, Xt, "")
	if err != nil {
		t.Fatal(err)
	}
	ref, refDiag, err := built[1].Extend(ctx, X, Xt, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if math.Abs(diag[i]-3*refDiag[i]) > 1e-9*refDiag[i] {
			t.Errorf("diag[%d] = %v, want %v", i, diag[i], 3*refDiag[i])
		}
		for j := range 6 {
			if got, want := Kt.At(i, j), 3*ref.At(i, j); math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("Kt[%d][%d] = %v, want %v", i, j, got, want)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a second registration of a name did not panic")
		}
	}()
	Register(Family{Name: "rbf", Kind: KindPoint, Parse: lookupOrPanic("rbf").Parse, Format: lookupOrPanic("rbf").Format})
}

func lookupOrPanic(name string) *Family {
	f := Lookup(name)
	if f == nil {
		panic(name)
	}
	return f
}

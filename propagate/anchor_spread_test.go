package propagate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// denseAnchorZ is the N×M anchor weight matrix of the rows of X, by brute
// force and the definition (S nearest anchors, ties to the lower index;
// σ the mean distance to the S-th nearest anchor; Gaussian weights
// normalised per row): independent of anchorWeights.
func denseAnchorZ(X, anchors *mat.Dense, s int) *mat.Dense {
	n, d := X.Dims()
	m, _ := anchors.Dims()
	type c struct {
		d2 float64
		k  int
	}
	near := make([][]c, n)
	sigma := 0.0
	for i := 0; i < n; i++ {
		cs := make([]c, m)
		for k := 0; k < m; k++ {
			for j := 0; j < d; j++ {
				u := X.At(i, j) - anchors.At(k, j)
				cs[k].d2 += u * u
			}
			cs[k].k = k
		}
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].d2 < cs[b].d2 })
		near[i] = cs[:s]
		sigma += math.Sqrt(cs[s-1].d2)
	}
	sigma /= float64(n)
	Z := mat.NewDense(n, m, nil)
	for i, cs := range near {
		tot := 0.0
		for _, v := range cs {
			tot += math.Exp(-v.d2 / (sigma * sigma))
		}
		for _, v := range cs {
			Z.Set(i, v.k, math.Exp(-v.d2/(sigma*sigma))/tot)
		}
	}
	return Z
}

// TestAnchorSpreadingDense: label spreading on the anchor graph equals
// scikit-learn's LabelSpreading closed form (this package's Spreading,
// Closed, on the precomputed dense affinity W = Z Λ⁻¹ Zᵀ): the same
// transduction; the same anchor scores B = Λ⁻¹ Zᵀ F̂ as a dense LU solve
// of (I − αS)F = (1−α)Y (to 1e-11: two orders of rounding in N = 90
// unknowns, condition ≤ (1+α)/(1−α)); the same labels of new points from their affinity
// rows, and their probabilities those of LabelSpreading.predict_proba's
// rule on them (Proba) — with every row an anchor and with a subset of anchors; and
// save → load predicts the same.
func TestAnchorSpreadingDense(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(4, 4))
	n, d := 90, 2
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i % 3
		X.Set(i, 0, float64(c)*1.2+rng.NormFloat64()*0.6) // overlapping blobs
		X.Set(i, 1, rng.NormFloat64()*0.6)
		y[i] = -1
		if i < 12 {
			y[i] = c
		}
	}
	Xt := mat.NewDense(40, d, nil)
	for i := 0; i < 40; i++ {
		Xt.Set(i, 0, rng.Float64()*3.6-0.6)
		Xt.Set(i, 1, rng.NormFloat64()*0.6)
	}
	for _, tc := range []struct {
		name  string
		rows  []int
		s     int
		alpha float64
	}{
		{"all rows anchors", nil, 3, 0.2},
		{"all rows anchors, alpha 0.9", nil, 4, 0.9},
		{"30 anchors", []int{0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 63, 66, 69, 72, 75, 78, 81, 84, 87}, 3, 0.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows := tc.rows
			if rows == nil {
				for i := 0; i < n; i++ {
					rows = append(rows, i)
				}
			}
			anchors := mat.NewDense(len(rows), d, nil)
			for r, i := range rows {
				anchors.SetRow(r, X.RawRowView(i))
			}
			am, err := AnchorSpreading{S: tc.s, Alpha: tc.alpha}.Fit(ctx, X, anchors, y)
			if err != nil {
				t.Fatal(err)
			}
			Z := denseAnchorZ(X, anchors, tc.s)
			m := len(rows)
			lam := make([]float64, m)
			for k := 0; k < m; k++ {
				lam[k] = mat.Sum(Z.ColView(k))
			}
			affinity := func(A *mat.Dense) *mat.Dense { // A Λ⁻¹ Zᵀ
				r, _ := A.Dims()
				S := mat.NewDense(r, m, nil)
				for i := 0; i < r; i++ {
					for k := 0; k < m; k++ {
						if lam[k] > 0 {
							S.Set(i, k, A.At(i, k)/lam[k])
						}
					}
				}
				var W mat.Dense
				W.Mul(S, Z.T())
				return &W
			}
			Wd := affinity(Z)
			W := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					W.SetSym(i, j, 0.5*(Wd.At(i, j)+Wd.At(j, i)))
				}
			}
			exact, err := Spreading{Alpha: tc.alpha, Method: Closed}.FitGram(ctx, W, y)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := fmt.Sprint(am.Transduction()), fmt.Sprint(exact.Transduction()); got != want {
				t.Fatalf("transduction\n got %s\nwant %s", got, want)
			}
			// The closed form by a dense LU solve of (I − αS) F = (1−α) Y,
			// S = D^{-1/2} W₀ D^{-1/2}; then B = Λ⁻¹ Zᵀ F̂.
			A := mat.NewDense(n, n, nil)
			deg := make([]float64, n)
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if i != j {
						deg[i] += W.At(i, j)
					}
				}
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					v := 0.0
					if i != j {
						v = -tc.alpha * W.At(i, j) / math.Sqrt(deg[i]*deg[j])
					} else {
						v = 1
					}
					A.Set(i, j, v)
				}
			}
			Y := mat.NewDense(n, 3, nil)
			for i, c := range y {
				if c >= 0 {
					Y.Set(i, c, 1-tc.alpha)
				}
			}
			var F mat.Dense
			if err := F.Solve(A, Y); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < n; i++ {
				row := F.RawRowView(i)
				tot := row[0] + row[1] + row[2]
				for c := range row {
					row[c] /= tot
				}
			}
			var B mat.Dense
			B.Mul(Z.T(), &F)
			worst := 0.0
			for k := 0; k < m; k++ {
				for c := 0; c < 3; c++ {
					want := 0.0
					if lam[k] > 0 {
						want = B.At(k, c) / lam[k]
					}
					worst = max(worst, math.Abs(am.a.At(k, c)-want)/(1+math.Abs(want)))
				}
			}
			if worst > 1e-11 {
				t.Fatalf("B = Λ⁻¹ Zᵀ F̂: largest relative difference %g from the dense solve, want ≤ 1e-11", worst)
			}
			// New points: LabelSpreading.predict from affinity rows.
			Wt := affinity(denseAnchorZ2(Xt, X, anchors, tc.s))
			want, err := exact.Predict(ctx, nil, Wt)
			if err != nil {
				t.Fatal(err)
			}
			got, err := am.Predict(ctx, nil, Xt)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("new points\n got %v\nwant %v", got, want)
			}
			// Their probabilities: LabelSpreading.predict_proba's rule from
			// the same affinity rows, Wt·F̂ with F̂ the dense solve's,
			// normalised (to 1e-10: B agrees to 1e-11 relative).
			var wantP mat.Dense
			wantP.Mul(Wt, &F)
			for i := range 40 {
				row := wantP.RawRowView(i)
				tot := row[0] + row[1] + row[2]
				for c := range row {
					row[c] /= tot
				}
			}
			gotP, err := am.Proba(ctx, nil, Xt)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.EqualApprox(gotP, &wantP, 1e-10) {
				t.Fatalf("new points' probabilities\n got %v\nwant %v", mat.Formatted(gotP), mat.Formatted(&wantP))
			}
			var buf bytes.Buffer
			if err := am.Save(&buf); err != nil {
				t.Fatal(err)
			}
			q, err := LoadAnchor(&buf)
			if err != nil {
				t.Fatal(err)
			}
			got2, err := q.Predict(ctx, nil, Xt)
			if err != nil || fmt.Sprint(got2) != fmt.Sprint(want) || fmt.Sprint(q.Transduction()) != fmt.Sprint(am.Transduction()) {
				t.Fatalf("after save → load: %v %v", got2, err)
			}
			if P2, err := q.Proba(ctx, nil, Xt); err != nil || !mat.Equal(P2, gotP) {
				t.Fatalf("after save → load: probabilities differ (%v)", err)
			}
		})
	}
}

// denseAnchorZ2 is the anchor weights of new points Xt, with σ of the
// fitted rows X (the model keeps the training σ).
func denseAnchorZ2(Xt, X, anchors *mat.Dense, s int) *mat.Dense {
	n, _ := X.Dims()
	t, d := Xt.Dims()
	// σ from X alone, then the weights of Xt with that σ.
	m, _ := anchors.Dims()
	sigma := 0.0
	for i := 0; i < n; i++ {
		ds := make([]float64, m)
		for k := 0; k < m; k++ {
			for j := 0; j < d; j++ {
				u := X.At(i, j) - anchors.At(k, j)
				ds[k] += u * u
			}
		}
		sort.Float64s(ds)
		sigma += math.Sqrt(ds[s-1])
	}
	sigma /= float64(n)
	Z := mat.NewDense(t, m, nil)
	for i := 0; i < t; i++ {
		type c struct {
			d2 float64
			k  int
		}
		cs := make([]c, m)
		for k := 0; k < m; k++ {
			for j := 0; j < d; j++ {
				u := Xt.At(i, j) - anchors.At(k, j)
				cs[k].d2 += u * u
			}
			cs[k].k = k
		}
		sort.SliceStable(cs, func(a, b int) bool { return cs[a].d2 < cs[b].d2 })
		tot := 0.0
		for _, v := range cs[:s] {
			tot += math.Exp(-v.d2 / (sigma * sigma))
		}
		for _, v := range cs[:s] {
			Z.Set(i, v.k, math.Exp(-v.d2/(sigma*sigma))/tot)
		}
	}
	return Z
}

func BenchmarkAnchorSpreading(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	n, d, m := 100000, 10, 300
	X := mat.NewDense(n, d, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		y[i] = -1
		if i < 50 {
			y[i] = i % 5
		}
		for j := 0; j < d; j++ {
			X.Set(i, j, rng.NormFloat64()+float64(i%5))
		}
	}
	anchors := mat.NewDense(m, d, nil)
	for k := 0; k < m; k++ {
		anchors.SetRow(k, X.RawRowView(k*7))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (AnchorSpreading{}).Fit(context.Background(), X, anchors, y); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLoadAnchorErrors: a cut, foreign or newer anchor-graph file, or one
// whose blocks do not fit its sizes, is ErrFormat.
func TestLoadAnchorErrors(t *testing.T) {
	X := mat.NewDense(6, 1, []float64{0, 0.1, 0.2, 5, 5.1, 5.2})
	am, err := AnchorGraph{S: 2}.Fit(context.Background(), X, mat.NewDense(2, 1, []float64{0.1, 5.1}), []int{0, -1, -1, 1, -1, -1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := am.Save(&buf); err != nil {
		t.Fatal(err)
	}
	full := buf.Bytes()
	if q, err := LoadAnchor(bytes.NewReader(full)); err != nil || fmt.Sprint(q.Transduction()) != "[0 0 0 1 1 1]" {
		t.Fatalf("round trip: %v %v", q, err)
	}
	for _, bad := range [][]byte{full[:len(full)/2], []byte(`{"format":"arbor-knn","version":1}`),
		bytes.Replace(full, []byte(`"version": 1`), []byte(`"version": 2`), 1),
		bytes.Replace(full, []byte(`"m": 2`), []byte(`"m": 3`), 1),
		bytes.Replace(full, []byte(`"s": 2`), []byte(`"s": 0`), 1)} {
		if _, err := LoadAnchor(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) {
			t.Errorf("%.60q: %v, want ErrFormat", bad, err)
		}
	}
}

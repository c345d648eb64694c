// Command anchorexp is the experiment harness behind propagate's doc
// section "Anchor graph (landmarks)": on one bench/lmacc split (same
// labelled rows, same landmarks: landmark.ChooseIncluding) it
// reimplements the anchor-graph variants — the weights Z (kernel, uniform,
// Local Anchor Embedding), S, the width σ, γ, and the solvers (the paper's
// anchor graph regularisation with and without the class-mass
// normalisation, the hard-clamped harmonic solution, spreading's closed
// form) — and prints each one's transductive accuracy, beside the exact
// lp/spreading on knn:10 (-exact). It is an experiment, not Arbor's code:
// propagate.AnchorGraph / AnchorSpreading are what arbor runs.
//
//	go run ./bench/anchorexp -data /tmp/lmacc/letter.csv -train 16000 -per-class 50 -exact -w kernel,uniform,lae -s 3,5,10
//	go run ./bench/anchorexp -data /tmp/lmacc/satellite.csv -train 4435 -per-class 100 -s 3 -sigmul -1
//
// -sigmul −1 takes σ = the mean distance of a row to its 10th nearest row
// (what arbor does for knn:10); -method fixed runs k-means with the
// labelled rows as fixed centres.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/propagate"
	"gonum.org/v1/gonum/mat"
)

func drawSplit(y []int, per int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x6c6d616363))
	byClass := map[int][]int{}
	var classes []int
	for i, c := range y {
		if _, ok := byClass[c]; !ok {
			classes = append(classes, c)
		}
		byClass[c] = append(byClass[c], i)
	}
	sort.Ints(classes)
	var out []int
	for _, c := range classes {
		rows := byClass[c]
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		out = append(out, rows[:min(per, len(rows))]...)
	}
	sort.Ints(out)
	return out
}

type zmat struct {
	s   int
	idx []int32
	z   []float64
}

var sigMul = 1.0

func buildZ(X, A *mat.Dense, s int, how string) zmat {
	n, d := X.Dims()
	m, _ := A.Dims()
	ar := mat.DenseCopyOf(A)
	ix := neighbors.New(ar.RawMatrix().Data, m, d)
	xr := mat.DenseCopyOf(X).RawMatrix().Data
	idx := make([]int32, n*s)
	d2 := make([]float64, n*s)
	if err := ix.Search(context.Background(), xr, s, idx, d2); err != nil {
		fatal(err)
	}
	z := make([]float64, n*s)
	switch {
	case how == "uniform":
		for i := range z {
			z[i] = 1 / float64(s)
		}
	case strings.HasPrefix(how, "kernel"):
		sum := 0.0
		for i := 0; i < n; i++ {
			sum += math.Sqrt(d2[i*s+s-1])
		}
		sig := sum / float64(n)
		if how == "kernel2" { // sigma from all rows' 1st anchor
			sum = 0
			for i := 0; i < n; i++ {
				sum += d2[i*s+s-1]
			}
			sig = math.Sqrt(sum / float64(n))
		}
		d1 := 0.0
		for i := 0; i < n; i++ {
			d1 += math.Sqrt(d2[i*s])
		}
		rix := neighbors.New(xr, n, d)
		ridx := make([]int32, n*10)
		rd2 := make([]float64, n*10)
		rix.Search(context.Background(), xr, 10, ridx, rd2)
		r10, r10q := 0.0, 0.0
		for i := 0; i < n; i++ {
			r10 += math.Sqrt(rd2[i*10+9])
			r10q += rd2[i*10+9]
		}
		fmt.Printf("sigma(mean d_s anchor) %.4f  mean d_1 anchor %.4f  mean r10 rows %.4f rms r10 %.4f\n", sig, d1/float64(n), r10/float64(n), math.Sqrt(r10q/float64(n)))
		if sigMul < 0 {
			sig = r10 / float64(n)
			sigMul = 1
		}
		s2 := sig * sig * sigMul * sigMul
		for i := 0; i < n; i++ {
			t := 0.0
			for a := 0; a < s; a++ {
				z[i*s+a] = math.Exp(-(d2[i*s+a] - d2[i*s]) / s2)
				t += z[i*s+a]
			}
			for a := 0; a < s; a++ {
				z[i*s+a] /= t
			}
		}
	case how == "lae":
		// min ½‖x − Uᵀz‖² on the simplex, projected gradient (Nesterov as the paper)
		for i := 0; i < n; i++ {
			x := xr[i*d : i*d+d]
			U := make([][]float64, s)
			for a := 0; a < s; a++ {
				U[a] = ar.RawRowView(int(idx[i*s+a]))
			}
			G := make([]float64, s*s)
			b := make([]float64, s)
			for a := 0; a < s; a++ {
				for c := 0; c < s; c++ {
					v := 0.0
					for k := 0; k < d; k++ {
						v += U[a][k] * U[c][k]
					}
					G[a*s+c] = v
				}
				v := 0.0
				for k := 0; k < d; k++ {
					v += U[a][k] * x[k]
				}
				b[a] = v
			}
			L := 0.0
			for a := 0; a < s; a++ {
				r := 0.0
				for c := 0; c < s; c++ {
					r += math.Abs(G[a*s+c])
				}
				L = max(L, r)
			}
			if L == 0 {
				L = 1
			}
			zz := make([]float64, s)
			for a := range zz {
				zz[a] = 1 / float64(s)
			}
			yv := append([]float64(nil), zz...)
			prev := append([]float64(nil), zz...)
			t := 1.0
			g := make([]float64, s)
			for it := 0; it < 200; it++ {
				for a := 0; a < s; a++ {
					v := -b[a]
					for c := 0; c < s; c++ {
						v += G[a*s+c] * yv[c]
					}
					g[a] = yv[a] - v/L
				}
				projSimplex(g)
				copy(prev, zz)
				copy(zz, g)
				tn := (1 + math.Sqrt(1+4*t*t)) / 2
				for a := 0; a < s; a++ {
					yv[a] = zz[a] + (t-1)/tn*(zz[a]-prev[a])
				}
				t = tn
			}
			copy(z[i*s:i*s+s], zz)
		}
	}
	return zmat{s, idx, z}
}

func projSimplex(v []float64) {
	u := append([]float64(nil), v...)
	sort.Sort(sort.Reverse(sort.Float64Slice(u)))
	css, rho, theta := 0.0, 0, 0.0
	for j, x := range u {
		css += x
		if x-(css-1)/float64(j+1) > 0 {
			rho = j
			theta = (css - 1) / float64(j+1)
		}
	}
	_ = rho
	for j := range v {
		v[j] = max(v[j]-theta, 0)
	}
}

// harmonic: A = (Λ − Z_UᵀZ_U)⁻¹ Z_LᵀY_L
func harmonic(Z zmat, m, C int, y []int) []int {
	n := len(y)
	s := Z.s
	lam := make([]float64, m)
	sys := mat.NewSymDense(m, nil)
	rhs := mat.NewDense(m, C, nil)
	raw := sys.RawSymmetric()
	for i := 0; i < n; i++ {
		for a := 0; a < s; a++ {
			ka := int(Z.idx[i*s+a])
			lam[ka] += Z.z[i*s+a]
			if y[i] >= 0 {
				rhs.Set(ka, y[i], rhs.At(ka, y[i])+Z.z[i*s+a])
				continue
			}
			for b := 0; b < s; b++ {
				kb := int(Z.idx[i*s+b])
				if kb >= ka {
					raw.Data[ka*m+kb] -= Z.z[i*s+a] * Z.z[i*s+b]
				}
			}
		}
	}
	par := make([]int, m)
	for k := range par {
		par[k] = k
	}
	var find func(int) int
	find = func(k int) int {
		for par[k] != k {
			par[k] = par[par[k]]
			k = par[k]
		}
		return k
	}
	for i := 0; i < n; i++ {
		if y[i] >= 0 {
			continue
		}
		for a := 1; a < s; a++ {
			if Z.z[i*s+a] > 0 && Z.z[i*s] > 0 {
				par[find(int(Z.idx[i*s+a]))] = find(int(Z.idx[i*s]))
			}
		}
	}
	grounded := map[int]bool{}
	for i := 0; i < n; i++ {
		if y[i] >= 0 {
			for a := 0; a < s; a++ {
				if Z.z[i*s+a] > 0 {
					grounded[find(int(Z.idx[i*s+a]))] = true
				}
			}
		}
	}
	nu := 0
	for k := 0; k < m; k++ {
		raw.Data[k*m+k] += lam[k]
		if lam[k] == 0 || !grounded[find(k)] {
			nu++
			for j := 0; j < m; j++ {
				if j >= k {
					raw.Data[k*m+j] = 0
				} else {
					raw.Data[j*m+k] = 0
				}
			}
			raw.Data[k*m+k] = 1
		}
	}
	if nu > 0 {
		fmt.Println("ungrounded anchors", nu)
	}
	var ch mat.Cholesky
	if !ch.Factorize(sys) {
		fatal(fmt.Errorf("harmonic: the M×M system is not positive definite"))
	}
	var A mat.Dense
	ch.SolveTo(&A, rhs)
	out := make([]int, n)
	for i := range out {
		if y[i] >= 0 {
			out[i] = y[i]
			continue
		}
		best, bv := -1, 0.0
		for c := 0; c < C; c++ {
			f := 0.0
			for a := 0; a < s; a++ {
				f += Z.z[i*s+a] * A.At(int(Z.idx[i*s+a]), c)
			}
			if best < 0 || f > bv {
				best, bv = c, f
			}
		}
		out[i] = best
	}
	return out
}

// agr: (Z_lᵀZ_l + γ L̃) A = Z_lᵀY_l; norm: class mass normalisation
func agr(Z zmat, m, C int, y []int, gam float64, norm bool) []int {
	n := len(y)
	s := Z.s
	ztz := make([]float64, m*m)
	zlz := make([]float64, m*m)
	lam := make([]float64, m)
	rhs := mat.NewDense(m, C, nil)
	for i := 0; i < n; i++ {
		for a := 0; a < s; a++ {
			ka := int(Z.idx[i*s+a])
			lam[ka] += Z.z[i*s+a]
			for b := 0; b < s; b++ {
				kb := int(Z.idx[i*s+b])
				ztz[ka*m+kb] += Z.z[i*s+a] * Z.z[i*s+b]
				if y[i] >= 0 {
					zlz[ka*m+kb] += Z.z[i*s+a] * Z.z[i*s+b]
				}
			}
			if y[i] >= 0 {
				rhs.Set(ka, y[i], rhs.At(ka, y[i])+Z.z[i*s+a])
			}
		}
	}
	T := mat.NewDense(m, m, nil)
	for k := 0; k < m; k++ {
		if lam[k] > 0 {
			for j := 0; j < m; j++ {
				T.Set(k, j, ztz[k*m+j]/lam[k])
			}
		}
	}
	var P mat.Dense
	P.Mul(mat.NewDense(m, m, ztz), T)
	sys := mat.NewSymDense(m, nil)
	for i := 0; i < m; i++ {
		for j := i; j < m; j++ {
			v := zlz[i*m+j] + gam*(ztz[i*m+j]-0.5*(P.At(i, j)+P.At(j, i)))
			if i == j && lam[i] == 0 {
				v = 1
			}
			sys.SetSym(i, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(sys) {
		for i := 0; i < m; i++ {
			sys.SetSym(i, i, sys.At(i, i)+1e-10)
		}
		ch.Factorize(sys)
	}
	var A mat.Dense
	ch.SolveTo(&A, rhs)
	lamc := make([]float64, C)
	for c := range lamc {
		lamc[c] = 1
		if norm {
			lamc[c] = 0
			for k := 0; k < m; k++ {
				lamc[c] += lam[k] * A.At(k, c)
			}
		}
	}
	out := make([]int, n)
	for i := range out {
		if y[i] >= 0 {
			out[i] = y[i]
			continue
		}
		best, bv := -1, 0.0
		for c := 0; c < C; c++ {
			f := 0.0
			for a := 0; a < s; a++ {
				f += Z.z[i*s+a] * A.At(int(Z.idx[i*s+a]), c)
			}
			f /= lamc[c]
			if best < 0 || f > bv {
				best, bv = c, f
			}
		}
		out[i] = best
	}
	return out
}

// spread: closed form F = (1−α)(I − αS)⁻¹Y, S from W₀ = ZΛ⁻¹Zᵀ − diag; as propagate.AnchorSpreading
func spread(Z zmat, m, C int, y []int, alpha float64, keepDiag bool) []int {
	n := len(y)
	s := Z.s
	idx, z := Z.idx, Z.z
	lam := make([]float64, m)
	for i := 0; i < n*s; i++ {
		lam[idx[i]] += z[i]
	}
	dinv := make([]float64, n)
	einv := make([]float64, n)
	for i := 0; i < n; i++ {
		w := 0.0
		for a := 0; a < s; a++ {
			w += z[i*s+a] * z[i*s+a] / lam[idx[i*s+a]]
		}
		deg := 1 - w
		if keepDiag {
			w, deg = 0, 1
		}
		if !(deg > 1e-12) {
			deg = 1
		}
		dinv[i] = 1 / math.Sqrt(deg)
		einv[i] = 1 / (1 + alpha*w/deg)
	}
	sys := make([]float64, m*m)
	rhs := mat.NewDense(m, C, nil)
	for i := 0; i < n; i++ {
		c := dinv[i] * dinv[i] * einv[i]
		for a := 0; a < s; a++ {
			for b := 0; b < s; b++ {
				sys[int(idx[i*s+a])*m+int(idx[i*s+b])] -= c * z[i*s+a] * z[i*s+b]
			}
		}
		if y[i] >= 0 {
			r := (1 - alpha) * dinv[i] * einv[i]
			for a := 0; a < s; a++ {
				k := int(idx[i*s+a])
				rhs.Set(k, y[i], rhs.At(k, y[i])+r*z[i*s+a])
			}
		}
	}
	S := mat.NewSymDense(m, nil)
	for k := 0; k < m; k++ {
		for j := k; j < m; j++ {
			v := 0.5 * (sys[k*m+j] + sys[j*m+k])
			if k == j {
				v += lam[k] / alpha
				if lam[k] == 0 {
					v = 1
				}
			}
			S.SetSym(k, j, v)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(S) {
		fatal(fmt.Errorf("spreading: the M×M system is not positive definite"))
	}
	var sol mat.Dense
	ch.SolveTo(&sol, rhs)
	out := make([]int, n)
	f := make([]float64, C)
	for i := 0; i < n; i++ {
		for c := range f {
			f[c] = 0
			if y[i] == c {
				f[c] = 1 - alpha
			}
			for a := 0; a < s; a++ {
				f[c] += dinv[i] * z[i*s+a] * sol.At(int(idx[i*s+a]), c)
			}
		}
		best := 0
		for c := range f {
			if f[c] > f[best] {
				best = c
			}
		}
		out[i] = best
	}
	return out
}

func acc(pred, truth []int, lab map[int]bool) float64 {
	c, t := 0, 0
	for i := range pred {
		if lab[i] {
			continue
		}
		t++
		if pred[i] == truth[i] {
			c++
		}
	}
	return 100 * float64(c) / float64(t)
}

func main() {
	data := flag.String("data", "", "CSV with a label column (bench/lmacc/export.R)")
	train := flag.Int("train", 0, "rows of the training part the labelled rows are drawn from (0 = all)")
	per := flag.Int("per-class", 50, "labelled rows per class")
	M := flag.Int("m", 2000, "anchors (≥ the rows: every row an anchor)")
	method := flag.String("method", "kmeans", "anchor choice besides the labelled rows: kmeans, random, or fixed (k-means with the labelled rows as fixed centres)")
	ss := flag.String("s", "3,5,10", "nearest anchors per row, comma-separated")
	ws := flag.String("w", "kernel,uniform,lae", "anchor weights, comma-separated: kernel (Gaussian), uniform, lae")
	exact := flag.Bool("exact", false, "also run the exact lp and spreading on knn:10")
	incl := flag.Bool("include", true, "the labelled rows are anchors")
	gs := flag.String("gammas", "", "if set: only the regularisation γ sweep (comma-separated) of the AGR solver")
	seed := flag.Uint64("seed", 0, "seed of the labelled draw (bench/lmacc's) and of the anchors")
	flag.Float64Var(&sigMul, "sigmul", 1, "kernel width factor on the paper's σ; −1: σ = mean distance to the 10th nearest row")
	flag.Parse()
	ds, err := dataset.Load(*data, dataset.CSVOptions{})
	if err != nil {
		fatal(err)
	}
	X := dataset.Standardize(ds.X)
	truth := ds.Y
	n := len(truth)
	C := 0
	for _, c := range truth {
		C = max(C, c+1)
	}
	tr := *train
	if tr == 0 {
		tr = n
	}
	split := drawSplit(truth[:tr], *per, *seed)
	lab := map[int]bool{}
	y := make([]int, n)
	for i := range y {
		y[i] = -1
	}
	for _, r := range split {
		lab[r] = true
		y[r] = truth[r]
	}
	ctx := context.Background()
	if *exact {
		for _, name := range []string{"lp", "spreading"} {
			var pred []int
			aff, _ := propagate.ParseAffinity("knn:10")
			if name == "lp" {
				mdl, err := propagate.Propagation{Affinity: aff, Unreachable: propagate.UnreachableUnlabeled}.Fit(ctx, X, y)
				if err != nil {
					fatal(err)
				}
				pred = mdl.Transduction()
			} else {
				mdl, err := propagate.Spreading{Affinity: aff, Unreachable: propagate.UnreachableUnlabeled}.Fit(ctx, X, y)
				if err != nil {
					fatal(err)
				}
				pred = mdl.Transduction()
			}
			fmt.Printf("exact %s knn:10: %.2f\n", name, acc(pred, truth, lab))
		}
	}
	m := *M
	var lm []int
	if m >= n {
		lm = make([]int, n)
		for i := range lm {
			lm[i] = i
		}
		m = n
	} else {
		inc := split
		if !*incl {
			inc = nil
		}
		lm, _, err = landmark.ChooseIncluding(ctx, X, m, strings.Replace(*method, "fixed", "kmeans", 1), *seed, inc)
		if *method == "fixed" {
			lm, err = chooseFixed(X, m, split, *seed), nil
		}
		if err != nil {
			fatal(err)
		}
	}
	_, d := X.Dims()
	A := mat.NewDense(m, d, nil)
	for r, i := range lm {
		A.SetRow(r, X.RawRowView(i))
	}
	for _, w := range strings.Split(*ws, ",") {
		for _, sv := range strings.Split(*ss, ",") {
			var s int
			fmt.Sscan(sv, &s)
			Z := buildZ(X, A, s, w)
			if *gs != "" {
				for _, gv := range strings.Split(*gs, ",") {
					var g float64
					fmt.Sscan(gv, &g)
					fmt.Printf("w=%s s=%d gamma %g: agr(norm) %.2f agr %.2f\n", w, s, g, acc(agr(Z, m, C, y, g, true), truth, lab), acc(agr(Z, m, C, y, g, false), truth, lab))
				}
				continue
			}
			h := acc(harmonic(Z, m, C, y), truth, lab)
			a1 := acc(agr(Z, m, C, y, 0.01, true), truth, lab)
			a2 := acc(agr(Z, m, C, y, 0.01, false), truth, lab)
			sp := acc(spread(Z, m, C, y, 0.2, false), truth, lab)
			fmt.Printf("w=%-8s s=%-3d harmonic %.2f  agr(norm) %.2f  agr %.2f  spread %.2f\n", w, s, h, a1, a2, sp)
			os.Stdout.Sync()
		}
	}
}

// chooseFixed: k-means with the rows fixed as fixed centres, m−len(fixed) free
func chooseFixed(X *mat.Dense, m int, fixed []int, seed uint64) []int {
	n, d := X.Dims()
	rng := rand.New(rand.NewPCG(seed, 0x6c616e64))
	rows := rng.Perm(n)
	if ns := 100 * m; ns < n {
		rows = rows[:ns]
		sort.Ints(rows)
	} else {
		sort.Ints(rows)
	}
	ns := len(rows)
	data := make([]float64, ns*d)
	for a, i := range rows {
		copy(data[a*d:], X.RawRowView(i))
	}
	nf := len(fixed)
	cent := make([]float64, m*d)
	for c, i := range fixed {
		copy(cent[c*d:], X.RawRowView(i))
	}
	d2 := make([]float64, ns)
	{
		ix := neighbors.New(cent[:nf*d], nf, d)
		idx := make([]int32, ns)
		ix.Search(context.Background(), data, 1, idx, d2)
	}
	for c := nf; c < m; c++ {
		total := 0.0
		for _, v := range d2 {
			total += v
		}
		pick := rng.IntN(ns)
		r := rng.Float64() * total
		for i, v := range d2 {
			r -= v
			if r < 0 {
				pick = i
				break
			}
		}
		copy(cent[c*d:], data[pick*d:pick*d+d])
		cc := cent[c*d : c*d+d]
		for i := range d2 {
			s := 0.0
			for t := 0; t < d; t++ {
				e := data[i*d+t] - cc[t]
				s += e * e
			}
			d2[i] = min(d2[i], s)
		}
	}
	assign := make([]int32, ns)
	for it := 0; it < 10; it++ {
		ix := neighbors.New(cent, m, d)
		ix.Search(context.Background(), data, 1, assign, nil)
		sum := make([]float64, m*d)
		cnt := make([]int, m)
		for i, c := range assign {
			cnt[c]++
			for t, v := range data[i*d : i*d+d] {
				sum[int(c)*d+t] += v
			}
		}
		for c := nf; c < m; c++ {
			if cnt[c] == 0 {
				continue
			}
			for t := 0; t < d; t++ {
				cent[c*d+t] = sum[c*d+t] / float64(cnt[c])
			}
		}
	}
	near := make([]int32, m)
	neighbors.New(data, ns, d).Search(context.Background(), cent, 1, near, nil)
	seen := map[int]bool{}
	out := append([]int(nil), fixed...)
	for _, i := range fixed {
		seen[i] = true
	}
	for _, a := range near[nf:] {
		if i := rows[a]; !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	for _, i := range rng.Perm(n) {
		if len(out) == m {
			break
		}
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	sort.Ints(out)
	return out
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "anchorexp:", err)
	os.Exit(1)
}

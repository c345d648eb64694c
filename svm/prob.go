package svm

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/arbor-ml/arbor/internal/crand"
	"github.com/arbor-ml/arbor/internal/smo"
)

// Probability estimates as LIBSVM -b 1 (Lin, Lin & Weng, "A note on Platt's
// probabilistic outputs for support vector machines", Machine Learning 68,
// 2007; Wu, Lin & Weng, "Probability estimates for multi-class
// classification by pairwise coupling", JMLR 5, 2004).

const nrFold = 5

// The fold shuffles of Classifier.Shuffle.
const (
	ShufflePCG    = "pcg"    // rand.NewPCG(Seed, machine index + 1): the default
	ShuffleLIBSVM = "libsvm" // the C library's rand() after srand(Seed), as svm-train -b 1
)

// sigmoids fits the Platt parameters (A, B) of every problem of probs, in
// the problem's own orientation (fit turns B round for a flipped one).
// With ShuffleLIBSVM the one-vs-one pairs are visited as svm_train visits
// them, classes in order of first appearance, one rand() sequence through
// all of them; one-vs-rest machines each draw from a fresh sequence, as
// separate svm-train runs would.
func (c Classifier) sigmoids(ctx context.Context, src smo.Source, cls []int, members [][]int, probs []binary) ([][2]float64, error) {
	out := make([][2]float64, len(probs))
	if c.Shuffle != ShuffleLIBSVM {
		for p, b := range probs {
			rng := rand.New(rand.NewPCG(c.Seed, uint64(p)+1))
			a, bb, err := c.platt(ctx, src, b, rng.IntN)
			if err != nil {
				return nil, err
			}
			out[p] = [2]float64{a, bb}
		}
		return out, nil
	}
	draw := func(g *crand.Rand) func(n int) int {
		return func(n int) int { return int(g.Int31()) % n }
	}
	if c.OneVsRest {
		for p, b := range probs {
			a, bb, err := c.platt(ctx, src, b, draw(crand.New(uint32(c.Seed))))
			if err != nil {
				return nil, err
			}
			out[p] = [2]float64{a, bb}
		}
		return out, nil
	}
	// One-vs-one: the pairs in svm_train's order, classes by first
	// appearance (the problems are laid out that way: see fit).
	first := firstAppearance(cls, len(members))
	order := make([]int, len(members))
	for c, f := range first {
		order[f] = c
	}
	k := len(members)
	g := draw(crand.New(uint32(c.Seed)))
	for i, a := range order {
		for _, b := range order[i+1:] {
			lo, hi := min(a, b), max(a, b)
			p := lo*(2*k-lo-1)/2 + (hi - lo - 1) // machine (lo, hi) in sorted pair order
			A, B, err := c.platt(ctx, src, probs[p], g)
			if err != nil {
				return nil, err
			}
			out[p] = [2]float64{A, B}
		}
	}
	return out, nil
}

// firstAppearance returns, for each of the k class indices of cls, its
// rank in order of first appearance.
func firstAppearance(cls []int, k int) []int {
	first := make([]int, k)
	seen := 0
	for c := range first {
		first[c] = -1
	}
	for _, c := range cls {
		if first[c] < 0 {
			first[c] = seen
			seen++
		}
	}
	return first
}

// platt fits the sigmoid of one binary problem on 5-fold cross-validated
// decision values, as LIBSVM's svm_binary_svc_probability: the rows are
// shuffled by j = i + draw(l − i) for i = 0..l−1 (draw(n) in [0, n)), fold
// f holds shuffled positions [f·l/5, (f+1)·l/5), each training fold is
// ordered positives first (as LIBSVM's regrouping does) and solved with
// the same per-row costs.
func (c Classifier) platt(ctx context.Context, src smo.Source, b binary, draw func(n int) int) (float64, float64, error) {
	l := len(b.rows)
	perm := make([]int, l)
	for i := range perm {
		perm[i] = i
	}
	for i := range l {
		j := i + draw(l-i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	dec := make([]float64, l)
	labels := make([]float64, l)
	for i, v := range b.y {
		labels[i] = float64(v)
	}
	for f := range nrFold {
		begin, end := f*l/nrFold, (f+1)*l/nrFold
		var sub binary
		for _, want := range []int8{1, -1} {
			for t := range l {
				if t >= begin && t < end {
					continue
				}
				k := perm[t]
				if b.y[k] == want {
					sub.rows = append(sub.rows, b.rows[k])
					sub.y = append(sub.y, want)
					sub.cost = append(sub.cost, b.cost[k])
				}
			}
		}
		np := 0
		for _, v := range sub.y {
			if v > 0 {
				np++
			}
		}
		nn := len(sub.y) - np
		switch {
		case np == 0 && nn == 0:
			for t := begin; t < end; t++ {
				dec[perm[t]] = 0
			}
			continue
		case nn == 0:
			for t := begin; t < end; t++ {
				dec[perm[t]] = 1
			}
			continue
		case np == 0:
			for t := begin; t < end; t++ {
				dec[perm[t]] = -1
			}
			continue
		}
		alpha, res, err := c.solve(ctx, src, sub)
		if err != nil {
			return 0, 0, err
		}
		var svRows []int
		var coef []float64
		for k, a := range alpha {
			if a > 0 {
				svRows = append(svRows, sub.rows[k])
				coef = append(coef, float64(sub.y[k])*a)
			}
		}
		kv := make([]float64, len(svRows))
		for t := begin; t < end; t++ {
			k := perm[t]
			src.Fill64(kv, b.rows[k], svRows)
			s := 0.0
			for q, v := range kv {
				s += coef[q] * v
			}
			dec[k] = s - res.Rho
		}
	}
	a, bb := sigmoidTrain(dec, labels)
	return a, bb, nil
}

// sigmoidTrain fits P(y=1|f) = 1/(1+exp(A f + B)) by the Newton method with
// backtracking of Lin, Lin & Weng (LIBSVM's sigmoid_train), targets
// (N₊+1)/(N₊+2) and 1/(N₋+2).
func sigmoidTrain(dec, labels []float64) (A, B float64) {
	var prior1, prior0 float64
	for _, v := range labels {
		if v > 0 {
			prior1++
		} else {
			prior0++
		}
	}
	const (
		maxIter = 100
		minStep = 1e-10
		sigma   = 1e-12
		eps     = 1e-5
	)
	hi := (prior1 + 1) / (prior1 + 2)
	lo := 1 / (prior0 + 2)
	t := make([]float64, len(dec))
	A, B = 0, math.Log((prior0+1)/(prior1+1))
	fval := 0.0
	for i, d := range dec {
		if labels[i] > 0 {
			t[i] = hi
		} else {
			t[i] = lo
		}
		fval += logLoss(d*A+B, t[i])
	}
	for iter := 0; iter < maxIter; iter++ {
		h11, h22, h21, g1, g2 := sigma, sigma, 0.0, 0.0, 0.0
		for i, d := range dec {
			fApB := d*A + B
			var p, q float64
			if fApB >= 0 {
				e := math.Exp(-fApB)
				p, q = e/(1+e), 1/(1+e)
			} else {
				e := math.Exp(fApB)
				p, q = 1/(1+e), e/(1+e)
			}
			d2 := p * q
			h11 += d * d * d2
			h22 += d2
			h21 += d * d2
			d1 := t[i] - p
			g1 += d * d1
			g2 += d1
		}
		if math.Abs(g1) < eps && math.Abs(g2) < eps {
			break
		}
		det := h11*h22 - h21*h21
		dA := -(h22*g1 - h21*g2) / det
		dB := -(-h21*g1 + h11*g2) / det
		gd := g1*dA + g2*dB
		step := 1.0
		for step >= minStep {
			nA, nB := A+step*dA, B+step*dB
			nf := 0.0
			for i, d := range dec {
				nf += logLoss(d*nA+nB, t[i])
			}
			if nf < fval+0.0001*step*gd {
				A, B, fval = nA, nB, nf
				break
			}
			step /= 2
		}
		if step < minStep {
			break // line search failed: keep the last point, as LIBSVM
		}
	}
	return A, B
}

// logLoss is the cross-entropy term of one point, written to avoid overflow.
func logLoss(fApB, t float64) float64 {
	if fApB >= 0 {
		return t*fApB + math.Log(1+math.Exp(-fApB))
	}
	return (t-1)*fApB + math.Log(1+math.Exp(fApB))
}

// sigmoidPredict is 1/(1+exp(A f + B)) without cancellation.
func sigmoidPredict(f, A, B float64) float64 {
	fApB := f*A + B
	if fApB >= 0 {
		e := math.Exp(-fApB)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(fApB))
}

// coupling solves the pairwise-coupling problem of Wu, Lin & Weng (method
// 2): min_p ½ pᵀQp, Σp = 1, from r[i][j] ≈ P(i | i or j). p has length k;
// q and qp are k·k and k scratch.
func coupling(r [][]float64, p []float64) {
	k := len(p)
	maxIter := max(100, k)
	Q := make([][]float64, k)
	Qp := make([]float64, k)
	eps := 0.005 / float64(k)
	for t := range k {
		p[t] = 1 / float64(k)
		Q[t] = make([]float64, k)
		for j := 0; j < t; j++ {
			Q[t][t] += r[j][t] * r[j][t]
			Q[t][j] = Q[j][t]
		}
		for j := t + 1; j < k; j++ {
			Q[t][t] += r[j][t] * r[j][t]
			Q[t][j] = -r[j][t] * r[t][j]
		}
	}
	for iter := 0; iter < maxIter; iter++ {
		pQp := 0.0
		for t := range k {
			Qp[t] = 0
			for j := range k {
				Qp[t] += Q[t][j] * p[j]
			}
			pQp += p[t] * Qp[t]
		}
		maxErr := 0.0
		for t := range k {
			maxErr = max(maxErr, math.Abs(Qp[t]-pQp))
		}
		if maxErr < eps {
			break
		}
		for t := range k {
			diff := (-Qp[t] + pQp) / Q[t][t]
			p[t] += diff
			pQp = (pQp + diff*(diff*Q[t][t]+2*Qp[t])) / (1 + diff) / (1 + diff)
			for j := range k {
				Qp[j] = (Qp[j] + diff*Q[t][j]) / (1 + diff)
				p[j] /= 1 + diff
			}
		}
	}
}

package svcluster

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/arbor-ml/arbor/distance"
	"github.com/arbor-ml/arbor/kernel"
)

// disks is a hand-made sphere: R²(x) = min_k ‖x − c_k‖², R² = r², so the
// "contour" is the union of disks of radius r around the centres.
type disks struct {
	c [][]float64
	r float64
}

func (s disks) Dist2(x []float64) float64 {
	m := math.Inf(1)
	for _, c := range s.c {
		m = math.Min(m, distance.SqDist(x, c))
	}
	return m
}
func (s disks) Radius2() float64 { return s.r * s.r }

// insidePoints samples n points uniformly in the box [lo, hi]² that are
// inside sphere s.
func insidePoints(s sphere, n int, lo, hi float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, 0, 2*n)
	for len(x) < 2*n {
		p := []float64{lo + (hi-lo)*rng.Float64(), lo + (hi-lo)*rng.Float64()}
		if s.Dist2(p) <= s.Radius2() {
			x = append(x, p...)
		}
	}
	return x
}

func seq(n int) []int {
	r := make([]int, n)
	for i := range r {
		r[i] = i
	}
	return r
}

func TestNaiveLabellingHandMadeSphere(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		s    disks
		want int
	}{
		{"apart", disks{c: [][]float64{{0, 0}, {3, 0}}, r: 1}, 2},
		{"overlapping", disks{c: [][]float64{{0, 0}, {1.5, 0}}, r: 1}, 1},
		{"three", disks{c: [][]float64{{0, 0}, {3, 0}, {0, 3}}, r: 1}, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := insidePoints(tc.s, 150, -1.5, 4.5, 1)
			n := len(x) / 2
			lab, k, err := labelNaive(ctx, labelInput{x: x, d: 2, inside: seq(n), s: tc.s, m: 10})
			if err != nil {
				t.Fatal(err)
			}
			if k != tc.want {
				t.Fatalf("clusters = %d, want %d", k, tc.want)
			}
			// Each cluster is exactly the set of points of one disk.
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					same := nearestCentre(tc.s, x[2*i:2*i+2]) == nearestCentre(tc.s, x[2*j:2*j+2])
					if tc.want > 1 && same != (lab[i] == lab[j]) {
						t.Fatalf("points %d and %d: same disk %v, same cluster %v", i, j, same, lab[i] == lab[j])
					}
				}
			}
		})
	}
}

func nearestCentre(s disks, x []float64) int {
	best, bd := 0, math.Inf(1)
	for k, c := range s.c {
		if d := distance.SqDist(x, c); d < bd {
			best, bd = k, d
		}
	}
	return best
}

// moonsBall is a hand-made kernel sphere whose contour is two interleaved
// crescents: Gaussian bumps on two half circles, threshold at half height.
func moonsBall(kind KernelKind) *ball {
	var cx []float64
	const per = 40
	for i := 0; i < per; i++ {
		a := math.Pi * float64(i) / (per - 1)
		cx = append(cx, math.Cos(a), math.Sin(a))
		cx = append(cx, 1-math.Cos(a), 0.5-math.Sin(a))
	}
	nc := len(cx) / 2
	beta := make([]float64, nc)
	for i := range beta {
		beta[i] = 1 / float64(nc)
	}
	q := 100.0
	if kind == Exponential {
		q = 12
	}
	b := newBall(kind, q, 2, cx, beta, 0)
	// f at a point on a crescent is about the sum of a few bumps; put the
	// threshold at 1/3 of f at the first centre.
	theta := b.f(cx[:2]) / 3
	b.r2 = 1 + b.bKb - 2*theta
	return b
}

func TestLabellingsAgreeOnMoons(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []KernelKind{Gaussian, Exponential} {
		b := moonsBall(kind)
		x := insidePoints(b, 250, -1.5, 2.5, 2)
		n := len(x) / 2
		in := labelInput{x: x, d: 2, inside: seq(n), b: b, m: 10, k: 10}
		in.method = Naive
		want, kw, err := label(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		if kw != 2 {
			t.Fatalf("%v: naive found %d clusters, want the 2 crescents", kind, kw)
		}
		// Support vectors: the points closest to the contour.
		theta := b.theta()
		for i := 0; i < n; i++ {
			if b.f(x[2*i:2*i+2]) < theta*2 {
				in.sv = append(in.sv, i)
			}
		}
		for _, m := range []Labelling{Complete, KNNGraph, SVGraph} {
			in.method = m
			got, k, err := label(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			if k != kw || !slices.Equal(got, want) {
				t.Errorf("%v %v: %d clusters, labels differ from naive: %v", kind, m, k, !slices.Equal(got, want))
			}
		}
	}
}

func TestSegmentEvaluatorsAgree(t *testing.T) {
	for _, kind := range []KernelKind{Gaussian, Exponential} {
		b := moonsBall(kind)
		rng := rand.New(rand.NewPCG(3, 3))
		n := 40
		x := make([]float64, 2*n)
		for i := range x {
			x[i] = -1 + 3*rng.Float64()
		}
		modes := []evalMode{modeDirect, modeDist}
		if kind == Gaussian {
			modes = append(modes, modePow)
		}
		var ts []*segTester
		for _, md := range modes {
			ts = append(ts, newSegTester(b, 10, x, 2, seq(n), md))
		}
		for a := 0; a < n; a++ {
			for c := 0; c < n; c++ {
				for s := 1; s <= 10; s++ {
					ref := ts[0].value(modeDirect, a, c, s)
					for i, st := range ts[1:] {
						v := st.value(modes[i+1], a, c, s)
						// Rounding of exp/pow chains: relative 1e-12.
						if math.Abs(v-ref) > 1e-12*math.Max(ref, 1e-300)+1e-300 {
							t.Fatalf("%v mode %d pair (%d,%d) s=%d: %g vs direct %g", kind, modes[i+1], a, c, s, v, ref)
						}
					}
				}
			}
		}
	}
}

// TestGaussianSegmentFactorisation checks the identity behind the Gram
// evaluator with kernel.RBF itself:
// K(x_i + t(x_j−x_i), x_k) = K_ik^(1−t) K_jk^t K_ij^(−t(1−t)).
func TestGaussianSegmentFactorisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	k := kernel.RBF{Gamma: 0.7}
	for trial := 0; trial < 200; trial++ {
		d := 1 + trial%5
		xi, xj, xk, y := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
		for a := 0; a < d; a++ {
			xi[a], xj[a], xk[a] = rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
		}
		tt := rng.Float64()
		for a := range y {
			y[a] = xi[a] + tt*(xj[a]-xi[a])
		}
		want := k.Eval(y, xk)
		got := math.Pow(k.Eval(xi, xk), 1-tt) * math.Pow(k.Eval(xj, xk), tt) * math.Pow(k.Eval(xi, xj), -tt*(1-tt))
		if math.Abs(got-want) > 1e-12*want {
			t.Fatalf("d=%d t=%g: factorised %g, direct %g", d, tt, got, want)
		}
	}
}

func TestSampleOrder(t *testing.T) {
	for m := 1; m <= 12; m++ {
		o := sampleOrder(m)
		s := slices.Clone(o)
		slices.Sort(s)
		if !slices.Equal(s, seq(m + 1)[1:]) {
			t.Fatalf("m=%d: order %v is not a permutation of 1..m", m, o)
		}
		if mid := float64(m+1) / 2; math.Abs(float64(o[0])-mid) > 0.5 {
			t.Fatalf("m=%d: first sample %d not in the middle", m, o[0])
		}
	}
}

func TestConnectDeterministicAcrossGOMAXPROCS(t *testing.T) {
	b := moonsBall(Gaussian)
	x := insidePoints(b, 300, -1.5, 2.5, 5)
	n := len(x) / 2
	in := labelInput{x: x, d: 2, inside: seq(n), b: b, m: 10, k: 8, method: KNNGraph}
	prev := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(prev)
	var ref []int
	for _, p := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(p)
		for _, m := range []Labelling{Complete, KNNGraph} {
			in.method = m
			lab, _, err := label(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = lab
			} else if !slices.Equal(lab, ref) {
				t.Fatalf("GOMAXPROCS=%d %v: labels differ", p, m)
			}
		}
	}
}

// TestSegmentAdjacencyModesAgree compares the adjacency decisions of the
// direct, distance (ratio recurrence for the Gaussian) and Gram evaluators.
func TestSegmentAdjacencyModesAgree(t *testing.T) {
	for _, kind := range []KernelKind{Gaussian, Exponential} {
		b := moonsBall(kind)
		x := insidePoints(b, 120, -1.5, 2.5, 9)
		n := len(x) / 2
		modes := []evalMode{modeDirect, modeDist}
		if kind == Gaussian {
			modes = append(modes, modePow)
		}
		buf := make([]float64, 2+10+2)
		var ts []*segTester
		for _, md := range modes {
			st := newSegTester(b, 10, x, 2, seq(n), md)
			st.probe = md == modeDist
			ts = append(ts, st)
		}
		diff, yes := 0, 0
		for a := 0; a < n; a++ {
			for c := a + 1; c < n; c++ {
				ref := ts[0].adjacent(a, c, buf)
				if ref {
					yes++
				}
				for _, st := range ts[1:] {
					if st.adjacent(a, c, buf) != ref {
						diff++
					}
				}
			}
		}
		if diff > 0 || yes == 0 {
			t.Errorf("%v: %d adjacency decisions differ from the direct evaluator (%d adjacent pairs)", kind, diff, yes)
		}
	}
}

func runtimeGOMAXPROCS(p int) int { return runtime.GOMAXPROCS(p) }

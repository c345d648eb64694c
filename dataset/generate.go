package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// PCG streams of the generators, so one seed gives unrelated draws in each.
const (
	streamMoons uint64 = iota + 1
	streamCircles
	streamBlobs
	streamGaussGrid
)

// Moons returns n points on two interleaving half circles, as
// scikit-learn's make_moons(n, noise=noise, shuffle=True): class 0 has
// ⌊n/2⌋ points at (cos t, sin t), class 1 the others at
// (1 − cos t, 1/2 − sin t), t evenly spaced on [0, π] (endpoints
// included); each coordinate gets N(0, noise²) noise; rows are shuffled.
// The draws come from PCG(seed, 1): same seed, same set, but not
// scikit-learn's random stream.
//
// It panics if n < 2 or noise is negative or not finite (invalid
// arguments are a programming error here; validate user input first).
func Moons(n int, noise float64, seed uint64) *Dataset {
	checkGen("Moons", n >= 2, "n >= 2", n)
	checkNoise("Moons", noise)
	rng := rand.New(rand.NewPCG(seed, streamMoons))
	nOut := n / 2
	X := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		if i < nOut {
			t := linspace(math.Pi, nOut, i, true)
			X.Set(i, 0, math.Cos(t))
			X.Set(i, 1, math.Sin(t))
		} else {
			t := linspace(math.Pi, n-nOut, i-nOut, true)
			X.Set(i, 0, 1-math.Cos(t))
			X.Set(i, 1, 0.5-math.Sin(t))
			y[i] = 1
		}
	}
	shuffleRows(rng, X, y)
	addNoise(rng, X, noise)
	return generated("moons", X, y, 2)
}

// Circles returns n points on two concentric circles, as scikit-learn's
// make_circles(n, noise=noise, factor=factor, shuffle=True): class 0 has
// ⌊n/2⌋ points on the unit circle, class 1 the others on the circle of
// radius factor, angles evenly spaced on [0, 2π) (endpoint excluded);
// each coordinate gets N(0, noise²) noise; rows are shuffled. Draws come
// from PCG(seed, 2).
//
// It panics if n < 2, noise is negative or not finite, or factor is not in
// [0, 1).
func Circles(n int, noise, factor float64, seed uint64) *Dataset {
	checkGen("Circles", n >= 2, "n >= 2", n)
	checkNoise("Circles", noise)
	if !(factor >= 0 && factor < 1) {
		panic(fmt.Sprintf("dataset: Circles: factor %v not in [0, 1)", factor))
	}
	rng := rand.New(rand.NewPCG(seed, streamCircles))
	nOut := n / 2
	X := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		if i < nOut {
			t := linspace(2*math.Pi, nOut, i, false)
			X.Set(i, 0, math.Cos(t))
			X.Set(i, 1, math.Sin(t))
		} else {
			t := linspace(2*math.Pi, n-nOut, i-nOut, false)
			X.Set(i, 0, factor*math.Cos(t))
			X.Set(i, 1, factor*math.Sin(t))
			y[i] = 1
		}
	}
	shuffleRows(rng, X, y)
	addNoise(rng, X, noise)
	return generated("circles", X, y, 2)
}

// Blobs returns n points in dim dimensions from centers isotropic
// Gaussian blobs, as scikit-learn's make_blobs(n, dim, centers=centers,
// cluster_std=std, center_box=(-10, 10), shuffle=True): the centers are
// drawn uniformly in [−10, 10)^dim, class k (k = 0..centers−1) has
// ⌊n/centers⌋ points, one more for the first n mod centers classes, each
// center + N(0, std²·I); rows are shuffled. Draws come from PCG(seed, 3).
//
// It panics unless 1 <= centers <= n and dim >= 1, or if std is negative
// or not finite.
func Blobs(n, centers, dim int, std float64, seed uint64) *Dataset {
	checkGen("Blobs", centers >= 1, "centers >= 1", centers)
	checkGen("Blobs", n >= centers, "n >= centers", n)
	checkGen("Blobs", dim >= 1, "dim >= 1", dim)
	checkNoise("Blobs", std)
	rng := rand.New(rand.NewPCG(seed, streamBlobs))
	C := make([]float64, centers*dim)
	for k := range C {
		C[k] = -10 + 20*rng.Float64()
	}
	X := mat.NewDense(n, dim, nil)
	y := make([]int, n)
	i := 0
	for k := 0; k < centers; k++ {
		m := n / centers
		if k < n%centers {
			m++
		}
		for ; m > 0; m-- {
			row := X.RawRowView(i)
			for j := range row {
				row[j] = C[k*dim+j] + std*rng.NormFloat64()
			}
			y[i] = k
			i++
		}
	}
	shuffleRows(rng, X, y)
	return generated("blobs", X, y, centers)
}

// GaussGrid returns side×side Gaussian classes in the plane, like the
// shared gauss9.csv (side 3, perClass 100, sigma 0.3): class c = side·a + b
// (a, b in 0..side−1) has perClass points from N((a, b), sigma²·I), so
// neighbouring means are 1 apart. Rows are ordered by class, as in
// gauss9.csv. Draws come from PCG(seed, 4).
//
// It panics unless side >= 1 and perClass >= 1 with at least 2 points in
// all, or if sigma is negative or not finite.
func GaussGrid(side, perClass int, sigma float64, seed uint64) *Dataset {
	checkGen("GaussGrid", side >= 1, "side >= 1", side)
	checkGen("GaussGrid", perClass >= 1, "perClass >= 1", perClass)
	checkGen("GaussGrid", side*side*perClass >= 2, "at least 2 points", side*side*perClass)
	checkNoise("GaussGrid", sigma)
	rng := rand.New(rand.NewPCG(seed, streamGaussGrid))
	C := side * side
	n := C * perClass
	X := mat.NewDense(n, 2, nil)
	y := make([]int, n)
	for i := 0; i < n; i++ {
		c := i / perClass
		X.Set(i, 0, float64(c/side)+sigma*rng.NormFloat64())
		X.Set(i, 1, float64(c%side)+sigma*rng.NormFloat64())
		y[i] = c
	}
	return generated("gaussgrid", X, y, C)
}

// linspace returns the i-th of m evenly spaced values from 0 to hi,
// including hi when endpoint (numpy.linspace(0, hi, m, endpoint)).
func linspace(hi float64, m, i int, endpoint bool) float64 {
	div := m
	if endpoint {
		div = m - 1
	}
	if div <= 0 {
		return 0
	}
	return hi * float64(i) / float64(div)
}

// shuffleRows permutes rows of X and y together (Fisher–Yates).
func shuffleRows(rng *rand.Rand, X *mat.Dense, y []int) {
	_, d := X.Dims()
	tmp := make([]float64, d)
	for i := len(y) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		if i == j {
			continue
		}
		ri, rj := X.RawRowView(i), X.RawRowView(j)
		copy(tmp, ri)
		copy(ri, rj)
		copy(rj, tmp)
		y[i], y[j] = y[j], y[i]
	}
}

func addNoise(rng *rand.Rand, X *mat.Dense, sd float64) {
	if sd == 0 {
		return
	}
	n, _ := X.Dims()
	for i := 0; i < n; i++ {
		row := X.RawRowView(i)
		for j := range row {
			row[j] += sd * rng.NormFloat64()
		}
	}
}

func generated(name string, X *mat.Dense, y []int, classes int) *Dataset {
	_, d := X.Dims()
	cls := make([]string, classes)
	for k := range cls {
		cls[k] = strconv.Itoa(k)
	}
	feat := make([]string, d)
	for j := range feat {
		feat[j] = "f" + strconv.Itoa(j+1)
	}
	return &Dataset{Name: name, X: X, Y: y, Classes: cls, Features: feat}
}

func checkGen(fn string, ok bool, want string, got int) {
	if !ok {
		panic(fmt.Sprintf("dataset: %s: need %s, got %d", fn, want, got))
	}
}

func checkNoise(fn string, s float64) {
	if !(s >= 0) || math.IsInf(s, 0) {
		panic(fmt.Sprintf("dataset: %s: noise/std %v must be finite and >= 0", fn, s))
	}
}

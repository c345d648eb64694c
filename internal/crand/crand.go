// Package crand reproduces the C library's rand() of glibc (the TYPE_3
// additive feedback generator of random_r.c: x_i = x_{i−3} + x_{i−31} mod
// 2³², output x_i >> 1), so that Arbor can draw the same numbers as a C
// program such as LIBSVM's svm-train, which shuffles its cross-validation
// folds with rand() % n and never calls srand (glibc's default seed is 1).
//
// Seeding follows srandom_r: x_0 = seed (0 is taken as 1), x_i = 16807·x_{i−1}
// mod (2³¹ − 1) for i < 31 (Park–Miller, Schrage's method as glibc writes
// it), then 310 outputs are discarded.
package crand

// Rand is one rand() state. The zero value is not usable: call New.
type Rand struct {
	state [31]int32
	f, r  int
}

// New returns the state srand(seed) sets; New(1) is the state of a process
// that never calls srand.
func New(seed uint32) *Rand {
	g := &Rand{f: 3, r: 0}
	s := int32(seed)
	if seed == 0 {
		s = 1
	}
	g.state[0] = s
	word := int64(s)
	for i := 1; i < len(g.state); i++ {
		hi, lo := word/127773, word%127773
		word = 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		g.state[i] = int32(word)
	}
	for range 10 * len(g.state) {
		g.Int31()
	}
	return g
}

// Int31 returns the next value of rand(), in [0, 2³¹ − 1].
func (g *Rand) Int31() int32 {
	v := uint32(g.state[g.f]) + uint32(g.state[g.r])
	g.state[g.f] = int32(v)
	g.f++
	g.r++
	if g.f == len(g.state) {
		g.f = 0
	}
	if g.r == len(g.state) {
		g.r = 0
	}
	return int32(v >> 1)
}

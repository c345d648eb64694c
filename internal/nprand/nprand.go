// Package nprand reproduces the few pieces of NumPy's legacy random stream
// (numpy.random.RandomState) that Arbor needs to draw the same labelled
// subsets as the reference pipeline (bench/peers/peers.py): the MT19937
// generator seeded with an integer, legacy Fisher–Yates shuffling with
// masked rejection sampling, and choice(a, m, replace=False).
//
// The algorithms follow the published MT19937 reference (Matsumoto &
// Nishimura 1998) and NumPy's documented legacy behaviour; they are tested
// against index sets written by NumPy itself (testdata/).
package nprand

const (
	mtN       = 624
	mtM       = 397
	matrixA   = 0x9908b0df
	upperMask = 0x80000000
	lowerMask = 0x7fffffff
)

// RandomState is NumPy's legacy generator (MT19937).
type RandomState struct {
	mt  [mtN]uint32
	pos int
}

// New returns the state of numpy.random.RandomState(seed).
func New(seed uint32) *RandomState {
	r := &RandomState{}
	r.mt[0] = seed
	for i := 1; i < mtN; i++ {
		r.mt[i] = 1812433253*(r.mt[i-1]^(r.mt[i-1]>>30)) + uint32(i)
	}
	r.pos = mtN
	return r
}

func (r *RandomState) generate() {
	for i := 0; i < mtN; i++ {
		y := (r.mt[i] & upperMask) | (r.mt[(i+1)%mtN] & lowerMask)
		v := r.mt[(i+mtM)%mtN] ^ (y >> 1)
		if y&1 != 0 {
			v ^= matrixA
		}
		r.mt[i] = v
	}
	r.pos = 0
}

// Uint32 returns the next 32-bit output (genrand_int32).
func (r *RandomState) Uint32() uint32 {
	if r.pos >= mtN {
		r.generate()
	}
	y := r.mt[r.pos]
	r.pos++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Uint64 returns two outputs joined, high word first, as NumPy's legacy
// MT19937 next_uint64 does.
func (r *RandomState) Uint64() uint64 {
	hi := uint64(r.Uint32())
	return hi<<32 | uint64(r.Uint32())
}

// interval returns a uniform integer in [0, max] by masked rejection, as
// NumPy's legacy random_interval.
func (r *RandomState) interval(max uint64) uint64 {
	if max == 0 {
		return 0
	}
	mask := max
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	mask |= mask >> 32
	if max <= 0xffffffff {
		for {
			v := uint64(r.Uint32()) & mask
			if v <= max {
				return v
			}
		}
	}
	for {
		v := r.Uint64() & mask
		if v <= max {
			return v
		}
	}
}

// Shuffle permutes a in place as RandomState.shuffle does on a 1-d array.
func (r *RandomState) Shuffle(a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := int(r.interval(uint64(i)))
		a[i], a[j] = a[j], a[i]
	}
}

// Permutation returns RandomState.permutation(n).
func (r *RandomState) Permutation(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	r.Shuffle(p)
	return p
}

// Choice returns RandomState.choice(a, m, replace=False): the first m
// entries of a permuted by Permutation(len(a)). It panics if m > len(a).
func (r *RandomState) Choice(a []int, m int) []int {
	if m > len(a) || m < 0 {
		panic("nprand: sample larger than population")
	}
	p := r.Permutation(len(a))[:m]
	out := make([]int, m)
	for i, k := range p {
		out[i] = a[k]
	}
	return out
}

// Float64 returns RandomState.random_sample(): a uniform double in [0, 1)
// with 53 random bits (genrand_res53).
func (r *RandomState) Float64() float64 {
	a := r.Uint32() >> 5
	b := r.Uint32() >> 6
	return (float64(a)*67108864.0 + float64(b)) / 9007199254740992.0
}

// Rand fills dst with RandomState.rand values in order (row-major for a
// matrix), as numpy.random.RandomState.rand(n, d).
func (r *RandomState) Rand(dst []float64) {
	for i := range dst {
		dst[i] = r.Float64()
	}
}

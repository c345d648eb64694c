package propagate

import (
	"context"
	"fmt"
	"github.com/arbor-ml/arbor/internal/finite"
	"github.com/arbor-ml/arbor/internal/sparse"
	"math"

	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// graph is the weight matrix W: dense (symmetric, full rows) or sparse CSR
// (the directed kNN connectivity).
type graph struct {
	n     int
	dense []float64 // n×n row-major, both triangles, or nil
	// dense32 replaces dense for a float32 kernel matrix used as the
	// affinity (kernel.Sym32, --float32): the same weights, 4n² bytes; all
	// arithmetic widens them to float64, so results equal those of a
	// float64 copy of the same values.
	dense32 []float32
	// CSR
	ptr []int
	col []int32
	val []float64
	sym bool // W = Wᵀ
	// order, if not nil, is the order in which solvers number the points
	// (see permuted).
	order []int32
}

// permuted returns the sparse graph relabelled so that point order[q] becomes
// q, and the order as ints.
func (g *graph) permuted() (*graph, []int) {
	n := g.n
	perm := make([]int, n)
	pos := make([]int32, n)
	for q, i := range g.order {
		perm[q] = int(i)
		pos[i] = int32(q)
	}
	h := &graph{n: n, ptr: make([]int, n+1), col: make([]int32, 0, len(g.col)), val: make([]float64, 0, len(g.val)), sym: g.sym}
	type cv struct {
		c int32
		v float64
	}
	var row []cv
	for q, i := range perm {
		row = row[:0]
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			row = append(row, cv{pos[g.col[t]], g.val[t]})
		}
		for a := 1; a < len(row); a++ {
			for b := a; b > 0 && row[b].c < row[b-1].c; b-- {
				row[b], row[b-1] = row[b-1], row[b]
			}
		}
		for _, e := range row {
			h.col = append(h.col, e.c)
			h.val = append(h.val, e.v)
		}
		h.ptr[q+1] = len(h.col)
	}
	return h, perm
}

// selfLoops returns W_ii for every i.
func (g *graph) selfLoops() []float64 {
	self := make([]float64, g.n)
	for i := range self {
		self[i] = g.at(i, i)
	}
	return self
}

// isDense reports a dense W (float64 or float32 storage).
func (g *graph) isDense() bool { return g.dense != nil || g.dense32 != nil }

// dropSelfLoops sets W_ii = 0 in place (the graph owns its storage: the
// builders copy or compute it).
func (g *graph) dropSelfLoops() {
	if g.dense != nil {
		for i := 0; i < g.n; i++ {
			g.dense[i*g.n+i] = 0
		}
		return
	}
	if g.dense32 != nil {
		for i := 0; i < g.n; i++ {
			g.dense32[i*g.n+i] = 0
		}
		return
	}
	for i := 0; i < g.n; i++ {
		for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
			if int(g.col[t]) == i {
				g.val[t] = 0
			}
		}
	}
}

// at returns W_ij (O(row length) for sparse graphs; used off the hot path).
func (g *graph) at(i, j int) float64 {
	if g.dense != nil {
		return g.dense[i*g.n+j]
	}
	if g.dense32 != nil {
		return float64(g.dense32[i*g.n+j])
	}
	for t := g.ptr[i]; t < g.ptr[i+1]; t++ {
		if int(g.col[t]) == j {
			return g.val[t]
		}
	}
	return 0
}

// fromPoints builds W from the rows of X.
func (a Affinity) fromPoints(ctx context.Context, X mat.Matrix) (*graph, error) {
	if X == nil {
		return nil, fmt.Errorf("%w: nil X", ErrShape)
	}
	n, d := X.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("%w: X is %d×%d", ErrShape, n, d)
	}
	data := make([]float64, n*d)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			data[i*d+j] = X.At(i, j)
		}
	}
	if i, j, v, bad := finite.Find(data, n, d, d); bad {
		return nil, fmt.Errorf("%w: X[%d,%d] = %v", ErrNonFinite, i, j, v)
	}
	switch a.Kind {
	case "", RBF, Kernel:
		var k kernel.Kernel = kernel.RBF{Gamma: a.gamma()}
		if a.Kind == Kernel {
			k = a.Kernel
		}
		// kernel.Gram mirrors the upper triangle into the lower one.
		K, err := kernel.Gram(ctx, nil, k, mat.NewDense(n, d, data))
		if err != nil {
			return nil, err
		}
		raw := K.RawSymmetric()
		g := &graph{n: n, dense: compact(raw.Data, raw.Stride, n), sym: true}
		if a.Kind == Kernel {
			return g, g.checkDense(ctx) // RBF values are exp(·) ≥ 0
		}
		return g, nil
	case KNN:
		k := a.k()
		if k > n {
			return nil, fmt.Errorf("%w: knn k = %d > %d points", ErrBadParam, k, n)
		}
		return knnGraphPoints(ctx, data, n, d, k)
	case Precomputed:
		return nil, fmt.Errorf("%w: precomputed affinity needs FitGram", ErrAffinity)
	}
	return nil, fmt.Errorf("%w: kind %q", ErrAffinity, a.Kind)
}

// compact returns the n×n block of a strided slice as a dense row-major
// slice (no copy when stride == n).
func compact(data []float64, stride, n int) []float64 {
	if stride == n {
		return data[:n*n]
	}
	out := make([]float64, n*n)
	for i := 0; i < n; i++ {
		copy(out[i*n:(i+1)*n], data[i*stride:i*stride+n])
	}
	return out
}

// fromGram builds W from a symmetric matrix: the matrix itself
// (Precomputed), or an RBF / kNN graph over its kernel-induced distances.
func (a Affinity) fromGram(ctx context.Context, K mat.Symmetric) (*graph, error) {
	if K == nil {
		return nil, fmt.Errorf("%w: nil matrix", ErrShape)
	}
	n := K.SymmetricDim()
	if n == 0 {
		return nil, fmt.Errorf("%w: empty matrix", ErrShape)
	}
	if k32, ok := K.(*kernel.Sym32); ok && (a.Kind == "" || a.Kind == Precomputed) {
		// the float32 matrix as W: a float32 copy (the graph owns its
		// storage: self-loops are dropped in place), half of a float64 one
		w := make([]float32, n*n)
		for i := 0; i < n; i++ {
			row := k32.Row(i)
			for j, v := range row {
				if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
					return nil, fmt.Errorf("%w: matrix entry (%d, %d) = %v", ErrNonFinite, i, j, v)
				}
			}
			copy(w[i*n:(i+1)*n], row)
		}
		g := &graph{n: n, dense32: w, sym: true}
		return g, g.checkDense(ctx)
	}
	// Full copy of both triangles (the lower triangle of a *mat.SymDense's
	// storage is not necessarily filled).
	full := make([]float64, n*n)
	if sd, ok := K.(*mat.SymDense); ok {
		raw := sd.RawSymmetric()
		for i := 0; i < n; i++ {
			copy(full[i*n+i:(i+1)*n], raw.Data[i*raw.Stride+i:i*raw.Stride+n])
		}
	} else {
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				full[i*n+j] = K.At(i, j)
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			v := full[i*n+j]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%w: matrix entry (%d, %d) = %v", ErrNonFinite, i, j, v)
			}
			full[j*n+i] = v
		}
	}
	switch a.Kind {
	case "", Precomputed:
		g := &graph{n: n, dense: full, sym: true}
		return g, g.checkDense(ctx)
	case RBF:
		gm := -a.gamma()
		W := make([]float64, n*n)
		err := parallel.For(ctx, n, func(i int) {
			for j := 0; j < n; j++ {
				d2 := max(full[i*n+i]+full[j*n+j]-2*full[i*n+j], 0)
				W[i*n+j] = math.Exp(gm * d2)
			}
		})
		if err != nil {
			return nil, err
		}
		// exact symmetry (d² is symmetric in floating point: same terms)
		return &graph{n: n, dense: W, sym: true}, nil
	case KNN:
		k := a.k()
		if k > n {
			return nil, fmt.Errorf("%w: knn k = %d > %d points", ErrBadParam, k, n)
		}
		return knnGraph(ctx, n, k, func(i int, out []float64) {
			for j := range out {
				out[j] = full[i*n+i] + full[j*n+j] - 2*full[i*n+j]
			}
		})
	case Kernel:
		return nil, fmt.Errorf("%w: kind kernel needs Fit (points); FitGram takes the matrix as precomputed", ErrAffinity)
	}
	return nil, fmt.Errorf("%w: kind %q", ErrAffinity, a.Kind)
}

// checkDense rejects negative weights (propagation needs W ≥ 0).
func (g *graph) checkDense(ctx context.Context) error {
	n := g.n
	bad := make([]int, n)
	err := parallel.For(ctx, n, func(i int) {
		bad[i] = -1
		if g.dense32 != nil {
			for j, v := range g.dense32[i*n : (i+1)*n] {
				if v < 0 || v != v {
					bad[i] = j
					return
				}
			}
			return
		}
		for j, v := range g.dense[i*n : (i+1)*n] {
			if v < 0 || math.IsNaN(v) {
				bad[i] = j
				return
			}
		}
	})
	if err != nil {
		return err
	}
	for i, j := range bad {
		if j >= 0 {
			return fmt.Errorf("%w: W[%d,%d] = %v (weights must be ≥ 0)", ErrNegative, i, j, g.at(i, j))
		}
	}
	return nil
}

// knnGraph builds the directed connectivity graph of scikit-learn's
// kneighbors_graph(mode="connectivity") on the training points: row i has a
// 1 for each of the k nearest points of i by d², i itself included (at
// distance 0), ties to the lower index. dist(i, out) fills out[j] = d²(i,j).
func knnGraph(ctx context.Context, n, k int, dist func(i int, out []float64)) (*graph, error) {
	col := make([]int32, n*k)
	bad := make([]int, n)
	err := parallel.Chunks(ctx, n, 64, func(i0, i1 int) {
		d := make([]float64, n)
		h := make([]nb, 0, k)
		for i := i0; i < i1; i++ {
			dist(i, d)
			h = h[:0]
			bad[i] = -1
			for j, v := range d {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					bad[i] = j
					break
				}
				v = max(v, 0)
				if j == i {
					v = 0
				}
				if len(h) < k {
					h = append(h, nb{v, int32(j)})
					heapUp(h, len(h)-1)
				} else if v < h[0].d {
					h[0] = nb{v, int32(j)}
					heapDown(h, 0)
				}
			}
			// CSR rows sorted by column for determinism of sums
			cs := col[i*k : (i+1)*k]
			for t := range h {
				cs[t] = h[t].j
			}
			sortInt32(cs)
		}
	})
	if err != nil {
		return nil, err
	}
	for i, j := range bad {
		if j >= 0 {
			return nil, fmt.Errorf("%w: distance between points %d and %d is not finite", ErrNonFinite, i, j)
		}
	}
	return csrOnes(n, k, col), nil
}

type nb struct {
	d float64
	j int32
}

func nbLess(a, b nb) bool { return a.d < b.d || (a.d == b.d && a.j < b.j) }

// heapUp/heapDown keep a max-heap under nbLess (worst on top).
func heapUp(h []nb, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !nbLess(h[p], h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func heapDown(h []nb, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && nbLess(h[c], h[c+1]) {
			c++
		}
		if !nbLess(h[i], h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// csr returns the sparse part of g as a sparse.CSR (a view, no copy).
func (g *graph) csr() *sparse.CSR {
	return &sparse.CSR{N: g.n, Ptr: g.ptr, Col: g.col, Val: g.val, Sym: g.sym}
}

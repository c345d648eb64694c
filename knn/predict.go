package knn

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/kernel"
	"gonum.org/v1/gonum/mat"
)

// Query names the points to classify.
type Query struct {
	rows []int      // GramRows
	x    mat.Matrix // Points
	kt   mat.Matrix // Cross
	diag []float64  // Cross
	kind int
}

const (
	qRows = iota + 1
	qPoints
	qCross
)

// GramRows queries rows of the Gram matrix given to FitGram (transduction:
// typically the unlabelled rows). A labelled row is its own nearest neighbour.
func GramRows(rows []int) Query { return Query{rows: rows, kind: qRows} }

// Points queries new points (t×d) of a model fitted with Fit.
func Points(X mat.Matrix) Query { return Query{x: X, kind: qPoints} }

// Cross queries new points through their kernel values: Kt is t×n with
// Kt[i][j] = k(x_i, z_j) for the n rows z_j of the fitted matrix (only the
// labelled columns are read) and diag[i] = k(x_i, x_i).
func Cross(Kt mat.Matrix, diag []float64) Query { return Query{kt: Kt, diag: diag, kind: qCross} }

// source yields, for query q, k(x_q, x_q) and the kernel values against the
// labelled points.
type source struct {
	n    int
	self func(q int) float64
	// block fills buf[(i-i0)·ℓ + j] with the kernel value of query i and
	// labelled point j, for i0 ≤ i < i1.
	block func(i0, i1 int, buf []float64)
	name  func(q int) string
}

func (m *Model) source(ctx context.Context, q Query) (source, error) {
	l := len(m.Labeled)
	switch q.kind {
	case qRows:
		if m.xlab != nil {
			return source{}, fmt.Errorf("%w: GramRows query on a model fitted from points (use Points)", ErrShape)
		}
		if m.gram.m == nil {
			return source{}, fmt.Errorf("%w: GramRows query on a loaded model, which keeps no Gram matrix (use Cross)", ErrShape)
		}
		for i, r := range q.rows {
			if r < 0 || r >= m.n {
				return source{}, fmt.Errorf("%w: rows[%d] = %d, Gram matrix has %d rows", ErrRow, i, r, m.n)
			}
		}
		g, lab, rows := m.gram, m.Labeled, q.rows
		return source{
			n:    len(rows),
			self: func(i int) float64 { return g.at(rows[i], rows[i]) },
			block: func(i0, i1 int, buf []float64) {
				if g.data == nil {
					for i := i0; i < i1; i++ {
						out := buf[(i-i0)*l : (i-i0+1)*l]
						for j, c := range lab {
							out[j] = g.m.At(rows[i], c)
						}
					}
					return
				}
				// Upper storage: K(r, c) lives at row min(r, c). Read each
				// stored row forwards: entries of query row r right of its
				// diagonal (c > r), then entries of labelled row c right of
				// its diagonal (r ≥ c), queries inner.
				for i := i0; i < i1; i++ {
					r := rows[i]
					rr := g.data[r*g.stride:]
					out := buf[(i-i0)*l:]
					for j := sort.SearchInts(lab, r+1); j < l; j++ {
						out[j] = rr[lab[j]]
					}
				}
				for j, c := range lab {
					rc := g.data[c*g.stride:]
					for i := i0; i < i1; i++ {
						if r := rows[i]; r >= c {
							buf[(i-i0)*l+j] = rc[r]
						}
					}
				}
			},
			name: func(i int) string { return fmt.Sprintf("row %d", rows[i]) },
		}, nil
	case qPoints:
		if m.xlab == nil {
			return source{}, fmt.Errorf("%w: Points query on a model fitted from a Gram matrix (use GramRows or Cross)", ErrShape)
		}
		if q.x == nil {
			return source{}, fmt.Errorf("%w: nil query matrix", ErrShape)
		}
		t, d := q.x.Dims()
		if d != m.ncols {
			return source{}, fmt.Errorf("%w: query has %d features, model %d", ErrShape, d, m.ncols)
		}
		if t == 0 {
			return source{n: 0}, nil
		}
		// The kernel values are computed per block of queries, as the
		// search asks for them, not as one t×ℓ matrix (30,000 × 1,441:
		// 330 MB, whose zeroing and copying took 84 % of the time).
		xd, ok := q.x.(*mat.Dense)
		if !ok {
			xd = mat.DenseCopyOf(q.x)
		}
		self := make([]float64, t)
		for i := range self {
			row := xd.RawRowView(i)
			for j, v := range row {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return source{}, fmt.Errorf("%w: query %d, feature %d = %v", ErrNonFinite, i, j, v)
				}
			}
			self[i] = m.kern.Eval(row, row)
		}
		kern, xlab := m.kern, m.xlab
		return source{
			n:    t,
			self: func(i int) float64 { return self[i] },
			block: func(i0, i1 int, buf []float64) {
				dst := mat.NewDense(i1-i0, l, buf[:(i1-i0)*l])
				if _, err := kernel.Cross(ctx, dst, kern, xd.Slice(i0, i1, 0, d), xlab); err != nil {
					// Only a cancelled ctx (the rows were checked above):
					// the search reports ctx.Err().
					for i := range buf[:(i1-i0)*l] {
						buf[i] = math.NaN()
					}
				}
			},
			name: func(i int) string { return fmt.Sprintf("query %d", i) },
		}, nil
	case qCross:
		if q.kt == nil {
			return source{}, fmt.Errorf("%w: nil cross-kernel matrix", ErrShape)
		}
		t, n := q.kt.Dims()
		if n != m.n || len(q.diag) != t {
			return source{}, fmt.Errorf("%w: cross kernel is %d×%d with %d diagonal values, want t×%d and t values", ErrShape, t, n, len(q.diag), m.n)
		}
		lab, kt, diag := m.Labeled, q.kt, q.diag
		return source{
			n:    t,
			self: func(i int) float64 { return diag[i] },
			block: func(i0, i1 int, buf []float64) {
				for i := i0; i < i1; i++ {
					for j, c := range lab {
						buf[(i-i0)*l+j] = kt.At(i, c)
					}
				}
			},
			name: func(i int) string { return fmt.Sprintf("query %d", i) },
		}, nil
	}
	return source{}, fmt.Errorf("%w: empty Query", ErrShape)
}

// neighbour is one selected labelled point: its index j into Model.Labeled,
// quantised and raw squared distance, and kernel value.
type neighbour struct {
	j     int
	q, d2 float64
	kv    float64
}

const chunk = 32 // query rows per parallel task

// search finds the K nearest labelled points of every query and calls emit
// (from worker goroutines, each query once) with them in rank order.
func (m *Model) search(ctx context.Context, q Query, emit func(i int, nb []neighbour) error) error {
	src, err := m.source(ctx, q)
	if err != nil {
		return err
	}
	if src.n == 0 {
		return nil
	}
	l, k := len(m.Labeled), m.settings.K
	tasks := (src.n + chunk - 1) / chunk
	errs := make([]error, tasks)
	// Pass 1: max d² over the batch (the tie quantum is 1e-9 of it, as the
	// peer) and finiteness.
	maxes := make([]float64, tasks)
	selfs := make([]float64, src.n) // K(x, x) of each query, as the distances use it
	// Keep the kernel blocks between the passes when they take at most
	// 128 MiB, else read them again.
	var keep [][]float64
	if src.n*l <= 1<<24 {
		keep = make([][]float64, tasks)
	}
	err = parallel.For(ctx, tasks, func(t int) {
		i0, i1 := t*chunk, min(src.n, (t+1)*chunk)
		buf := make([]float64, (i1-i0)*l)
		src.block(i0, i1, buf)
		if keep != nil {
			keep[t] = buf
		}
		mx := 0.0
		for i := i0; i < i1; i++ {
			kv := buf[(i-i0)*l : (i-i0+1)*l]
			s := m.self(src, i, kv)
			selfs[i] = s
			if math.IsNaN(s) || math.IsInf(s, 0) {
				errs[t] = fmt.Errorf("%w: kernel of %s with itself = %v", ErrNonFinite, src.name(i), s)
				return
			}
			for j, v := range kv {
				d2 := s + m.ldiag[j] - 2*v
				if math.IsNaN(d2) || math.IsInf(d2, 0) {
					errs[t] = fmt.Errorf("%w: kernel of %s with labelled row %d = %v", ErrNonFinite, src.name(i), m.Labeled[j], v)
					return
				}
				mx = max(mx, d2)
			}
		}
		maxes[t] = mx
	})
	if err != nil {
		return err
	}
	if err := firstErr(errs); err != nil {
		return err
	}
	mx := 0.0
	for _, v := range maxes {
		mx = max(mx, v)
	}
	tol := 1e-9 * max(mx, 1e-300)
	if _, ok := m.gram.m.(*kernel.Sym32); ok {
		// float32 storage: entries rounded to 2⁻²⁴, d² = K_ii + K_jj − 2K_ij
		// within about 2⁻²³·m; ties of the float64 kernel stay ties
		tol = 0x1p-20 * max(mx, 1e-300)
	}
	prog := m.settings.Progress
	if prog != nil {
		prog("neighbours", 0, src.n)
	}
	// Pass 2: bounded max-heap selection of the K smallest (q, j).
	err = parallel.For(ctx, tasks, func(t int) {
		i0, i1 := t*chunk, min(src.n, (t+1)*chunk)
		var buf []float64
		if keep != nil {
			buf = keep[t]
		} else {
			buf = make([]float64, (i1-i0)*l)
			src.block(i0, i1, buf)
		}
		heap := make([]neighbour, 0, k)
		for i := i0; i < i1; i++ {
			kv := buf[(i-i0)*l : (i-i0+1)*l]
			s := selfs[i]
			heap = heap[:0]
			for j, v := range kv {
				d2 := max(s+m.ldiag[j]-2*v, 0)
				qd := math.RoundToEven(d2 / tol)
				if len(heap) < k {
					heap = append(heap, neighbour{j, qd, d2, v})
					up(heap, len(heap)-1)
				} else if qd < heap[0].q { // equal q: the later (higher) index loses
					heap[0] = neighbour{j, qd, d2, v}
					down(heap, 0)
				}
			}
			sort.Slice(heap, func(a, b int) bool { return less(heap[a], heap[b]) })
			if e := emit(i, heap); e != nil {
				errs[t] = e
				return
			}
		}
	})
	if err != nil {
		return err
	}
	if prog != nil {
		prog("neighbours", src.n, src.n)
	}
	return firstErr(errs)
}

// self is the K(x, x) the distances of query i use: the source's value,
// or with IgnoreSelf max over labelled l of 2·K(x, l) − K(l, l), so that
// the nearest labelled point is at d² = 0 (NaN when a kernel value is not
// finite, reported by the first pass).
func (m *Model) self(src source, i int, kv []float64) float64 {
	if !m.settings.IgnoreSelf {
		return src.self(i)
	}
	s := math.Inf(-1)
	for j, v := range kv {
		t := 2*v - m.ldiag[j]
		if math.IsNaN(t) {
			return math.NaN()
		}
		s = max(s, t)
	}
	if math.IsInf(s, 0) {
		return math.NaN()
	}
	return s
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// less orders neighbours by quantised distance, then labelled index.
func less(a, b neighbour) bool {
	if a.q != b.q {
		return a.q < b.q
	}
	return a.j < b.j
}

// up and down maintain a max-heap under less (the worst neighbour on top).
func up(h []neighbour, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !less(h[p], h[i]) {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func down(h []neighbour, i int) {
	n := len(h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if c+1 < n && less(h[c], h[c+1]) {
			c++
		}
		if !less(h[i], h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

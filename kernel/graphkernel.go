package kernel

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/gzfile"
	"github.com/arbor-ml/arbor/internal/parallel"
	"github.com/arbor-ml/arbor/internal/quote"
	"gonum.org/v1/gonum/mat"
)

// ErrEdges reports a bad edge list (a self loop, a duplicate edge, a
// negative or non-integer node id, no edges).
var ErrEdges = errors.New("kernel: bad edge list")

// GraphKernel is the kernel of paper 004 §4.2 on the nodes of an
// undirected, unweighted graph: K(v, v) = Δ, the largest degree in the
// graph, K(u, v) = 1 if u and v are joined by an edge and 0 otherwise.
// Every row has off-diagonal sum deg(v) ≤ Δ = K(v, v), so K is diagonally
// dominant with a positive diagonal, hence positive semi-definite
// (Gershgorin). Nodes are 0..N−1 (N = the largest id + 1; ids without an
// edge are isolated nodes). It is stored as sorted adjacency lists
// (O(N + E) memory); Sym and Cross fill dense blocks.
type GraphKernel struct {
	adj   [][]int32
	edges int
	delta float64
	ids   []int64 // node id of each row (ReadEdges); nil: row v is id v
}

// NewGraphKernel builds the kernel of the graph with n nodes and the given
// undirected edges. Errors (ErrEdges): a node id outside 0..n−1, a self
// loop, an edge given twice (in either direction), no edges.
func NewGraphKernel(n int, edges [][2]int) (*GraphKernel, error) {
	g := &GraphKernel{adj: make([][]int32, n)}
	seen := make(map[[2]int]int, len(edges))
	for k, e := range edges {
		u, v := e[0], e[1]
		if u < 0 || v < 0 || u >= n || v >= n {
			return nil, fmt.Errorf("%w: edge %d (%d, %d): node id outside 0..%d", ErrEdges, k, u, v, n-1)
		}
		if u == v {
			return nil, fmt.Errorf("%w: edge %d is a self loop on node %d", ErrEdges, k, u)
		}
		key := [2]int{min(u, v), max(u, v)}
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%w: edge %d (%d, %d) repeats edge %d", ErrEdges, k, u, v, j)
		}
		seen[key] = k
		g.adj[u] = append(g.adj[u], int32(v))
		g.adj[v] = append(g.adj[v], int32(u))
	}
	return g.finish()
}

func (g *GraphKernel) finish() (*GraphKernel, error) {
	d := 0
	for _, a := range g.adj {
		slices.Sort(a)
		d = max(d, len(a))
		g.edges += len(a)
	}
	g.edges /= 2
	if d == 0 {
		return nil, fmt.Errorf("%w: no edges", ErrEdges)
	}
	g.delta = float64(d)
	return g, nil
}

// ReadEdges reads an edge list: one edge "u v" per line (integer node
// ids ≥ 0 separated by spaces, tabs or a comma); blank lines and lines
// starting with '#' or '%' are skipped. The graph's nodes are the ids that
// occur in an edge, in increasing order: node id ID(v) is row v of the
// kernel, so a file whose ids are 0..N−1 has row v = id v, and ids may be
// as large as int64 allows without costing memory (an id no edge names is
// no node). name is used in errors, which give the line: "fb.txt:12: self
// loop on node 7", "fb.txt:30: edge (3, 9) repeats line 4", negative or
// non-integer ids, a line longer than 1 MiB. Memory O(E), the edges read.
func ReadEdges(r io.Reader, name string) (*GraphKernel, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxEdgeLine)
	var es [][2]int64
	seen := map[[2]int64]int{}
	ln := 0
	for sc.Scan() {
		ln++
		s := strings.TrimSpace(sc.Text())
		if s == "" || s[0] == '#' || s[0] == '%' {
			continue
		}
		f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
		if len(f) != 2 {
			return nil, fmt.Errorf("%s:%d: %w: want two node ids \"u v\", got %s", name, ln, ErrEdges, quote.Cell(s))
		}
		var id [2]int64
		for k, t := range f {
			v, err := strconv.ParseInt(t, 10, 64)
			switch {
			case errors.Is(err, strconv.ErrRange):
				return nil, fmt.Errorf("%s:%d: %w: node id %s is out of range (at most %d)", name, ln, ErrEdges, quote.Cell(t), int64(math.MaxInt64))
			case err != nil:
				return nil, fmt.Errorf("%s:%d: %w: node id %s is not an integer", name, ln, ErrEdges, quote.Cell(t))
			case v < 0:
				return nil, fmt.Errorf("%s:%d: %w: negative node id %d", name, ln, ErrEdges, v)
			}
			id[k] = v
		}
		if id[0] == id[1] {
			return nil, fmt.Errorf("%s:%d: %w: self loop on node %d", name, ln, ErrEdges, id[0])
		}
		key := [2]int64{min(id[0], id[1]), max(id[0], id[1])}
		if j, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s:%d: %w: edge (%d, %d) repeats line %d", name, ln, ErrEdges, id[0], id[1], j)
		}
		seen[key] = ln
		es = append(es, id)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: %w: line longer than %d bytes", name, ln+1, ErrEdges, maxEdgeLine)
		}
		if errors.Is(err, gzfile.ErrCompressed) {
			return nil, fmt.Errorf("%s: %w", name, err) // it says after which line
		}
		return nil, fmt.Errorf("%s: after line %d: %w", name, ln, err)
	}
	if len(es) == 0 {
		return nil, fmt.Errorf("%s: %w: no edges", name, ErrEdges)
	}
	clear(seen)
	seen = nil
	// the nodes: the ids that occur, sorted
	ids := make([]int64, 0, 2*len(es))
	for _, e := range es {
		ids = append(ids, e[0], e[1])
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) > math.MaxInt32 {
		return nil, fmt.Errorf("%s: %w: %d nodes, more than %d", name, ErrEdges, len(ids), math.MaxInt32)
	}
	g := &GraphKernel{adj: make([][]int32, len(ids))}
	row := func(id int64) int32 { k, _ := slices.BinarySearch(ids, id); return int32(k) }
	if ids[len(ids)-1] != int64(len(ids)-1) {
		g.ids = slices.Clip(ids) // not 0..N−1: keep the map
		for i, e := range es {
			es[i] = [2]int64{int64(row(e[0])), int64(row(e[1]))}
		}
	}
	for _, e := range es {
		g.adj[e[0]] = append(g.adj[e[0]], int32(e[1]))
		g.adj[e[1]] = append(g.adj[e[1]], int32(e[0]))
	}
	return g.finish()
}

// maxEdgeLine is the longest line ReadEdges reads.
const maxEdgeLine = 1 << 20

// ID returns the node id of row v: v itself for a graph made by
// NewGraphKernel or read from a file whose ids are 0..N−1, else the v-th
// smallest id of the file.
func (g *GraphKernel) ID(v int) int64 {
	if g.ids == nil {
		return int64(v)
	}
	return g.ids[v]
}

// Dense reports whether row v is node id v for every v (ID is the
// identity).
func (g *GraphKernel) Dense() bool { return g.ids == nil }

// Len returns the number of nodes N.
func (g *GraphKernel) Len() int { return len(g.adj) }

// Edges returns the number of undirected edges.
func (g *GraphKernel) Edges() int { return g.edges }

// MaxDegree returns Δ, the diagonal of the kernel.
func (g *GraphKernel) MaxDegree() int { return int(g.delta) }

// Neighbors returns the sorted neighbours of node v (shared; do not modify).
func (g *GraphKernel) Neighbors(v int) []int32 { return g.adj[v] }

// Diag returns K(v, v) = Δ for each of rows.
func (g *GraphKernel) Diag(rows []int) []float64 {
	out := make([]float64, len(rows))
	for i := range out {
		out[i] = g.delta
	}
	return out
}

// Sym returns K(rows, rows) (both triangles of the storage written). A nil
// dst allocates; otherwise it must be len(rows)×len(rows). Errors:
// ErrShape, ctx.Err().
func (g *GraphKernel) Sym(ctx context.Context, dst *mat.SymDense, rows []int) (*mat.SymDense, error) {
	m := len(rows)
	zeroed := dst == nil
	if dst == nil {
		dst = mat.NewSymDense(m, nil)
	} else if dst.SymmetricDim() != m {
		return nil, fmt.Errorf("%w: graph kernel dst is %d×%d, want %d×%d", ErrShape, dst.SymmetricDim(), dst.SymmetricDim(), m, m)
	}
	raw := dst.RawSymmetric()
	if err := g.fill(ctx, raw.Data, raw.Stride, rows, rows, zeroed); err != nil {
		return nil, err
	}
	for i := 0; i < m; i++ {
		raw.Data[i*raw.Stride+i] = g.delta
	}
	return dst, nil
}

// Cross returns K(rows, cols), len(rows)×len(cols). A nil dst allocates.
// Errors: ErrShape, ctx.Err().
func (g *GraphKernel) Cross(ctx context.Context, dst *mat.Dense, rows, cols []int) (*mat.Dense, error) {
	if len(rows) == 0 || len(cols) == 0 {
		return nil, fmt.Errorf("%w: empty cross block", ErrEmpty)
	}
	zeroed := dst == nil
	if dst == nil {
		dst = mat.NewDense(len(rows), len(cols), nil)
	} else if r, c := dst.Dims(); r != len(rows) || c != len(cols) {
		return nil, fmt.Errorf("%w: graph kernel dst is %d×%d, want %d×%d", ErrShape, r, c, len(rows), len(cols))
	}
	raw := dst.RawMatrix()
	if err := g.fill(ctx, raw.Data, raw.Stride, rows, cols, zeroed); err != nil {
		return nil, err
	}
	return dst, nil
}

// fill writes the block K(rows, cols) into the row-major data (stride st):
// zeros (unless the storage is freshly allocated), Δ where a row node
// equals a column node, 1 on edges. Parallel by rows, each task writing
// only its rows.
func (g *GraphKernel) fill(ctx context.Context, data []float64, st int, rows, cols []int, zeroed bool) error {
	pos := make(map[int]int32, len(cols)) // column node → column index
	dense := len(cols) == len(g.adj)
	if !dense {
		for j, c := range cols {
			pos[c] = int32(j)
		}
	} else {
		for j, c := range cols {
			if c != j {
				dense = false
				break
			}
		}
		if !dense {
			for j, c := range cols {
				pos[c] = int32(j)
			}
		}
	}
	return parallel.Chunks(ctx, len(rows), 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			row := data[i*st : i*st+len(cols)]
			if !zeroed {
				clear(row)
			}
			u := rows[i]
			if dense {
				row[u] = g.delta
				for _, v := range g.adj[u] {
					row[v] = 1
				}
				continue
			}
			if j, ok := pos[u]; ok {
				row[j] = g.delta
			}
			for _, v := range g.adj[u] {
				if j, ok := pos[int(v)]; ok {
					row[j] = 1
				}
			}
		}
	})
}

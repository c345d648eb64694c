package arborbeam

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"sync"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/internal/neighbors"
)

// GraphOptions are the settings of KNNGraph.
type GraphOptions struct {
	Data string             // the data file (any Beam filesystem), read as arbor graph reads --data
	CSV  dataset.CSVOptions // its column options
	K    int                // neighbours of each row
	// Block is the number of rows of a query block and of a reference
	// block: one task compares a query block with a reference block.
	Block int
}

// DefaultBlock is the default number of rows of a block.
const DefaultBlock = 8192

// blockPair is one task: query block Q against reference block R.
type blockPair struct{ Q, R int }

// candidates are the K+1 nearest rows of reference block R to each row of
// query block Q, in (squared distance, row) order, rows numbered in the
// whole file.
type candidates struct {
	R     int
	Index []int32   // (K+1) a query row
	D2    []float64 // the squared distances, alike
	Found []int32   // candidates found for each query row (a small block may have fewer than K+1)
}

// GraphBlock is the graph's rows of one query block.
type GraphBlock struct {
	Q     int
	First int       // the block's first row
	K     int       // neighbours a row
	Index []int32   // K a row
	Dist  []float64 // K a row
}

func init() {
	register.DoFn3x1[context.Context, blockPair, func(int, candidates), error](&blockFn{})
	register.Emitter2[int, candidates]()
	register.Iter1[candidates]()
	register.DoFn4x1[context.Context, int, func(*candidates) bool, func(GraphBlock), error](&mergeFn{})
	register.Emitter1[GraphBlock]()
	register.DoFn3x1[context.Context, GraphBlock, func(Written), error](&writeGraphFn{})
	register.Emitter1[Written]()
	beam.RegisterType(reflect.TypeOf((*blockPair)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*candidates)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*GraphBlock)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*GraphOptions)(nil)).Elem())
}

var datasets struct {
	sync.Mutex
	m map[string]*loadedData
}

type loadedData struct {
	once sync.Once
	ds   *dataset.Dataset
	err  error
}

// LoadData reads a data file (any Beam filesystem) as arbor reads --data
// (dataset.Load: delimited or LIBSVM text, .gz; a .parquet file as its
// CSV twin, LoadParquet), once per process and options; a file on another
// filesystem is first copied to a local temporary file. Missing values are
// an error.
func LoadData(ctx context.Context, file string, opt dataset.CSVOptions) (*dataset.Dataset, error) {
	key := fmt.Sprintf("%s\x00%+v", file, opt)
	datasets.Lock()
	if datasets.m == nil {
		datasets.m = map[string]*loadedData{}
	}
	l := datasets.m[key]
	if l == nil {
		l = &loadedData{}
		datasets.m[key] = l
	}
	datasets.Unlock()
	l.once.Do(func() {
		ds, err := loadRaw(ctx, file, opt)
		if err != nil {
			l.err = err
			return
		}
		if err := ds.MissingError("arbor-beam", "fill or drop those cells"); err != nil {
			l.err = fmt.Errorf("%s: %w", file, err)
			return
		}
		l.ds = ds
	})
	return l.ds, l.err
}

func copyToLocal(ctx context.Context, src, dst string) error {
	r, err := openAt(ctx, src, 0)
	if err != nil {
		return err
	}
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return fmt.Errorf("copying %s: %w", src, err)
	}
	return f.Close()
}

// KNNGraph computes the exact k-nearest-neighbour graph of the rows of
// opt.Data by blocks: every query block against every reference block
// (one task each, the K+1 nearest of the block to each query row), then
// the candidates of a query block merged by (squared distance, row) and
// the row itself dropped as graph.SelfDropped says. The result equals
// graph.KNearest (arbor graph) entry for entry: the same squared
// distances (distance.SqDist's order of summation), the same tie rule.
// n, the number of rows, sets the blocks; it returns GraphBlock elements.
func KNNGraph(s beam.Scope, opt GraphOptions, n int) beam.PCollection {
	s = s.Scope("arborbeam.KNNGraph")
	block := opt.Block
	if block <= 0 {
		block = DefaultBlock
	}
	nb := (n + block - 1) / block
	var pairs []any
	for q := 0; q < nb; q++ {
		for r := 0; r < nb; r++ {
			pairs = append(pairs, blockPair{q, r})
		}
	}
	opt.Block = block
	tasks := beam.Reshuffle(s, beam.Create(s, pairs...))
	cands := beam.ParDo(s, &blockFn{Opt: opt}, tasks)
	return beam.ParDo(s, &mergeFn{Opt: opt}, beam.GroupByKey(s, cands))
}

type blockFn struct {
	Opt GraphOptions
}

func blockRange(b, block, n int) (int, int) {
	return b * block, min((b+1)*block, n)
}

func (fn *blockFn) ProcessElement(ctx context.Context, t blockPair, emit func(int, candidates)) error {
	ds, err := LoadData(ctx, fn.Opt.Data, fn.Opt.CSV)
	if err != nil {
		return err
	}
	n, d := ds.X.Dims()
	data := ds.X.RawMatrix().Data
	q0, q1 := blockRange(t.Q, fn.Opt.Block, n)
	r0, r1 := blockRange(t.R, fn.Opt.Block, n)
	k1 := fn.Opt.K + 1
	ix := neighbors.New(data[r0*d:r1*d], r1-r0, d)
	c := candidates{R: t.R, Index: make([]int32, (q1-q0)*k1), D2: make([]float64, (q1-q0)*k1), Found: make([]int32, q1-q0)}
	var buf []neighbors.Neighbor
	for i := q0; i < q1; i++ {
		if (i-q0)%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		buf = ix.Query(data[i*d:i*d+d], k1, -1, buf)
		o := (i - q0) * k1
		for p, nb := range buf {
			c.Index[o+p] = nb.Index + int32(r0)
			c.D2[o+p] = nb.D2
		}
		c.Found[i-q0] = int32(len(buf))
	}
	emit(t.Q, c)
	return nil
}

type mergeFn struct {
	Opt GraphOptions
}

func (fn *mergeFn) ProcessElement(ctx context.Context, q int, cands func(*candidates) bool, emit func(GraphBlock)) error {
	ds, err := LoadData(ctx, fn.Opt.Data, fn.Opt.CSV)
	if err != nil {
		return err
	}
	n, _ := ds.X.Dims()
	k := fn.Opt.K
	if k < 1 || k >= n {
		return fmt.Errorf("%w: k = %d, want 1 <= k < N = %d", graph.ErrK, k, n)
	}
	var cs []candidates
	var c candidates
	for cands(&c) {
		cs = append(cs, c)
		c = candidates{}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].R < cs[j].R })
	q0, q1 := blockRange(q, fn.Opt.Block, n)
	k1 := k + 1
	g := GraphBlock{Q: q, First: q0, K: k, Index: make([]int32, (q1-q0)*k), Dist: make([]float64, (q1-q0)*k)}
	type cand struct {
		j  int32
		d2 float64
	}
	all := make([]cand, 0, len(cs)*k1)
	top := make([]int32, k1)
	top2 := make([]float64, k1)
	for i := 0; i < q1-q0; i++ {
		all = all[:0]
		for _, c := range cs {
			o := i * k1
			for p := 0; p < int(c.Found[i]); p++ {
				all = append(all, cand{c.Index[o+p], c.D2[o+p]})
			}
		}
		sort.Slice(all, func(a, b int) bool {
			if all[a].d2 != all[b].d2 {
				return all[a].d2 < all[b].d2
			}
			return all[a].j < all[b].j
		})
		if len(all) < k1 {
			return fmt.Errorf("row %d: %d candidates from %d blocks, want %d", q0+i, len(all), len(cs), k1)
		}
		for p := 0; p < k1; p++ {
			top[p], top2[p] = all[p].j, all[p].d2
		}
		graph.SelfDropped(q0+i, top, top2, g.Index[i*k:i*k+k], g.Dist[i*k:i*k+k])
		for p := i * k; p < i*k+k; p++ {
			g.Dist[p] = math.Sqrt(g.Dist[p])
		}
	}
	emit(g)
	return nil
}

// GraphPartName is the name of the edges of query block q of n.
func GraphPartName(q, n int) string {
	return fmt.Sprintf("edges-%05d-of-%05d.csv", q, n)
}

// WriteGraph writes each query block's edges to a file of its own
// (GraphPartName; CSV row,neighbour,distance as arbor graph writes them:
// their lines in block order are arbor graph's) and returns the files
// written (under out.Temp: see Finalize).
func WriteGraph(s beam.Scope, blocks beam.PCollection, out Output, nBlocks int) beam.PCollection {
	s = s.Scope("arborbeam.WriteGraph")
	return beam.ParDo(s, &writeGraphFn{Out: out, Blocks: nBlocks}, blocks)
}

type writeGraphFn struct {
	Out    Output
	Blocks int
}

func (fn *writeGraphFn) ProcessElement(ctx context.Context, g GraphBlock, emit func(Written)) error {
	name := GraphPartName(g.Q, fn.Blocks)
	k := g.K
	err := writeFile(ctx, fn.Out.Temp+"/"+name, func(w *csv.Writer) error {
		w.Write([]string{"row", "neighbour", "distance"})
		for p, j := range g.Index {
			w.Write([]string{strconv.Itoa(g.First + p/k), strconv.Itoa(int(j)), strconv.FormatFloat(g.Dist[p], 'g', -1, 64)})
		}
		return nil
	})
	if err != nil {
		return err
	}
	emit(Written{Name: name})
	return nil
}

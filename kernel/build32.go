package kernel

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/arbor-ml/arbor/graph"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/gonum/mat"
)

// ErrFloat32 reports a kernel that Build32 cannot store in float32: ISOMAP
// and multitype need a float64 N×N eigendecomposition, so float32 storage
// would save nothing.
var ErrFloat32 = errors.New("kernel: no float32 storage for this kernel")

// Build32 builds the kernel of sp over the rows of X in float32 storage
// (Sym32, 4N² bytes), for the kernels where that lowers the peak memory:
//
//   - point kernels: Gram32 (rbf:scale resolved on X as BuildAll does);
//   - hck:METHOD: the tree from hclust.FromPoints32 (float32 working
//     matrix; single linkage needs none), then −½·J·M·J written row by row
//     into the Sym32 (treeKernel32), never an N×N float64 matrix. Peak
//     about 4N² bytes instead of 12N² (pdist, the float64 working matrix,
//     the ultrametric);
//   - hckg:METHOD:GRAPH: the float64 geodesics (graph.Geodesic, 8N²), the
//     tree from hclust.LinkageSym32 on them (4N² more), then the kernel
//     after the geodesics are released: peak about 12N² instead of 20N²;
//   - connectivity: single linkage on the points (O(N) memory), then the
//     kernel: 4N².
//
// The returned Built has K nil and Info.Tree set (the tree rule of
// Built.Extend works; the linear rule needs the float64 K). Entries are
// the float64 kernel values, computed from the float32 tree, rounded to
// float32. For the cluster kernels the tree is the float32 linkage's: equal
// to the float64 tree where no two candidate distances lie within a few
// float32 roundings (hclust.FromPoints32); it can differ on tied data.
// Errors: ErrFloat32 for ISOMAP and multitype, and those of BuildAll.
func Build32(ctx context.Context, X mat.Matrix, sp Spec, opt BuildOptions) (Built, *Sym32, error) {
	if err := sp.validate(); err != nil {
		return Built{}, nil, fmt.Errorf("kernel %v: %w", sp, err)
	}
	progress := opt.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	b := Built{Spec: sp}
	switch sp.Kind {
	case KindPoint:
		_, b.Gamma = sp.Resolve(X)
		progress(sp.String(), 0, 1)
		K, err := Gram32(ctx, nil, b.Kernel(), X)
		if err != nil {
			return Built{}, nil, err
		}
		progress(sp.String(), 1, 1)
		return b, K, nil
	case KindHCK, KindConnectivity:
	default:
		return Built{}, nil, fmt.Errorf("%w: %s (its eigendecomposition needs the float64 N×N matrix; use landmarks)", ErrFloat32, sp)
	}
	if _, err := checkPoints(X); err != nil {
		return Built{}, nil, err
	}
	m := hclust.Single
	if sp.Kind == KindHCK {
		m = sp.Method
	}
	var err error
	progress(sp.String()+" linkage (float32)", 0, 1)
	if sp.Kind == KindConnectivity || sp.Graph == nil {
		b.Info.Tree, err = hclust.FromPoints32(ctx, X, m)
		if err != nil {
			return Built{}, nil, fmt.Errorf("kernel: %s: %w", sp, err)
		}
	} else {
		var geo graph.GeodesicResult
		geo, err = graph.Geodesic(ctx, X, graphOrDefault(*sp.Graph))
		if err != nil {
			return Built{}, nil, fmt.Errorf("kernel: %s: %w", sp, err)
		}
		b.Info.Joins = geo.Joins
		b.Info.Tree, err = hclust.LinkageSym32(ctx, geo.G, m)
		if err != nil {
			return Built{}, nil, fmt.Errorf("kernel: %s: %w", sp, err)
		}
	}
	progress(sp.String()+" linkage (float32)", 1, 1)
	// The linkage's working matrix (and hckg's geodesics) are garbage now:
	// collect them before the kernel takes its 4N² bytes, so that the peak
	// is one of them, not both (the runtime would otherwise collect only
	// when the heap doubles).
	runtime.GC()
	K, err := treeKernel32(ctx, b.Info.Tree)
	if err != nil {
		return Built{}, nil, err
	}
	return b, K, nil
}

// treeKernel32 returns −½·J·M·J for the ultrametric M of t in float32
// storage without forming M: one pass over M's rows (hclust
// UltrametricRows) for the row means r, a second that writes
// K_ij = −½·((M_ij − (r_i + r_j)) + g), g the grand mean, computed in
// float64 and rounded once (symmetric to the bit: the expression is
// symmetric in i and j as evaluated).
func treeKernel32(ctx context.Context, t *hclust.Tree) (*Sym32, error) {
	n := t.N
	sums := make([]float64, n)
	err := t.UltrametricRows(ctx, func(i int, row []float64) {
		var s float64
		for _, v := range row {
			s += v
		}
		sums[i] = s
	})
	if err != nil {
		return nil, err
	}
	r := make([]float64, n)
	var g float64
	for i, s := range sums {
		r[i] = s / float64(n)
		g += s
	}
	g /= float64(n) * float64(n)
	K := NewSym32(n)
	err = t.UltrametricRows(ctx, func(i int, row []float64) {
		dst := K.Row(i)
		ri := r[i]
		for j, v := range row {
			dst[j] = float32(-0.5 * ((v - (ri + r[j])) + g))
		}
	})
	if err != nil {
		return nil, err
	}
	return K, nil
}

// Bytes32 estimates the peak memory of Build32 for sp over n rows (0 when
// sp has no float32 storage): the Sym32 (4N²), plus for hckg the float64
// geodesic matrix while the float32 working matrix is filled (12N² in
// all).
func Bytes32(sp Spec, n int) float64 {
	nn := 4 * float64(n) * float64(n)
	switch sp.Kind {
	case KindPoint, KindConnectivity:
		return nn
	case KindHCK:
		if sp.Graph != nil {
			return 3 * nn
		}
		return nn
	}
	return 0
}

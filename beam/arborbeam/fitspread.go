package arborbeam

import (
	"context"
	"fmt"
	"io"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
)

// spreadLambda is Λ of all rows.
type spreadLambda struct {
	V []float64
}

// blockSpreadSums is a block's part of the spreading system.
type blockSpreadSums struct {
	Index int
	Sums  propagate.SpreadSums
}

// spreadSolved is the solved spreading system.
type spreadSolved struct {
	Sol propagate.SpreadSolution
}

func (b blockSpreadSums) index() int { return b.Index }
func (b blockSpread) index() int     { return b.Index }

// blockSpread is a block's part of the spreading transduction.
type blockSpread struct {
	Index int
	Y     []int
	Part  propagate.SpreadBlock
}

func init() {
	for _, t := range []any{spreadLambda{}, blockSpreadSums{}, spreadSolved{}, blockSpread{},
		lambdaFn{}, sumLambdaFn{}, spreadSumsFn{}, spreadSolveFn{}, spreadTransFn{}, spreadFinishFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// anchorGraph checks that arbor classify fits the settings' learner on
// the anchor graph for n rows of d features: spreading with a knn:K
// affinity runs on the exact kNN graph of all rows where that graph is
// affordable (pipeline.KNNGraphSpreading), which is not a sum over blocks.
func (f FitSettings) anchorGraph(n, d int) error {
	_, ln, _, err := f.pipeline().Build()
	if err != nil {
		return err
	}
	if _, ok := pipeline.KNNGraphSpreading(ln, n, d); ok {
		return fmt.Errorf("fit: spreading with a knn affinity on %d rows of %d features: arbor classify --landmarks fits it on the exact kNN graph of all rows, not the anchor graph arbor-beam fit sums in blocks; give --affinity rbf:GAMMA or kernel", n, d)
	}
	return nil
}

// spreadParts rebuilds the spreading fit in parts from the anchors and
// the width.
func (f FitSettings) spreadParts(st Stats, in anchorInput, w width) (*propagate.SpreadParts, error) {
	plan, err := f.Plan()
	if err != nil {
		return nil, err
	}
	g := propagate.AnchorSpreading{Alpha: plan.Alpha, Sigma: plan.Graph.Sigma, Unreachable: plan.Graph.Unreachable}
	if plan.K > 0 {
		g.Sigma = w.Sigma
	}
	p, err := g.Parts(mat.NewDense(in.M, in.D, in.Anchors), len(st.Classes))
	if err != nil {
		return nil, err
	}
	if p.NeedsWidth() && w.Known {
		p.SetWidth(w.Sum, st.N)
	}
	return p, nil
}

// fitSpreading is the rest of Fit for spreading, from the blocks and the
// side inputs stats, scaler, anchors and width: Λ per block, added in
// block order; the system's sums per block, merged in block order and
// solved by one worker; the transduction per block, put together by one
// worker, which writes the pipeline.
func fitSpreading(s beam.Scope, set FitSettings, blocks beam.PCollection, sides []beam.SideInput, out Output, name string) beam.PCollection {
	stats, scaler, input, w := sides[0], sides[1], sides[2], sides[3]
	lam := beam.ParDo(s, &sumLambdaFn{Set: set}, gather(s, beam.ParDo(s, &lambdaFn{Set: set}, blocks, stats, scaler, input, w)),
		stats, input, w)
	lamSide := beam.SideInput{Input: lam}
	sums := beam.ParDo(s, &spreadSumsFn{Set: set}, blocks, stats, scaler, input, w, lamSide)
	sol := beam.ParDo(s, &spreadSolveFn{Set: set}, gather(s, sums), stats, input, w, lamSide)
	solSide := beam.SideInput{Input: sol}
	trans := beam.ParDo(s, &spreadTransFn{Set: set}, blocks, stats, scaler, input, w, solSide)
	return beam.ParDo(s, &spreadFinishFn{Set: set, Out: out, Name: name}, gather(s, trans), stats, scaler, input, w, solSide)
}

// lambdaFn is a block's part of Λ.
type lambdaFn struct {
	Set FitSettings
}

func (fn *lambdaFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, in anchorInput, w width) (blockVec, error) {
	build := func() (*propagate.SpreadParts, error) { return fn.Set.spreadParts(st, in, w) }
	return onBlock(in.Refusal, b, sc, build, func(p *propagate.SpreadParts, X *mat.Dense) (blockVec, error) {
		v, err := p.Lambda(ctx, X)
		return blockVec{Index: b.Index, V: v}, err
	})
}

// sumLambdaFn adds the blocks' parts of Λ in block order.
type sumLambdaFn struct {
	Set FitSettings
}

func (fn *sumLambdaFn) ProcessElement(_ int, iter func(*blockVec) bool, st Stats, in anchorInput, w width) (spreadLambda, error) {
	if in.Refusal != "" {
		return spreadLambda{}, nil
	}
	p, err := fn.Set.spreadParts(st, in, w)
	if err != nil {
		return spreadLambda{}, err
	}
	parts, err := inOrder(iter, "Λ")
	if err != nil {
		return spreadLambda{}, err
	}
	vs := make([][]float64, len(parts))
	for i, part := range parts {
		vs[i] = part.V
	}
	lam, err := p.SumLambda(vs)
	return spreadLambda{V: lam}, err
}

// spreadSumsFn is a block's part of the spreading system.
type spreadSumsFn struct {
	Set FitSettings
}

func (fn *spreadSumsFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, in anchorInput, w width, lam spreadLambda) (blockSpreadSums, error) {
	build := func() (*propagate.SpreadParts, error) { return fn.Set.spreadParts(st, in, w) }
	return onBlock(in.Refusal, b, sc, build, func(p *propagate.SpreadParts, X *mat.Dense) (blockSpreadSums, error) {
		sums, err := p.Sums(ctx, X, b.classes(st), lam.V)
		if err != nil {
			return blockSpreadSums{}, err
		}
		return blockSpreadSums{Index: b.Index, Sums: *sums}, nil
	})
}

// spreadSolveFn merges the blocks' sums in block order and solves the
// system.
type spreadSolveFn struct {
	Set FitSettings
}

func (fn *spreadSolveFn) ProcessElement(_ int, iter func(*blockSpreadSums) bool, st Stats, in anchorInput, w width, lam spreadLambda) (spreadSolved, error) {
	if in.Refusal != "" {
		return spreadSolved{}, nil
	}
	all, err := inOrder(iter, "the spreading sums")
	if err != nil {
		return spreadSolved{}, err
	}
	p, err := fn.Set.spreadParts(st, in, w)
	if err != nil {
		return spreadSolved{}, err
	}
	sums := p.NewSums()
	for _, b := range all {
		if err := sums.Merge(&b.Sums); err != nil {
			return spreadSolved{}, err
		}
	}
	sol, err := p.Solve(lam.V, sums)
	if err != nil {
		return spreadSolved{}, err
	}
	return spreadSolved{Sol: *sol}, nil
}

// spreadTransFn is a block's part of the spreading transduction.
type spreadTransFn struct {
	Set FitSettings
}

func (fn *spreadTransFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, in anchorInput, w width, sol spreadSolved) (blockSpread, error) {
	build := func() (*propagate.SpreadParts, error) { return fn.Set.spreadParts(st, in, w) }
	return onBlock(in.Refusal, b, sc, build, func(p *propagate.SpreadParts, X *mat.Dense) (blockSpread, error) {
		y := b.classes(st)
		part, err := p.Transduce(ctx, X, y, &sol.Sol)
		if err != nil {
			return blockSpread{}, err
		}
		return blockSpread{Index: b.Index, Y: y, Part: *part}, nil
	})
}

// spreadFinishFn puts the blocks' transduction together in block order,
// completes the model and writes the pipeline.
type spreadFinishFn struct {
	Set  FitSettings
	Out  Output
	Name string
}

func (fn *spreadFinishFn) ProcessElement(ctx context.Context, _ int, iter func(*blockSpread) bool, st Stats, sc dataset.Scaler, in anchorInput, w width, sol spreadSolved) (Written, error) {
	if err := refused(in.Refusal); err != nil {
		return Written{}, err
	}
	all, err := inOrder(iter, "the transduction")
	if err != nil {
		return Written{}, err
	}
	p, err := fn.Set.spreadParts(st, in, w)
	if err != nil {
		return Written{}, err
	}
	var y []int
	parts := make([]*propagate.SpreadBlock, len(all))
	for i := range all {
		y = append(y, all[i].Y...)
		parts[i] = &all[i].Part
	}
	am, err := p.Model(&sol.Sol, parts, y)
	if err != nil {
		return Written{}, err
	}
	ds := &dataset.Dataset{Features: st.Features, Classes: st.Classes, LabelName: st.LabelName, IDName: st.IDName}
	pl, err := pipeline.NewLandmarks(ds, &sc, kernel.Spec{}, 0, nil, am)
	if err != nil {
		return Written{}, err
	}
	err = writeRaw(ctx, fn.Out.Temp+"/"+fn.Name, func(w io.Writer) error { return pl.Save(w) })
	return Written{Name: fn.Name}, err
}

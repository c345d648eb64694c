package arborbeam

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/svm"
)

// featureMap is the fitted Nyström map (its saved form) and the gamma
// rbf:scale resolved to (0 otherwise), or the fit's refusal.
type featureMap struct {
	Map     []byte
	Gamma   float64
	Refusal string
}

func (b blockFeatures) index() int { return b.Index }

// blockFeatures are the features of a block's labelled rows (R a row),
// in row order, and their classes.
type blockFeatures struct {
	Index int
	R     int
	Z     []float64
	Y     []int
}

func init() {
	for _, t := range []any{featureMap{}, blockFeatures{}, mapFn{}, featuresFn{}, featuresFitFn{}} {
		beam.RegisterType(reflect.TypeOf(t))
	}
}

// spec is the kernel of the landmark features: a point kernel (default
// linear), whose Nyström map needs the landmark rows alone.
func (f FitSettings) spec() (kernel.Spec, error) {
	text := f.Kernel
	if text == "" {
		text = "linear"
	}
	spec, err := kernel.ParseSpec(text)
	if err != nil {
		return kernel.Spec{}, fmt.Errorf("fit: --kernel %q: %v", text, err)
	}
	if spec.Kind != kernel.KindPoint {
		return kernel.Spec{}, fmt.Errorf("fit: --kernel %s: arbor-beam fit takes point kernels for the landmark features (the landmark maps of the cluster, ISOMAP and multi-type kernels need every row in one process: arbor classify --landmarks)", spec)
	}
	return spec, nil
}

// fitFeatures is the rest of Fit for linsvm and svm on the landmark
// features, from the blocks and the side inputs stats and scaler, as
// arbor classify --landmarks fits them (pipeline.LandmarkChoice.Training,
// LandmarkLinSVM, LandmarkSVMWith): one worker chooses the landmarks and fits
// the Nyström map on their rows; per block the features of its labelled
// rows (the map's features of the blocks of landmark.BlockRows rows that
// hold them, as the core computes them); one worker gathers them in row
// order, runs the solver on them and writes the pipeline.
func fitFeatures(s beam.Scope, set FitSettings, blocks, stats, scaler beam.PCollection, out Output, name string) beam.PCollection {
	st, sc := beam.SideInput{Input: stats}, beam.SideInput{Input: scaler}
	fm := beam.ParDo(s, &mapFn{Set: set}, stats, sc, beam.SideInput{Input: blocks})
	fmSide := beam.SideInput{Input: fm}
	feats := beam.ParDo(s, &featuresFn{}, blocks, st, sc, fmSide)
	return beam.ParDo(s, &featuresFitFn{Set: set, Out: out, Name: name}, gather(s, feats), st, sc, fmSide)
}

// mapFn chooses the landmarks as the core does (landmark.ChooseRows: the
// labelled rows first when fewer than M) and fits the Nyström map on their
// rows, the kernel's rbf:scale resolved on the labelled rows (as the SVMs
// on landmark features resolve it). Settings it refuses, or the stats'
// refusal, are its result (see refused).
type mapFn struct {
	Set FitSettings
}

func (fn *mapFn) ProcessElement(ctx context.Context, st Stats, sc dataset.Scaler, blocks func() func(*Block) bool) featureMap {
	if st.Refusal != "" {
		return featureMap{Refusal: st.Refusal}
	}
	fm, err := fn.fit(ctx, st, sc, blocks)
	if err != nil {
		return featureMap{Refusal: err.Error()}
	}
	return fm
}

func (fn *mapFn) fit(ctx context.Context, st Stats, sc dataset.Scaler, blocks func() func(*Block) bool) (featureMap, error) {
	if fn.Set.Landmarks > st.N {
		return featureMap{}, fmt.Errorf("--landmarks %d: more than the %d rows", fn.Set.Landmarks, st.N)
	}
	spec, err := fn.Set.spec()
	if err != nil {
		return featureMap{}, err
	}
	fetch := func(idx []int) (*mat.Dense, error) { return fetchRows(blocks, &sc, idx, st.D) }
	lm, _, err := landmark.ChooseRows(ctx, st.N, fn.Set.Landmarks, fn.Set.method(), fn.Set.Seed, st.Labelled, fetch)
	if err != nil {
		return featureMap{}, err
	}
	gamma := 0.0
	if spec.Scale {
		Xl, err := fetch(st.Labelled)
		if err != nil {
			return featureMap{}, err
		}
		spec.Point, gamma = spec.Resolve(Xl)
		spec.Scale = false
	}
	L, err := fetch(lm)
	if err != nil {
		return featureMap{}, err
	}
	// A point kernel's Nyström map reads the landmark rows alone: fitted
	// on them, it is the map of all rows but for its record of the
	// landmarks' row numbers.
	own := make([]int, len(lm))
	for i := range own {
		own[i] = i
	}
	m, _, err := landmark.Settings{Kernel: spec}.FitTraining(ctx, L, own)
	if err != nil {
		return featureMap{}, err
	}
	ny, ok := m.(*landmark.Nystrom)
	if !ok {
		return featureMap{}, fmt.Errorf("internal error: the map of %s is %T", spec, m)
	}
	ny.Landmarks = lm
	var buf bytes.Buffer
	if err := ny.Save(&buf); err != nil {
		return featureMap{}, err
	}
	return featureMap{Map: buf.Bytes(), Gamma: gamma}, nil
}

// featuresFn computes the features of a block's labelled rows: the map's
// features of each block of landmark.BlockRows rows (the block starts at a
// multiple of BlockRows, so those are the core's blocks) that holds one.
type featuresFn struct{}

func (fn *featuresFn) ProcessElement(ctx context.Context, b Block, st Stats, sc dataset.Scaler, fm featureMap) (blockFeatures, error) {
	out := blockFeatures{Index: b.Index}
	if fm.Refusal != "" {
		return out, nil
	}
	y := b.classes(st)
	var lab []int
	for i, c := range y {
		if c >= 0 {
			lab = append(lab, i)
		}
	}
	if len(lab) == 0 {
		return out, nil
	}
	ny, err := landmark.LoadNystrom(bytes.NewReader(fm.Map))
	if err != nil {
		return out, err
	}
	X, err := b.scaled(&sc)
	if err != nil {
		return out, err
	}
	out.R = ny.Rank
	var Z *mat.Dense
	sub := -1
	for _, i := range lab {
		if s := i / landmark.BlockRows; s != sub {
			sub = s
			lo, hi := s*landmark.BlockRows, min(s*landmark.BlockRows+landmark.BlockRows, b.rows())
			if Z, err = ny.Features(ctx, X.Slice(lo, hi, 0, b.D)); err != nil {
				return out, err
			}
		}
		out.Z = append(out.Z, Z.RawRowView(i-sub*landmark.BlockRows)...)
		out.Y = append(out.Y, y[i])
	}
	return out, nil
}

// featuresFitFn gathers the labelled rows' features in row order, fits
// the learner on them and writes the pipeline.
type featuresFitFn struct {
	Set  FitSettings
	Out  Output
	Name string
}

func (fn *featuresFitFn) ProcessElement(ctx context.Context, _ int, iter func(*blockFeatures) bool, st Stats, sc dataset.Scaler, fm featureMap) (Written, error) {
	if err := refused(fm.Refusal); err != nil {
		return Written{}, err
	}
	all, err := inOrder(iter, "the features")
	if err != nil {
		return Written{}, err
	}
	ny, err := landmark.LoadNystrom(bytes.NewReader(fm.Map))
	if err != nil {
		return Written{}, err
	}
	var z []float64
	var y []int
	for _, b := range all {
		z, y = append(z, b.Z...), append(y, b.Y...)
	}
	if len(y) != len(st.Labelled) {
		return Written{}, fmt.Errorf("internal error: %d labelled rows' features, %d labelled rows", len(y), len(st.Labelled))
	}
	Zl := mat.NewDense(len(y), ny.Rank, z)
	_, ln, family, err := fn.Set.pipeline().Build()
	if err != nil {
		return Written{}, err
	}
	var model learner.Saver
	switch family {
	case "linsvm":
		c, _ := learner.As[linsvm.Classifier](ln)
		m, err := pipeline.LandmarkLinSVM(ctx, Zl, y, c)
		if err != nil {
			return Written{}, err
		}
		model = m
	case "svm":
		c, _ := learner.As[svm.Classifier](ln)
		m, err := pipeline.LandmarkSVMWith(ctx, Zl, y, c)
		if err != nil {
			return Written{}, err
		}
		model = m
	default:
		return Written{}, fmt.Errorf("internal error: learner %s on landmark features", family)
	}
	spec, err := fn.Set.spec()
	if err != nil {
		return Written{}, err
	}
	ds := &dataset.Dataset{Features: st.Features, Classes: st.Classes, LabelName: st.LabelName, IDName: st.IDName}
	p, err := pipeline.NewLandmarks(ds, &sc, spec, fm.Gamma, ny, model)
	if err != nil {
		return Written{}, err
	}
	err = writeRaw(ctx, fn.Out.Temp+"/"+fn.Name, func(w io.Writer) error { return p.Save(w) })
	return Written{Name: fn.Name}, err
}

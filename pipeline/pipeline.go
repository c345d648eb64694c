package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/neighbors"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
)

// Magic starts every pipeline file; Version is the format version Save
// writes (Load also reads versions 1 and 2).
const (
	Magic   = "ARBOR-PIPELINE"
	Version = 3
)

// Errors of Load and Predict.
var (
	ErrForeign   = errors.New("not an Arbor pipeline file")
	ErrTruncated = errors.New("pipeline file is truncated or damaged")
	ErrVersion   = errors.New("pipeline file version not supported")
	ErrColumns   = errors.New("feature columns do not match the model")
	ErrLearner   = errors.New("learner cannot be saved in a pipeline")
)

// Pipeline is a fitted classifier with what it needs to label new points
// (see the package documentation). It is immutable after New or Load and
// safe for concurrent use.
type Pipeline struct {
	Features  []string        // feature names of the training file, in order
	Classes   []string        // class names: model label c is Classes[c]
	LabelName string          // label column of the training file
	IDName    string          // ID column of the training file ("" when none)
	Scaler    *dataset.Scaler // fitted on the training rows
	Spec      kernel.Spec     // the kernel
	Gamma     float64         // gamma rbf:scale resolved to
	Rule      string          // out-of-sample rule (kernel.RuleTree or RuleLinear)
	X         *mat.Dense      // the N scaled training rows
	Model     learner.Model   // the learner's fitted model over the N rows
	// Affinity, for label propagation or spreading fitted on the points
	// (not on the kernel), is its affinity (propagate.Affinity.String():
	// rbf:GAMMA or knn:K): new points are given affinity rows instead of
	// kernel rows. "" otherwise.
	Affinity string
	// Landmarks, for a pipeline fitted with landmarks (NewLandmarks), is
	// its feature map and model; X and Model are then nil.
	Landmarks *Landmarks
	// Selection, for a model chosen by a grid search (package
	// modelselect), records the choice; nil otherwise.
	Selection *Selection

	ixOnce sync.Once
	ix     *neighbors.Index

	// tree: the training tree of a cluster kernel with the tree rule
	// (saved with the pipeline), or nil.
	tree *hclust.Tree

	once  sync.Once
	built kernel.Built
	err   error
}

// New assembles a pipeline from a fitting: ds the training data after
// scaling by sc (ds.X are the rows the model was fitted on), b the kernel
// built over ds.X (only Spec and Gamma are read; a data-dependent kernel is
// rebuilt on first use), rule its out-of-sample rule, m the fitted model.
// Errors: ErrLearner for a model of a package this format cannot store.
func New(ds *dataset.Dataset, sc *dataset.Scaler, b kernel.Built, rule string, m learner.Model) (*Pipeline, error) {
	if _, err := learnerName(m); err != nil {
		return nil, err
	}
	if sc == nil {
		sc = &dataset.Scaler{How: "none", Shift: make([]float64, ds.Dim()), Factor: ones(ds.Dim())}
	}
	p := &Pipeline{
		Features: append([]string(nil), ds.Features...), Classes: append([]string(nil), ds.Classes...),
		LabelName: ds.LabelName, IDName: ds.IDName, Scaler: sc, Spec: b.Spec, Gamma: b.Gamma,
		Rule: rule, X: mat.DenseCopyOf(ds.X), Model: m,
	}
	if b.K != nil {
		p.once.Do(func() { p.built = b })
	}
	if p.treeRule() {
		p.tree = b.Info.Tree
	}
	return p, nil
}

func ones(n int) []float64 {
	o := make([]float64, n)
	for i := range o {
		o[i] = 1
	}
	return o
}

// learnerName is the registered name m is saved under (learner.ModelName).
func learnerName(m learner.Saver) (string, error) {
	if name, ok := learner.ModelName(m); ok {
		return name, nil
	}
	return "", fmt.Errorf("%w: %T", ErrLearner, m)
}

type manifest struct {
	Features     []string        `json:"features"`
	Classes      []string        `json:"classes"`
	Label        string          `json:"label"`
	ID           string          `json:"id"`
	Scale        *dataset.Scaler `json:"scale"`
	Kernel       string          `json:"kernel"`
	Gamma        float64         `json:"gamma"`
	Rule         string          `json:"rule"`
	Train        [][]float64     `json:"train"`
	Learner      string          `json:"learner"`
	Affinity     string          `json:"affinity,omitempty"`
	PayloadBytes int             `json:"payload_bytes"`
	PayloadCRC   uint32          `json:"payload_crc32"`
	// Version 2: landmark pipelines. Landmarks is the feature map's kind
	// ("nystrom", "landmark-isomap") or "anchor-graph" / "knn-graph" (no map); the map's
	// saved form (MapBytes, CRC-32 MapCRC) precedes the learner payload.
	Landmarks string `json:"landmarks,omitempty"`
	MapBytes  int    `json:"map_bytes,omitempty"`
	MapCRC    uint32 `json:"map_crc32,omitempty"`
	// Selection: how a grid search chose the settings (absent otherwise).
	Selection *Selection `json:"selection,omitempty"`
	// Tree: the cluster kernel's tree of the training rows, SciPy's
	// linkage rows [A, B, height, size], for the tree rule (absent
	// otherwise; a file without it rebuilds the tree with the N×N
	// kernel).
	Tree [][4]float64 `json:"tree,omitempty"`
}

// Selection records the setting a grid search with cross-validation
// chose (package modelselect) and how: the learner family, its settings
// and kernel, the scoring, the folds, and the chosen setting's mean and
// standard deviation of its fold scores among Candidates settings.
type Selection struct {
	Learner       string            `json:"learner"`
	Kernel        string            `json:"kernel,omitempty"`
	Params        map[string]string `json:"params"`
	Scoring       string            `json:"scoring"`
	CV            string            `json:"cv"`
	Folds         int               `json:"folds"`
	Candidates    int               `json:"candidates"`
	MeanTestScore float64           `json:"mean_test_score"`
	StdTestScore  float64           `json:"std_test_score"`
}

// Save writes p in the format of the package documentation.
func (p *Pipeline) Save(w io.Writer) error {
	if p.Landmarks != nil {
		return p.saveLandmarks(w)
	}
	name, err := learnerName(p.Model)
	if err != nil {
		return err
	}
	var payload bytes.Buffer
	if err := p.Model.Save(&payload); err != nil {
		return fmt.Errorf("saving the %s model: %w", name, err)
	}
	n, _ := p.X.Dims()
	train := make([][]float64, n)
	for i := range train {
		train[i] = p.X.RawRowView(i)
	}
	spec := p.Spec.String()
	if p.Affinity != "" && p.Spec.Kind == "" {
		spec = "" // label propagation on its own affinity: no kernel
	}
	m := manifest{
		Features: p.Features, Classes: p.Classes, Label: p.LabelName, ID: p.IDName,
		Scale: p.Scaler, Kernel: spec, Gamma: p.Gamma, Rule: p.Rule, Train: train,
		Learner: name, Affinity: p.Affinity, PayloadBytes: payload.Len(), PayloadCRC: crc32.ChecksumIEEE(payload.Bytes()),
		Selection: p.Selection, Tree: p.savedTree(),
	}
	return write(w, m, nil, payload.Bytes())
}

// SaveFile saves p (Save) to the file path: a regular file is written to
// a temporary file beside it and renamed into place once whole, never
// left half written; a device or FIFO is written in place.
func (p *Pipeline) SaveFile(path string) error {
	return atomicfile.Write(path, func(f *os.File) error { return p.Save(f) })
}

// LoadFile reads the pipeline saved in the file path (Load; errors name
// the file), decompressed when it is gzip data (dataset.Open).
func LoadFile(path string) (*Pipeline, error) {
	f, err := dataset.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Load(f, path)
}

// saveLandmarks writes a version 2 file: manifest, map, learner payload.
func (p *Pipeline) saveLandmarks(w io.Writer) error {
	name, err := landmarkLearner(p.Landmarks.Model)
	if err != nil {
		return err
	}
	kind, err := mapName(p.Landmarks.Map)
	if err != nil {
		return err
	}
	var mp, payload bytes.Buffer
	if p.Landmarks.Map != nil {
		if err := p.Landmarks.Map.Save(&mp); err != nil {
			return fmt.Errorf("saving the %s map: %w", kind, err)
		}
	} else {
		kind = name // "anchor-graph" or "knn-graph": no map
	}
	if err := p.Landmarks.Model.Save(&payload); err != nil {
		return fmt.Errorf("saving the %s model: %w", name, err)
	}
	m := manifest{
		Features: p.Features, Classes: p.Classes, Label: p.LabelName, ID: p.IDName,
		Scale: p.Scaler, Kernel: p.Spec.String(), Gamma: p.Gamma, Learner: name,
		PayloadBytes: payload.Len(), PayloadCRC: crc32.ChecksumIEEE(payload.Bytes()),
		Landmarks: kind, MapBytes: mp.Len(), MapCRC: crc32.ChecksumIEEE(mp.Bytes()),
		Selection: p.Selection,
	}
	if p.Landmarks.Map == nil {
		m.Kernel = ""
	}
	return write(w, m, mp.Bytes(), payload.Bytes())
}

// write writes a file of the current version: header, manifest, map,
// payload, and the CRC-32C of all of them on the last line.
func write(w io.Writer, m manifest, mapBytes, payload []byte) error {
	js, err := json.Marshal(m)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	cw := &crcWriter{w: bw}
	fmt.Fprintf(cw, "%s %d\n", Magic, Version)
	cw.Write(js)
	cw.Write([]byte{'\n'})
	cw.Write(mapBytes)
	cw.Write(payload)
	bw.WriteString(trailer(cw.crc))
	return bw.Flush()
}

// Load reads a pipeline written by Save (or a version 1 or 2 file); name
// (the file name) prefixes every error. The whole file is read (memory:
// its length) and, for version 3, checked against its CRC-32C before
// anything in it is decoded; the manifest's sizes are checked against the
// bytes that follow it, and its fields (distinct names, consistent counts,
// finite numbers, known kinds) before the model is built. Errors:
// ErrForeign, ErrTruncated (cut short or damaged: naming the field),
// ErrVersion, or the learner package's Load error.
func Load(r io.Reader, name string) (*Pipeline, error) {
	br := bufio.NewReaderSize(r, 64)
	v, head, err := readHeader(br)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	rest, err := readRest(br, r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, mapBytes, payload, err := splitFile(v, head, rest)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if v <= 2 && (m.Landmarks != "") != (v == 2) {
		return nil, fmt.Errorf("%s: %w", name, badField("landmarks", "%s in a version %d file", quote(m.Landmarks), v))
	}
	var p *Pipeline
	if m.Landmarks != "" {
		p, err = fromLandmarkManifest(m, mapBytes, payload)
	} else {
		p, err = fromManifest(m, payload)
	}
	if err == nil {
		p.Selection = m.Selection
		err = checkModel(p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

func fromLandmarkManifest(m manifest, mapBytes, payload []byte) (*Pipeline, error) {
	if err := checkHead(m); err != nil {
		return nil, err
	}
	if len(m.Train) != 0 || m.Rule != "" || m.Affinity != "" || len(m.Tree) != 0 {
		return nil, badField("train", "a landmark pipeline has no training rows, rule, affinity or tree")
	}
	kind := m.Landmarks
	switch kind {
	case "anchor-graph", "knn-graph":
		if m.Learner != kind {
			return nil, badField("learner", "%s with landmarks %q", quote(m.Learner), kind)
		}
		if m.MapBytes != 0 || m.Kernel != "" {
			return nil, badField("map_bytes", "%d with landmarks %q (which has no map)", m.MapBytes, kind)
		}
		kind = "" // the model works on the points: no map
	case "nystrom", "landmark-isomap", "nystrom-multitype":
	default:
		return nil, badField("landmarks", "unknown kind %s: the file is damaged or written by a newer Arbor", quote(kind))
	}
	var spec kernel.Spec
	if m.Kernel != "" {
		var err error
		if spec, err = kernel.ParseSpec(m.Kernel); err != nil {
			return nil, badField("kernel", "%s: %v", quote(m.Kernel), err)
		}
	}
	lm, err := loadLandmarks(kind, mapBytes, m.Learner, payload)
	if err != nil {
		return nil, err
	}
	return &Pipeline{
		Features: m.Features, Classes: m.Classes, LabelName: m.Label, IDName: m.ID, Scaler: m.Scale,
		Spec: spec, Gamma: m.Gamma, Landmarks: lm,
	}, nil
}

func fromManifest(m manifest, payload []byte) (*Pipeline, error) {
	d := len(m.Features)
	if err := checkHead(m); err != nil {
		return nil, err
	}
	if len(m.Train) == 0 {
		return nil, badField("train", "no training rows")
	}
	if m.MapBytes != 0 {
		return nil, badField("map_bytes", "%d in a pipeline without landmarks", m.MapBytes)
	}
	for i, row := range m.Train {
		if len(row) != d {
			return nil, badField("train", "row %d has %d values, want %d", i+1, len(row), d)
		}
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, badField("train", "row %d, feature %s: %v", i+1, quote(m.Features[j]), v)
			}
		}
	}
	X := mat.NewDense(len(m.Train), d, nil)
	for i, row := range m.Train {
		X.SetRow(i, row)
	}
	if m.Affinity != "" && m.Learner != "propagate" {
		return nil, badField("affinity", "%s with learner %s (only propagate has an affinity)", quote(m.Affinity), quote(m.Learner))
	}
	var spec kernel.Spec
	var err error
	if m.Kernel != "" || m.Affinity == "" {
		if spec, err = kernel.ParseSpec(m.Kernel); err != nil {
			return nil, badField("kernel", "%s: %v", quote(m.Kernel), err)
		}
	}
	saved, err := learner.Load(m.Learner, bytes.NewReader(payload))
	if errors.Is(err, learner.ErrModel) {
		return nil, badField("learner", "unknown learner %s: the file is damaged or written by a newer Arbor", quote(m.Learner))
	}
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", m.Learner, err)
	}
	model, ok := saved.(learner.Model)
	if !ok {
		return nil, badField("learner", "%s labels landmark features or points, in a pipeline without landmarks", quote(m.Learner))
	}
	p := &Pipeline{
		Features: m.Features, Classes: m.Classes, LabelName: m.Label, IDName: m.ID, Scaler: m.Scale,
		Spec: spec, Gamma: m.Gamma, Rule: m.Rule, X: X, Model: model, Affinity: m.Affinity,
	}
	if len(m.Tree) > 0 {
		if !p.treeRule() {
			return nil, badField("tree", "a training tree with kernel %s and rule %s (only the tree rule of a cluster kernel reads one)", quote(m.Kernel), quote(m.Rule))
		}
		if p.tree, err = treeOf(m.Tree, len(m.Train)); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// treeRule reports a cluster kernel (hck, hckg, connectivity) whose new
// points enter by the tree rule: they need the training tree, not the
// N×N matrix.
func (p *Pipeline) treeRule() bool {
	return (p.Spec.Kind == kernel.KindHCK || p.Spec.Kind == kernel.KindConnectivity) && p.Rule != kernel.RuleLinear
}

// savedTree returns the linkage rows of the training tree to save, nil
// when the rule does not read it or it is not at hand.
func (p *Pipeline) savedTree() [][4]float64 {
	if !p.treeRule() {
		return nil
	}
	t := p.tree
	if t == nil {
		return nil
	}
	rows := make([][4]float64, len(t.Merges))
	for k, m := range t.Merges {
		rows[k] = [4]float64{float64(m.A), float64(m.B), m.Height, float64(m.Size)}
	}
	return rows
}

// treeOf reads the saved linkage rows of a pipeline over n training rows.
func treeOf(rows [][4]float64, n int) (*hclust.Tree, error) {
	if len(rows) != n-1 {
		return nil, badField("tree", "%d merges for %d training rows, want %d", len(rows), n, n-1)
	}
	z := mat.NewDense(len(rows), 4, nil)
	for k, r := range rows {
		z.SetRow(k, r[:])
	}
	t, err := hclust.FromMatrix(z)
	if err != nil {
		return nil, badField("tree", "%v", err)
	}
	return t, nil
}

// kernelBuilt returns the kernel over the training rows: Spec and Gamma
// for a point kernel, the saved training tree for a cluster kernel with
// the tree rule, the rebuilt N×N matrix for the other data-dependent ones
// (and the tree rule of a file without its tree).
func (p *Pipeline) kernelBuilt(ctx context.Context) (kernel.Built, error) {
	p.once.Do(func() {
		if p.Spec.Kind == kernel.KindPoint {
			p.built = kernel.Built{Spec: p.Spec, Gamma: p.Gamma}
			return
		}
		if p.treeRule() && p.tree != nil {
			p.built = kernel.Built{Spec: p.Spec, Gamma: p.Gamma, Info: kernel.Info{Tree: p.tree}}
			return
		}
		bs, err := kernel.BuildAll(ctx, p.X, []kernel.Spec{p.Spec}, kernel.BuildOptions{})
		if err != nil {
			p.err = err
			return
		}
		p.built = bs[0]
	})
	return p.built, p.err
}

// Columns returns the feature matrix of ds in the model's feature order,
// matching columns by name; a file read without a header (columns c1, c2,
// …) with as many features as the model is matched by position. Errors:
// ErrColumns naming the missing features.
func (p *Pipeline) Columns(ds *dataset.Dataset) (*mat.Dense, error) {
	if ds.Source != nil && !ds.Source.Header && ds.Dim() == len(p.Features) {
		return mat.DenseCopyOf(ds.X), nil
	}
	pos := make(map[string]int, len(ds.Features))
	for j, f := range ds.Features {
		pos[f] = j
	}
	idx := make([]int, len(p.Features))
	var missing []string
	for i, f := range p.Features {
		j, ok := pos[f]
		if !ok {
			missing = append(missing, f)
		}
		idx[i] = j
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s: %w: no column %s (the model's features are %s; the file's are %s)", ds.Name, ErrColumns,
			quoteList(missing), quoteList(p.Features), quoteList(ds.Features))
	}
	n := ds.Len()
	X := mat.NewDense(n, len(idx), nil)
	for r := 0; r < n; r++ {
		src := ds.X.RawRowView(r)
		dst := X.RawRowView(r)
		for i, j := range idx {
			dst[i] = src[j]
		}
	}
	return X, nil
}

// quoteList quotes names for a message: all of up to 12, else the first
// 10, how many more, and the last, as the data notices list features.
func quoteList(s []string) string {
	const most, first = 12, 10
	var q []string
	for i, v := range s {
		if len(s) > most && i == first {
			q = append(q, fmt.Sprintf("… (%d more)", len(s)-first-1), strconv.Quote(s[len(s)-1]))
			break
		}
		q = append(q, strconv.Quote(v))
	}
	return strings.Join(q, ", ")
}

// Predict labels the rows of Xraw (unscaled, in the order of p.Features):
// scaling, kernel rows against the training rows, the model's prediction.
// Labels index p.Classes; learner.Unlabeled (−1) where the model leaves a
// point unlabelled. Memory: the t×N kernel rows. A cluster kernel with
// the tree rule reads only its training tree, which the pipeline holds
// (saved with it); the first call for another data-dependent kernel, or
// for a file without the tree, rebuilds the kernel over the training rows
// (O(N²)).
func (p *Pipeline) Predict(ctx context.Context, Xraw *mat.Dense) ([]int, error) {
	out, err := p.PredictWant(ctx, Xraw, Want{})
	if err != nil {
		return nil, err
	}
	return out.Labels, nil
}

package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/knn"
	"github.com/arbor-ml/arbor/landmark"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/linsvm"
	"github.com/arbor-ml/arbor/pipeline"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/svm"
)

// smallModel is a small saved pipeline and the labels it gives probe.
type smallModel struct {
	name string
	file []byte
	want []int
}

// smallFixture is every third iris row (50 rows, std-scaled), every
// second of them labelled, and 12 new raw points near the rows.
func smallFixture(tb testing.TB) (ds *dataset.Dataset, sc *dataset.Scaler, y []int, probe *mat.Dense) {
	tb.Helper()
	iris, err := dataset.Embedded("iris")
	if err != nil {
		tb.Fatal(err)
	}
	_, d := iris.X.Dims()
	n := 50
	X := mat.NewDense(n, d, nil)
	y = make([]int, n)
	for i := range n {
		X.SetRow(i, iris.X.RawRowView(3*i))
		y[i] = learner.Unlabeled
		if i%2 == 0 {
			y[i] = iris.Y[3*i]
		}
	}
	probe = mat.NewDense(12, d, nil)
	for i := range 12 {
		for j := range d {
			probe.Set(i, j, X.At((i*5)%n, j)+0.09*float64((i+j)%5-2))
		}
	}
	if sc, err = dataset.FitScaler(X, "std"); err != nil {
		tb.Fatal(err)
	}
	if X, err = sc.Transform(nil, X); err != nil {
		tb.Fatal(err)
	}
	ds = &dataset.Dataset{X: X, Y: y, Features: iris.Features, Classes: iris.Classes, LabelName: iris.LabelName}
	return ds, sc, y, probe
}

// smallModels saves one small pipeline of every kind Save writes: the
// exact SVM on the points and on a cluster kernel's Gram matrix, kNN,
// label propagation on a kernel and on the kNN affinity, S4VM, HiBUST,
// and with 8 landmarks the linear SVM, LIBLINEAR and kNN on Nyström,
// landmark ISOMAP and multi-type features, the anchor graph and label
// spreading on the kNN graph.
func smallModels(tb testing.TB) ([]smallModel, *mat.Dense) {
	tb.Helper()
	ctx := context.Background()
	ds, sc, y, probe := smallFixture(tb)
	var out []smallModel
	add := func(name string, p *pipeline.Pipeline, err error) {
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		var buf bytes.Buffer
		if err := p.Save(&buf); err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		want, err := p.Predict(ctx, probe)
		if err != nil {
			tb.Fatalf("%s: %v", name, err)
		}
		out = append(out, smallModel{name, buf.Bytes(), want})
	}
	built := func(s string) kernel.Built {
		spec, err := kernel.ParseSpec(s)
		if err != nil {
			tb.Fatal(err)
		}
		bs, err := kernel.BuildAll(ctx, ds.X, []kernel.Spec{spec}, kernel.BuildOptions{})
		if err != nil {
			tb.Fatal(err)
		}
		return bs[0]
	}
	rbf, hck := built("rbf:0.5"), built("hck:average")
	sm, err := svm.Classifier{C: 1, Kernel: kernel.RBF{Gamma: 0.5}}.Fit(ctx, ds.X, y)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := pipeline.New(ds, sc, kernel.Built{Spec: rbf.Spec}, kernel.RuleTree, sm)
	add("svm rbf", p, err)
	for _, c := range []struct {
		name string
		b    kernel.Built
		l    learner.Learner
	}{
		{"svm hck", hck, learner.Adapt("svm", svm.Classifier{C: 1, AllowSingleton: true})},
		{"knn rbf", rbf, learner.Adapt("knn3", knn.Classifier{K: 3})},
		{"lp rbf", rbf, learner.Adapt("lp", propagate.Propagation{})},
		{"s4vm rbf", rbf, learner.Adapt("s4vm", s4vm.S4VM{Seed: 1})},
		{"hibust rbf", rbf, learner.Adapt("hibust", hibust.Classifier{})},
	} {
		m, err := c.l.FitGram(ctx, c.b.K, y)
		if err != nil {
			tb.Fatalf("%s: %v", c.name, err)
		}
		p, err := pipeline.New(ds, sc, c.b, kernel.RuleTree, m)
		add(c.name, p, err)
	}
	aff := propagate.Affinity{Kind: propagate.KNN, K: 5}
	lp, err := propagate.Propagation{Affinity: aff}.Fit(ctx, ds.X, y)
	if err != nil {
		tb.Fatal(err)
	}
	p, err = pipeline.New(ds, sc, kernel.Built{}, "", lp)
	if err == nil {
		p.Affinity = aff.String()
	}
	add("lp knn:5", p, err)

	lm, err := landmark.Choose(ctx, ds.X, 8, landmark.KMeans, 1)
	if err != nil {
		tb.Fatal(err)
	}
	for _, ks := range []string{"rbf:0.5", "hck:average", "isomap:knn:6", "multitype:linstep:0.2:0.5"} {
		spec, err := kernel.ParseSpec(ks)
		if err != nil {
			tb.Fatal(err)
		}
		fm, Z, gamma, err := pipeline.FitMap(ctx, ds.X, spec, lm)
		if err != nil {
			tb.Fatalf("%s: %v", ks, err)
		}
		ls, err := linsvm.Classifier{C: 1, Seed: 1}.Fit(ctx, Z, y)
		if err != nil {
			tb.Fatal(err)
		}
		p, err := pipeline.NewLandmarks(ds, sc, spec, gamma, fm, ls)
		add(ks+" landmarks linsvm", p, err)
		if ks == "rbf:0.5" || ks == "isomap:knn:6" {
			cs, err := svm.Classifier{C: 1, Kernel: kernel.Linear{}}.Fit(ctx, Z, y)
			if err != nil {
				tb.Fatal(err)
			}
			p, err = pipeline.NewLandmarks(ds, sc, spec, gamma, fm, cs)
			add(ks+" landmarks svm", p, err)
			var lab []int
			var yl []int
			for i, c := range y {
				if c >= 0 {
					lab, yl = append(lab, i), append(yl, c)
				}
			}
			Zl := mat.NewDense(len(lab), Z.RawMatrix().Cols, nil)
			for a, i := range lab {
				Zl.SetRow(a, Z.RawRowView(i))
			}
			km, err := knn.Classifier{K: 3}.Fit(ctx, Zl, yl)
			if err != nil {
				tb.Fatal(err)
			}
			p, err = pipeline.NewLandmarks(ds, sc, spec, gamma, fm, km)
			add(ks+" landmarks knn", p, err)
		}
	}
	anchors := mat.NewDense(len(lm), ds.Dim(), nil)
	for r, i := range lm {
		anchors.SetRow(r, ds.X.RawRowView(i))
	}
	am, err := propagate.AnchorGraph{}.Fit(ctx, ds.X, anchors, y)
	if err != nil {
		tb.Fatal(err)
	}
	p, err = pipeline.NewLandmarks(ds, sc, kernel.Spec{}, 0, nil, am)
	add("anchor graph", p, err)
	kg, err := propagate.Spreading{Affinity: aff}.FitKNN(ctx, ds.X, y)
	if err != nil {
		tb.Fatal(err)
	}
	p, err = pipeline.NewLandmarks(ds, sc, kernel.Spec{}, 0, nil, kg)
	add("knn graph", p, err)
	return out, probe
}

// checkLoaded loads file; a load error must name the file, a loaded
// pipeline must label probe (or fail with an error) with labels that are
// classes of the file or unlabelled.
func checkLoaded(t *testing.T, file []byte, probe *mat.Dense) ([]int, error) {
	t.Helper()
	p, err := pipeline.Load(bytes.NewReader(file), "m.arbor")
	if err != nil {
		if !strings.HasPrefix(err.Error(), "m.arbor: ") {
			t.Fatalf("error does not name the file: %v", err)
		}
		return nil, err
	}
	got, err := p.Predict(context.Background(), probe)
	if err != nil {
		return nil, err
	}
	for _, c := range got {
		if c != learner.Unlabeled && (c < 0 || c >= len(p.Classes)) {
			t.Fatalf("label %d of %d classes", c, len(p.Classes))
		}
	}
	return got, nil
}

// TestEveryByteDamaged: in a small pipeline of every kind, changing any
// one byte (XOR 0x01 and 0x80) gives a load error naming the file,
// or a pipeline that labels the probe points exactly as the original.
func TestEveryByteDamaged(t *testing.T) {
	models, probe := smallModels(t)
	for _, sm := range models {
		t.Run(sm.name, func(t *testing.T) {
			got, err := checkLoaded(t, sm.file, probe)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(sm.want) {
				t.Fatalf("undamaged: %v %v, want %v", got, err, sm.want)
			}
			bad := bytes.Clone(sm.file)
			loaded := 0
			for at := range bad {
				for _, x := range []byte{0x01, 0x80} {
					bad[at] ^= x
					got, err := checkLoaded(t, bad, probe)
					bad[at] ^= x
					if err != nil {
						continue
					}
					loaded++
					if fmt.Sprint(got) != fmt.Sprint(sm.want) {
						t.Fatalf("byte %d of %d XOR %#x: loads and labels %v, the original %v", at, len(bad), x, got, sm.want)
					}
				}
			}
			if loaded > 0 {
				t.Logf("%d of %d changed files loaded (and label alike)", loaded, 2*len(bad))
			}
		})
	}
}

// asVersion returns a current-version file as format version v (1 for a
// pipeline without landmarks, 2 with): versions 1 and 2 are version 3
// without the checksum line at the end.
func asVersion(tb testing.TB, file []byte, v int) []byte {
	tb.Helper()
	nl := bytes.IndexByte(file, '\n')
	const trailerLen = len("ARBOR-CRC32C 00000000\n")
	if nl < 0 || len(file) < nl+trailerLen || !bytes.HasPrefix(file[len(file)-trailerLen:], []byte("ARBOR-CRC32C ")) {
		tb.Fatalf("not a version %d file", pipeline.Version)
	}
	out := fmt.Appendf(nil, "%s %d", pipeline.Magic, v)
	return append(out, file[nl:len(file)-trailerLen]...)
}

// TestOlderVersions: every small model written as format version 1 (no
// landmarks) or 2 (landmarks) loads and labels the probe alike, and is
// refused under the other old version.
func TestOlderVersions(t *testing.T) {
	models, probe := smallModels(t)
	for _, sm := range models {
		v, other := 1, 2
		if strings.Contains(sm.name, "landmarks") || strings.Contains(sm.name, "graph") {
			v, other = 2, 1
		}
		got, err := checkLoaded(t, asVersion(t, sm.file, v), probe)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(sm.want) {
			t.Errorf("%s as version %d: %v %v, want %v", sm.name, v, got, err, sm.want)
		}
		if _, err := checkLoaded(t, asVersion(t, sm.file, other), probe); !errors.Is(err, pipeline.ErrTruncated) {
			t.Errorf("%s as version %d: %v, want ErrTruncated", sm.name, other, err)
		}
	}
}

// reseal gives a damaged current-version file the sizes and checksums
// its damaged content would have been written with: the manifest's
// map_bytes (kept when possible), payload_bytes and CRC-32s, and the
// trailing CRC-32C. Fuzzing through it reaches the manifest's field
// checks and the learners' loaders instead of stopping at the checksum.
func reseal(file []byte) []byte {
	head := fmt.Sprintf("%s %d\n", pipeline.Magic, pipeline.Version)
	if !bytes.HasPrefix(file, []byte(head)) {
		return nil
	}
	body := file[len(head):]
	const trailerLen = len("ARBOR-CRC32C 00000000\n")
	if len(body) >= trailerLen && bytes.HasPrefix(body[len(body)-trailerLen:], []byte("ARBOR-CRC32C ")) {
		body = body[:len(body)-trailerLen]
	}
	nl := bytes.IndexByte(body, '\n')
	if nl < 0 {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(body[:nl], &m) != nil || m == nil {
		return nil
	}
	rest := body[nl+1:]
	mb := 0
	if v, ok := m["map_bytes"].(float64); ok && v >= 0 && v <= float64(len(rest)) {
		mb = int(v)
	}
	m["map_bytes"], m["payload_bytes"] = mb, len(rest)-mb
	m["map_crc32"], m["payload_crc32"] = crc32.ChecksumIEEE(rest[:mb]), crc32.ChecksumIEEE(rest[mb:])
	js, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	out := append([]byte(head), js...)
	out = append(out, '\n')
	out = append(out, rest...)
	return fmt.Appendf(out, "ARBOR-CRC32C %08x\n", crc32.Checksum(out, crc32.MakeTable(crc32.Castagnoli)))
}

// intTokens returns the [start, end) offsets of the JSON integers in b
// (digits, maybe a minus sign, after one of ` :[,\n` and before one of
// `,]}\n`): counts, sizes, indices and labels of the manifest and of the
// learners' and maps' documents.
func intTokens(b []byte) [][2]int {
	var out [][2]int
	for i := 1; i < len(b); i++ {
		c := b[i]
		if !(c == '-' || (c >= '0' && c <= '9')) || !strings.ContainsRune(" :[,\n", rune(b[i-1])) {
			continue
		}
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j < len(b) && strings.ContainsRune(",]}\n", rune(b[j])) {
			out = append(out, [2]int{i, j})
		}
		i = j
	}
	return out
}

// TestEveryCountDamaged: in a small pipeline of every kind, each integer
// (a count, size, index or label, in the manifest, the map or the model)
// replaced by 0, −1, 3 or 2⁶² in a file resealed with matching sizes and
// checksums gives a load error naming the file, or a pipeline that labels
// the probe points (or says why not) with labels among its classes:
// never a panic or an allocation from the count.
func TestEveryCountDamaged(t *testing.T) {
	models, probe := smallModels(t)
	for _, sm := range models {
		t.Run(sm.name, func(t *testing.T) {
			for _, tok := range intTokens(sm.file) {
				for _, v := range []string{"0", "-1", "3", "4611686018427387904"} {
					file := append(append(bytes.Clone(sm.file[:tok[0]]), v...), sm.file[tok[1]:]...)
					sealed := reseal(file)
					if sealed == nil {
						continue
					}
					func() {
						defer func() {
							if r := recover(); r != nil {
								t.Fatalf("the number %s at byte %d replaced by %s: panic: %v", sm.file[tok[0]:tok[1]], tok[0], v, r)
							}
						}()
						checkLoaded(t, sealed, probe)
					}()
				}
			}
		})
	}
}

// FuzzLoad: any file is a load error naming the file or a pipeline that
// labels new points (or says why not) with labels among its classes; the
// same holds for the file resealed with matching sizes and checksums.
// The seeds are small real models of every kind and the version 1 and 2
// fixtures.
func FuzzLoad(f *testing.F) {
	models, probe := smallModels(f)
	for _, sm := range models {
		f.Add(sm.file)
	}
	for _, name := range []string{"testdata/iris_rbf_svm_v1.arbor", "testdata/iris_hck_linsvm_v2.arbor"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":1099511627776}\n"))
	f.Fuzz(func(t *testing.T, file []byte) {
		checkLoaded(t, file, probe)
		if sealed := reseal(file); sealed != nil {
			checkLoaded(t, sealed, probe)
		}
	})
}

// TestLoadSizes: size fields larger than the file, negative, or
// disagreeing with it are errors naming the field; nothing is allocated
// from them.
func TestLoadSizes(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":1099511627776}\n", `"payload_bytes": 1099511627776, but only 0 bytes`},
		{"ARBOR-PIPELINE 2\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"map_bytes\":9223372036854775807}\nxyz", `"map_bytes": 9223372036854775807, but only 3 bytes`},
		{"ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":-1}\n", `"payload_bytes": -1 is negative`},
		{"ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":1}\nab", `1 bytes after the model`},
		{"ARBOR-PIPELINE 1\n{\"features\":[\"x1\"],\"classes\":[\"a\"],\"payload_bytes\":1e400}\n", `manifest: json: cannot unmarshal number`},
	} {
		_, err := pipeline.Load(strings.NewReader(c.file), "big.arbor")
		if !errors.Is(err, pipeline.ErrTruncated) || !strings.HasPrefix(err.Error(), "big.arbor: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want ErrTruncated naming big.arbor and %q", c.file, err, c.want)
		}
	}
}

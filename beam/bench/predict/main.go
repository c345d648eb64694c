// Command predict compares arbor-beam predict on prism with arbor predict
// on the same files: the labels row for row by ID, and the CPU seconds
// (user + system) of both, measured in one run, side by side.
//
//	go build -o /tmp/arbor ../cmd/arbor && (cd beam && go build -o /tmp/arbor-beam ./cmd/arbor-beam)
//	go run ./bench/predict --arbor /tmp/arbor --arbor-beam /tmp/arbor-beam --rows 1000000 --files 4
//
// (from beam/). It writes the training file, the files of new points and
// the models to --dir, fits an exact SVM, a landmark hck + SVM and an
// anchor-graph model with arbor classify --save-model (--models chooses
// among svm, hck and anchor), then for each model runs arbor predict on
// every file and arbor-beam predict on all of them at once (byte ranges
// of --split-bytes, --shards parts in --format csv or parquet). With
// --old, a second arbor-beam build runs the same job beside it, the two
// alternated --repeat times each, and both are checked and timed.
package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/beam/arborbeam"
	"github.com/arbor-ml/arbor/dataset"
)

func main() {
	arbor := flag.String("arbor", "arbor", "the arbor command")
	arborBeam := flag.String("arbor-beam", "arbor-beam", "the arbor-beam command")
	rows := flag.Int("rows", 1000000, "rows of new points in all")
	files := flag.Int("files", 4, "files of new points")
	train := flag.Int("train", 2000, "training rows")
	split := flag.Int64("split-bytes", 8<<20, "arbor-beam --split-bytes")
	dir := flag.String("dir", "", "working directory (default: a new temporary one, removed at the end)")
	format := flag.String("format", "csv", "arbor-beam --format: csv or parquet")
	shards := flag.Int("shards", 4, "arbor-beam --shards")
	models := flag.String("models", "svm,hck,anchor", "models to time, comma-separated: svm (exact rbf SVM), hck (landmark hck + SVM), anchor (anchor graph)")
	old := flag.String("old", "", "another arbor-beam build to run beside --arbor-beam on the same job")
	repeat := flag.Int("repeat", 1, "runs of each arbor-beam build, alternated")
	flag.Parse()
	b := beamRuns{format: *format, shards: *shards, split: *split, builds: []string{*arborBeam}, repeat: max(*repeat, 1)}
	if *old != "" {
		b.builds = []string{*old, *arborBeam}
	}
	if err := run(*arbor, b, *rows, *files, *train, *dir, strings.Split(*models, ",")); err != nil {
		fmt.Fprintln(os.Stderr, "bench/predict:", err)
		os.Exit(1)
	}
}

// point is a deterministic point of three overlapping classes in 4-D.
func point(i int) []float64 {
	c := float64(i % 3)
	v := make([]float64, 4)
	for j := range v {
		v[j] = c*1.2 + 1.5*math.Sin(float64(i*(j+3))*0.7+float64(j))
	}
	return v
}

func writeFile(path string, fill func(w *bufio.Writer)) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill(w)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// cpu runs a command and returns its CPU seconds (user + system).
func cpu(name string, args ...string) (float64, error) {
	cmd := exec.Command(name, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	st := cmd.ProcessState
	return (st.UserTime() + st.SystemTime()).Seconds(), nil
}

// labels reads id → label from CSV files whose columns include id and label.
func labels(paths []string, idCol, labelCol string, into map[string]string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
		r.ReuseRecord = true
		head, err := r.Read()
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", p, err)
		}
		ic, lc := -1, -1
		for j, h := range head {
			switch h {
			case idCol:
				ic = j
			case labelCol:
				lc = j
			}
		}
		if ic < 0 || lc < 0 {
			f.Close()
			return fmt.Errorf("%s: no %s or %s column in %v", p, idCol, labelCol, head)
		}
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				return fmt.Errorf("%s: %w", p, err)
			}
			into[rec[ic]] = rec[lc]
		}
		f.Close()
	}
	return nil
}

// parquetLabels reads id → label from Parquet part files.
func parquetLabels(paths []string, idCol, labelCol string, into map[string]string) error {
	ctx := context.Background()
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		groups, err := arborbeam.ParquetRowGroups(ctx, p, st.Size(), dataset.CSVOptions{}, nil)
		if err != nil {
			return err
		}
		for _, g := range groups {
			ic, lc := slices.Index(g.Header, idCol), slices.Index(g.Header, labelCol)
			if ic < 0 || lc < 0 {
				return fmt.Errorf("%s: no %s or %s column in %v", p, idCol, labelCol, g.Header)
			}
			r, c, err := arborbeam.OpenParquet(ctx, g)
			if err != nil {
				return err
			}
			err = arborbeam.ParquetText(ctx, r, g, 1<<16, func(lines []byte, _ int64) error {
				cr := csv.NewReader(strings.NewReader(string(lines)))
				cr.ReuseRecord = true
				for {
					rec, err := cr.Read()
					if err == io.EOF {
						return nil
					}
					if err != nil {
						return err
					}
					into[rec[ic]] = rec[lc]
				}
			})
			c.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", p, err)
			}
		}
	}
	return nil
}

// beamRuns says how arbor-beam predict runs: its flags, and the builds
// to run alternately (the first is --old when given).
type beamRuns struct {
	format string
	shards int
	split  int64
	builds []string
	repeat int
}

// beamRun is the time of one arbor-beam run and whether its labels are
// arbor predict's.
type beamRun struct {
	cpu, wall float64
	verdict   string
}

// run1 runs build on the files of inDir and checks its labels against want.
func (b beamRuns) run1(build, model, inDir, out string, want map[string]string) (beamRun, error) {
	start := time.Now()
	c, err := cpu(build, "predict", "--model", model, "--data", filepath.Join(inDir, "*.csv"), "--out", out,
		"--split-bytes", fmt.Sprint(b.split), "--shards", fmt.Sprint(b.shards), "--format", b.format)
	if err != nil {
		return beamRun{}, err
	}
	wall := time.Since(start).Seconds()
	got := map[string]string{}
	parts, _ := filepath.Glob(filepath.Join(out, "part-*."+b.format))
	if b.format == "parquet" {
		err = parquetLabels(parts, "name", "label", got)
	} else {
		err = labels(parts, "name", "label", got)
	}
	if err != nil {
		return beamRun{}, err
	}
	same := len(got) == len(want)
	for id, l := range want {
		if got[id] != l {
			same = false
			break
		}
	}
	verdict := "equal by ID"
	if !same {
		verdict = fmt.Sprintf("DIFFER (%d vs %d rows)", len(got), len(want))
	}
	os.RemoveAll(out)
	return beamRun{cpu: c, wall: wall, verdict: verdict}, nil
}

func run(arbor string, b beamRuns, rows, files, train int, dir string, models []string) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "bench-predict")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	trainCSV := filepath.Join(dir, "train.csv")
	if err := writeFile(trainCSV, func(w *bufio.Writer) {
		w.WriteString("name,f1,f2,f3,f4,label\n")
		for i := 0; i < train; i++ {
			v := point(i)
			fmt.Fprintf(w, "t%d,%.4f,%.4f,%.4f,%.4f,c%d\n", i, v[0], v[1], v[2], v[3], i%3)
		}
	}); err != nil {
		return err
	}
	inDir := filepath.Join(dir, "in")
	os.MkdirAll(inDir, 0o755)
	var inputs []string
	for f := 0; f < files; f++ {
		path := filepath.Join(inDir, fmt.Sprintf("part%d.csv", f))
		inputs = append(inputs, path)
		if err := writeFile(path, func(w *bufio.Writer) {
			w.WriteString("name,f1,f2,f3,f4\n")
			for i := f; i < rows; i += files {
				v := point(train + i)
				fmt.Fprintf(w, "n%d,%.4f,%.4f,%.4f,%.4f\n", i, v[0], v[1], v[2], v[3])
			}
		}); err != nil {
			return err
		}
	}
	fmt.Printf("%d rows in %d files, %d training rows, arbor-beam on prism with --split-bytes %d --shards %d --format %s\n", rows, files, train, b.split, b.shards, b.format)
	if len(b.builds) == 2 {
		fmt.Printf("old: %s, new: %s, alternated, %d runs each\n", b.builds[0], b.builds[1], b.repeat)
	}
	for _, m := range []struct {
		key, name string
		args      []string
	}{
		{"svm", "svm rbf exact", []string{"--kernel", "rbf:0.5", "--learner", "svm"}},
		{"hck", "hck+svm landmarks", []string{"--kernel", "hck:average", "--learner", "svm", "--landmarks", "200", "--seed", "3"}},
		{"anchor", "anchor graph", []string{"--learner", "lp", "--affinity", "rbf:2", "--landmarks", "200", "--seed", "3"}},
	} {
		if !slices.Contains(models, m.key) {
			continue
		}
		model := filepath.Join(dir, "m.arbor")
		os.Remove(model)
		args := append([]string{"classify", "--data", trainCSV, "--id", "name", "--save-model", model, "--quiet", "--out", filepath.Join(dir, "c.csv")}, m.args...)
		if _, err := cpu(arbor, args...); err != nil {
			return err
		}
		var arborCPU float64
		var outs []string
		for k, in := range inputs {
			out := filepath.Join(dir, fmt.Sprintf("arbor%d.csv", k))
			c, err := cpu(arbor, "predict", "--model", model, "--data", in, "--out", out, "--quiet")
			if err != nil {
				return err
			}
			arborCPU += c
			outs = append(outs, out)
		}
		want := map[string]string{}
		if err := labels(outs, "name", "label", want); err != nil {
			return err
		}
		if len(want) != rows {
			return fmt.Errorf("arbor predict labelled %d rows, want %d", len(want), rows)
		}
		runs := make([][]beamRun, len(b.builds))
		for r := 0; r < b.repeat; r++ {
			for k, build := range b.builds {
				out := filepath.Join(dir, fmt.Sprintf("beam-%s-%d", m.key, k))
				br, err := b.run1(build, model, inDir, out, want)
				if err != nil {
					return err
				}
				runs[k] = append(runs[k], br)
			}
		}
		fmt.Printf("%s: arbor predict %.1f CPU s\n", m.name, arborCPU)
		fmt.Printf("  %-5s %3s %10s %8s %12s %s\n", "build", "run", "CPU s", "wall s", "CPU / arbor", "labels")
		for r := 0; r < b.repeat; r++ {
			for k := range b.builds {
				name := "new"
				if len(b.builds) == 2 && k == 0 {
					name = "old"
				}
				br := runs[k][r]
				fmt.Printf("  %-5s %3d %10.1f %8.1f %12.2f %s\n", name, r+1, br.cpu, br.wall, br.cpu/arborCPU, br.verdict)
			}
		}
		if len(b.builds) == 2 {
			var oc, nc, ow, nw float64
			for r := 0; r < b.repeat; r++ {
				oc, ow = oc+runs[0][r].cpu, ow+runs[0][r].wall
				nc, nw = nc+runs[1][r].cpu, nw+runs[1][r].wall
			}
			fmt.Printf("  new / old: CPU %.2f, wall %.2f (sums over the runs)\n", nc/oc, nw/ow)
		}
	}
	return nil
}

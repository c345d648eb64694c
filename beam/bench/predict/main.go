// Command predict compares arbor-beam predict on prism with arbor predict
// on the same files: the labels row for row by ID, and the CPU seconds
// (user + system) of both, measured in one run, side by side.
//
//	go build -o /tmp/arbor ../cmd/arbor && (cd beam && go build -o /tmp/arbor-beam ./cmd/arbor-beam)
//	go run ./bench/predict --arbor /tmp/arbor --arbor-beam /tmp/arbor-beam --rows 1000000 --files 4
//
// (from beam/). It writes the training file, the files of new points and
// the models to --dir, fits an exact SVM, a landmark hck + SVM and an
// anchor-graph model with arbor classify --save-model, then for each
// model runs arbor predict on every file and arbor-beam predict on all of
// them at once (byte ranges of --split-bytes).
package main

import (
	"bufio"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	arbor := flag.String("arbor", "arbor", "the arbor command")
	arborBeam := flag.String("arbor-beam", "arbor-beam", "the arbor-beam command")
	rows := flag.Int("rows", 1000000, "rows of new points in all")
	files := flag.Int("files", 4, "files of new points")
	train := flag.Int("train", 2000, "training rows")
	split := flag.Int64("split-bytes", 8<<20, "arbor-beam --split-bytes")
	dir := flag.String("dir", "", "working directory (default: a new temporary one, removed at the end)")
	flag.Parse()
	if err := run(*arbor, *arborBeam, *rows, *files, *train, *split, *dir); err != nil {
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

func run(arbor, arborBeam string, rows, files, train int, split int64, dir string) error {
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
	fmt.Printf("%d rows in %d files, %d training rows, arbor-beam on prism with --split-bytes %d\n", rows, files, train, split)
	fmt.Printf("%-18s %12s %12s %8s %s\n", "model", "arbor CPU s", "beam CPU s", "ratio", "labels")
	for _, m := range []struct {
		name string
		args []string
	}{
		{"svm rbf exact", []string{"--kernel", "rbf:0.5", "--learner", "svm"}},
		{"hck+svm landmarks", []string{"--kernel", "hck:average", "--learner", "svm", "--landmarks", "200", "--seed", "3"}},
		{"anchor graph", []string{"--learner", "lp", "--affinity", "rbf:2", "--landmarks", "200", "--seed", "3"}},
	} {
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
		beamOut := filepath.Join(dir, "beam-"+strings.ReplaceAll(m.name, " ", "-"))
		start := time.Now()
		beamCPU, err := cpu(arborBeam, "predict", "--model", model, "--data", filepath.Join(inDir, "*.csv"), "--out", beamOut,
			"--split-bytes", fmt.Sprint(split), "--shards", "4")
		if err != nil {
			return err
		}
		wall := time.Since(start)
		want, got := map[string]string{}, map[string]string{}
		if err := labels(outs, "name", "label", want); err != nil {
			return err
		}
		parts, _ := filepath.Glob(filepath.Join(beamOut, "part-*.csv"))
		if err := labels(parts, "name", "label", got); err != nil {
			return err
		}
		same := len(want) == rows && len(got) == len(want)
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
		fmt.Printf("%-18s %12.1f %12.1f %8.2f %s (beam wall %.0fs)\n", m.name, arborCPU, beamCPU, beamCPU/arborCPU, verdict, wall.Seconds())
		os.RemoveAll(beamOut)
	}
	return nil
}

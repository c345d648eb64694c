package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"
)

// writeCSV writes the generated data as CSV: x1..xd, truth (the class of
// every row, to be --ignore'd), label (the class of the labelled rows, an
// empty cell for the others).
func writeCSV(path string, X *mat.Dense, truth, y []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	n, d := X.Dims()
	for j := 0; j < d; j++ {
		fmt.Fprintf(w, "x%d,", j+1)
	}
	w.WriteString("truth,label\n")
	var buf []byte
	for i := 0; i < n; i++ {
		buf = buf[:0]
		for _, v := range X.RawRowView(i) {
			buf = strconv.AppendFloat(buf, v, 'f', 6, 64)
			buf = append(buf, ',')
		}
		buf = strconv.AppendInt(buf, int64(truth[i]), 10)
		buf = append(buf, ',')
		if y[i] >= 0 {
			buf = strconv.AppendInt(buf, int64(y[i]), 10)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// measured is one whole process under /usr/bin/time -v.
type measured struct {
	wall, user, sys float64 // seconds
	maxRSS          int64   // KiB
	stderr          string
}

// timeRun runs argv under /usr/bin/time -v (with nice -n niceness when
// niceness > 0) and parses its report.
func timeRun(niceness int, argv ...string) (measured, error) {
	var args []string
	if niceness > 0 {
		args = append(args, "nice", "-n", strconv.Itoa(niceness))
	}
	args = append(args, argv...)
	cmd := exec.Command("/usr/bin/time", append([]string{"-v"}, args...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Stdout = io.Discard
	start := time.Now()
	err := cmd.Run()
	m := measured{wall: time.Since(start).Seconds(), stderr: errb.String()}
	for _, l := range strings.Split(errb.String(), "\n") {
		l = strings.TrimSpace(l)
		num := func(prefix string) (float64, bool) {
			if !strings.HasPrefix(l, prefix) {
				return 0, false
			}
			v, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimPrefix(l, prefix)), 64)
			return v, err == nil
		}
		if v, ok := num("User time (seconds):"); ok {
			m.user = v
		}
		if v, ok := num("System time (seconds):"); ok {
			m.sys = v
		}
		if v, ok := num("Maximum resident set size (kbytes):"); ok {
			m.maxRSS = int64(v)
		}
	}
	if err != nil {
		return m, fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, errb.String())
	}
	return m, nil
}

// predAccuracy reads arbor's predictions (set,row,label,given) and returns
// the accuracy on the rows not given, against truth.
func predAccuracy(path string, truth []int) (float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	r := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		return 0, err
	}
	col := map[string]int{}
	for i, h := range head {
		col[h] = i
	}
	ok, tot, rows := 0, 0, 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		i, err := strconv.Atoi(rec[col["row"]])
		if err != nil || i < 0 || i >= len(truth) {
			return 0, fmt.Errorf("%s: bad row %q", path, rec[col["row"]])
		}
		rows++
		if rec[col["given"]] == "1" {
			continue
		}
		tot++
		if rec[col["label"]] == strconv.Itoa(truth[i]) {
			ok++
		}
	}
	if rows != len(truth) {
		return 0, fmt.Errorf("%s: %d rows, want %d", path, rows, len(truth))
	}
	return 100 * float64(ok) / float64(tot), nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// runCLI is the whole-process check: the data written as CSV, then
// arbor classify with the landmark HCK + linear SVM, with anchor-graph
// label propagation and with label spreading (knn:10: the kNN graph of all
// rows), those of only (comma-separated learners), each under
// /usr/bin/time -v.
func runCLI(bin, dir string, m int, seed uint64, niceness int, only string, X *mat.Dense, truth, y []int) error {
	data := filepath.Join(dir, "million.csv")
	if _, err := os.Stat(data); err != nil {
		t0 := time.Now()
		if err := writeCSV(data, X, truth, y); err != nil {
			return err
		}
		fmt.Printf("wrote %s in %.1f s\n", data, time.Since(t0).Seconds())
	} else {
		fmt.Printf("using the existing %s (delete it to regenerate)\n", data)
	}
	common := []string{"classify", "--data", data, "--label", "label", "--ignore", "truth",
		"--landmarks", strconv.Itoa(m), "--seed", strconv.FormatUint(seed, 10)}
	runs := []struct{ name, kernel, learner string }{
		{"landmark hck:average + linear SVM", "hck:average", "svm"},
		{"anchor-graph label propagation", "", "lp"},
		{"spreading, kNN graph of all rows", "", "spreading"},
	}
	fmt.Printf("%-36s %9s %9s %9s %9s %10s %9s  %s\n", "arbor classify --landmarks", "wall s", "user s", "sys s", "CPU s", "peak RSS", "accuracy", "load before → after")
	for _, r := range runs {
		if !slices.Contains(strings.Split(only, ","), r.learner) {
			continue
		}
		out := filepath.Join(dir, "pred-"+r.learner+".csv")
		args := append([]string{bin}, common...)
		if r.kernel != "" {
			args = append(args, "--kernel", r.kernel)
		}
		args = append(args, "--learner", r.learner, "--out", out)
		before := loadavg()
		res, err := timeRun(niceness, args...)
		if err != nil {
			return err
		}
		a, err := predAccuracy(out, truth)
		if err != nil {
			return err
		}
		fmt.Printf("%-36s %9.1f %9.1f %9.1f %9.1f %7.2f GiB %8.2f%%  %s → %s\n", r.name, res.wall, res.user, res.sys, res.user+res.sys,
			float64(res.maxRSS)/(1<<20), a, before, loadavg())
		fmt.Printf("    %s\n", strings.Join(args, " "))
	}
	return nil
}

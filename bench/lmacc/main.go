// Command lmacc compares every kernel × learner of arbor with landmarks
// (arbor eval --landmarks M) against the exact version on one data set, on
// UCI letter and satellite (the landmark versions' accuracy should be
// within 1 point of the exact versions where the exact version fits in
// memory), and prints one table.
//
// Protocol: the data's first -train rows are the training part (letter:
// 16,000; satellite: 4,435 = UCI sat.trn, the rest sat.tst); -per-class
// rows of each class are drawn from it (seeded PCG, -seed) and labelled;
// every other row (the rest of the training part and the whole test part)
// is unlabelled and scored, as arbor eval scores (transductive accuracy on
// the unlabelled rows). The same split file goes to the exact and the
// landmark run. Each kernel is one arbor eval process per mode, so the
// kernel (or the landmark features) is built once for all its learners.
//
// The data come from R's mlbench (bench/lmacc/export.R). Usage, from the
// repository root:
//
//	Rscript bench/lmacc/export.R /tmp/lmacc
//	go build -o /tmp/arbor ./cmd/arbor
//	nice -n 10 go run ./bench/lmacc -arbor /tmp/arbor -data /tmp/lmacc/satellite.csv -train 4435
//	nice -n 10 go run ./bench/lmacc -arbor /tmp/arbor -data /tmp/lmacc/letter.csv -train 16000 -exact-skip isomap
//
// Times are whole arbor eval processes (wall and user+sys CPU), one process
// per kernel and mode, shared by that kernel's learners.
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "lmacc:", err)
		os.Exit(1)
	}
}

type result struct {
	Learner  string  `json:"learner"`
	Kernel   string  `json:"kernel"`
	Accuracy float64 `json:"accuracy"`
	Total    int     `json:"total"`
	FitS     float64 `json:"fit_s"`
	KernelS  float64 `json:"kernel_s"`
}

type proc struct {
	Res       []result
	Wall, CPU float64
	Err       string
}

func run() error {
	arbor := flag.String("arbor", "", "arbor binary (default: go build ./cmd/arbor into a temporary directory)")
	data := flag.String("data", "", "CSV with a label column (bench/lmacc/export.R)")
	train := flag.Int("train", 0, "rows of the training part (the labelled rows are drawn from the first TRAIN rows); 0 = all")
	perClass := flag.Int("per-class", 100, "labelled rows per class")
	seed := flag.Uint64("seed", 0, "seed of the labelled draw and of the landmarks")
	m := flag.Int("m", 2000, "landmarks")
	method := flag.String("method", "kmeans", "landmark method: kmeans or random")
	kernels := flag.String("kernels", "linear,poly,rbf,laplacian,exponential,hck:single,hck:complete,hck:average,hck:weighted,hck:ward,hckg:single:knn:7,hckg:average:knn:7,connectivity,isomap,multitype:linstep:0.1:0.1", "kernels, comma-separated (specs without commas)")
	learners := flag.String("learners", "svm,knn", "learners run on every kernel")
	kernelFree := flag.String("kernel-free", "lp,spreading", "learners that use no kernel (exact: their own graph; landmarks: the anchor graph), one row each")
	exactSkip := flag.String("exact-skip", "", "kernels whose exact version is not run (does not fit, or takes hours), comma-separated")
	lmSkip := flag.String("landmark-skip", "", "kernels whose landmark version is not run")
	modes := flag.String("modes", "both", "exact, landmarks, both or cached (none): which runs are made (the others come from the caches only)")
	timeout := flag.Duration("timeout", 40*time.Minute, "limit per arbor process")
	extra := flag.String("args", "", "extra arguments for every arbor eval, space-separated")
	cachePath := flag.String("exact-cache", "", "JSON file of exact results: read if present, written after each exact run (the exact runs do not change when only the landmark code does)")
	lmCachePath := flag.String("landmark-cache", "", "JSON file of landmark results, as -exact-cache (clear it when the landmark code changes)")
	flag.Parse()
	if *data == "" {
		return fmt.Errorf("-data is required")
	}
	dir, err := os.MkdirTemp("", "lmacc")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if *arbor == "" {
		*arbor = filepath.Join(dir, "arbor")
		cmd := exec.Command("go", "build", "-o", *arbor, "./cmd/arbor")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("go build: %w", err)
		}
	}
	y, d, err := readLabels(*data)
	if err != nil {
		return err
	}
	if *train == 0 || *train > len(y) {
		*train = len(y)
	}
	split := drawSplit(y[:*train], *perClass, *seed)
	splits := filepath.Join(dir, "split.csv")
	var sb strings.Builder
	for i, r := range split {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(strconv.Itoa(r))
	}
	sb.WriteByte('\n')
	if err := os.WriteFile(splits, []byte(sb.String()), 0o644); err != nil {
		return err
	}
	skipE, skipL := set(*exactSkip), set(*lmSkip)
	base := []string{"eval", "--data", *data, "--splits", splits, "--seed", strconv.FormatUint(*seed, 10), "--json", "--quiet"}
	base = append(base, strings.Fields(*extra)...)
	lmArgs := []string{"--landmarks", strconv.Itoa(*m), "--landmark-method", *method}
	load, _ := os.ReadFile("/proc/loadavg")
	fmt.Printf("data %s: %d rows, training part %d, %d labelled (%d per class, seed %d); accuracy on the %d other rows\n",
		*data, len(y), *train, len(split), *perClass, *seed, len(y)-len(split))
	fmt.Printf("landmarks M = %d (%s, seed %d); load at start %s", *m, *method, *seed, load)
	fmt.Printf("%-22s %-12s %8s %8s %7s %9s %9s %9s %9s\n", "kernel", "learner", "exact", "M="+strconv.Itoa(*m), "diff", "exact s", "lm s", "exact cpu", "lm cpu")
	row := func(kernel, learner string, ex, lm *proc, exR, lmR *result) {
		acc := func(p *proc, r *result) string {
			switch {
			case p == nil:
				return "skip"
			case p.Err != "":
				return "fail"
			case r == nil:
				return "n/a"
			}
			return fmt.Sprintf("%.2f", 100*r.Accuracy)
		}
		secs := func(p *proc, r *result) string {
			if p == nil || p.Err != "" || r == nil {
				return "-"
			}
			return fmt.Sprintf("%.1f", r.KernelS+r.FitS)
		}
		cpu := func(p *proc) string {
			if p == nil {
				return "-"
			}
			return fmt.Sprintf("%.1f", p.CPU)
		}
		diff := "-"
		if exR != nil && lmR != nil && ex.Err == "" && lm.Err == "" {
			diff = fmt.Sprintf("%+.2f", 100*(lmR.Accuracy-exR.Accuracy))
		}
		fmt.Printf("%-22s %-12s %8s %8s %7s %9s %9s %9s %9s\n", kernel, learner, acc(ex, exR), acc(lm, lmR), diff, secs(ex, exR), secs(lm, lmR), cpu(ex), cpu(lm))
	}
	var notes []string
	note := func(kernel, mode string, p *proc) {
		if p != nil && p.Err != "" {
			notes = append(notes, fmt.Sprintf("%s %s: %s", kernel, mode, p.Err))
		}
	}
	ctx := context.Background()
	// cached runs arbor once, or takes the result from the cache file path
	// (keyed by the data, the labelled rows and the arguments); with
	// onlyCached it runs nothing.
	type cacheFile struct {
		path string
		m    map[string]*proc
	}
	loadCache := func(path string) (*cacheFile, error) {
		c := &cacheFile{path: path, m: map[string]*proc{}}
		if path == "" {
			return c, nil
		}
		if b, err := os.ReadFile(path); err == nil {
			if err := json.Unmarshal(b, &c.m); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		return c, nil
	}
	exactCache, err := loadCache(*cachePath)
	if err != nil {
		return err
	}
	lmCache, err := loadCache(*lmCachePath)
	if err != nil {
		return err
	}
	cached := func(c *cacheFile, args []string, onlyCached bool) *proc {
		key := fmt.Sprintf("%s|%s|%d|%s", *data, sb.String()[:min(len(sb.String()), 64)], len(split), strings.Join(args[len(base):], " "))
		if p, ok := c.m[key]; ok && p.Err == "" {
			fmt.Fprintf(os.Stderr, "cached: %s\n", key)
			return p
		}
		if onlyCached {
			return nil
		}
		p := runArbor(ctx, *timeout, *arbor, args)
		c.m[key] = p
		if c.path != "" {
			b, _ := json.MarshalIndent(c.m, "", " ")
			if err := os.WriteFile(c.path+".tmp", b, 0o644); err == nil {
				os.Rename(c.path+".tmp", c.path)
			}
		}
		return p
	}
	exact := func(args []string) *proc {
		return cached(exactCache, args, *modes == "landmarks" || *modes == "cached")
	}
	landmarks := func(args []string) *proc {
		return cached(lmCache, append(args, lmArgs...), *modes == "exact" || *modes == "cached")
	}
	for _, k := range strings.Split(*kernels, ",") {
		if k == "laplacian" || k == "exponential" {
			k += ":" + strconv.FormatFloat(1/float64(d), 'g', 6, 64) // scikit-learn's default gamma = 1/d
		}
		args := append(append([]string(nil), base...), "--kernel", k, "--learner", *learners)
		var ex, lm *proc
		if !skipE[k] {
			ex = exact(args)
		}
		if !skipL[k] {
			lm = landmarks(args)
		}
		note(k, "exact", ex)
		note(k, "landmarks", lm)
		for _, l := range strings.Split(*learners, ",") {
			row(k, l, ex, lm, find(ex, l), find(lm, l))
		}
	}

	for _, l := range strings.Split(*kernelFree, ",") {
		if l == "" {
			continue
		}
		args := append(append([]string(nil), base...), "--learner", l)
		ex := exact(args)
		lm := landmarks(args)
		note(l, "exact", ex)
		note(l, "landmarks", lm)
		row("(graph)", l, ex, lm, find(ex, l), find(lm, l))
	}
	for _, n := range notes {
		fmt.Println("note:", n)
	}
	load, _ = os.ReadFile("/proc/loadavg")
	fmt.Printf("load at end %s", load)
	return nil
}

// find returns the result of learner l ("knn" matches "knn1" and
// "knn k=1 (on Z)").
func find(p *proc, l string) *result {
	if p == nil {
		return nil
	}
	for i := range p.Res {
		if strings.HasPrefix(p.Res[i].Learner, l) {
			return &p.Res[i]
		}
	}
	return nil
}

func runArbor(ctx context.Context, limit time.Duration, bin string, args []string) *proc {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	p := &proc{Wall: time.Since(t0).Seconds()}
	if cmd.ProcessState != nil {
		p.CPU = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	fmt.Fprintf(os.Stderr, "%s (%.1f s wall, %.1f s cpu)\n", strings.Join(args, " "), p.Wall, p.CPU)
	if err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if ctx.Err() != nil {
			msg = fmt.Sprintf("stopped after %v", limit)
		}
		p.Err = msg
		return p
	}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		var r result
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			p.Err = "bad JSON: " + sc.Text()
			return p
		}
		p.Res = append(p.Res, r)
	}
	return p
}

func set(list string) map[string]bool {
	s := map[string]bool{}
	for _, v := range strings.Split(list, ",") {
		if v != "" {
			s[v] = true
		}
	}
	return s
}

// readLabels reads the last column (label) of a CSV with a header.
// It also returns the number of feature columns (the others).
func readLabels(path string) ([]int, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	var y []int
	line, d := 0, 0
	for sc.Scan() {
		line++
		t := sc.Text()
		if line == 1 {
			d = strings.Count(t, ",")
			continue
		}
		v, err := strconv.Atoi(t[strings.LastIndexByte(t, ',')+1:])
		if err != nil {
			return nil, 0, fmt.Errorf("%s:%d: label: %w", path, line, err)
		}
		y = append(y, v)
	}
	return y, d, sc.Err()
}

// drawSplit returns per rows of every class of y (all when fewer), drawn
// without replacement by a PCG seeded with seed, ascending.
func drawSplit(y []int, per int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x6c6d616363))
	byClass := map[int][]int{}
	var classes []int
	for i, c := range y {
		if _, ok := byClass[c]; !ok {
			classes = append(classes, c)
		}
		byClass[c] = append(byClass[c], i)
	}
	sort.Ints(classes)
	var out []int
	for _, c := range classes {
		rows := byClass[c]
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		out = append(out, rows[:min(per, len(rows))]...)
	}
	sort.Ints(out)
	return out
}

// Command treelets reproduces paper 004's (kernel treelets) Figure 1 /
// Table 1 (six toy sets: KT with RBF, linear and polynomial kernels on a
// sample of 1000, beside Arbor's agglomerative clusterers and
// scikit-learn's), Table 2 (sample sizes 50…1500 with times) and the speed
// comparisons, side by side with the authors' code.
//
//	go build -o /tmp/tl/arbor ./cmd/arbor
//	go run ./bench/treelets -out /tmp/tl/bench \
//	    -arbor /tmp/tl/arbor -peer /tmp/kt-src -peers bench/peers/peers.py
//
// It prints Markdown tables and writes toys.png (the grid picture).
// -peer is a checkout of github.com/hedixia/kernel_treelets (run through
// bench/treelets/peer_time.py); -peers is the reference pipeline
// (bench/peers/peers.py). Either may be empty to skip the peer columns.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"image/color"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/hclust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/metrics"
	"github.com/arbor-ml/arbor/treelets"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var toys = []string{"noisy_circles", "noisy_moons", "blobs", "aniso", "varied", "no_structure"}

// method is one column of Figure 1.
type method struct {
	name string
	run  func(ctx context.Context, X *mat.Dense, k int) ([]int, error)
}

func kt(k kernel.Kernel, m int) func(ctx context.Context, X *mat.Dense, K int) ([]int, error) {
	return func(ctx context.Context, X *mat.Dense, K int) ([]int, error) {
		r, err := treelets.Sample{M: m, Seed: 1, Clusters: K}.Fit(ctx, kernel.Points{K: k, X: X})
		if err != nil {
			return nil, err
		}
		return r.Labels, nil
	}
}

func agglo(meth hclust.Method) func(ctx context.Context, X *mat.Dense, K int) ([]int, error) {
	return func(ctx context.Context, X *mat.Dense, K int) ([]int, error) {
		t, err := hclust.FromPoints(ctx, X, meth)
		if err != nil {
			return nil, err
		}
		return t.CutK(K)
	}
}

func main() {
	data := flag.String("data", "dataset/data", "directory of the data sets (NAME.csv.gz or NAME.csv)")
	edges := flag.String("edges", "examples/facebook_edges.txt", "the Facebook graph's edge list")
	out := flag.String("out", "/tmp/tl/bench", "directory for pictures")
	arborBin := flag.String("arbor", "", "arbor binary for the whole-process timings (empty: skip)")
	peer := flag.String("peer", "", "checkout of hedixia/kernel_treelets (empty: skip the authors' timings)")
	peers := flag.String("peers", "", "path of peers.py (empty: skip scikit-learn's columns)")
	sklearn := flag.String("sklearn", "bench/treelets/testdata/sklearn_labels.csv.gz", "scikit-learn's labels on the toy sets (made by bench/treelets/sklearn_labels.py; empty: skip the ARI between Arbor's and scikit-learn's labels)")
	gamma := flag.Float64("gamma", 20, "RBF gamma on z-scored toy data")
	big := flag.Int("big", 10000, "n of the large full-kernel run (0: skip)")
	skipTables := flag.Bool("speed-only", false, "only the speed section")
	reps := flag.Int("reps", 5, "whole-process runs of each timed command")
	flag.Parse()
	ctx := context.Background()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("GOMAXPROCS %d, %s\n\n", runtime.GOMAXPROCS(0), time.Now().UTC().Format(time.RFC3339))
	if !*skipTables {
		figure1(ctx, *data, *out, *gamma, *peers, *sklearn)
		table2(ctx, *data, *gamma)
	}
	speed(ctx, *data, *edges, *arborBin, *peer, *gamma, *big, *reps)
}

// dataFile is the file of data set name in dir: NAME.csv.gz when present
// (the sets embedded in dataset/data), else NAME.csv.
func dataFile(dir, name string) string {
	if p := filepath.Join(dir, name+".csv.gz"); fileExists(p) {
		return p
	}
	return filepath.Join(dir, name+".csv")
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// load reads a toy set (the embedded copy when dir is empty), z-scored;
// k is the number of clusters asked for.
func load(dir, name string) (*mat.Dense, []int, int) {
	var ds *dataset.Dataset
	var err error
	if dir == "" {
		ds, err = dataset.Embedded(name)
	} else {
		ds, err = dataset.Load(dataFile(dir, name), dataset.CSVOptions{Label: "label"})
	}
	if err != nil {
		log.Fatal(err)
	}
	X := dataset.Standardize(ds.X)
	k := len(ds.ClassCounts())
	if k < 2 {
		k = 3 // no_structure: scikit-learn's example asks for 3
	}
	return X, ds.Y, k
}

func figure1(ctx context.Context, dir, out string, gamma float64, peers, sklearn string) {
	methods := []method{
		{fmt.Sprintf("KT rbf:%g", gamma), kt(kernel.RBF{Gamma: gamma}, 1000)},
		{"KT linear", kt(kernel.Linear{}, 1000)},
		{"KT poly:0.5:1:3", kt(kernel.Poly{A: 0.5, B: 1, Degree: 3}, 1000)},
		{"ward", agglo(hclust.Ward)},
		{"average", agglo(hclust.Average)},
		{"complete", agglo(hclust.Complete)},
		{"single", agglo(hclust.Single)},
	}
	fmt.Println("## Figure 1 / Table 1: six toy sets (n = 1500, z-scored), K = true classes (no_structure: 3)")
	fmt.Println()
	fmt.Println("KT: kernel treelets (abs rule, λ = 0) on a seeded sample of 1000, the other 500 labelled by a C-SVC (C = 1) with the same kernel; ward/average/single: Arbor's hclust on Euclidean distances. ARI against the true classes; time in seconds (in-process).")
	fmt.Println()
	hdr := "| method |"
	sep := "|---|"
	for _, t := range toys {
		hdr += " " + t + " |"
		sep += "---|"
	}
	fmt.Println(hdr)
	fmt.Println(sep)
	labels := make([][][]int, len(toys))
	aris := make([][]float64, len(toys))
	Xs := make([]*mat.Dense, len(toys))
	ys := make([][]int, len(toys))
	rows := make([]string, len(methods))
	for mi, m := range methods {
		rows[mi] = "| " + m.name + " |"
	}
	for ti, t := range toys {
		X, y, k := load(dir, t)
		Xs[ti], ys[ti] = X, y
		for mi, m := range methods {
			start := time.Now()
			lab, err := m.run(ctx, X, k)
			if err != nil {
				log.Fatalf("%s %s: %v", t, m.name, err)
			}
			sec := time.Since(start).Seconds()
			ari, _ := metrics.ARI(y, lab)
			rows[mi] += fmt.Sprintf(" %.3f (%.2fs) |", ari, sec)
			labels[ti] = append(labels[ti], lab)
			aris[ti] = append(aris[ti], ari)
		}
	}
	for _, r := range rows {
		fmt.Println(r)
	}
	if peers != "" {
		sk := map[string]map[string]float64{}
		var names []string
		for _, t := range toys {
			cmd := exec.Command("/usr/bin/python3", peers, "cluster", "--csv", dataFile(dir, t))
			b, err := cmd.Output()
			if err != nil {
				log.Printf("peers.py cluster %s: %v", t, err)
				continue
			}
			for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
				var rec struct {
					Method string  `json:"method"`
					ARI    float64 `json:"ari"`
				}
				if json.Unmarshal([]byte(line), &rec) != nil || rec.Method == "" {
					continue
				}
				if sk[rec.Method] == nil {
					sk[rec.Method] = map[string]float64{}
					names = append(names, rec.Method)
				}
				sk[rec.Method][t] = rec.ARI
			}
		}
		for _, nm := range names {
			r := "| scikit-learn " + nm + " |"
			for _, t := range toys {
				r += fmt.Sprintf(" %.3f |", sk[nm][t])
			}
			fmt.Println(r)
		}
	}
	fmt.Println()
	if sklearn != "" {
		against(sklearn, methods, labels, ys)
		// scikit-learn's columns in the picture, from the same file
		sk, err := readSKLabels(sklearn)
		if err != nil {
			log.Fatal(err)
		}
		for _, sm := range []string{"spectral_knn10", "dbscan", "kmeans", "gmm"} {
			methods = append(methods, method{name: "sklearn " + sm})
			for ti, t := range toys {
				lab := sk.labels[t][sm]
				ari, _ := metrics.ARI(ys[ti], lab)
				labels[ti] = append(labels[ti], lab)
				aris[ti] = append(aris[ti], ari)
			}
		}
	}
	path := filepath.Join(out, "toys.png")
	if err := grid(path, Xs, labels, aris, methods); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("Picture: %s\n\n", path)
}

// grid draws one scatter per (data set, method), coloured by cluster.
func grid(path string, Xs []*mat.Dense, labels [][][]int, aris [][]float64, methods []method) error {
	rows, cols := len(Xs), len(methods)
	const cell = 2.2 * vg.Inch
	img := vgimg.New(vg.Length(cols)*cell, vg.Length(rows)*cell+0.3*vg.Inch)
	dc := draw.New(img)
	t := draw.Tiles{Rows: rows, Cols: cols, PadTop: 0.35 * vg.Inch, PadX: 4, PadY: 4, PadRight: 6}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			p := plot.New()
			if r == 0 {
				p.Title.Text = methods[c].name
			}
			if c == 0 {
				p.Y.Label.Text = toys[r]
			}
			p.X.Label.Text = fmt.Sprintf("ARI %.2f", aris[r][c])
			p.X.Tick.Marker = plot.ConstantTicks(nil)
			p.Y.Tick.Marker = plot.ConstantTicks(nil)
			X, lab := Xs[r], labels[r][c]
			byC := map[int]plotter.XYs{}
			n, _ := X.Dims()
			for i := 0; i < n; i++ {
				byC[lab[i]] = append(byC[lab[i]], plotter.XY{X: X.At(i, 0), Y: X.At(i, 1)})
			}
			for cl := 0; cl < len(byC)+1; cl++ {
				pts, ok := byC[cl]
				if !ok {
					continue
				}
				s, err := plotter.NewScatter(pts)
				if err != nil {
					return err
				}
				col := figure.ClassColor(cl)
				if cl >= 8 {
					col = color.RGBA{A: 255, R: 90, G: 90, B: 90}
				}
				s.GlyphStyle = draw.GlyphStyle{Color: col, Radius: vg.Points(1), Shape: draw.CircleGlyph{}}
				p.Add(s)
			}
			p.Draw(t.At(dc, c, r))
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func table2(ctx context.Context, dir string, gamma float64) {
	sizes := []int{50, 100, 200, 300, 500, 800, 1000, 1200, 1499, 1500}
	fmt.Printf("## Table 2: KT rbf:%g with sample sizes 50…1500 (SVM extension below 1500): ARI / seconds\n\n", gamma)
	hdr := "| m |"
	sep := "|---|"
	for _, t := range toys {
		hdr += " " + t + " |"
		sep += "---|"
	}
	fmt.Println(hdr)
	fmt.Println(sep)
	type set struct {
		X *mat.Dense
		y []int
		k int
	}
	sets := make([]set, len(toys))
	for i, t := range toys {
		X, y, k := load(dir, t)
		sets[i] = set{X, y, k}
	}
	for _, m := range sizes {
		row := fmt.Sprintf("| %d |", m)
		for _, s := range sets {
			start := time.Now()
			r, err := treelets.Sample{M: m, Seed: 1, Clusters: s.k}.Fit(ctx, kernel.Points{K: kernel.RBF{Gamma: gamma}, X: s.X})
			if err != nil {
				log.Fatal(err)
			}
			sec := time.Since(start).Seconds()
			ari, _ := metrics.ARI(s.y, r.Labels)
			row += fmt.Sprintf(" %.3f / %.3f |", ari, sec)
		}
		fmt.Println(row)
	}
	fmt.Println()
}

// cpuSeconds is this process's user + system CPU time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// proc runs a command and returns its wall time and CPU time (user + sys)
// and stdout.
func proc(name string, args ...string) (wall, cpu float64, stdout []byte, err error) {
	cmd := exec.Command(name, args...)
	var ob, eb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &ob, &eb
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start).Seconds()
	if err != nil {
		return 0, 0, nil, fmt.Errorf("%s %v: %v\n%s", name, args, err, eb.String())
	}
	st := cmd.ProcessState
	return wall, (st.UserTime() + st.SystemTime()).Seconds(), ob.Bytes(), nil
}

// loadavg is the 1, 5 and 15 minute load averages.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func speed(ctx context.Context, dir, fb, arborBin, peer string, gamma float64, big, reps int) {
	fmt.Println("## Speed")
	fmt.Println()
	moons := dataFile(dir, "noisy_moons")
	if arborBin != "" && peer != "" {
		fmt.Printf("Whole processes on noisy_moons (n = 1500, RBF γ = %g on z-scored data, full sample, K = 2), alternated, %d runs each; best and median wall and CPU (user + sys) seconds; load average before: %s\n\n", gamma, reps, loadavg())
		tmp, _ := os.MkdirTemp("", "tlbench")
		defer os.RemoveAll(tmp)
		var aw, ac, pw, pc []float64
		for rep := 0; rep < reps; rep++ {
			w, c, _, err := proc(arborBin, "treelets", "--data", moons, "--kernel", fmt.Sprintf("rbf:%g", gamma), "--scale", "std", "--clusters", "2", "--out", filepath.Join(tmp, "l.csv"), "--quiet")
			if err != nil {
				log.Fatal(err)
			}
			aw, ac = append(aw, w), append(ac, c)
			w, c, _, err = proc("/usr/bin/python3", "bench/treelets/peer_time.py", peer, moons, fmt.Sprint(gamma), "2")
			if err != nil {
				log.Fatal(err)
			}
			pw, pc = append(pw, w), append(pc, c)
		}
		fmt.Println("| process | wall s best / median | CPU s best / median |")
		fmt.Println("|---|---|---|")
		fmt.Printf("| arbor treelets (read CSV, scale, kernel, treelets, cut, write) | %.3f / %.3f | %.3f / %.3f |\n", slices.Min(aw), median(aw), slices.Min(ac), median(ac))
		fmt.Printf("| authors' kernel_treelets_clustering (peer_time.py) | %.3f / %.3f | %.3f / %.3f |\n", slices.Min(pw), median(pw), slices.Min(pc), median(pc))
		fmt.Printf("| ratio arbor / authors | %.3f / %.3f | %.3f / %.3f |\n\n", slices.Min(aw)/slices.Min(pw), median(aw)/median(pw), slices.Min(ac)/slices.Min(pc), median(ac)/median(pc))
		fmt.Printf("Load average after: %s\n\n", loadavg())
	}
	if arborBin != "" {
		tmp, _ := os.MkdirTemp("", "tlbench")
		defer os.RemoveAll(tmp)
		bw, bc := 1e9, 1e9
		var last []byte
		for rep := 0; rep < 3; rep++ {
			w, c, o, err := proc(arborBin, "treelets", "--graph-edges", fb, "--roc-against", "graph", "--out", filepath.Join(tmp, "fb.csv"), "--quiet")
			if err != nil {
				log.Fatal(err)
			}
			bw, bc, last = min(bw, w), min(bc, c), o
		}
		auc := ""
		for _, l := range strings.Split(string(last), "\n") {
			if strings.HasPrefix(l, "AUC") {
				auc = strings.TrimSuffix(strings.Fields(l)[1], ":")
			}
		}
		fmt.Printf("Facebook graph (n = 4039), `arbor treelets --graph-edges facebook_edges.txt --roc-against graph --out fb.csv`, whole process, best of 3: %.2f s wall, %.2f s CPU; AUC %s (paper 0.958); load average after: %s.\n\n", bw, bc, auc, loadavg())
	}
	if big > 0 {
		rng := rand.New(rand.NewPCG(1, 2))
		X := mat.NewDense(big, 2, nil)
		for i := 0; i < big; i++ {
			c := float64(i % 5)
			X.Set(i, 0, 3*c+rng.NormFloat64())
			X.Set(i, 1, rng.NormFloat64())
		}
		// Sample with m = n: the kernel into one n×n buffer, treelets in it
		var tk, ck float64
		start, c0 := time.Now(), cpuSeconds()
		prog := func(stage string, done, total int) {
			if stage == "kernel" && done == total {
				tk, ck = time.Since(start).Seconds(), cpuSeconds()-c0
			}
		}
		r, err := treelets.Sample{Settings: treelets.Settings{Progress: prog}}.Fit(ctx, kernel.Points{K: kernel.RBF{Gamma: 1}, X: X})
		if err != nil {
			log.Fatal(err)
		}
		m := r.Model
		tt, ct := time.Since(start).Seconds()-tk, cpuSeconds()-c0-ck
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		fmt.Printf("Full kernel treelets, n = %d (RBF γ = 1, five Gaussian blobs, seed 1), one n×n buffer (%.0f MB; heap in use after the run %.0f MB): kernel %.2f s wall (%.2f s CPU), treelets %.2f s wall (%.2f s CPU, %d levels), total %.2f s wall, %.2f s CPU on %d cores; load average after: %s.\n\n",
			big, float64(big*big*8)/1e6, float64(ms.HeapInuse)/1e6, tk, ck, tt, ct, len(m.Levels), tk+tt, ck+ct, runtime.GOMAXPROCS(0), loadavg())
		if arborBin != "" {
			// the same points through the command line, whole process
			tmp, _ := os.MkdirTemp("", "tlbench")
			defer os.RemoveAll(tmp)
			csv := filepath.Join(tmp, "big.csv")
			var b bytes.Buffer
			b.WriteString("x,y\n")
			for i := 0; i < big; i++ {
				fmt.Fprintf(&b, "%.17g,%.17g\n", X.At(i, 0), X.At(i, 1))
			}
			if err := os.WriteFile(csv, b.Bytes(), 0o644); err != nil {
				log.Fatal(err)
			}
			r = nil
			runtime.GC()
			w, c, _, err := proc(arborBin, "treelets", "--data", csv, "--kernel", "rbf:1", "--clusters", "5", "--out", filepath.Join(tmp, "l.csv"), "--quiet")
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("The same %d points as a CSV file, `arbor treelets --data big.csv --kernel rbf:1 --clusters 5 --out l.csv`, whole process: %.2f s wall, %.2f s CPU; load average after: %s.\n\n", big, w, c, loadavg())
		}
	}
}

// Command gramnpy times the whole `arbor kernel` process (CSV in, RBF Gram
// matrix out as .npy) beside scikit-learn's rbf_kernel + np.save on the
// same file (bench/gramnpy/sklearn_rbf.py, CSV read by numpy.loadtxt),
// alternating the two, and prints wall and CPU (user + system) seconds,
// the best of each side, and the ratios arbor/peer. It also checks that
// the two matrices agree. Run from the repository root:
//
//	go run ./bench/gramnpy -n 6000 -d 256 -reps 3
//
// Data: N×d standard normal (PCG seed 1), six decimals, a header line;
// γ = 1/d on both sides.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/arbor-ml/arbor/internal/npy"
)

func main() {
	n := flag.Int("n", 6000, "rows")
	d := flag.Int("d", 256, "features")
	reps := flag.Int("reps", 3, "alternating repetitions; the best of each side is kept")
	python := flag.String("python", "/usr/bin/python3", "Python with numpy and scikit-learn")
	flag.Parse()
	if err := run(*n, *d, *reps, *python); err != nil {
		fmt.Fprintln(os.Stderr, "gramnpy:", err)
		os.Exit(1)
	}
}

type timing struct{ wall, cpu float64 }

// timed runs cmd and returns its wall time and the CPU time of the child.
func timed(cmd *exec.Cmd) (timing, []byte, error) {
	cmd.Stderr = os.Stderr
	t0 := time.Now()
	out, err := cmd.Output()
	wall := time.Since(t0).Seconds()
	if err != nil {
		return timing{}, nil, fmt.Errorf("%s: %v", cmd.Path, err)
	}
	ps := cmd.ProcessState
	return timing{wall, (ps.UserTime() + ps.SystemTime()).Seconds()}, out, nil
}

func run(n, d, reps int, python string) error {
	dir, err := os.MkdirTemp("", "gramnpy")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	data := filepath.Join(dir, "x.csv")
	if err := writeData(data, n, d); err != nil {
		return err
	}
	arbor := filepath.Join(dir, "arbor")
	if out, err := exec.Command("go", "build", "-o", arbor, "./cmd/arbor").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	gamma := strconv.FormatFloat(1/float64(d), 'g', -1, 64)
	ka, kp := filepath.Join(dir, "arbor.npy"), filepath.Join(dir, "sklearn.npy")
	best := map[string]timing{}
	keep := func(k string, t timing) {
		b, ok := best[k]
		if !ok {
			best[k] = t
			return
		}
		best[k] = timing{min(b.wall, t.wall), min(b.cpu, t.cpu)}
	}
	var steps map[string]any
	for range reps {
		t, _, err := timed(exec.Command(arbor, "kernel", "--data", data, "--label", "none", "--kernel", "rbf:"+gamma, "--out", ka, "--quiet"))
		if err != nil {
			return err
		}
		keep("arbor", t)
		t, out, err := timed(exec.Command(python, "bench/gramnpy/sklearn_rbf.py", data, kp, gamma))
		if err != nil {
			return err
		}
		keep("sklearn", t)
		var s map[string]any
		if err := json.Unmarshal(out, &s); err != nil {
			return fmt.Errorf("sklearn_rbf.py output %q: %v", out, err)
		}
		if ip, ok := s["in_process"].(float64); ok {
			keep("sklearn in-process", timing{ip, math.Inf(1)})
		}
		steps = s
	}
	diff, err := maxDiff(ka, kp)
	if err != nil {
		return err
	}
	a, p, ip := best["arbor"], best["sklearn"], best["sklearn in-process"]
	fmt.Printf("N = %d, d = %d, γ = %s, best of %d alternating runs\n", n, d, gamma, reps)
	fmt.Printf("arbor kernel (whole process):              %7.2f s wall, %7.2f s CPU\n", a.wall, a.cpu)
	fmt.Printf("python rbf_kernel + np.save (whole):       %7.2f s wall, %7.2f s CPU\n", p.wall, p.cpu)
	fmt.Printf("  of which loadtxt + rbf_kernel + np.save: %7.2f s wall (last run: %v)\n", ip.wall, steps)
	fmt.Printf("ratio arbor/peer: %.2f wall, %.2f CPU; against the peer's in-process time %.2f wall\n", a.wall/p.wall, a.cpu/p.cpu, a.wall/ip.wall)
	fmt.Printf("max |K_arbor − K_sklearn| = %.3g\n", diff)
	return nil
}

func writeData(path string, n, d int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := 0; j < d; j++ {
		if j > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, "f%d", j)
	}
	w.WriteByte('\n')
	r := rand.New(rand.NewPCG(1, 1))
	buf := make([]byte, 0, 32)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if j > 0 {
				w.WriteByte(',')
			}
			w.Write(strconv.AppendFloat(buf[:0], r.NormFloat64(), 'f', 6, 64))
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func maxDiff(a, b string) (float64, error) {
	read := func(p string) ([]float64, error) {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		m, err := npy.Read(bufio.NewReader(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		return m.RawMatrix().Data, nil
	}
	x, err := read(a)
	if err != nil {
		return 0, err
	}
	y, err := read(b)
	if err != nil {
		return 0, err
	}
	if len(x) != len(y) {
		return 0, fmt.Errorf("sizes differ: %d and %d entries", len(x), len(y))
	}
	m := 0.0
	for i := range x {
		m = max(m, math.Abs(x[i]-y[i]))
	}
	return m, nil
}

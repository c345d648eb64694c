// Command gemm times internal/gemm's Dgemm beside numpy.dot (OpenBLAS) on
// n×n products, on one and two threads, alternating the two so that a
// loaded machine affects both alike, and prints GFLOP/s (2n³ flops) per
// wall second and per CPU second (user + system, all threads) and the
// ratio. Run from the repository root:
//
//	go run ./bench/gemm -n 1000,2000,4000 -reps 3
//
// The peer is bench/gemm/numpy_dot.py under /usr/bin/python3 with
// OPENBLAS_NUM_THREADS set to the thread count.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arbor-ml/arbor/internal/gemm"
	"gonum.org/v1/gonum/blas"
)

func main() {
	sizes := flag.String("n", "1000,2000,4000", "comma-separated matrix orders")
	reps := flag.Int("reps", 3, "alternating repetitions; the best of each side is kept")
	threads := flag.String("threads", "1,2", "comma-separated thread counts")
	python := flag.String("python", "/usr/bin/python3", "Python with numpy")
	flag.Parse()
	if err := run(*sizes, *threads, *reps, *python); err != nil {
		fmt.Fprintln(os.Stderr, "gemm:", err)
		os.Exit(1)
	}
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 {
			return nil, fmt.Errorf("bad count %q", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func run(sizes, threads string, reps int, python string) error {
	ns, err := ints(sizes)
	if err != nil {
		return err
	}
	ts, err := ints(threads)
	if err != nil {
		return err
	}
	fmt.Printf("arbor kernel: %s; GOMAXPROCS at start %d\n", gemm.Kernel(), runtime.GOMAXPROCS(0))
	fmt.Printf("%6s %7s | %10s %10s | %10s %10s | %8s %8s\n", "n", "threads", "arbor GF/s", "GF/cpu-s", "numpy GF/s", "GF/cpu-s", "ratio", "cpu ratio")
	var blasInfo []string
	for _, n := range ns {
		r := rand.New(rand.NewPCG(1, 1))
		a, b := make([]float64, n*n), make([]float64, n*n)
		for i := range a {
			a[i], b[i] = r.Float64()*2-1, r.Float64()*2-1
		}
		c := make([]float64, n*n)
		flops := 2 * float64(n) * float64(n) * float64(n)
		for _, th := range ts {
			prev := runtime.GOMAXPROCS(th)
			gemm.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n) // warm up
			best, bestCPU := time.Duration(1<<62), time.Duration(1<<62)
			peer, peerCPU := 1e300, 1e300
			for range reps {
				t0, c0 := time.Now(), cpuTime()
				gemm.Dgemm(blas.NoTrans, blas.NoTrans, n, n, n, 1, a, n, b, n, 0, c, n)
				best, bestCPU = min(best, time.Since(t0)), min(bestCPU, cpuTime()-c0)
				cmd := exec.Command(python, "bench/gemm/numpy_dot.py", strconv.Itoa(n), "1")
				cmd.Env = append(os.Environ(), "OPENBLAS_NUM_THREADS="+strconv.Itoa(th), "OMP_NUM_THREADS="+strconv.Itoa(th))
				cmd.Stderr = os.Stderr
				out, err := cmd.Output()
				if err != nil {
					return fmt.Errorf("numpy_dot.py: %v", err)
				}
				var res struct {
					Seconds    float64  `json:"seconds"`
					CPUSeconds float64  `json:"cpu_seconds"`
					BLAS       []string `json:"blas"`
				}
				if err := json.Unmarshal(out, &res); err != nil {
					return fmt.Errorf("numpy_dot.py output %q: %v", out, err)
				}
				peer, peerCPU = min(peer, res.Seconds), min(peerCPU, res.CPUSeconds)
				blasInfo = res.BLAS
			}
			runtime.GOMAXPROCS(prev)
			g, gc := flops/best.Seconds()/1e9, flops/bestCPU.Seconds()/1e9
			p, pc := flops/peer/1e9, flops/peerCPU/1e9
			fmt.Printf("%6d %7d | %10.1f %10.1f | %10.1f %10.1f | %8.2f %8.2f\n", n, th, g, gc, p, pc, p/g, pc/gc)
		}
	}
	fmt.Printf("numpy BLAS: %s\n(ratio = arbor time / numpy time: below 1 is faster than numpy)\n", strings.Join(blasInfo, "; "))
	return nil
}

// cpuTime is the user + system CPU time of this process (all threads).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

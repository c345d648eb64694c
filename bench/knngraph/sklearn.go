package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arbor-ml/arbor/internal/neighbors"
)

func cpuSelf() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

// sideBySide times internal/neighbors' All (the k nearest of every point,
// itself excluded) in this process, then scikit-learn's kd_tree on the same
// points, and compares the neighbour lists.
func sideBySide(data []float64, n, d, k int) error {
	dir, err := os.MkdirTemp("", "knngraph")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "points.f64")
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	var b [8]byte
	for _, v := range data {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	f.Close()

	fmt.Printf("N = %d, d = %d, k = %d, GOMAXPROCS %d; load before %s\n", n, d, k, runtime.GOMAXPROCS(0), loadavg())
	c0, w0 := cpuSelf(), time.Now()
	ix := neighbors.New(data, n, d)
	idx := make([]int32, n*k)
	if err := ix.All(context.Background(), k, neighbors.ExcludeSelf, idx, nil); err != nil {
		return err
	}
	aw, ac := time.Since(w0).Seconds(), cpuSelf()-c0
	fmt.Printf("arbor internal/neighbors (k-d tree, build + all queries): wall %.2f s, cpu %.2f s; load %s\n", aw, ac, loadavg())

	script := filepath.Join(filepath.Dir(os.Args[0]), "sklearn_knn.py")
	if _, err := os.Stat(script); err != nil {
		script = filepath.Join("bench", "knngraph", "sklearn_knn.py")
	}
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru0)
	w1 := time.Now()
	out, err := exec.Command("/usr/bin/python3", script, path, strconv.Itoa(n), strconv.Itoa(d), strconv.Itoa(k)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %v\n%s", script, err, out)
	}
	pw := time.Since(w1).Seconds()
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru1)
	pc := float64(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / 1e9
	var skw, skc float64
	var text []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(l, "RESULT ") {
			fmt.Sscanf(l, "RESULT %g %g", &skw, &skc)
		} else {
			text = append(text, l)
		}
	}
	if skw == 0 {
		return fmt.Errorf("%s: no RESULT line:\n%s", script, out)
	}
	fmt.Printf("%s\n    (whole python process: wall %.2f s, cpu %.2f s); load %s\n", strings.Join(text, "\n"), pw, pc, loadavg())

	raw, err := os.ReadFile(path + ".sk.i32")
	if err != nil {
		return err
	}
	if len(raw) != 4*n*k {
		return fmt.Errorf("scikit-learn wrote %d bytes, want %d", len(raw), 4*n*k)
	}
	sameOrder, sameSet := 0, 0
	a, s := make([]int32, k), make([]int32, k)
	for i := 0; i < n; i++ {
		for r := 0; r < k; r++ {
			s[r] = int32(binary.LittleEndian.Uint32(raw[4*(i*k+r):]))
		}
		copy(a, idx[i*k:i*k+k])
		if slices.Equal(a, s) {
			sameOrder++
		}
		slices.Sort(a)
		slices.Sort(s)
		if slices.Equal(a, s) {
			sameSet++
		}
	}
	fmt.Printf("neighbour lists equal to scikit-learn's: %d of %d rows in the same order, %d as sets\n", sameOrder, n, sameSet)
	fmt.Printf("ratio arbor / scikit-learn (search in process): wall %.3f, cpu %.3f\n", aw/skw, ac/skc)
	return nil
}

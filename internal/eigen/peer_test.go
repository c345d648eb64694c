package eigen

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// BenchmarkPeerRatio times Sym against numpy.linalg.eigh (testdata/peer_time.py)
// and gonum's mat.EigenSym on the same matrix, alternating the runs so that
// a loaded machine affects all alike, and logs the best time of each and
// the ratios. Run with
//
//	EIGEN_PEER=1500,3000 EIGEN_REPS=3 go test -run '^$' -bench PeerRatio -benchtime 1x -timeout 1h ./internal/eigen
//
// (EIGEN_GONUM=0 skips gonum, which takes minutes at n = 3000).
func BenchmarkPeerRatio(tb *testing.B) {
	spec := os.Getenv("EIGEN_PEER")
	if spec == "" {
		tb.Skip("set EIGEN_PEER=n[,n...] to time against numpy and gonum")
	}
	reps := 3
	if r, err := strconv.Atoi(os.Getenv("EIGEN_REPS")); err == nil && r > 0 {
		reps = r
	}
	withGonum := os.Getenv("EIGEN_GONUM") != "0"
	for _, f := range strings.Split(spec, ",") {
		n, err := strconv.Atoi(f)
		if err != nil {
			tb.Fatal(err)
		}
		a := lcgSym(n, 1)
		best := map[string]time.Duration{}
		keep := func(k string, d time.Duration) {
			if b, ok := best[k]; !ok || d < b {
				best[k] = d
			}
		}
		for r := 0; r < reps; r++ {
			t0, c0 := time.Now(), cpuTime()
			if _, _, err := Sym(context.Background(), a, true); err != nil {
				tb.Fatal(err)
			}
			keep("arbor", time.Since(t0))
			keep("arbor cpu", cpuTime()-c0)
			out, err := exec.Command("/usr/bin/python3", "testdata/peer_time.py", strconv.Itoa(n)).Output()
			if err != nil {
				tb.Fatalf("peer_time.py: %v", err)
			}
			var res struct {
				Seconds    float64 `json:"seconds"`
				CPUSeconds float64 `json:"cpu_seconds"`
			}
			if err := json.Unmarshal(out, &res); err != nil {
				tb.Fatal(err)
			}
			keep("numpy", time.Duration(res.Seconds*1e9))
			keep("numpy cpu", time.Duration(res.CPUSeconds*1e9))
			if withGonum {
				t0, c0 = time.Now(), cpuTime()
				var es mat.EigenSym
				if !es.Factorize(a, true) {
					tb.Fatal("gonum EigenSym failed")
				}
				keep("gonum", time.Since(t0))
				keep("gonum cpu", cpuTime()-c0)
			}
		}
		s := func(k string) float64 { return best[k].Seconds() }
		tb.Logf("n=%d all eigenpairs, wall (CPU) seconds: arbor %.3f (%.3f), numpy.linalg.eigh %.3f (%.3f): arbor/numpy = %.2f (CPU %.2f)",
			n, s("arbor"), s("arbor cpu"), s("numpy"), s("numpy cpu"), s("arbor")/s("numpy"), s("arbor cpu")/s("numpy cpu"))
		if withGonum {
			tb.Logf("n=%d gonum EigenSym %.3f (%.3f): gonum/arbor = %.1f× (CPU %.1f×)",
				n, s("gonum"), s("gonum cpu"), s("gonum")/s("arbor"), s("gonum cpu")/s("arbor cpu"))
		}
	}
}

// cpuTime is the user + system CPU time of this process (all threads).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package main

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
)

// errMemory is wrapped by the one-line error of a run that would not fit in
// the memory budget (exit status 1, not a usage error).
var errMemory = errors.New("not enough memory")

// memFlags is --max-memory SIZE, the budget every large allocation is
// checked against before it is made.
type memFlags struct {
	raw string
}

func (m *memFlags) register(fs interface {
	StringVar(p *string, name, value, usage string)
}) {
	fs.StringVar(&m.raw, "max-memory", "", "memory budget, such as 4G, 512M or 2GiB (default: the memory the machine has available, MemAvailable in /proc/meminfo); a run that would need more stops before the work with the size it needs and the option that fits")
}

// budget returns the budget in bytes and where it comes from; 0 means
// unknown (no /proc/meminfo and no --max-memory): nothing is checked.
func (m memFlags) budget() (int64, string, error) {
	if m.raw != "" {
		b, err := parseSize(m.raw)
		if err != nil {
			return 0, "", usageError("--max-memory %q: %v", m.raw, err)
		}
		return b, "--max-memory", nil
	}
	if b := memAvailable(); b > 0 {
		return b, "available memory; --max-memory to change", nil
	}
	return 0, "", nil
}

// check returns a one-line error when need bytes exceed the budget: what
// needs it, how much, the budget, and hint (the option that fits).
func (m memFlags) check(need float64, what, hint string) error {
	b, src, err := m.budget()
	if err != nil || b == 0 || need <= float64(b) {
		return err
	}
	msg := fmt.Sprintf("%s needs about %s, more than the budget of %s (%s)", what, humanBytes(need), humanBytes(float64(b)), src)
	if hint != "" {
		msg += "; " + hint
	}
	return fmt.Errorf("%w: %s", errMemory, msg)
}

// parseSize reads 1.5G, 512M, 2GiB, 300MB, 1e9 (bytes); K/M/G/T are
// powers of 1024 with or without "iB"/"B". A fraction of a byte is rounded
// up (1.5 is 2 bytes); zero, negative sizes, sizes below 1 byte and sizes
// of 2⁶³ bytes or more are errors.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	mult := 1.0
	for _, u := range []struct {
		suf string
		m   float64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suf)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a positive size such as 4G, 512M or 2GiB")
	}
	b := math.Ceil(v * mult) // a fraction of a byte counts as a byte
	switch {
	case v*mult < 1:
		return 0, fmt.Errorf("%g bytes is less than 1 byte: want a size such as 4G, 512M or 2GiB", v*mult)
	case b >= math.MaxInt64: // 2⁶³ and above (float64(MaxInt64) is 2⁶³)
		return 0, fmt.Errorf("more than the largest budget, 8388607T (2⁶³−1 bytes)")
	}
	return int64(b), nil
}

// memAvailable returns MemAvailable from /proc/meminfo in bytes, or 0.
func memAvailable() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

func humanBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 10<<20:
		return fmt.Sprintf("%.0f MiB", b/(1<<20))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", math.Ceil(b/(1<<10)))
}

// kernelBytes estimates the peak memory of building spec's N×N kernel
// matrix: gonum's symmetric matrices store all N² float64 entries; the
// cluster kernels add a condensed distance matrix (N²/2) and the
// ultrametric, the graph variants a geodesic matrix, ISOMAP an
// eigendecomposition (its vectors and workspace). Estimates, within about
// a third of the measured peak.
func kernelBytes(spec kernel.Spec, n int) float64 {
	nn := 8 * float64(n) * float64(n)
	switch spec.Kind {
	case kernel.KindPoint:
		return nn
	case kernel.KindHCK:
		if spec.Graph != nil {
			return 2.5 * nn
		}
		return 1.5 * nn
	case kernel.KindISOMAP:
		return 4 * nn
	case kernel.KindConnectivity:
		// pdist (N²/2), single linkage's transposed copy when heights tie
		// (N²/2), the ultrametric: measured 1.6·8N² on satellite (was 3·8N²)
		return 2 * nn
	}
	return 3 * nn
}

// landmarkBytes estimates a landmark run with M landmarks: the N×M kernel
// rows and features (twice, in blocks) and the M×M eigendecomposition.
func landmarkBytes(n, d, m int) float64 {
	return 8 * (2*float64(n)*float64(m) + 4*float64(m)*float64(m) + float64(n)*float64(d))
}

// landmarkHint names the --landmarks M that fits the budget, if any.
func (m memFlags) landmarkHint(n, d int) string {
	b, _, _ := m.budget()
	for _, lm := range []int{2000, 1000, 500, 200} {
		if lm < n && (b == 0 || landmarkBytes(n, d, lm) <= float64(b)) {
			return fmt.Sprintf("use --landmarks %d (about %s)", lm, humanBytes(landmarkBytes(n, d, lm)))
		}
	}
	if n <= 200 {
		return fmt.Sprintf("--landmarks cannot help with %d rows: raise --max-memory", n)
	}
	return "even --landmarks 200 does not fit: use a sample of the rows"
}

// classifyMemory checks classify's largest allocation against the budget:
// the SVM's points and column cache on a point kernel (onPoints), the
// landmark run's N×M blocks, or the exact kernel matrix (and a dense N×N
// affinity for lp and spreading).
// With f32 (--float32) the kernel matrix is counted in float32.
func classifyMemory(mf memFlags, lmf landmarkFlags, ds, test *dataset.Dataset, spec kernel.Spec, learner string, usesKernel, onPoints, f32 bool) error {
	n := ds.Len()
	if test != nil {
		n += test.Len()
	}
	if onPoints {
		// The points, the solver's state and its kernel column cache.
		need := 8*float64(n)*float64(ds.Dim()+8) + svmCacheBytes
		return mf.check(need, fmt.Sprintf("the svm on %d rows (kernel columns on demand)", n), "")
	}
	if lmf.m > 0 {
		if f32 {
			return usageError("--float32 and --landmarks: the landmark features are N×M, not an N×N matrix; leave out --float32")
		}
		return mf.check(landmarkBytes(n, ds.Dim(), lmf.m), fmt.Sprintf("%d landmarks for %d rows", lmf.m, n), "use fewer --landmarks")
	}
	need, need32 := kernelBytes(spec, ds.Len()), kernelBytes32(spec, ds.Len())
	if !usesKernel {
		need32 = 0 // --float32 stores a kernel matrix; this learner has none
	} else if f32 && need32 == 0 {
		return usageError("--float32 takes a point kernel or hck, hckg, connectivity, not %s (its eigendecomposition needs the float64 matrix); %s", spec, mf.landmarkHint(n, ds.Dim()))
	}
	if learner == "lp" || learner == "spreading" {
		// The kernel and a dense affinity matrix (float32 from a float32
		// kernel: propagate keeps it in float32).
		nn := 8 * float64(ds.Len()) * float64(ds.Len())
		need = 2 * nn
		if need32 > 0 {
			need32 += nn / 2
		}
	}
	what := fmt.Sprintf("the exact %s run on %d rows", learner, ds.Len())
	if f32 && need32 > 0 {
		return mf.check(need32, what+" (--float32)", mf.landmarkHint(n, ds.Dim()))
	}
	return mf.check(need, what, joinHints(mf.float32Hint(need32), mf.landmarkHint(n, ds.Dim())))
}

// svmCacheBytes is the SVM's default kernel column cache (svm.Classifier).
const svmCacheBytes = 200 << 20

// evalBytes is eval's kernel matrices: kernel.BuildAll returns all of
// them and eval keeps them for every split (8N² each), plus the largest
// transient of one build (pdist, a linkage's working matrix, geodesics).
// (It counted the largest one alone; with --float32 eval builds one at a
// time, evalNeed32.)
func evalBytes(specs []kernel.Spec, n int) float64 {
	nn := 8 * float64(n) * float64(n)
	held, transient := 0.0, 0.0
	for _, s := range specs {
		held += nn
		transient = max(transient, kernelBytes(s, n)-nn)
	}
	return held + transient
}

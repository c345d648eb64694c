package memory

import (
	"errors"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{
		"4G": 4 << 30, "512M": 512 << 20, "2GiB": 2 << 30, "300MB": 300 << 20, "1.5g": 3 << 29, "1000": 1000, "64 KiB": 64 << 10,
		"1.5": 2, "1": 1, "1.2K": 1229, "8388607T": 8388607 << 40,
	} {
		got, err := ParseSize(in)
		if err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1G", "0", "NaN", "1Q", "0.4", "1e-300G", "1e300G", "8388608T", "Inf"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): no error", in)
		}
	}
}

// TestEstimateErr: within the budget (or without one) no error; over it
// one line naming the need, the budget, its source and the hint.
func TestEstimateErr(t *testing.T) {
	e := Estimate{Bytes: 3 << 30, What: "the exact svm run on 20000 rows", Hint: "use --landmarks 2000 (about 1.2 GiB)", Budget: 2 << 30, Source: "--max-memory"}
	want := "not enough memory: the exact svm run on 20000 rows needs about 3.0 GiB, more than the budget of 2.0 GiB (--max-memory); use --landmarks 2000 (about 1.2 GiB)"
	if err := e.Err(); !errors.Is(err, ErrMemory) || err.Error() != want {
		t.Errorf("Err() = %v, want %q", err, want)
	}
	e.Source, e.Hint = "", ""
	if err := e.Err(); err == nil || !strings.HasSuffix(err.Error(), "budget of 2.0 GiB") {
		t.Errorf("Err() without source and hint = %v", err)
	}
	for _, b := range []int64{0, 3 << 30, 4 << 30} {
		if e.Budget = b; e.Err() != nil || !e.Fits() {
			t.Errorf("budget %d: %v, want no error", b, e.Err())
		}
	}
}

func TestHuman(t *testing.T) {
	for b, want := range map[float64]string{1: "1 KiB", 1024: "1 KiB", 1025: "2 KiB", 1 << 20: "1.0 MiB", 10 << 20: "10 MiB", 3 << 29: "1.5 GiB"} {
		if got := Human(b); got != want {
			t.Errorf("Human(%v) = %q, want %q", b, got, want)
		}
	}
}

// The held limit is the live heap plus a quarter, at least 256 MiB more,
// never above the limit already set; HoldHeapNear leaves a limit of at
// least the live heap.
func TestHeapLimit(t *testing.T) {
	const mi, gi = 1 << 20, 1 << 30
	for _, tc := range []struct{ live, cur, want int64 }{
		{4 * gi, math.MaxInt64, 5 * gi},
		{100 * mi, math.MaxInt64, 356 * mi},
		{4 * gi, 4*gi + mi, 4*gi + mi},
	} {
		if got := heapLimit(tc.live, tc.cur); got != tc.want {
			t.Errorf("heapLimit(%d, %d) = %d, want %d", tc.live, tc.cur, got, tc.want)
		}
	}
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	HoldHeapNear()
	if got := debug.SetMemoryLimit(-1); got < liveHeap() || got > old {
		t.Errorf("limit %d after HoldHeapNear (live %d, before %d)", got, liveHeap(), old)
	}
}

// TestBudget: a limit given is parsed and named by its flag; without one
// the budget is the memory available, whose source names the flag.
func TestBudget(t *testing.T) {
	if b, src, err := Budget("2K", "--max-memory"); b != 2048 || src != "--max-memory" || err != nil {
		t.Errorf("Budget(2K) = %d, %q, %v", b, src, err)
	}
	if _, _, err := Budget("lots", "--max-memory"); err == nil {
		t.Error("Budget(lots): no error")
	}
	// MemAvailable moves between two reads: Budget's reading is checked
	// against the readings taken just before and after it, and against
	// the kernel's unit (kB) and the machine's total.
	before := Available()
	b, src, err := Budget("", "--max-memory")
	after := Available()
	if err != nil || (b > 0) != (src == "available memory; --max-memory to change") || (b > 0) != (before > 0 || after > 0) {
		t.Fatalf("Budget() = %d, %q, %v; available before %d, after %d", b, src, err, before, after)
	}
	if b > 0 && (b%1024 != 0 || b > memTotal(t)) {
		t.Errorf("Budget() = %d: not a MemAvailable reading (kB, at most MemTotal %d)", b, memTotal(t))
	}
}

// memTotal is MemTotal of /proc/meminfo in bytes.
func memTotal(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		t.Skip(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no MemTotal in /proc/meminfo")
	return 0
}

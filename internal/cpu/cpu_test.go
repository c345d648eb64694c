package cpu

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestFeatures: a build that does not read the processor (not amd64, or
// purego) reports no feature; on Linux the kernel lists in /proc/cpuinfo
// the features the processor has and the kernel enables (it drops AVX2,
// FMA and AVX-512 when it does not save their register state), so they
// are exactly those reported here.
func TestFeatures(t *testing.T) {
	got := map[string]bool{"avx2": AVX2(), "fma": FMA(), "avx512f": AVX512F(),
		"avx512dq": AVX512DQ(), "avx512bw": AVX512BW(), "avx512vl": AVX512VL()}
	t.Logf("features: %v", got)
	if !detects {
		for name, v := range got {
			if v {
				t.Errorf("%s reported by a build that does not read the processor", name)
			}
		}
		return
	}
	if runtime.GOOS != "linux" {
		t.Skipf("no /proc/cpuinfo on %s", runtime.GOOS)
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skipf("no /proc/cpuinfo: %v", err)
	}
	var flags []string
	for _, line := range strings.Split(string(b), "\n") {
		if name, value, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) == "flags" {
			flags = strings.Fields(value)
			break
		}
	}
	if flags == nil {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	for name, v := range got {
		if want := slices.Contains(flags, name); v != want {
			t.Errorf("%s: reported %v, listed in /proc/cpuinfo: %v", name, v, want)
		}
	}
}

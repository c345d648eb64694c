package crand

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// TestGlibc compares with glibc's rand() as recorded by testdata/gen_rand.py
// (generator and glibc version in the file): exact equality, the values are
// integers.
func TestGlibc(t *testing.T) {
	b, err := os.ReadFile("testdata/rand.json")
	if err != nil {
		t.Fatal(err)
	}
	var fix struct {
		Default      []int32
		Default10000 []int32 `json:"default_10000"`
		Seeds        map[string][]int32
	}
	if err := json.Unmarshal(b, &fix); err != nil {
		t.Fatal(err)
	}
	check := func(name string, g *Rand, want []int32, skip int) {
		t.Helper()
		for range skip {
			g.Int31()
		}
		for i, w := range want {
			if got := g.Int31(); got != w {
				t.Fatalf("%s: value %d = %d, glibc %d", name, skip+i, got, w)
			}
		}
	}
	check("default", New(1), fix.Default, 0)
	check("default", New(1), fix.Default10000, 10000)
	if len(fix.Seeds) == 0 {
		t.Fatal("no seeded sequences in the fixture")
	}
	for s, want := range fix.Seeds {
		seed, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		check("srand("+s+")", New(uint32(seed)), want, 0)
	}
}

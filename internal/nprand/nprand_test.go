package nprand

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
)

type fixture struct {
	Perm10    []int `json:"perm10"`
	Choice    []int `json:"choice"`
	Perm70000 []int `json:"perm70000"`
}

func TestMatchesNumPy(t *testing.T) {
	raw, err := os.ReadFile("testdata/numpy_legacy.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	var wantRand []float64
	if err := json.Unmarshal(all["rand5_seed0"], &wantRand); err != nil {
		t.Fatal(err)
	}
	if got := make([]float64, 5); true {
		New(0).Rand(got)
		if !slices.Equal(got, wantRand) {
			t.Errorf("rand = %v, NumPy %v", got, wantRand)
		}
	}
	delete(all, "rand5_seed0")
	if len(all) == 0 {
		t.Fatal("empty fixture")
	}
	for s, msg := range all {
		var want fixture
		if err := json.Unmarshal(msg, &want); err != nil {
			t.Fatal(err)
		}
		seed, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			t.Fatal(err)
		}
		if got := New(uint32(seed)).Permutation(10); !slices.Equal(got, want.Perm10) {
			t.Errorf("seed %s: permutation(10) = %v, NumPy %v", s, got, want.Perm10)
		}
		pop := make([]int, 1200)
		for i := range pop {
			pop[i] = 100 + i
		}
		if got := New(uint32(seed)).Choice(pop, 7); !slices.Equal(got, want.Choice) {
			t.Errorf("seed %s: choice = %v, NumPy %v", s, got, want.Choice)
		}
		if got := New(uint32(seed)).Permutation(70000)[:5]; !slices.Equal(got, want.Perm70000) {
			t.Errorf("seed %s: permutation(70000)[:5] = %v, NumPy %v", s, got, want.Perm70000)
		}
	}
}

func TestFirstOutputsReference(t *testing.T) {
	// Matsumoto & Nishimura's mt19937ar.c with init_genrand(5489) starts 3499211612, 581869302.
	r := New(5489)
	if a, b := r.Uint32(), r.Uint32(); a != 3499211612 || b != 581869302 {
		t.Fatalf("MT19937(5489) = %d, %d", a, b)
	}
}

package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func classCounts(d *Dataset) []int {
	c := make([]int, len(d.Classes))
	for _, y := range d.Y {
		if y != Unlabeled {
			c[y]++
		}
	}
	return c
}

func TestEmbeddedShapes(t *testing.T) {
	want := map[string]struct {
		n, d   int
		counts []int
	}{
		"iris":          {150, 4, []int{50, 50, 50}},
		"wine":          {178, 13, []int{59, 71, 48}},
		"two_moons":     {400, 2, []int{200, 200}},
		"usps":          {1500, 241, []int{1200, 300}},
		"gauss9":        {900, 2, []int{100, 100, 100, 100, 100, 100, 100, 100, 100}},
		"noisy_circles": {1500, 2, []int{750, 750}},
		"noisy_moons":   {1500, 2, []int{750, 750}},
		"blobs":         {1500, 2, []int{500, 500, 500}},
		"aniso":         {1500, 2, []int{500, 500, 500}},
		"varied":        {1500, 2, []int{500, 500, 500}},
		"no_structure":  {1500, 2, []int{1500}},
		"reuters10":     {855, 500, []int{58, 51, 105, 67, 73, 128, 63, 49, 91, 170}}, // by smallest category
	}
	names := EmbeddedNames()
	if len(names) != len(want) || !slices.IsSorted(names) {
		t.Errorf("EmbeddedNames() = %v", names)
	}
	for _, name := range names {
		w, ok := want[name]
		if !ok {
			t.Errorf("unexpected embedded set %q", name)
			continue
		}
		d, err := Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		if d.Len() != w.n || d.Dim() != w.d || d.Name != name {
			t.Errorf("%s: %d×%d named %q, want %d×%d", name, d.Len(), d.Dim(), d.Name, w.n, w.d)
		}
		if got := classCounts(d); !slices.Equal(got, w.counts) {
			t.Errorf("%s: class counts %v, want %v", name, got, w.counts)
		}
		for k, c := range d.Classes {
			if c != string(rune('0'+k)) {
				t.Errorf("%s: class %d named %q", name, k, c)
			}
		}
		if len(d.Features) != w.d || d.Features[0] != "f1" {
			t.Errorf("%s: features %v", name, d.Features[:min(3, len(d.Features))])
		}
	}
	// spot values from the CSV files
	iris, _ := Embedded("iris")
	if iris.X.At(0, 0) != 5.1 || iris.X.At(149, 3) != 1.8 || iris.Y[149] != 2 {
		t.Errorf("iris values: %v %v %v", iris.X.At(0, 0), iris.X.At(149, 3), iris.Y[149])
	}
	usps, _ := Embedded("usps")
	if usps.X.At(0, 0) != -0.5153949624 {
		t.Errorf("usps[0,0] = %v", usps.X.At(0, 0))
	}
	// fresh copies
	usps.X.Set(0, 0, 42)
	again, _ := Embedded("usps")
	if again.X.At(0, 0) != -0.5153949624 {
		t.Error("Embedded returned shared storage")
	}
}

func TestEmbeddedErrors(t *testing.T) {
	if _, err := Embedded("mnist"); !errors.Is(err, ErrUnknownName) || !strings.Contains(err.Error(), "iris") {
		t.Errorf("Embedded(mnist): %v", err)
	}
	if _, err := Embedded("usps.splits10"); !errors.Is(err, ErrUnknownName) {
		t.Errorf("Embedded(usps.splits10): %v", err)
	}
	if _, err := EmbeddedSplits("usps", 20); !errors.Is(err, ErrUnknownName) {
		t.Errorf("EmbeddedSplits(usps, 20): %v", err)
	}
	if _, err := EmbeddedSplits("iris", 10); !errors.Is(err, ErrUnknownName) {
		t.Errorf("EmbeddedSplits(iris, 10): %v", err)
	}
}

func TestEmbeddedSplits(t *testing.T) {
	for name, n := range splitRows {
		d, err := Embedded(name)
		if err != nil || d.Len() != n {
			t.Errorf("splitRows[%s] = %d, data: %v", name, n, err)
		}
	}
	for _, m := range []int{10, 100} {
		s, err := EmbeddedSplits("usps", m)
		if err != nil {
			t.Fatal(err)
		}
		if len(s) != 12 {
			t.Fatalf("usps/%d: %d splits, want 12", m, len(s))
		}
		for k, idx := range s {
			if len(idx) != m || !slices.IsSorted(idx) || idx[0] < 0 || idx[m-1] >= 1500 {
				t.Errorf("usps/%d split %d: %d indices %v..%v", m, k, len(idx), idx[0], idx[len(idx)-1])
			}
		}
	}
	s, _ := EmbeddedSplits("usps", 10)
	// first line of usps.splits10.csv: 717,472,447,1171,250,240,990,319,259,880
	if want := []int{240, 250, 259, 319, 447, 472, 717, 880, 990, 1171}; !slices.Equal(s[0], want) {
		t.Errorf("usps/10 first split %v, want %v", s[0], want)
	}
}

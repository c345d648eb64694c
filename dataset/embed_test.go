package dataset

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
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

// OpenData reads an embedded set's text when no file has its name: the
// rows read back equal Embedded's; a file of that name comes first, and a
// missing file that is no embedded set stays the operating system's error.
func TestOpenDataEmbedded(t *testing.T) {
	for _, name := range []string{"iris", "embedded:wine", "usps"} {
		r, err := OpenData(name)
		if err != nil {
			t.Fatalf("OpenData(%q): %v", name, err)
		}
		b, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		bare := strings.TrimPrefix(name, "embedded:")
		got, err := ReadCSV(bytes.NewReader(b), bare, CSVOptions{})
		if err != nil {
			t.Fatalf("%s: reading OpenData's text: %v", name, err)
		}
		want, err := Embedded(bare)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.X, want.X) || !slices.Equal(got.Y, want.Y) {
			t.Fatalf("%s: the rows read from OpenData's text differ from Embedded's", name)
		}
	}
	dir := t.TempDir()
	t.Chdir(dir)
	own := "iris"
	if err := os.WriteFile(own, []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenData(own)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "a,b\n1,2\n" {
		t.Errorf("a file named like an embedded set: read %q, not the file", b)
	}
	if _, err := OpenData("reuters10"); err == nil || !strings.Contains(err.Error(), "LIBSVM text") {
		t.Errorf("reuters10 (LIBSVM text): %v, want an error saying it is LIBSVM text", err)
	}
	if _, err := OpenData(filepath.Join(dir, "nosuch.csv")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
}

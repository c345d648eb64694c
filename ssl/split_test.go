package ssl

import (
	"bufio"
	"github.com/arbor-ml/arbor/dataset"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func readLines(t *testing.T, path string) [][]int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row []int
		for _, s := range strings.Split(strings.TrimSpace(sc.Text()), ",") {
			v, err := strconv.Atoi(s)
			if err != nil {
				t.Fatal(err)
			}
			row = append(row, v)
		}
		out = append(out, row)
	}
	return out
}

func TestPerClassMatchesPeers(t *testing.T) {
	cases := []struct {
		data, fixture string
		perClass      int
		seeds         []uint32
	}{
		{"iris", "testdata/iris_perclass5_seeds0_1_7.csv", 5, []uint32{0, 1, 7}},
		{"usps", "testdata/usps_perclass10_seeds0_3.csv", 10, []uint32{0, 3}},
	}
	for _, c := range cases {
		ds, err := dataset.Embedded(c.data)
		if err != nil {
			t.Fatal(err)
		}
		y := ds.Y
		want := readLines(t, c.fixture)
		for k, s := range c.seeds {
			got, err := PerClass(y, c.perClass, s)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want[k]) {
				t.Errorf("%s seed %d: got %v, peers %v", c.data, s, got, want[k])
			}
		}
	}
}

func TestPerClassKeepsOneUnlabelled(t *testing.T) {
	y := []int{0, 0, 1, 1, 1, -1}
	l, err := PerClass(y, 10, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 3 { // one of class 0, two of class 1
		t.Fatalf("got %v", l)
	}
	if slices.Contains(l, 5) {
		t.Fatal("drew an unlabelled row")
	}
	if _, err := PerClass(y, 0, 1); err == nil {
		t.Fatal("perClass 0 accepted")
	}
	if _, err := PerClass([]int{-1, -1}, 1, 1); err == nil {
		t.Fatal("no labels accepted")
	}
}

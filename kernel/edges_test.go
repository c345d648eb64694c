package kernel

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestReadEdgesIDs: the nodes are the ids that occur, in increasing
// order; a file with ids 0..N−1 keeps row v = id v; ids far beyond the
// number of nodes cost no memory.
func TestReadEdgesIDs(t *testing.T) {
	for _, tc := range []struct {
		in    string
		ids   []int64
		dense bool
	}{
		{"0 1\n1 2\n0 2147483645\n", []int64{0, 1, 2, 2147483645}, false},
		{"0 1\n1 2\n0 1000000000\n", []int64{0, 1, 2, 1000000000}, false},
		{"7 9223372036854775807\n", []int64{7, math.MaxInt64}, false},
		{"5 3\n3 9\n", []int64{3, 5, 9}, false},
		{"2 0\n1 2\n", []int64{0, 1, 2}, true},
	} {
		g, err := ReadEdges(strings.NewReader(tc.in), "e.txt")
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if g.Len() != len(tc.ids) || g.Dense() != tc.dense {
			t.Fatalf("%q: %d nodes (dense %v), want %d (dense %v)", tc.in, g.Len(), g.Dense(), len(tc.ids), tc.dense)
		}
		for v, id := range tc.ids {
			if g.ID(v) != id {
				t.Errorf("%q: ID(%d) = %d, want %d", tc.in, v, g.ID(v), id)
			}
		}
	}
	// the kernel of "5 3\n3 9": rows 3, 5, 9; 3 has degree 2 (Δ = 2)
	g, _ := ReadEdges(strings.NewReader("5 3\n3 9\n"), "e.txt")
	K, err := g.Sym(context.Background(), nil, []int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{2, 1, 1, 1, 2, 0, 1, 0, 2}
	if got := K.RawSymmetric().Data; !slices.Equal(got, want) {
		t.Errorf("K = %v, want %v", got, want)
	}
}

func TestReadEdgesBadLines(t *testing.T) {
	long := strings.Repeat("7", 3<<20)
	for _, tc := range []struct{ in, want string }{
		{"0 1\n0 99999999999999999999\n", `e.txt:2: kernel: bad edge list: node id "99999999999999999999" is out of range (at most 9223372036854775807)`},
		{"0 1\n0 " + long + "\n", "e.txt:2: kernel: bad edge list: line longer than 1048576 bytes"},
		{"0 1\n1 2 3 " + strings.Repeat("4", 100) + "\n", `e.txt:2: kernel: bad edge list: want two node ids "u v", got "1 2 3 44444444444444444444444444"… (106 bytes)`},
		{"0 1\n1 x" + strings.Repeat("y", 60) + "\n", `e.txt:2: kernel: bad edge list: node id "xyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"… (61 bytes) is not an integer`},
	} {
		_, err := ReadEdges(strings.NewReader(tc.in), "e.txt")
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrEdges) {
			t.Errorf("%.20q…: error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// FuzzReadEdges checks ReadEdges against the format read line by line
// here: it fails exactly when a line is bad (not two integers ≥ 0, a self
// loop, an edge again) or no edge is given; otherwise its rows are the
// distinct ids in increasing order and its adjacency is the edge set.
func FuzzReadEdges(f *testing.F) {
	for _, s := range []string{"0 1\n1 2\n", "# c\n% d\n3,1\n\n1\t2\n", "0 1\n1 0\n", "0 0\n", "0 2147483645\n", "-1 2\n", "1 2 3\n", "a b\n", "0 1\r\n2 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > 1<<12 {
			return
		}
		g, err := ReadEdges(strings.NewReader(in), "f.txt")
		// the reference
		type edge [2]int64
		var edges []edge
		seen := map[edge]bool{}
		ok := true
		for _, line := range strings.Split(in, "\n") {
			s := strings.TrimSpace(line)
			if s == "" || s[0] == '#' || s[0] == '%' {
				continue
			}
			f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' })
			if len(f) != 2 {
				ok = false
				break
			}
			var e edge
			for k, x := range f {
				v, perr := strconv.ParseInt(x, 10, 64)
				if perr != nil || v < 0 {
					ok = false
				}
				e[k] = v
			}
			key := edge{min(e[0], e[1]), max(e[0], e[1])}
			if !ok || e[0] == e[1] || seen[key] {
				ok = false
				break
			}
			seen[key] = true
			edges = append(edges, e)
		}
		ok = ok && len(edges) > 0
		if ok != (err == nil) {
			t.Fatalf("%q: ReadEdges error %v, reference accepts: %v", in, err, ok)
		}
		if err != nil {
			if !errors.Is(err, ErrEdges) || !strings.HasPrefix(err.Error(), "f.txt") {
				t.Fatalf("%q: error %v", in, err)
			}
			return
		}
		var ids []int64
		for _, e := range edges {
			ids = append(ids, e[0], e[1])
		}
		slices.Sort(ids)
		ids = slices.Compact(ids)
		if g.Len() != len(ids) || g.Edges() != len(edges) {
			t.Fatalf("%q: %d nodes %d edges, want %d %d", in, g.Len(), g.Edges(), len(ids), len(edges))
		}
		deg := 0
		for v := range g.Len() {
			if g.ID(v) != ids[v] {
				t.Fatalf("%q: ID(%d) = %d, want %d", in, v, g.ID(v), ids[v])
			}
			nb := g.Neighbors(v)
			deg = max(deg, len(nb))
			for _, u := range nb {
				a, b := g.ID(v), g.ID(int(u))
				if !seen[edge{min(a, b), max(a, b)}] {
					t.Fatalf("%q: edge (%d, %d) not in the file", in, a, b)
				}
			}
		}
		if g.MaxDegree() != deg {
			t.Fatalf("%q: Δ %d, want %d", in, g.MaxDegree(), deg)
		}
	})
}

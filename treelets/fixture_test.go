package treelets

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// readCSV reads a headerless (or, with header, skips the first line)
// numeric CSV file.
func readCSV(t *testing.T, path string, header bool) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for ln := 0; sc.Scan(); ln++ {
		if header && ln == 0 {
			continue
		}
		fs := strings.Split(sc.Text(), ",")
		row := make([]float64, len(fs))
		for i, s := range fs {
			if row[i], err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
				t.Fatalf("%s:%d: %v", path, ln+1, err)
			}
		}
		out = append(out, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func denseOf(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// TestSignedAgainstR: the Signed rule equals R's treelet 1.1 Run_JTree
// (testdata/make_r_fixtures.R) merge for merge and rotation for rotation,
// with the same basis and rotated matrix. Tolerances: R updates its
// correlation matrix incrementally and forms rotations by atan, so values
// agree to rounding, scaled by the matrix size (1e-9 relative).
func TestSignedAgainstR(t *testing.T) {
	for _, name := range []string{"mixed10", "mixed25", "antiblocks12", "ahat", "rbf20"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata", "r")
			A := denseOf(readCSV(t, filepath.Join(dir, name+"_A.csv"), false))
			n, _ := A.Dims()
			m, err := Settings{Similarity: Signed}.Fit(context.Background(), A)
			if err != nil {
				t.Fatal(err)
			}
			lv := readCSV(t, filepath.Join(dir, name+"_levels.csv"), true)
			if len(lv) != n-1 {
				t.Fatalf("%d fixture levels for n = %d", len(lv), n)
			}
			for k, r := range lv {
				l := m.Levels[k]
				sum, diff := int(r[3])-1, int(r[4])-1
				if l.Sum != sum || l.Diff != diff {
					t.Fatalf("level %d: merged (sum %d, diff %d), R (sum %d, diff %d)", k+1, l.Sum, l.Diff, sum, diff)
				}
				// R's rows (i, j) become [[cs, sn], [−sn, cs]]·rows: in the
				// (Sum, Diff) order of Level that is (cs, sn) if the sum is
				// i, else (cs, −sn)
				cs, sn := r[5], r[6]
				if int(r[1])-1 != sum {
					sn = -sn
				}
				if math.Abs(l.Cos-cs) > 1e-9 || math.Abs(l.Sin-sn) > 1e-9 {
					t.Errorf("level %d: rotation (cos %v, sin %v), R (%v, %v)", k+1, l.Cos, l.Sin, cs, sn)
				}
				if math.Abs(l.Similarity-r[7]) > 1e-9 {
					t.Errorf("level %d: similarity %v, R %v", k+1, l.Similarity, r[7])
				}
			}
			for _, c := range []struct {
				file  string
				level int
			}{{"_basis.csv", n - 1}, {"_mid.csv", n / 2}} {
				want := denseOf(readCSV(t, filepath.Join(dir, name+c.file), false))
				B, err := m.Basis(nil, c.level)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.EqualApprox(B, want, 1e-9) {
					t.Errorf("basis at level %d differs from R's", c.level)
				}
			}
			work := mat.NewSymDense(n, nil)
			for i := 0; i < n; i++ {
				for j := i; j < n; j++ {
					work.SetSym(i, j, A.At(i, j))
				}
			}
			if _, err := (Settings{Similarity: Signed}).FitInPlace(context.Background(), work); err != nil {
				t.Fatal(err)
			}
			cov := denseOf(readCSV(t, filepath.Join(dir, name+"_cov.csv"), false))
			if !mat.EqualApprox(work, cov, 1e-9*mat.Norm(A, math.Inf(1))) {
				t.Errorf("rotated matrix differs from R's TreeCovs[[n-1]]")
			}
		})
	}
}

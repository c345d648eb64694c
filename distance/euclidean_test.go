package distance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/mat"
)

type fixtureCase struct {
	Name        string
	X, B        [][]float64
	Euclidean   []float64
	SqEuclidean []float64
	Cdist       [][]float64
}

func loadFixtures(t *testing.T) []fixtureCase {
	t.Helper()
	raw, err := os.ReadFile("testdata/fixtures.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []fixtureCase }
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

func dense(rows [][]float64) *mat.Dense {
	m := mat.NewDense(len(rows), len(rows[0]), nil)
	for i, r := range rows {
		m.SetRow(i, r)
	}
	return m
}

// relClose compares with a relative tolerance of 1e-12 (the contract's bound;
// with the same summation order as scipy the values are in fact identical).
func relClose(a, b float64) bool {
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b)) || a == b
}

func TestEuclideanMatchesScipy(t *testing.T) {
	ctx := context.Background()
	for _, c := range loadFixtures(t) {
		X := dense(c.X)
		for _, m := range []struct {
			name string
			f    func(context.Context, mat.Matrix) (Condensed, error)
			want []float64
		}{{"euclidean", Euclidean, c.Euclidean}, {"sqeuclidean", SqEuclidean, c.SqEuclidean}} {
			got, err := m.f(ctx, X)
			if err != nil {
				t.Fatalf("%s %s: %v", c.Name, m.name, err)
			}
			if got.N != len(c.X) || len(got.Data) != len(m.want) {
				t.Fatalf("%s %s: got N=%d len=%d, want len %d", c.Name, m.name, got.N, len(got.Data), len(m.want))
			}
			exact := 0
			for k := range m.want {
				if !relClose(got.Data[k], m.want[k]) {
					t.Errorf("%s %s[%d] = %v, scipy %v", c.Name, m.name, k, got.Data[k], m.want[k])
				}
				if got.Data[k] == m.want[k] {
					exact++
				}
			}
			// Same summation order as scipy: the values are bit-identical.
			if exact != len(m.want) {
				t.Errorf("%s %s: only %d/%d bit-identical to scipy", c.Name, m.name, exact, len(m.want))
			}
		}
		// Same values through a non-Dense mat.Matrix (a transpose of a transpose).
		got, err := Euclidean(ctx, X.T().T())
		if err != nil {
			t.Fatal(err)
		}
		for k := range c.Euclidean {
			if !relClose(got.Data[k], c.Euclidean[k]) {
				t.Fatalf("%s via mat.Matrix: [%d] = %v, want %v", c.Name, k, got.Data[k], c.Euclidean[k])
			}
		}
	}
}

func TestCrossMatchesScipy(t *testing.T) {
	for _, c := range loadFixtures(t) {
		A, B := dense(c.X), dense(c.B)
		got := Cross(nil, A, B)
		got2, err := CrossErr(context.Background(), mat.NewDense(len(c.X), len(c.B), nil), A, B)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Cdist {
			for j, want := range c.Cdist[i] {
				if !relClose(got.At(i, j), want) || got2.At(i, j) != got.At(i, j) {
					t.Errorf("%s cdist[%d,%d] = %v / %v, scipy %v", c.Name, i, j, got.At(i, j), got2.At(i, j), want)
				}
			}
		}
	}
}

func randDense(n, d int, seed uint64) *mat.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	X := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			X.Set(i, j, r.Float64())
		}
	}
	return X
}

func TestEuclideanInvariants(t *testing.T) {
	X := randDense(70, 4, 1)
	c, err := Euclidean(context.Background(), X)
	if err != nil {
		t.Fatal(err)
	}
	sq, _ := SqEuclidean(context.Background(), X)
	S := c.Square(nil)
	for i := 0; i < c.N; i++ {
		if S.At(i, i) != 0 {
			t.Fatalf("diagonal %d = %v", i, S.At(i, i))
		}
		for j := 0; j < c.N; j++ {
			if i != j && S.At(i, j) != math.Sqrt(sq.At(i, j)) {
				t.Fatalf("d(%d,%d)=%v != sqrt(sq)=%v", i, j, S.At(i, j), math.Sqrt(sq.At(i, j)))
			}
			for k := 0; k < c.N; k += 7 {
				if S.At(i, j) > S.At(i, k)+S.At(k, j)+1e-12 {
					t.Fatalf("triangle inequality fails at %d,%d,%d", i, j, k)
				}
			}
		}
	}
	back := FromSymmetric(S)
	for k := range back.Data {
		if back.Data[k] != c.Data[k] {
			t.Fatal("FromSymmetric(Square(c)) != c")
		}
	}
}

func TestEuclideanGOMAXPROCS(t *testing.T) {
	X := randDense(301, 7, 2)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var res [][]float64
	var cross []*mat.Dense
	for _, p := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(p)
		c, err := Euclidean(context.Background(), X)
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, c.Data)
		cross = append(cross, Cross(nil, X, X.Slice(0, 13, 0, 7)))
	}
	for p := 1; p < len(res); p++ {
		for k := range res[0] {
			if res[p][k] != res[0][k] {
				t.Fatalf("GOMAXPROCS variant %d differs at %d", p, k)
			}
		}
		if !mat.Equal(cross[p], cross[0]) {
			t.Fatalf("Cross differs for GOMAXPROCS variant %d", p)
		}
	}
}

func TestBadInput(t *testing.T) {
	ctx := context.Background()
	nan := mat.NewDense(3, 2, []float64{0, 1, 2, math.NaN(), 4, 5})
	inf := mat.NewDense(2, 2, []float64{0, 1, math.Inf(-1), 3})
	for _, tc := range []struct {
		name string
		X    mat.Matrix
		want error
	}{
		{"nan", nan, ErrNonFinite},
		{"inf", inf, ErrNonFinite},
		{"nil", nil, ErrEmpty},
		{"empty", &mat.Dense{}, ErrEmpty},
	} {
		_, err := Euclidean(ctx, tc.X)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: Euclidean error %v, want %v", tc.name, err, tc.want)
		}
		_, err = SqEuclidean(ctx, tc.X)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: SqEuclidean error %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := Euclidean(ctx, nan); err == nil || err.Error() != "distance: non-finite value: X[1,1] = NaN" {
		t.Errorf("message %q does not locate the NaN", err)
	}
	if _, err := CrossErr(ctx, nil, nan, nan); !errors.Is(err, ErrNonFinite) {
		t.Errorf("CrossErr NaN: %v", err)
	}
	if _, err := CrossErr(ctx, nil, inf, mat.NewDense(1, 3, nil)); !errors.Is(err, ErrShape) {
		t.Errorf("CrossErr shape: %v", err)
	}
	fin := mat.NewDense(2, 2, []float64{0, 1, 2, 3})
	if _, err := CrossErr(ctx, mat.NewDense(5, 5, nil), fin, fin); !errors.Is(err, ErrShape) {
		t.Errorf("CrossErr dst shape: %v", err)
	}
	one, err := Euclidean(ctx, mat.NewDense(1, 3, nil))
	if err != nil || one.N != 1 || len(one.Data) != 0 {
		t.Errorf("one point: %v %v", one, err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Euclidean(cctx, randDense(100, 2, 1)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func BenchmarkEuclidean(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		if n > 2000 && testing.Short() {
			continue
		}
		X := randDense(n, 10, 0)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Euclidean(context.Background(), X); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package modelio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var errFormat = errors.New("test: model format")

type doc struct {
	Format  string    `json:"format"`
	Version int       `json:"version"`
	X       []float64 `json:"x"`
}

func TestRoundTripAndErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, doc{Format: "arbor-test", Version: 1, X: []float64{1, 0.5}}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	var got doc
	if err := Decode(strings.NewReader(text), &got, "arbor-test", 1, errFormat); err != nil || len(got.X) != 2 || got.X[1] != 0.5 {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for name, c := range map[string]struct{ in, want string }{
		"foreign":   {strings.Replace(text, "arbor-test", "arbor-svm", 1), `format "arbor-svm", want "arbor-test"`},
		"newer":     {strings.Replace(text, `"version": 1`, `"version": 2`, 1), "version 2, this reader supports 1"},
		"truncated": {text[:len(text)/2], "unexpected end"},
		"unknown":   {strings.Replace(text, `"x"`, `"y"`, 1), "unknown field"},
		"not json":  {"ARBOR-PIPELINE 1\n", "invalid character"},
	} {
		err := Decode(strings.NewReader(c.in), &doc{}, "arbor-test", 1, errFormat)
		if !errors.Is(err, errFormat) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrFormat with %q", name, err, c.want)
		}
	}
}

// TestFloats: a float block round-trips bit for bit (negative zero, NaN
// payload, extremes) and a damaged one is an error.
func TestFloats(t *testing.T) {
	in := Floats{0, math.Copysign(0, -1), 1.0 / 3, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Float64frombits(0x7ff8000000000123)}
	js, err := json.Marshal(struct{ X Floats }{in})
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ X Floats }
	if err := json.Unmarshal(js, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.X) != len(in) {
		t.Fatalf("%d values, want %d", len(out.X), len(in))
	}
	for i := range in {
		if math.Float64bits(out.X[i]) != math.Float64bits(in[i]) {
			t.Errorf("value %d: bits %x, want %x", i, math.Float64bits(out.X[i]), math.Float64bits(in[i]))
		}
	}
	// Every length across the 24-value chunks, the escaped form of a block
	// (encoding/json's path) and the direct one give the same values.
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 75; n++ {
		in := make(Floats, n)
		for i := range in {
			in[i] = math.Float64frombits(r.Uint64())
		}
		js, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		var out, esc Floats
		if err := json.Unmarshal(js, &out); err != nil {
			t.Fatalf("%d values: %v", n, err)
		}
		if n > 0 {
			escaped := append([]byte(`"\u00`+fmt.Sprintf("%x", js[1])), js[2:]...)
			if err := json.Unmarshal(escaped, &esc); err != nil {
				t.Fatalf("%d values, escaped: %v", n, err)
			}
		}
		for i := range in {
			if math.Float64bits(out[i]) != math.Float64bits(in[i]) || math.Float64bits(esc[i]) != math.Float64bits(in[i]) {
				t.Fatalf("%d values: value %d differs", n, i)
			}
		}
		if len(out) != n {
			t.Fatalf("%d values: got %d", n, len(out))
		}
	}
	// Padding inside a block (two blocks glued), a length that is not whole values.
	one, _ := json.Marshal(Floats{1})
	two := `"` + strings.Repeat(string(one[1:len(one)-1]), 2) + `"`
	var out2 Floats
	if err := json.Unmarshal([]byte(two), &out2); err == nil {
		t.Errorf("padding inside the block: %v, no error", out2)
	}
	long, _ := json.Marshal(make(Floats, 30))
	glued := `"` + string(one[1:len(one)-1]) + string(long[1:len(long)-1]) + `"`
	if err := json.Unmarshal([]byte(glued), &out2); err == nil {
		t.Errorf("padding inside a long block: no error")
	}
	for _, bad := range []string{`{"X": "AAAA"}`, `{"X": "!!"}`, `{"X": 3}`, `{"X": "AAAAAAAAAAA"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestProduct: block sizes from counts read in a file never wrap around.
func TestProduct(t *testing.T) {
	for _, c := range []struct {
		r, c, want int
		ok         bool
	}{
		{3, 4, 12, true}, {0, 5, 0, true}, {5, 0, 0, true}, {-1, 4, 0, false}, {4, -1, 0, false},
		{2, 1 << 62, 0, false}, {1 << 32, 1 << 32, 0, false}, {1, math.MaxInt, math.MaxInt, true},
		{3, math.MaxInt/3 + 1, 0, false},
	} {
		got, ok := Product(c.r, c.c)
		if got != c.want || ok != c.ok {
			t.Errorf("Product(%d, %d) = %d, %v; want %d, %v", c.r, c.c, got, ok, c.want, c.ok)
		}
	}
	// 4·2⁶² wraps to 0, the length of an empty block.
	if IsShape(0, 4, 1<<62) || IsShape(0, 0, 3) || IsShape(-6, -2, 3) || !IsShape(6, 2, 3) {
		t.Error("IsShape accepts a wrapped or empty shape, or refuses 2×3")
	}
}

// TestLongFormatQuoted: a foreign document's format name is quoted to 40
// characters in the error, not echoed whole.
func TestLongFormatQuoted(t *testing.T) {
	long := strings.Repeat("x", 100000)
	err := Decode(strings.NewReader(`{"format":"`+long+`","version":1}`), &doc{}, "arbor-test", 1, errFormat)
	if !errors.Is(err, errFormat) || len(err.Error()) > 120 || !strings.Contains(err.Error(), strings.Repeat("x", 40)+`"`) {
		t.Errorf("%.200v (%d bytes), want the format quoted to 40 characters", err, len(err.Error()))
	}
}

package arborbeam

import (
	"reflect"
	"testing"
)

// TestChunkCoder: a chunk read back from its encoding equals it (nil and
// empty lists kept apart, empty strings, features), and a cut encoding
// is an error, never a panic.
func TestChunkCoder(t *testing.T) {
	for _, c := range []Chunk{
		{File: "in/a.csv", Pos: 1234, IDName: "name", IDs: []string{"r1", "", "r3"}, Labels: []string{"c0", "?", "class one"}},
		{File: "gs://b/x.csv", Pos: -1, Labels: []string{}},
		{File: "p.parquet", Pos: 7, Dim: 2, Z: []float64{1.5, -0.25, 3e-300, 0}, IDs: []string{"a", "b"}},
		{},
	} {
		b := encodeChunk(c)
		got, err := decodeChunk(b)
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Fatalf("%+v read back as %+v, %v", c, got, err)
		}
		for n := 0; n < len(b); n++ {
			if _, err := decodeChunk(b[:n]); err == nil {
				t.Fatalf("%+v: the first %d of %d bytes read without an error", c, n, len(b))
			}
		}
	}
}

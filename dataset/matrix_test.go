package dataset

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/internal/npy"
	"gonum.org/v1/gonum/mat"
)

// TestWriteMatrix: every format reads back to the matrix (float32 files to
// its entries rounded to float32), and a cancelled context stops the write.
func TestWriteMatrix(t *testing.T) {
	m := mat.NewDense(3, 2, []float64{1, -2.5, math.Pi, 1e-300, 0.1, 7})
	for _, c := range []struct {
		path string
		f32  bool
		want MatrixFormat
	}{{"K.csv", false, MatrixCSV}, {"K.NPY", false, MatrixNpy}, {"k.npy", true, MatrixNpy32}, {"k.Csv", true, MatrixCSV}} {
		f, err := MatrixFormatOf(c.path, c.f32)
		if err != nil || f != c.want {
			t.Fatalf("%s: format %v, %v", c.path, f, err)
		}
		var b bytes.Buffer
		if err := WriteMatrix(context.Background(), &b, m, f); err != nil {
			t.Fatal(err)
		}
		var got *mat.Dense
		if f == MatrixCSV {
			got = mat.NewDense(3, 2, nil)
			for i, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
				for j, cell := range strings.Split(line, ",") {
					v, err := strconv.ParseFloat(cell, 64)
					if err != nil {
						t.Fatal(err)
					}
					got.Set(i, j, v)
				}
			}
		} else if f == MatrixNpy32 { // '<f4' after the header (npy.Read takes '<f8' only)
			raw := b.Bytes()
			data := raw[10+int(binary.LittleEndian.Uint16(raw[8:10])):]
			got = mat.NewDense(3, 2, nil)
			for k := range 6 {
				got.Set(k/2, k%2, float64(math.Float32frombits(binary.LittleEndian.Uint32(data[4*k:]))))
			}
		} else if got, err = npy.Read(&b); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			for j := 0; j < 2; j++ {
				want := m.At(i, j)
				if f == MatrixNpy32 {
					want = float64(float32(want))
				}
				if got.At(i, j) != want {
					t.Fatalf("%s: (%d,%d) = %v, want %v", c.path, i, j, got.At(i, j), want)
				}
			}
		}
	}
	if _, err := MatrixFormatOf("K.txt", false); err == nil {
		t.Error("K.txt: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, f := range []MatrixFormat{MatrixCSV, MatrixNpy} {
		if err := WriteMatrix(ctx, &bytes.Buffer{}, m, f); !errors.Is(err, context.Canceled) {
			t.Errorf("format %v, cancelled: %v", f, err)
		}
	}
}

// TestWriteMatrixRows: the matrix written a block of rows at a time is
// WriteMatrix's file byte for byte, in CSV and .npy, for blocks of one
// row, of a few, of all rows and more; fill's error stops the write.
func TestWriteMatrixRows(t *testing.T) {
	ctx := context.Background()
	r, c := 11, 3
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			m.Set(i, j, math.Ldexp(float64(i*c+j)-7.25, i-5)/3)
		}
	}
	for _, f := range []MatrixFormat{MatrixCSV, MatrixNpy} {
		var want bytes.Buffer
		if err := WriteMatrix(ctx, &want, m, f); err != nil {
			t.Fatal(err)
		}
		for _, block := range []int{1, 4, r, r + 5} {
			var got bytes.Buffer
			err := WriteMatrixRows(ctx, &got, r, c, block, func(lo, hi int, dst []float64) error {
				if lo%block != 0 || len(dst) != (hi-lo)*c {
					t.Fatalf("fill(%d, %d) with %d values, block %d", lo, hi, len(dst), block)
				}
				for i := lo; i < hi; i++ {
					copy(dst[(i-lo)*c:], m.RawRowView(i))
				}
				return nil
			}, f)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("format %d, block %d: the file differs from WriteMatrix's", f, block)
			}
		}
		boom := errors.New("boom")
		err := WriteMatrixRows(ctx, io.Discard, r, c, 4, func(lo, hi int, dst []float64) error {
			if lo > 0 {
				return boom
			}
			return nil
		}, f)
		if !errors.Is(err, boom) {
			t.Errorf("format %d: err = %v, want fill's", f, err)
		}
	}
}

package dataset

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/npy"
)

// MatrixFormat is a file format of WriteMatrix.
type MatrixFormat int

const (
	// MatrixCSV is comma-separated rows, every entry at full precision
	// (strconv 'g', -1: it reads back to the same float64).
	MatrixCSV MatrixFormat = iota
	// MatrixNpy is a NumPy .npy file of float64 ('<f8').
	MatrixNpy
	// MatrixNpy32 is a NumPy .npy file of float32 ('<f4'), each entry
	// rounded to float32 (for matrices kept in float32, such as
	// kernel.Sym32: half the file).
	MatrixNpy32
)

// MatrixFormatOf is the format of path by its extension: .npy (MatrixNpy,
// or MatrixNpy32 with f32) or .csv, in any case; another extension is an
// error.
func MatrixFormatOf(path string, f32 bool) (MatrixFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return MatrixCSV, nil
	case ".npy":
		if f32 {
			return MatrixNpy32, nil
		}
		return MatrixNpy, nil
	}
	return 0, fmt.Errorf("dataset: %s: a matrix file ends in .csv or .npy", path)
}

// WriteMatrix writes m (any mat.Matrix, or anything with its Dims and At)
// to w in format f. It stops with ctx.Err() when ctx is cancelled: CSV
// checks it every row, .npy once written.
func WriteMatrix(ctx context.Context, w io.Writer, m interface {
	Dims() (r, c int)
	At(i, j int) float64
}, f MatrixFormat) error {
	switch f {
	case MatrixNpy, MatrixNpy32:
		write := npy.Write
		if f == MatrixNpy32 {
			write = npy.Write32
		}
		if err := write(w, m); err != nil {
			return err
		}
		return ctx.Err()
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	r, c := m.Dims()
	buf := make([]byte, 0, 32)
	for i := 0; i < r; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		for j := 0; j < c; j++ {
			if j > 0 {
				bw.WriteByte(',')
			}
			buf = strconv.AppendFloat(buf[:0], m.At(i, j), 'g', -1, 64)
			bw.Write(buf)
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// WriteMatrixRows writes an r×c matrix whose rows fill gives, block rows
// at a time, to w in format f (MatrixCSV or MatrixNpy): fill(lo, hi, dst)
// sets dst, (hi−lo)×c row-major, to the rows lo..hi−1, lo a multiple of
// block. The file is WriteMatrix's for the same rows, byte for byte, and
// only one block is held: a matrix too large for memory is written as it
// is computed. It stops with ctx.Err() when ctx is cancelled (checked
// every block) and with fill's error.
func WriteMatrixRows(ctx context.Context, w io.Writer, r, c, block int, fill func(lo, hi int, dst []float64) error, f MatrixFormat) error {
	if block < 1 {
		return fmt.Errorf("dataset: WriteMatrixRows: block of %d rows", block)
	}
	checked := func(lo, hi int, dst []float64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return fill(lo, hi, dst)
	}
	switch f {
	case MatrixNpy:
		return npy.WriteRows(w, r, c, block, checked)
	case MatrixCSV:
	default:
		return fmt.Errorf("dataset: WriteMatrixRows writes .csv or float64 .npy, not format %d", f)
	}
	bw := bufio.NewWriterSize(w, 1<<20)
	vals := make([]float64, min(block, r)*c)
	buf := make([]byte, 0, 32)
	for lo := 0; lo < r; lo += block {
		hi := min(lo+block, r)
		if err := checked(lo, hi, vals[:(hi-lo)*c]); err != nil {
			return err
		}
		for i := 0; i < hi-lo; i++ {
			for j, v := range vals[i*c : (i+1)*c] {
				if j > 0 {
					bw.WriteByte(',')
				}
				buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
				bw.Write(buf)
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

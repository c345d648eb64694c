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

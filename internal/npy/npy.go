// Package npy reads and writes dense float64 matrices in NumPy's .npy
// format (version 1.0, little-endian '<f8', C order), so kernels computed
// by Arbor load with numpy.load and vice versa.
package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/mat"
)

var magic = []byte("\x93NUMPY")

// ErrFormat reports a file that is not a supported .npy matrix.
var ErrFormat = errors.New("npy: unsupported format")

// Write writes m as a 2-d float64 array.
func Write(w io.Writer, m Matrix) error {
	return write(w, m, "<f8", 8, func(b []byte, v float64) {
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	})
}

// Write32 writes m as a 2-d float32 array ('<f4'), each entry rounded to
// float32 (for matrices kept in float32, such as kernel.Sym32: half the
// file).
func Write32(w io.Writer, m Matrix) error {
	return write(w, m, "<f4", 4, func(b []byte, v float64) {
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	})
}

// Matrix is what Write reads: the dimensions and the entries (a
// mat.Matrix is one).
type Matrix interface {
	Dims() (r, c int)
	At(i, j int) float64
}

// WriteRows writes an r×c float64 array whose rows fill gives, block
// rows at a time: fill(i0, i1, dst) sets dst, (i1−i0)×c row-major, to the
// rows i0..i1−1 (i0 a multiple of block). The file is Write's for the same
// rows, and only one block is held.
func WriteRows(w io.Writer, r, c, block int, fill func(i0, i1 int, dst []float64) error) error {
	return writeRows(w, r, c, block, "<f8", 8, func(b []byte, v float64) {
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	}, fill)
}

// StreamHeaderSize is the length of every StreamHeader.
const StreamHeaderSize = 128

// StreamHeader returns the version-1.0 header of an r×c float64 array
// (C order) padded to StreamHeaderSize bytes whatever r and c are, so that
// a file whose row count is known only at the end can be written with a
// provisional header (r = 0), its rows appended (AppendRow), and the
// header rewritten in place with the count.
func StreamHeader(r, c int) []byte {
	header := fmt.Sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }", r, c)
	b := make([]byte, 0, StreamHeaderSize)
	b = append(b, magic...)
	b = append(b, 1, 0)
	b = binary.LittleEndian.AppendUint16(b, uint16(StreamHeaderSize-10))
	b = append(b, header...)
	for len(b) < StreamHeaderSize-1 {
		b = append(b, ' ')
	}
	return append(b, '\n')
}

// AppendRows writes the rows of m, entries as little-endian float64:
// rows of the array a StreamHeader announces.
func AppendRows(w io.Writer, m Matrix) error {
	r, c := m.Dims()
	rows := rowReader(m)
	const block = 64
	vals := make([]float64, min(block, r)*c)
	buf := make([]byte, 8*len(vals))
	for i0 := 0; i0 < r; i0 += block {
		i1 := min(r, i0+block)
		rows(i0, i1, vals[:(i1-i0)*c])
		for j, v := range vals[:(i1-i0)*c] {
			binary.LittleEndian.PutUint64(buf[8*j:], math.Float64bits(v))
		}
		if _, err := w.Write(buf[:8*(i1-i0)*c]); err != nil {
			return err
		}
	}
	return nil
}

// write writes the version-1.0 header of a C-order 2-d array of dtype
// descr and then m's entries row by row, each put into size bytes.
func write(w io.Writer, m Matrix, descr string, size int, put func([]byte, float64)) error {
	r, c := m.Dims()
	rows := rowReader(m)
	return writeRows(w, r, c, 64, descr, size, put, func(i0, i1 int, dst []float64) error {
		rows(i0, i1, dst)
		return nil
	})
}

// writeRows writes the header and then the rows fill gives, block rows at
// a time, each entry put into size bytes.
func writeRows(w io.Writer, r, c, block int, descr string, size int, put func([]byte, float64), fill func(i0, i1 int, dst []float64) error) error {
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d, %d), }", descr, r, c)
	// Pad so that magic(6)+version(2)+len(2)+header+'\n' is a multiple of 64.
	total := 10 + len(header) + 1
	pad := (64 - total%64) % 64
	header += strings.Repeat(" ", pad) + "\n"
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(magic)
	bw.Write([]byte{1, 0})
	var hl [2]byte
	binary.LittleEndian.PutUint16(hl[:], uint16(len(header)))
	bw.Write(hl[:])
	bw.WriteString(header)
	buf := make([]byte, size*c)
	vals := make([]float64, min(block, r)*c)
	for i0 := 0; i0 < r; i0 += block {
		i1 := min(r, i0+block)
		if err := fill(i0, i1, vals[:(i1-i0)*c]); err != nil {
			return err
		}
		for i := i0; i < i1; i++ {
			for j, v := range vals[(i-i0)*c : (i-i0+1)*c] {
				put(buf[j*size:], v)
			}
			if _, err := bw.Write(buf); err != nil {
				return err
			}
		}
	}
	return bw.Flush()
}

// rowReader returns a function that copies rows i0..i1−1 of m into dst
// (row-major, as many columns as m): from the backing array of a
// *mat.Dense or an upper-stored *mat.SymDense (the values At returns,
// without a call per entry; the symmetric lower part read along the rows
// of the upper triangle), through At otherwise.
func rowReader(m Matrix) func(i0, i1 int, dst []float64) {
	_, c := m.Dims()
	switch m := m.(type) {
	case *mat.Dense:
		raw := m.RawMatrix()
		return func(i0, i1 int, dst []float64) {
			for i := i0; i < i1; i++ {
				copy(dst[(i-i0)*c:(i-i0+1)*c], raw.Data[i*raw.Stride:i*raw.Stride+c])
			}
		}
	case *mat.SymDense:
		if raw := m.RawSymmetric(); raw.Uplo == blas.Upper {
			return func(i0, i1 int, dst []float64) {
				for i := i0; i < i1; i++ {
					copy(dst[(i-i0)*c+i:(i-i0+1)*c], raw.Data[i*raw.Stride+i:i*raw.Stride+c])
				}
				for j := 0; j < i1-1; j++ {
					for i := max(i0, j+1); i < i1; i++ {
						dst[(i-i0)*c+j] = raw.Data[j*raw.Stride+i]
					}
				}
			}
		}
	}
	return func(i0, i1 int, dst []float64) {
		for i := i0; i < i1; i++ {
			for j := 0; j < c; j++ {
				dst[(i-i0)*c+j] = m.At(i, j)
			}
		}
	}
}

var shapeRE = regexp.MustCompile(`'shape':\s*\((\d+),\s*(\d*)\s*\)`)

// Read reads a 2-d (or 1-d, as a column) '<f8' C-order array.
func Read(r io.Reader) (*mat.Dense, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var pre [8]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil || string(pre[:6]) != string(magic) {
		return nil, fmt.Errorf("%w: missing .npy magic", ErrFormat)
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, fmt.Errorf("%w: short header", ErrFormat)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, fmt.Errorf("%w: short header", ErrFormat)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("%w: version %d", ErrFormat, pre[6])
	}
	if hlen > 1<<20 {
		return nil, fmt.Errorf("%w: header too long", ErrFormat)
	}
	h := make([]byte, hlen)
	if _, err := io.ReadFull(br, h); err != nil {
		return nil, fmt.Errorf("%w: short header", ErrFormat)
	}
	header := string(h)
	if !strings.Contains(header, "'<f8'") {
		return nil, fmt.Errorf("%w: dtype is not '<f8' (little-endian float64): %s", ErrFormat, strings.TrimSpace(header))
	}
	if strings.Contains(header, "True") {
		return nil, fmt.Errorf("%w: Fortran order not supported", ErrFormat)
	}
	sm := shapeRE.FindStringSubmatch(header)
	if sm == nil {
		return nil, fmt.Errorf("%w: shape is not 1-d or 2-d: %s", ErrFormat, strings.TrimSpace(header))
	}
	rows, _ := strconv.Atoi(sm[1])
	cols := 1
	if sm[2] != "" {
		cols, _ = strconv.Atoi(sm[2])
	}
	if rows == 0 || cols == 0 {
		return nil, fmt.Errorf("%w: empty array", ErrFormat)
	}
	if rows*cols > 1<<31 {
		return nil, fmt.Errorf("%w: array too large", ErrFormat)
	}
	data := make([]float64, rows*cols)
	var buf [8]byte
	for i := range data {
		if _, err := io.ReadFull(br, buf[:]); err != nil {
			return nil, fmt.Errorf("%w: truncated data (%d of %d values)", ErrFormat, i, len(data))
		}
		data[i] = math.Float64frombits(binary.LittleEndian.Uint64(buf[:]))
	}
	return mat.NewDense(rows, cols, data), nil
}

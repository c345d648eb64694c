package dataset

import (
	"errors"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/internal/gzfile"
)

// Stdin is the path that names standard input, as Unix tools take it:
// Options.Path, Options.LoadNew's path and OpenInput read the reader
// they are given instead of a file.
const Stdin = "-"

// StdinName is how errors and reports name standard input where they
// name a file ("standard input:12: column "x3": not a number "1,5"").
const StdinName = "standard input"

// InputName is how errors name the input path: StdinName for Stdin, the
// path otherwise.
func InputName(path string) string {
	if path == Stdin {
		return StdinName
	}
	return path
}

// ErrNoStdin: a path of Stdin with no standard input to read.
var ErrNoStdin = errors.New("no standard input")

// OpenInput opens an input path as OpenData does, or, for Stdin, reads
// stdin: decompressed on the fly when it starts with the gzip magic bytes
// 1f 8b (it has no name to go by; members one after the other, as Open
// reads a .gz file), as it is otherwise. It reads stdin once and never
// closes it. Errors name StdinName: ErrEmpty (wrapped in a *ParseError)
// when stdin has no byte at all, ErrCompressed for a gzip header that
// cannot be read, ErrNoStdin when stdin is nil; OpenData's for a path.
func OpenInput(path string, stdin io.Reader) (io.ReadCloser, error) {
	if path != Stdin {
		return OpenData(path)
	}
	if stdin == nil {
		return nil, fmt.Errorf("%s: %w to read", StdinName, ErrNoStdin)
	}
	return openStream(stdin, StdinName)
}

// openStream is OpenInput's reading of r, named name in errors.
func openStream(r io.Reader, name string) (io.ReadCloser, error) {
	return gzfile.Reader(r, name, &ParseError{File: name, Err: fmt.Errorf("%w: nothing was read (0 bytes)", ErrEmpty)})
}

// ReadData reads a data set from r as Load reads a file, for an input
// without a name to go by (standard input, a pipe): gzip is detected by
// its magic bytes, the format (LIBSVM or delimited text) by the content.
// r is read once. Errors are Load's, naming name.
func ReadData(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	rc, err := openStream(r, name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	d, err := readData(rc, name, opt, true)
	return d, StreamError(rc, name, err)
}

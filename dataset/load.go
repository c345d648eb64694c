package dataset

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Load reads a data file, choosing the reader by extension: ".csv" for
// ReadCSV (with opt), ".libsvm", ".svm", ".svmlight" or ".txt" for
// ReadLIBSVM (only opt.OneRow applies). A further ".gz" (e.g. "usps.csv.gz") is
// decompressed on the fly. Extensions are case-insensitive. Errors name
// the path: ErrFormat for an unknown extension, the reader's *ParseError,
// or the error of opening or decompressing the file.
func Load(path string, opt CSVOptions) (*Dataset, error) {
	base := strings.ToLower(filepath.Base(path))
	gz := strings.HasSuffix(base, ".gz")
	base = strings.TrimSuffix(base, ".gz")
	var read func(io.Reader) (*Dataset, error)
	switch filepath.Ext(base) {
	case ".csv":
		read = func(r io.Reader) (*Dataset, error) { return ReadCSV(r, path, opt) }
	case ".libsvm", ".svm", ".svmlight", ".txt":
		read = func(r io.Reader) (*Dataset, error) {
			ds, err := readLIBSVM(r, path, opt.OneRow)
			var pe *ParseError
			if err != nil && errors.As(err, &pe) && pe.Line == 1 && strings.Contains(err.Error(), ",") {
				// A comma-separated header: a CSV file with a LIBSVM name.
				err = fmt.Errorf("%w (%s is read as LIBSVM/SVMlight text by its extension; a CSV file must end in .csv)", err, filepath.Base(path))
			}
			return ds, err
		}
	default:
		return nil, fmt.Errorf("%s: %w: want .csv, .libsvm, .svm, .svmlight or .txt, optionally .gz", path, ErrFormat)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if gz {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer zr.Close()
		r = zr
	}
	return read(r)
}

package dataset

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// Load reads a data file. The format comes from the content: LIBSVM /
// SVMlight text when every sampled line is "label index:value ...",
// delimited text (ReadCSV with opt: comma, tab, semicolon or blank
// separated) otherwise. A ".csv" or ".tsv" name is always read as
// delimited text. Gzip data are decompressed on the fly (Open: found by
// their magic bytes; a further ".gz", as in "usps.csv.gz", says the file
// is gzip data). Names of formats Arbor does not read (.json, .xlsx, .npy, …)
// give ErrFormat. Errors name the path: the reader's *ParseError, or the
// error of opening or decompressing the file.
func Load(path string, opt CSVOptions) (*Dataset, error) {
	base := strings.ToLower(filepath.Base(path))
	base = strings.TrimSuffix(base, ".gz")
	ext := filepath.Ext(base)
	switch ext {
	case ".json", ".jsonl", ".xlsx", ".xls", ".ods", ".npy", ".npz", ".parquet", ".feather",
		".zip", ".mat", ".h5", ".hdf5", ".pkl", ".pickle", ".arff", ".sav", ".rds", ".rdata":
		return nil, fmt.Errorf("%s: %w %s: want delimited text (CSV, TSV, …) or LIBSVM text, optionally .gz", path, ErrFormat, ext)
	}
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	d, err := readData(r, path, opt, ext != ".csv" && ext != ".tsv")
	return d, StreamError(r, path, err)
}

// readData reads the data set of r (named name) as LIBSVM text when sniff
// is set and its first lines are, as delimited text otherwise.
func readData(r io.Reader, name string, opt CSVOptions, sniff bool) (*Dataset, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if sniff {
		sample, _ := br.Peek(1 << 16)
		sample = []byte(strings.TrimPrefix(string(sample), utf8BOM))
		if crOnly(sample) {
			sample = []byte(strings.ReplaceAll(string(sample), "\r", "\n"))
		}
		if looksLibSVM(sample) {
			return readLIBSVM(br, name, opt)
		}
	}
	return ReadCSV(br, name, opt)
}

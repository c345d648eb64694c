package dataset

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"github.com/arbor-ml/arbor/internal/gzfile"
)

//go:embed data/*.csv.gz data/*.svm.gz
var embedded embed.FS

// embeddedNames lists the sets in data/ (sorted), without the splits files.
var embeddedNames = func() []string {
	ents, err := fs.ReadDir(embedded, "data")
	if err != nil {
		panic(err) // the embedded directory is part of the binary
	}
	var names []string
	for _, e := range ents {
		n := strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".csv.gz"), ".svm.gz")
		if !strings.Contains(n, ".") {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}()

// EmbeddedNames returns the names of the embedded data sets, sorted:
// aniso, blobs, gauss9, iris, no_structure, noisy_circles, noisy_moons,
// reuters10, two_moons, usps, varied, wine.
func EmbeddedNames() []string { return slices.Clone(embeddedNames) }

// EmbeddedDelimited returns the names of the embedded sets kept as
// delimited text (CSV), which OpenData reads; the others are LIBSVM text.
func EmbeddedDelimited() []string {
	var names []string
	for _, n := range embeddedNames {
		if _, err := embedded.Open("data/" + n + ".csv.gz"); err == nil {
			names = append(names, n)
		}
	}
	return names
}

// openEmbedded returns the decompressed bytes of data/<file>.gz.
func openEmbedded(file string) ([]byte, error) {
	zr, err := readEmbedded(file + ".gz")
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// readEmbedded reads the embedded gzip file data/<file>, decompressed
// (gzfile.Reader); errors name it.
func readEmbedded(file string) (io.Reader, error) {
	z, err := embedded.ReadFile("data/" + file)
	if err != nil {
		return nil, err
	}
	return gzfile.Reader(bytes.NewReader(z), "embedded "+file, nil)
}

// Embedded returns a fresh deep copy of an embedded data set (see
// EmbeddedNames and the package documentation for their origin), so
// callers may modify it. The compressed CSV is parsed once per process
// (usps: about 50 ms, mostly gunzip); later calls only copy (about 1 ms).
// An unknown name gives ErrUnknownName.
func Embedded(name string) (*Dataset, error) {
	parse, ok := embeddedParsed[name]
	if !ok {
		return nil, fmt.Errorf("%w %q (have %s)", ErrUnknownName, name, strings.Join(embeddedNames, ", "))
	}
	d, err := parse()
	if err != nil {
		return nil, err
	}
	return d.Clone(), nil
}

// embeddedParsed parses each embedded set at most once. The cached
// datasets are never handed out, only their clones, so nothing shared is
// ever modified.
var embeddedParsed = func() map[string]func() (*Dataset, error) {
	m := make(map[string]func() (*Dataset, error), len(embeddedNames))
	for _, name := range embeddedNames {
		m[name] = sync.OnceValues(func() (*Dataset, error) { return parseEmbedded(name) })
	}
	return m
}()

func parseEmbedded(name string) (*Dataset, error) {
	if zr, err := readEmbedded(name + ".svm.gz"); err == nil {
		return ReadLIBSVM(zr, name)
	}
	zr, err := readEmbedded(name + ".csv.gz")
	if err != nil {
		return nil, fmt.Errorf("dataset: embedded %s: %w", name, err)
	}
	return ReadCSV(zr, name, CSVOptions{})
}

// EmbeddedSplits returns the official labelled/unlabelled splits of an
// embedded set: for "usps" with labeled 10 or 100, the 12 splits of
// Chapelle, Schölkopf & Zien (2006), each the sorted 0-based row indices of
// the labelled rows (the other rows are the test set; papers 000 and 002
// used the first split only); for "reuters10" with labeled 626, the one
// ModApte split (training documents labelled, test documents hidden). Other names or sizes give ErrUnknownName.
func EmbeddedSplits(name string, labeled int) ([][]int, error) {
	file := fmt.Sprintf("%s.splits%d.csv", name, labeled)
	b, err := openEmbedded(file)
	if err != nil {
		return nil, fmt.Errorf("%w: no splits %q with %d labelled rows", ErrUnknownName, name, labeled)
	}
	return ReadSplits(bytes.NewReader(b), file, splitRows[name])
}

// splitRows is the number of rows of each embedded set that has splits
// (checked against the data by TestEmbeddedSplits), so that reading the
// splits does not parse the data.
var splitRows = map[string]int{"usps": 1500, "reuters10": 855}

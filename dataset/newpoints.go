package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/internal/quote"
)

// CheckColumns fails when test has d's feature names in another order: its
// points would be compared with d's column by column, a silent wrong
// answer. Differently named columns (say CSV against LIBSVM) or a
// different number of them are matched by position (nil).
func (d *Dataset) CheckColumns(test *Dataset) error {
	if len(d.Features) != len(test.Features) {
		return nil
	}
	pos := make(map[string]int, len(d.Features))
	for i, f := range d.Features {
		pos[f] = i
	}
	for j, f := range test.Features {
		i, ok := pos[f]
		if !ok {
			return nil
		}
		if i != j {
			return fmt.Errorf("%s: column %s is feature %d, but feature %d in %s: reorder the columns to match",
				test.Name, quote.Cell(f), j+1, i+1, d.Name)
		}
	}
	return nil
}

// UnknownClasses lists, in test's order, the class names of test that are
// not classes of d (their rows can never be predicted right).
func (d *Dataset) UnknownClasses(test *Dataset) []string {
	known := make(map[string]bool, len(d.Classes))
	for _, c := range d.Classes {
		known[c] = true
	}
	var out []string
	for _, c := range test.Classes {
		if !known[c] {
			out = append(out, c)
		}
	}
	return out
}

// PadFeatures widens d.X with zero columns to like's number of features and
// takes like's feature names: LIBSVM rows omit zero features, so a test
// file whose largest index is below the training data's has zeros in the
// missing ones. It does nothing when d has as many features or more.
func (d *Dataset) PadFeatures(like *Dataset) {
	n, c := d.X.Dims()
	want := like.Dim()
	if c >= want {
		return
	}
	out := mat.NewDense(n, want, nil)
	out.Slice(0, n, 0, c).(*mat.Dense).Copy(d.X)
	d.X, d.Features = out, append([]string(nil), like.Features...)
}

// AlignFeatures puts test's feature columns in d's order when the two
// name the same features in another order (a header written by another
// tool, say), as a saved pipeline matches columns by name, and reports
// whether it moved them. Files whose feature names differ, or whose
// counts differ, are left as they are (CheckColumns judges them). The
// missing cells' columns follow.
func (d *Dataset) AlignFeatures(test *Dataset) bool {
	if test.Dim() != d.Dim() || len(test.Features) != len(d.Features) {
		return false
	}
	pos := make(map[string]int, len(test.Features))
	for j, f := range test.Features {
		pos[f] = j
	}
	perm := make([]int, len(d.Features))
	moved := false
	for i, f := range d.Features {
		j, ok := pos[f]
		if !ok {
			return false
		}
		perm[i] = j
		moved = moved || i != j
	}
	if !moved {
		return false
	}
	n := test.Len()
	X := mat.NewDense(n, len(perm), nil)
	for r := 0; r < n; r++ {
		src, dst := test.X.RawRowView(r), X.RawRowView(r)
		for i, j := range perm {
			dst[i] = src[j]
		}
	}
	for k := range test.Missing {
		for i, j := range perm {
			if test.Missing[k].Col == j {
				test.Missing[k].Col = i
				break
			}
		}
	}
	test.X = X
	test.Features = append([]string(nil), d.Features...)
	return true
}

// LoadNew reads a file of new points for a method fitted on train, with
// train's reader options opt: a single row is enough and labels are
// optional (a file without the label column is read as features only).
// A file with a header is read by train's feature names, as a saved
// pipeline reads new rows: every column that is not a training feature,
// the label column or the ID column is left unread (a text column, an
// extra measurement), and opt.Ignore names only train's columns (one the
// file lacks is no error); the label and ID columns are found by train's
// names. A file without a header, a LIBSVM file (by its name: .libsvm,
// .svm, .svmlight, .txt), one that lacks a training feature, or opt with
// Features set is read with opt as it is (by position). Errors are Load's.
func LoadNew(path string, train *Dataset, opt CSVOptions) (*Dataset, error) {
	return loadNew(path, train, opt, func() (io.ReadCloser, error) { return Open(path) }, func(opt CSVOptions) (*Dataset, error) { return Load(path, opt) })
}

// loadNewStream is LoadNew for new points read once from r (standard
// input, named StdinName), whose format is found from the content as
// ReadData finds it: the header is read from the bytes r gives first,
// which are kept and read again before the rest (ReadHeader takes the
// first lines and some 64 KiB); a label column opt names that the header
// lacks is left out, as LoadNew reads a file without it.
func loadNewStream(r io.Reader, train *Dataset, opt CSVOptions) (*Dataset, error) {
	opt.OneRow = true
	opt.LabelOptional = opt.Label == "" || opt.NoLabel
	head := &recorder{r: r}
	header, src, err := ReadHeader(head, StdinName, opt)
	if err == nil && !LooksLIBSVM(head.buf[:min(len(head.buf), 1<<16)]) {
		if train != nil && len(opt.Features) == 0 {
			opt = byHeader(header, src, train, opt)
		}
		if _, ok := ColumnIndex(header, opt.Label); opt.Label != "" && !opt.NoLabel && !ok {
			opt.NoLabel = true
		}
	}
	d, err := readData(io.MultiReader(bytes.NewReader(head.buf), r), StdinName, opt, true)
	return d, StreamError(r, StdinName, err)
}

// recorder reads r and keeps a copy of what it read.
type recorder struct {
	r   io.Reader
	buf []byte
}

func (c *recorder) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.buf = append(c.buf, p[:n]...)
	return n, err
}

// loadNew is LoadNew reading name with load; open, when not nil and the
// name is not LIBSVM's, opens it to read its header (byTrainNames).
func loadNew(name string, train *Dataset, opt CSVOptions, open func() (io.ReadCloser, error), load func(CSVOptions) (*Dataset, error)) (*Dataset, error) {
	opt.OneRow = true
	opt.LabelOptional = opt.Label == "" || opt.NoLabel
	if open != nil && !SparseName(name) {
		opt = byTrainNames(name, open, train, opt)
	}
	d, err := load(opt)
	if errors.Is(err, ErrNoLabelColumn) {
		opt.NoLabel = true
		d, err = load(opt)
	}
	return d, err
}

// byTrainNames returns the options that read the columns of the header
// of the file name (open opens it) by train's names (LoadNew), or opt
// unchanged.
func byTrainNames(name string, open func() (io.ReadCloser, error), train *Dataset, opt CSVOptions) CSVOptions {
	if train == nil || len(opt.Features) > 0 {
		return opt
	}
	r, err := open()
	if err != nil {
		return opt // Load reports it
	}
	defer r.Close()
	header, src, err := ReadHeader(r, name, opt)
	if err != nil {
		return opt
	}
	return byHeader(header, src, train, opt)
}

// byHeader returns the options that read the columns header (ReadHeader's
// names and Source) by train's names, or opt unchanged for a file without
// a header or one that lacks a training feature.
func byHeader(header []string, src *Source, train *Dataset, opt CSVOptions) CSVOptions {
	if !src.Header {
		return opt
	}
	unread, absent := Unread(header, train.Features, opt.Label, train.LabelName, opt.ID, train.IDName)
	if len(absent) > 0 {
		return opt
	}
	opt.Ignore = unread
	if opt.Label == "" && train.LabelName != "" && slices.Contains(header, train.LabelName) {
		opt.Label = train.LabelName
	}
	if opt.ID == "" && train.IDName != "" && slices.Contains(header, train.IDName) {
		opt.ID = train.IDName
	}
	return opt
}

// SparseName reports whether path's name (less a .gz) ends in .libsvm,
// .svm, .svmlight or .txt, the names of LIBSVM text, whose rows omit zero
// features (PadFeatures).
func SparseName(path string) bool {
	base := strings.TrimSuffix(strings.ToLower(filepath.Base(path)), ".gz")
	switch filepath.Ext(base) {
	case ".libsvm", ".svm", ".svmlight", ".txt":
		return true
	}
	return false
}

package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// ErrDuplicateLabel: a multi-label list names one class twice ("0,4,0").
var ErrDuplicateLabel = errors.New("label listed twice")

// Multi-label data. LIBSVM's multi-label format puts a comma-separated list
// of labels first on a line ("0,4 12:0.31 40:0.07 …"); a line whose first
// token is already an index:value pair has no label. A LIBSVM file in which
// some label lists several classes is read as multi-label: Dataset.Sets
// holds each row's classes and Y the smallest of them, so code that only
// needs to know which rows are labelled keeps working, while code that
// takes Y as the class must refuse multi-label data (see MultiLabel).

// MultiLabel reports whether d is multi-label data (Sets is set).
func (d *Dataset) MultiLabel() bool { return d.Sets != nil }

// labelSets collects the label lists of a LIBSVM file as it is read.
type labelSets struct {
	sets      [][]int // raw class ids of each row (nil: no label)
	multi     bool    // some row lists several labels
	noLabel   int     // first line whose first token is index:value (0: none)
	noLabelAt string  // that token
}

// add records the label token tok of a row at line (already known not to be
// "?" nor an index:value pair) and returns the raw class id of its first
// label; class interns a label string.
func (s *labelSets) add(tok string, class func(string) (int, error)) (int, error) {
	parts := []string{tok}
	if strings.IndexByte(tok, ',') >= 0 {
		s.multi = true
		parts = strings.Split(tok, ",")
	}
	ids := make([]int, 0, len(parts))
	for _, p := range parts {
		k, err := class(p)
		if err != nil && len(parts) > 1 {
			return 0, fmt.Errorf("%w (in the label list %s)", err, quote.Cell(tok))
		} else if err != nil {
			return 0, err
		}
		if slices.Contains(ids, k) {
			return 0, fmt.Errorf("%w: %s in %s", ErrDuplicateLabel, quote.Cell(p), quote.Cell(tok))
		}
		ids = append(ids, k)
	}
	s.sets = append(s.sets, ids)
	return ids[0], nil
}

// none records a row without labels.
func (s *labelSets) none() { s.sets = append(s.sets, nil) }

// finish maps the raw ids through remap (raw id → sorted class index) and
// returns the sets (nil unless the file is multi-label) and sets Y[i] to the
// smallest class of row i (Unlabeled for an empty set).
func (s *labelSets) finish(remap []int, y []int) [][]int {
	if !s.multi {
		return nil
	}
	out := make([][]int, len(s.sets))
	for i, raw := range s.sets {
		if len(raw) == 0 {
			y[i] = Unlabeled
			continue
		}
		set := make([]int, len(raw))
		for j, k := range raw {
			set[j] = remap[k]
		}
		slices.Sort(set)
		out[i] = set
		y[i] = set[0]
	}
	return out
}

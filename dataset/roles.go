package dataset

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// roles is the part each column plays.
type roles struct {
	label, id int      // column index, -1 none
	features  []int    // column index of each feature, in order
	ignored   []string // names of the skipped columns
	labelAuto bool
	errCol    string // the column an error is about
}

// findColumn resolves a column reference: an exact header name, a unique
// case-insensitive name, or a 1-based position.
func findColumn(header []string, ref string) (int, bool) {
	ref = strings.TrimSpace(ref)
	for j, h := range header {
		if h == ref {
			return j, true
		}
	}
	k := -1
	for j, h := range header {
		if strings.EqualFold(h, ref) {
			if k >= 0 {
				k = -2
				break
			}
			k = j
		}
	}
	if k >= 0 {
		return k, true
	}
	if p, err := strconv.Atoi(ref); err == nil && p >= 1 && p <= len(header) {
		return p - 1, true
	}
	return -1, false
}

// resolveRoles assigns the label, ID, ignored and feature columns.
// lastCell is, in a file without a header, the first cell of the last
// column that is neither missing nor an unlabelled marker (trimmed; nil
// when none was found): the column is the label when it is text.
func resolveRoles(header []string, hasHeader bool, lastCell []byte, decimalComma bool, opt CSVOptions) (roles, error) {
	r := roles{label: -1, id: -1}
	unknown := func(what, ref string, sentinel error) error {
		r.errCol = ref
		return fmt.Errorf("%w (%s; header has %s)", sentinel, what, listNames(header, 8))
	}
	switch {
	case opt.NoLabel:
	case opt.Label != "":
		j, ok := findColumn(header, opt.Label)
		if !ok {
			r.errCol = opt.Label
			return r, fmt.Errorf("%w (header has %s)", ErrNoLabelColumn, listNames(header, 8))
		}
		r.label = j
	default:
		if hasHeader {
			hasX := false
			for _, h := range header {
				hasX = hasX || strings.EqualFold(h, "x")
			}
			for _, want := range autoLabels {
				if want == "y" && hasX {
					continue // x and y are coordinates
				}
				for j, h := range header {
					if r.label < 0 && (h == want || strings.EqualFold(h, want)) {
						r.label = j
					}
				}
				if r.label >= 0 {
					break
				}
			}
			r.labelAuto = r.label >= 0 && header[r.label] != "label"
		} else if len(header) > 1 && lastCell != nil && isTextCell(lastCell, decimalComma) {
			r.label, r.labelAuto = len(header)-1, true
		}
		if r.label < 0 && !opt.LabelOptional {
			if hasHeader {
				return r, fmt.Errorf("%w: none is named label, class, target or y (header has %s)", ErrNoLabelColumn, listNames(header, 8))
			}
			return r, fmt.Errorf("%w: the file has no header and its last column is not text (columns c1..c%d)", ErrNoLabelColumn, len(header))
		}
	}
	if opt.ID != "" {
		j, ok := findColumn(header, opt.ID)
		if !ok {
			return r, unknown("ID column", opt.ID, ErrUnknownColumn)
		}
		if j == r.label {
			r.errCol = header[j]
			return r, fmt.Errorf("%w: the ID column is the label column", ErrRoles)
		}
		r.id = j
	}
	skip := make([]bool, len(header))
	for _, ref := range opt.Ignore {
		if strings.TrimSpace(ref) == "" {
			continue
		}
		j, ok := findColumn(header, ref)
		if !ok {
			return r, unknown("column to ignore", ref, ErrUnknownColumn)
		}
		if j == r.label || j == r.id {
			r.errCol = header[j]
			return r, fmt.Errorf("%w: an ignored column cannot be the label or ID column", ErrRoles)
		}
		skip[j] = true
	}
	taken := make([]bool, len(header))
	if len(opt.Features) > 0 {
		for _, ref := range opt.Features {
			ref = strings.TrimSpace(ref)
			if ref == "" {
				continue
			}
			lo, hi := -1, -1
			if a, b, isRange := strings.Cut(ref, ".."); isRange {
				var ok bool
				if lo, ok = findColumn(header, a); !ok {
					return r, unknown("start of feature range "+strconv.Quote(ref), a, ErrUnknownColumn)
				}
				if hi, ok = findColumn(header, b); !ok {
					return r, unknown("end of feature range "+strconv.Quote(ref), b, ErrUnknownColumn)
				}
				if hi < lo {
					r.errCol = ref
					return r, fmt.Errorf("%w: feature range %q runs backwards (column %d to %d)", ErrRoles, ref, lo+1, hi+1)
				}
			} else {
				j, ok := findColumn(header, ref)
				if !ok {
					return r, unknown("feature column", ref, ErrUnknownColumn)
				}
				lo, hi = j, j
			}
			for j := lo; j <= hi; j++ {
				switch {
				case j == r.label || j == r.id:
					if lo == hi {
						r.errCol = header[j]
						return r, fmt.Errorf("%w: a feature cannot be the label or ID column", ErrRoles)
					}
					continue // a range over the label column skips it
				case skip[j] || taken[j]:
					continue
				}
				taken[j] = true
				r.features = append(r.features, j)
			}
		}
		for j, h := range header {
			if !taken[j] && j != r.label && j != r.id {
				r.ignored = append(r.ignored, h)
			}
		}
	} else {
		for j, h := range header {
			switch {
			case j == r.label || j == r.id:
			case skip[j]:
				r.ignored = append(r.ignored, h)
			default:
				r.features = append(r.features, j)
			}
		}
	}
	if len(r.features) == 0 {
		if r.label >= 0 && len(header) == 1 {
			return r, fmt.Errorf("%w: the only column is the label column %s", ErrNoFeatures, quote.Cell(header[r.label]))
		}
		return r, fmt.Errorf("%w: every column is the label, the ID or ignored (header has %s)", ErrNoFeatures, listNames(header, 8))
	}
	return r, nil
}

// isNumberCell reports whether a trimmed cell reads as a number.
func isNumberCell(s []byte, decimalComma bool) bool {
	if _, err := parseFloatBytes(s); err == nil {
		return true
	}
	if decimalComma && bytes.Count(s, []byte{','}) == 1 {
		_, err := parseFloatBytes(bytes.Replace(s, []byte{','}, []byte{'.'}, 1))
		return err == nil
	}
	return false
}

// isTextCell: not a number and not a missing-value marker.
func isTextCell(s []byte, decimalComma bool) bool {
	return !isMissingCell(s) && !isNumberCell(s, decimalComma)
}

// looksLikeHeader decides whether the first record names the columns: it
// does when some text cell of it stands above a number of the second
// record, when all its cells are text, when it is just the column numbers
// 0..d−1 or 1..d (pandas' default column names), or when there is no
// second record.
func looksLikeHeader(first, second [][]byte, decimalComma bool) bool {
	if second == nil {
		return true
	}
	allText, seq0, seq1 := true, true, true
	for j, c := range first {
		c = bytes.TrimSpace(c)
		text := isTextCell(c, decimalComma)
		allText = allText && text
		if text && j < len(second) && isNumberCell(bytes.TrimSpace(second[j]), decimalComma) {
			return true
		}
		v := string(c)
		seq0 = seq0 && v == strconv.Itoa(j)
		seq1 = seq1 && v == strconv.Itoa(j+1)
	}
	return allText || seq0 || seq1
}

package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
	"gonum.org/v1/gonum/mat"
)

// ReadLIBSVM reads the sparse text format of LIBSVM and SVMlight:
//
//	<label> [qid:<n>] <index>:<value> <index>:<value> ... [# comment]
//
// one row per line, indices 1-based and strictly increasing; absent
// indices are 0 in the dense result, which has as many columns as the
// largest index seen (features are named "f1".."fd"). A file whose
// indices start at 0 is read as 0-based (features "f0".."f(d−1)",
// Source.ZeroBased). The label is a number, or "?" for an unlabelled row;
// numeric labels are compared exactly, named canonically ("+1" and "1"
// are one class "1") and sort by value, so LIBSVM's ±1 labels become
// Classes {"-1", "1"}. "qid:" tokens are ignored; "#" starts a comment;
// blank lines are skipped; tabs, CRLF and bare CR line ends are fine. A
// comma-separated label list ("0,4") makes the file multi-label (LIBSVM's
// multi-label format): Sets holds every row's classes, a line without a
// label (it starts with an index:value pair) has none, and Y is the
// smallest class of each row (see Dataset.MultiLabel).
//
// Errors are *ParseError values with the line number and, for a bad
// value, the column "f<index>", wrapping ErrEmpty (no data line),
// ErrTooFewRows (one data line), ErrNoFeatures (no index on any line),
// ErrNotNumber (label or value), ErrNonFinite, ErrBadIndex (not a positive
// integer or not increasing), ErrSyntax (a token without ':') or
// ErrTooLarge (rows × largest index > MaxCells, or a dense matrix of more
// than 4Mi entries for data stored at a density below 1/1024).
//
// Time O(input + rows × features), the size of the dense result.
func ReadLIBSVM(r io.Reader, name string) (*Dataset, error) {
	return readLIBSVM(r, name, CSVOptions{})
}

// readLIBSVM is ReadLIBSVM with the options that apply to it: OneRow
// accepts a single data line, Unlabeled adds label markers.
func readLIBSVM(r io.Reader, name string, opt CSVOptions) (*Dataset, error) {
	oneRow := opt.OneRow
	perr := func(line int, col string, err error) error {
		return &ParseError{File: name, Line: line, Column: col, Err: err}
	}
	src := &Source{Format: "libsvm", Markers: []string{"?"}}
	if opt.Unlabeled != nil {
		for _, m := range markerSet(opt.Unlabeled) {
			if m != "" && !contains(src.Markers, m) {
				src.Markers = append(src.Markers, m)
			}
		}
	}
	sample, rest, _, err := readSample(r)
	if err != nil {
		return nil, readFailure(name, 1, err)
	}
	if err := checkEncoding(sample, name); err != nil {
		return nil, err
	}
	r = io.MultiReader(bytes.NewReader(sample), rest)
	if crOnly(sample) {
		src.CROnly = true
		r = crToLF{r}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes+1)
	var (
		idx      []int32   // feature index (0-based) of each stored value
		val      []float64 // stored values
		rowEnd   []int     // end offset in idx/val of each row
		rowLines []int     // line of each row
		rawY     []int
		rawNames []string
		rawIdx   = map[string]int{}
		maxIdx   int
		minIdx   = -1
		pairs    int // index:value tokens read, zeros included
		line     int
		lastLine int
		labels   labelSets
	)
	for sc.Scan() {
		line++
		s := sc.Text()
		if line == 1 {
			s = strings.TrimPrefix(s, utf8BOM)
		}
		if k := strings.IndexByte(s, '#'); k >= 0 {
			s = s[:k]
		}
		tok, rest := nextField(s)
		if tok == "" {
			continue
		}
		lastLine = line
		// label: a number, "?", a comma-separated list (multi-label), or
		// absent in a multi-label file (the line starts with index:value)
		switch {
		case contains(src.Markers, tok):
			rawY = append(rawY, Unlabeled)
			labels.none()
		case strings.IndexByte(tok, ':') >= 0:
			if labels.noLabel == 0 {
				labels.noLabel, labels.noLabelAt = line, tok
			}
			rawY = append(rawY, Unlabeled)
			labels.none()
			rest = s[strings.Index(s, tok):]
		default:
			k, err := labels.add(tok, func(t string) (int, error) {
				if _, err := parseFloat(t); err != nil {
					return 0, err
				}
				k, ok := rawIdx[t]
				if !ok {
					k = len(rawNames)
					rawNames = append(rawNames, t)
					rawIdx[t] = k
				}
				return k, nil
			})
			if err != nil {
				return nil, perr(line, "label", err)
			}
			rawY = append(rawY, k)
		}
		prev := -1
		for {
			tok, rest = nextField(rest)
			if tok == "" {
				break
			}
			c := strings.IndexByte(tok, ':')
			if c < 0 {
				return nil, perr(line, "", fmt.Errorf("%w: token %s is not index:value", ErrSyntax, quote.Cell(tok)))
			}
			if tok[:c] == "qid" {
				continue
			}
			j, err := strconv.Atoi(tok[:c])
			if err != nil || j < 0 {
				return nil, perr(line, "", fmt.Errorf("%w %s in %s: want an integer >= 1 (or >= 0 in a 0-based file)", ErrBadIndex, quote.Cell(tok[:c]), quote.Cell(tok)))
			}
			if j <= prev {
				return nil, perr(line, "", fmt.Errorf("%w %d after %d: indices must increase", ErrBadIndex, j, prev))
			}
			if j >= MaxCells {
				return nil, perr(line, "", fmt.Errorf("%w: index %d > %d", ErrTooLarge, j, MaxCells))
			}
			if minIdx < 0 || j < minIdx {
				minIdx = j
			}
			prev = j
			if c == len(tok)-1 {
				return nil, perr(line, "", fmt.Errorf("%w: token %s has no value after the colon", ErrSyntax, quote.Cell(tok)))
			}
			v, ok := fastFloat(tok[c+1:])
			if !ok {
				if v, err = parseFloat(tok[c+1:]); err != nil {
					return nil, perr(line, "f"+tok[:c], err)
				}
			}
			if v != 0 {
				idx = append(idx, int32(j))
				val = append(val, v)
			}
			maxIdx = max(maxIdx, j)
			pairs++
		}
		rowEnd = append(rowEnd, len(idx))
		rowLines = append(rowLines, line)
		if (len(rowEnd))*maxIdx > MaxCells {
			return nil, perr(line, "", fmt.Errorf("%w: %d rows × %d features > %d", ErrTooLarge, len(rowEnd), maxIdx, MaxCells))
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = errLineTooLong()
		}
		return nil, readFailure(name, line+1, err)
	}
	n := len(rowEnd)
	switch {
	case n == 0:
		return nil, perr(1, "", fmt.Errorf("%w: no data lines", ErrEmpty))
	case n == 1 && !oneRow:
		return nil, perr(lastLine, "", fmt.Errorf("%w: only one data line", ErrTooFewRows))
	case minIdx < 0:
		return nil, perr(lastLine, "", fmt.Errorf("%w: no index:value on any line", ErrNoFeatures))
	}
	if cells := n * maxIdx; cells > minSparseCells && cells/maxSparsity > pairs {
		return nil, perr(lastLine, "", fmt.Errorf("%w: %d rows × %d features dense for only %d index:value pairs (density < 1/%d)",
			ErrTooLarge, n, maxIdx, pairs, maxSparsity))
	}
	// 1-based indices (the format's rule) unless the file uses index 0.
	base := 1
	if minIdx == 0 {
		base, src.ZeroBased = 0, true
	}
	dim := maxIdx + 1 - base
	X := mat.NewDense(n, dim, nil)
	start := 0
	for i, end := range rowEnd {
		row := X.RawRowView(i)
		for k := start; k < end; k++ {
			row[int(idx[k])-base] = val[k]
		}
		start = end
	}
	features := make([]string, dim)
	for j := range features {
		features[j] = "f" + strconv.Itoa(j+base)
	}
	if labels.noLabel > 0 && !labels.multi {
		return nil, perr(labels.noLabel, "label", fmt.Errorf("%w: the line starts with %s, not a label (only multi-label files may leave it out)", ErrNotNumber, quote.Cell(labels.noLabelAt)))
	}
	classes, remap := sortClasses(rawNames)
	for i, k := range rawY {
		if k != Unlabeled {
			rawY[i] = remap[k]
		}
	}
	sets := labels.finish(remap, rawY)
	return &Dataset{Name: name, X: X, Y: rawY, Classes: classes, Features: features, Source: src, Sets: sets, Lines: rowLines}, nil
}

// A dense matrix of more than minSparseCells entries is refused when the
// file stores fewer than one index:value pair per maxSparsity entries: such
// data belong in a sparse representation, and a 20-byte file must not
// allocate gigabytes.
const (
	minSparseCells = 1 << 22
	maxSparsity    = 1024
)

// nextField splits off the first space- or tab-separated field of s.
func nextField(s string) (field, rest string) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	j := i
	for j < len(s) && !isSpace(s[j]) {
		j++
	}
	return s[i:j], s[j:]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

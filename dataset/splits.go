package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/internal/quote"
)

// ReadSplits reads labelled-row index sets, one per line: comma-separated
// 0-based row indices into a data set of n rows (the format of the
// Chapelle et al. benchmark splits and of peers.py `splits`). Blank lines
// are skipped; spaces around indices are allowed. Each returned line is
// sorted increasingly, as peers.py read_splits does.
//
// Errors are *ParseError values with the line number wrapping ErrEmpty (no
// lines), ErrNotNumber, ErrIndexRange (outside 0..n-1) or ErrDuplicateIndex
// (an index twice on one line).
func ReadSplits(r io.Reader, name string, n int) ([][]int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes+1)
	var out [][]int
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if line == 1 {
			s = strings.TrimPrefix(s, utf8BOM)
		}
		if s == "" {
			continue
		}
		fields := strings.Split(s, ",")
		idx := make([]int, 0, len(fields))
		seen := make(map[int]bool, len(fields))
		for k, f := range fields {
			f = strings.TrimSpace(f)
			i, err := strconv.Atoi(f)
			if err != nil {
				return nil, &ParseError{File: name, Line: line, Err: fmt.Errorf("%w %s (field %d)", ErrNotNumber, quote.Cell(f), k+1)}
			}
			if i < 0 || i >= n {
				return nil, &ParseError{File: name, Line: line, Err: fmt.Errorf("%w: %d not in [0, %d) (field %d)", ErrIndexRange, i, n, k+1)}
			}
			if seen[i] {
				return nil, &ParseError{File: name, Line: line, Err: fmt.Errorf("%w %d (field %d)", ErrDuplicateIndex, i, k+1)}
			}
			seen[i] = true
			idx = append(idx, i)
		}
		slices.Sort(idx)
		out = append(out, idx)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = errLineTooLong()
		}
		return nil, readFailure(name, line+1, err)
	}
	if len(out) == 0 {
		return nil, &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: no splits", ErrEmpty)}
	}
	return out, nil
}

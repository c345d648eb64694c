package progress

import (
	"fmt"
	"io"
	"math"
	"time"
)

// Rows returns a callback for a stream that labels rows, called with the
// rows labelled so far and done once all are: it prints "name: N rows
// labelled (Ts, R rows/s)" on w at most once a second and "name: N rows
// labelled in Ts (R rows/s)" when done, the time counted from start.
func Rows(w io.Writer, name string, start time.Time) func(rows int, done bool) {
	return RowsDone(w, name, "labelled", start)
}

// RowsDone is Rows for a stream that does something else to its rows:
// verb (a past participle, "labelled" for Rows) is the word after "rows".
func RowsDone(w io.Writer, name, verb string, start time.Time) func(rows int, done bool) {
	last := start // a 10⁷-row file has thousands of chunks
	return func(rows int, done bool) {
		now := time.Now()
		el := now.Sub(start).Seconds()
		if done {
			fmt.Fprintf(w, "%s: %d rows %s in %.1fs (%.0f rows/s)\n", name, rows, verb, el, float64(rows)/math.Max(el, 1e-9))
		} else if now.Sub(last) >= time.Second {
			last = now
			fmt.Fprintf(w, "%s: %d rows %s (%.1fs, %.0f rows/s)\n", name, rows, verb, el, float64(rows)/el)
		}
	}
}

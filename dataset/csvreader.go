package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// recordReader splits RFC 4180 CSV into records. It is encoding/csv's
// grammar (comma separator, "" escapes inside quotes, quoted fields may
// span lines, \r\n inside quotes becomes \n, empty lines skipped) with
// spaces allowed around a quoted field, and it remembers the physical line
// of every field. Lines without a quote are split in place with no copying,
// which is most of the speed of ReadCSV.
type recordReader struct {
	br     *bufio.Reader
	sep    byte     // field separator; 0 means ','; ' ' means runs of spaces and tabs
	line   int      // physical lines consumed so far
	fields [][]byte // fields of the last record; valid until the next read
	lines  []int    // physical line of each field
	long   []byte   // a line longer than the bufio buffer
	buf    []byte   // unquoted contents of a record that has quotes
	ends   []int    // end of each field in buf
}

// errSyntax is a CSV syntax error at a physical line.
type errSyntax struct {
	line int
	msg  string
}

func (e *errSyntax) Error() string { return e.msg }

// readLine returns the next physical line without its \n or \r\n.
func (r *recordReader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = r.br.ReadSlice('\n')
			if len(r.long)+len(b) > MaxLineBytes {
				return nil, errLineTooLong()
			}
			r.long = append(r.long, b...)
		}
		b = r.long
	}
	if len(b) == 0 && err != nil {
		return nil, err
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	r.line++
	if err == io.EOF && b[len(b)-1] == '\r' { // as encoding/csv: a final \r ends the line
		return b[:len(b)-1], nil
	}
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b, nil
}

// read returns the next record (io.EOF at the end).
func (r *recordReader) read() ([][]byte, error) {
	var line []byte
	for {
		var err error
		line, err = r.readLine()
		if err != nil {
			return nil, err
		}
		if len(line) > 0 {
			break
		}
	}
	r.fields, r.lines = r.fields[:0], r.lines[:0]
	sep := r.sep
	if sep == 0 {
		sep = ','
	}
	if sep == ' ' {
		return r.splitSpaces(line)
	}
	if bytes.IndexByte(line, '"') < 0 {
		for {
			k := bytes.IndexByte(line, sep)
			if k < 0 {
				r.fields = append(r.fields, line)
				r.lines = append(r.lines, r.line)
				return r.fields, nil
			}
			r.fields = append(r.fields, line[:k])
			r.lines = append(r.lines, r.line)
			line = line[k+1:]
		}
	}
	return r.readQuoted(line, sep)
}

// splitSpaces splits a line at runs of spaces and tabs, ignoring leading
// and trailing blanks; a field wholly in double quotes loses its quotes
// (there is no quoting of blanks in this format). A line of blanks only is
// skipped by read, like an empty line.
func (r *recordReader) splitSpaces(line []byte) ([][]byte, error) {
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		f := line[i:j]
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = f[1 : len(f)-1]
		}
		r.fields = append(r.fields, f)
		r.lines = append(r.lines, r.line)
		i = j
	}
	if len(r.fields) == 0 {
		return r.read()
	}
	return r.fields, nil
}

// readQuoted parses a record that contains a quote, reading more lines
// while a quoted field is open.
func (r *recordReader) readQuoted(line []byte, sep byte) ([][]byte, error) {
	r.buf, r.ends = r.buf[:0], r.ends[:0]
	i := 0
	for {
		// start of a field at line[i:]
		fieldLine := r.line
		j := i
		for j < len(line) && line[j] == ' ' {
			j++
		}
		if j < len(line) && line[j] == '"' {
			start := r.line
			j++
			for {
				k := bytes.IndexByte(line[j:], '"')
				if k < 0 {
					if len(r.buf)+len(line) > MaxLineBytes {
						return nil, &errSyntax{r.line, fmt.Sprintf("quoted field opened on line %d is still open after %d MiB (a quote not closed?)", start, MaxLineBytes>>20)}
					}
					r.buf = append(r.buf, line[j:]...)
					r.buf = append(r.buf, '\n')
					var err error
					// the line buffer is reused by the next read: line is
					// only looked at again after it was replaced
					line, err = r.readLine()
					if err == io.EOF {
						return nil, &errSyntax{r.line, fmt.Sprintf("quoted field opened on line %d is not closed", start)}
					}
					if err != nil {
						return nil, err
					}
					j = 0
					continue
				}
				r.buf = append(r.buf, line[j:j+k]...)
				j += k + 1
				if j < len(line) && line[j] == '"' { // "" is a quote
					r.buf = append(r.buf, '"')
					j++
					continue
				}
				break
			}
			for j < len(line) && line[j] == ' ' {
				j++
			}
			if j < len(line) && line[j] != sep {
				return nil, &errSyntax{r.line, fmt.Sprintf("unexpected %q after a closing quote", line[j])}
			}
		} else {
			k := bytes.IndexByte(line[i:], sep)
			end := len(line)
			if k >= 0 {
				end = i + k
			}
			if q := bytes.IndexByte(line[i:end], '"'); q >= 0 {
				return nil, &errSyntax{r.line, `bare " in a field that does not start with a quote`}
			}
			r.buf = append(r.buf, line[i:end]...)
			j = end
		}
		r.ends = append(r.ends, len(r.buf))
		r.lines = append(r.lines, fieldLine)
		if j >= len(line) {
			break
		}
		i = j + 1 // skip the separator
	}
	start := 0
	for _, e := range r.ends {
		r.fields = append(r.fields, r.buf[start:e])
		start = e
	}
	return r.fields, nil
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseFloatBytes parses a numeric cell (surrounding spaces already
// removed). Plain decimals with at most 15 significant digits and a
// small exponent take Clinger's exact fast path: the digits as an integer
// m < 2^53 and 10^|e| <= 10^22 are both exact, so one multiplication or
// division rounds correctly, bit-identical to strconv.ParseFloat
// (FuzzParseFloatBytes checks). Everything else goes to strconv.
func parseFloatBytes(b []byte) (float64, error) {
	if v, ok := fastFloat(b); ok {
		return v, nil
	}
	return parseFloat(string(b))
}

func fastFloat[T string | []byte](b T) (float64, bool) {
	i := 0
	neg := false
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	nd, exp := 0, 0
	digits := false
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		digits = true
		if mant == 0 && b[i] == '0' {
			continue
		}
		if nd == 15 {
			return 0, false
		}
		mant = mant*10 + uint64(b[i]-'0')
		nd++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i]-'0' < 10; i++ {
			digits = true
			exp--
			if mant == 0 && b[i] == '0' {
				continue
			}
			if nd == 15 {
				return 0, false
			}
			mant = mant*10 + uint64(b[i]-'0')
			nd++
		}
	}
	if !digits {
		return 0, false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			eneg = b[i] == '-'
			i++
		}
		e, ed := 0, 0
		for ; i < len(b) && b[i]-'0' < 10; i++ {
			if ed == 4 {
				return 0, false
			}
			e = e*10 + int(b[i]-'0')
			ed++
		}
		if ed == 0 {
			return 0, false
		}
		if eneg {
			e = -e
		}
		exp += e
	}
	if i != len(b) {
		return 0, false
	}
	f := float64(mant) // exact: mant < 10^15 < 2^53
	if mant != 0 {
		switch {
		case exp == 0:
		case exp > 0 && exp <= 22:
			f *= pow10[exp] // < 10^37: finite
		case exp < 0 && exp >= -22:
			f /= pow10[-exp]
		default:
			return 0, false
		}
	}
	if neg {
		f = -f
	}
	return f, true
}

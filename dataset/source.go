package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// Source records how a file was read: what the readers decided from its
// content (separator, header, label column, index base) so that a program
// can tell its user. Readers fill it; embedded and generated sets have none.
type Source struct {
	Format        string   // "csv" (any delimited text) or "libsvm"
	Sep           string   // CSV: ",", "\t", ";" or " " (runs of blanks)
	SepSniffed    bool     // CSV: the separator was found from the content
	Header        bool     // CSV: the first row named the columns
	HeaderSniffed bool     // CSV: whether there is a header was decided from the content
	LabelAuto     bool     // the label column was chosen by its name or place, not given
	IDAuto        bool     // the unnamed first column (row names) was taken as the ID column
	Ignored       []string // CSV: columns skipped (CSVOptions.Ignore, or left out of Features)
	Markers       []string // label cells that mark an unlabelled row
	DecimalCommas int      // CSV: cells read with a decimal comma ("1,5" = 1.5)
	ZeroBased     bool     // LIBSVM: indices start at 0 (feature f0 is column 0)
	CROnly        bool     // lines end in a bare carriage return (classic Mac OS)
}

// DefaultUnlabeled are the label cells that mark an unlabelled row unless
// CSVOptions.Unlabeled says otherwise: empty, "?" and "NA". An empty
// label cell is always unlabelled.
var DefaultUnlabeled = []string{"", "?", "NA"}

// markerSet returns the unlabelled markers in force: opt (plus the empty
// cell) or DefaultUnlabeled.
func markerSet(opt []string) []string {
	if opt == nil {
		return DefaultUnlabeled
	}
	out := []string{""}
	for _, m := range opt {
		m = strings.TrimSpace(m)
		if m != "" && !contains(out, m) {
			out = append(out, m)
		}
	}
	return out
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// isMissingCell reports whether a trimmed feature cell marks a missing
// value: empty, "?", "NA", "N/A", "NaN" or "null" (case-insensitive).
func isMissingCell(s []byte) bool {
	switch len(s) {
	case 0:
		return true
	case 1:
		return s[0] == '?'
	case 2:
		return bytes.EqualFold(s, []byte("NA"))
	case 3:
		return bytes.EqualFold(s, []byte("NaN")) || bytes.EqualFold(s, []byte("N/A"))
	case 4:
		return bytes.EqualFold(s, []byte("null"))
	}
	return false
}

// ParseSep turns a separator name into the byte ReadCSV splits on: ","
// (or "comma"), "\t" (a tab, "tab" or `\t`), ";" ("semicolon"), "|"
// ("pipe"), " " ("space", "whitespace": runs of blanks); "" means 0, find
// it from the content.
func ParseSep(s string) (byte, error) {
	switch strings.ToLower(s) {
	case "":
		return 0, nil
	case ",", "comma":
		return ',', nil
	case "\t", `\t`, "tab":
		return '\t', nil
	case ";", "semicolon":
		return ';', nil
	case "|", "pipe":
		return '|', nil
	case " ", "space", "spaces", "whitespace", "blank", "blanks":
		return ' ', nil
	}
	return 0, fmt.Errorf("%w %q: want comma, tab, semicolon, pipe or whitespace", ErrBadSep, s)
}

// SepName names a separator for messages.
func SepName(sep string) string {
	switch sep {
	case ",":
		return "comma"
	case "\t":
		return "tab"
	case ";":
		return "semicolon"
	case "|":
		return "pipe"
	case " ":
		return "whitespace"
	}
	return strconv.Quote(sep)
}

// sampleLines returns up to max non-blank lines of a sample, without
// their line ends.
func sampleLines(sample []byte, max int) [][]byte {
	var out [][]byte
	for len(sample) > 0 && len(out) < max {
		k := bytes.IndexByte(sample, '\n')
		var line []byte
		if k < 0 {
			line, sample = sample, nil
		} else {
			line, sample = sample[:k], sample[k+1:]
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) > 0 {
			out = append(out, line)
		}
	}
	return out
}

// countFields counts the fields of a line split at sep outside double quotes.
func countFields(line []byte, sep byte) int {
	n, quoted := 1, false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case c == sep && !quoted:
			n++
		}
	}
	return n
}

// sniffSep chooses the separator of a delimited text from its first
// lines: tab, semicolon, comma or pipe when every sampled line has the
// same number (more than one) of fields with it, in that order of
// preference (a semicolon file may use decimal commas); failing that the
// one giving the most fields on the first line; failing that runs of
// blanks when they split the first line; else comma (one column).
func sniffSep(sample []byte) byte {
	lines := sampleLines(sample, 20)
	if len(lines) == 0 {
		return ','
	}
	// A sample cut inside its last line must not spoil the count.
	if len(lines) > 2 {
		lines = lines[:len(lines)-1]
	}
	cands := []byte{'\t', ';', ',', '|'}
	for _, c := range cands {
		n := countFields(lines[0], c)
		if n < 2 {
			continue
		}
		same := true
		for _, l := range lines[1:] {
			if countFields(l, c) != n {
				same = false
				break
			}
		}
		if same {
			return c
		}
	}
	best, bestN := byte(0), 1
	for _, c := range cands {
		if n := countFields(lines[0], c); n > bestN {
			best, bestN = c, n
		}
	}
	if best != 0 {
		return best
	}
	if len(bytes.Fields(lines[0])) > 1 {
		return ' '
	}
	return ','
}

// crToLF turns bare carriage returns into newlines (files from classic
// Mac OS and some spreadsheet exports end lines with \r alone).
type crToLF struct{ r io.Reader }

func (c crToLF) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	for i := 0; i < n; i++ {
		if p[i] == '\r' {
			p[i] = '\n'
		}
	}
	return n, err
}

// crOnly reports whether a sample ends its lines with bare \r: it has a
// \r and no \n.
func crOnly(sample []byte) bool {
	return bytes.IndexByte(sample, '\n') < 0 && bytes.IndexByte(sample, '\r') >= 0
}

// looksLibSVM reports whether a sample reads as LIBSVM/SVMlight text:
// more than half of the sampled lines (comments and blank lines aside)
// are "label index:value ..." (all blank-separated tokens after the first
// are index:value, or qid:n) and some line has an index:value pair. One bad line among good
// ones leaves the file LIBSVM, so that the reader reports that line; a
// delimited file has no such line.
func looksLibSVM(sample []byte) bool {
	lines := sampleLines(sample, 20)
	if len(lines) > 2 {
		lines = lines[:len(lines)-1]
	}
	good, seen, pairs := 0, 0, false
	for _, l := range lines {
		if k := bytes.IndexByte(l, '#'); k >= 0 {
			l = l[:k]
		}
		f := bytes.Fields(l)
		if len(f) == 0 {
			continue
		}
		seen++
		ok := true // a line with a label alone is a row of zeros
		for _, t := range f[1:] {
			if c := bytes.IndexByte(t, ':'); c <= 0 || c == len(t)-1 {
				ok = false
				break
			}
			pairs = true
		}
		if ok {
			good++
		}
	}
	return pairs && 2*good > seen
}

// LooksLIBSVM reports whether the start of a file (its first lines) is
// LIBSVM/SVMlight text as Load decides it: more than half of the lines
// "label index:value ...", and some index:value pair.
func LooksLIBSVM(sample []byte) bool { return looksLibSVM(sample) }

// readSample reads the start of r to decide its format: up to 64 KiB,
// stopping after 21 line ends. It returns the bytes read, the unread rest
// of r, and whether that was all of r (io.EOF reached). Small inputs cost
// small buffers (the fuzz targets run them by the million).
func readSample(r io.Reader) (sample []byte, rest io.Reader, whole bool, err error) {
	buf := make([]byte, 0, 512)
	lines, empty := 0, 0
	for len(buf) < 1<<16 && lines <= 20 {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, e := r.Read(buf[len(buf):min(cap(buf), 1<<16)])
		for _, c := range buf[len(buf) : len(buf)+n] {
			if c == '\n' || c == '\r' {
				lines++
			}
		}
		buf = buf[:len(buf)+n]
		if e == io.EOF {
			return buf, eofReader{}, true, nil
		}
		if e != nil {
			return nil, nil, false, e
		}
		if n == 0 {
			if empty++; empty > 100 {
				return nil, nil, false, io.ErrNoProgress
			}
		}
	}
	return buf, r, false, nil
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// ErrEncoding: the file is not UTF-8 text (it is UTF-16 or UTF-32).
var ErrEncoding = errors.New("not UTF-8 text")

// checkEncoding fails for a sample of a UTF-16 or UTF-32 file: one that
// starts with their byte-order mark, or whose first line has a NUL byte
// in every other position (UTF-16 text without a mark). The error says
// how to convert the file (standard input: "the input", converted on its
// way in). A UTF-8 byte-order mark is fine (the readers skip it).
func checkEncoding(sample []byte, name string) error {
	var enc, how string
	switch {
	case bytes.HasPrefix(sample, []byte{0xff, 0xfe, 0, 0}):
		enc, how = "UTF-32 (little-endian, byte-order mark FF FE 00 00)", "UTF-32"
	case bytes.HasPrefix(sample, []byte{0, 0, 0xfe, 0xff}):
		enc, how = "UTF-32 (big-endian, byte-order mark 00 00 FE FF)", "UTF-32"
	case bytes.HasPrefix(sample, []byte{0xff, 0xfe}):
		enc, how = "UTF-16 (little-endian, byte-order mark FF FE)", "UTF-16"
	case bytes.HasPrefix(sample, []byte{0xfe, 0xff}):
		enc, how = "UTF-16 (big-endian, byte-order mark FE FF)", "UTF-16"
	default:
		if o := utf16Parity(sample); o >= 0 {
			enc, how = "UTF-16 (big-endian, no byte-order mark)", "UTF-16BE"
			if o == 1 {
				enc, how = "UTF-16 (little-endian, no byte-order mark)", "UTF-16LE"
			}
		}
	}
	if enc == "" {
		return nil
	}
	base := filepath.Base(name)
	what := "the file"
	conv := fmt.Sprintf("iconv -f %s -t UTF-8 %s > %s", how, shellQuote(name), shellQuote(utf8Name(base)))
	switch {
	case name == StdinName:
		what = "the input"
		conv = fmt.Sprintf("pass it through iconv -f %s -t UTF-8 on its way in", how)
	case strings.HasSuffix(strings.ToLower(base), ".gz"):
		conv = fmt.Sprintf("gunzip -c %s | iconv -f %s -t UTF-8 > %s", shellQuote(name), how, shellQuote(utf8Name(strings.TrimSuffix(base, base[len(base)-3:]))))
	}
	return &ParseError{File: name, Line: 1, Err: fmt.Errorf("%w: %s is %s; convert it to UTF-8, e.g. %s", ErrEncoding, what, enc, conv)}
}

// utf16Parity returns 1 when every other byte of the sample's first line
// (of at least 4 characters, up to 256 bytes) is NUL at the odd positions
// (UTF-16 little-endian ASCII), 0 when at the even ones (big-endian), −1
// otherwise.
func utf16Parity(sample []byte) int {
	s := sample[:min(len(sample), 256)]
	if k := bytes.Index(s, []byte{'\n', 0}); k >= 0 {
		s = s[:k]
	} else if k := bytes.Index(s, []byte{0, '\n'}); k >= 0 {
		s = s[:k+1]
	}
	if len(s) < 8 {
		return -1
	}
	for o := 0; o < 2; o++ {
		ok := true
		for i := 0; i+1 < len(s) && ok; i += 2 {
			ok = s[i+o] == 0 && s[i+1-o] != 0
		}
		if ok {
			return o
		}
	}
	return -1
}

// utf8Name is the name suggested for the converted copy of a file:
// "data.csv" → "data.utf8.csv".
func utf8Name(base string) string {
	ext := filepath.Ext(base)
	return strings.TrimSuffix(base, ext) + ".utf8" + ext
}

// shellQuote quotes a path for a shell command line when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+,:@", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

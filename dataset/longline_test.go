package dataset

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

// endless yields prefix, then body over and over, never a newline: a
// file that is one line without end.
type endless struct {
	prefix string
	body   string
	read   int64
}

func (e *endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if e.prefix != "" {
			k := copy(p[n:], e.prefix)
			e.prefix = e.prefix[k:]
			n += k
			continue
		}
		k := copy(p[n:], e.body[int(e.read%int64(len(e.body))):])
		e.read += int64(k)
		n += k
	}
	return n, nil
}

// A line longer than MaxLineBytes is ErrTooLarge naming the file and the
// line, found after about MaxLineBytes bytes of it (the readers stop: an
// endless line would otherwise never end): CSV, a CSV quoted field left
// open, LIBSVM, splits and ReadLine.
func TestLineTooLong(t *testing.T) {
	for _, c := range []struct {
		name string
		read func(r io.Reader) error
		in   *endless
		want string
	}{
		{"csv", func(r io.Reader) error { _, err := ReadCSV(r, "long.csv", CSVOptions{}); return err },
			&endless{prefix: "x1,x2,label\n1,2,a\n", body: strings.Repeat("1.5,", 1024)}, "long.csv:3: data too large: a line longer than 64 MiB"},
		{"quoted", func(r io.Reader) error { _, err := ReadCSV(r, "q.csv", CSVOptions{}); return err },
			&endless{prefix: "x1,x2,label\n1,\"2\n", body: strings.Repeat("3", 4095) + "\n"}, "quoted field opened on line 2 is still open after 64 MiB"},
		{"libsvm", func(r io.Reader) error { _, err := ReadLIBSVM(r, "long.svm"); return err },
			&endless{prefix: "1 1:2\n1 ", body: strings.Repeat("3:1 ", 1024)}, "long.svm:2: data too large: a line longer than 64 MiB"},
		{"splits", func(r io.Reader) error { _, err := ReadSplits(r, "s.txt", 10); return err },
			&endless{prefix: "0,1\n", body: strings.Repeat("2,", 2048)}, "s.txt:2: data too large: a line longer than 64 MiB"},
		{"ReadLine", func(r io.Reader) error {
			br := bufio.NewReader(r)
			line, err := ReadLine(br, nil)
			if err != nil || string(line) != "a,b\n" {
				t.Errorf("ReadLine: first line %q, %v", line, err)
			}
			_, err = ReadLine(br, line)
			return err
		}, &endless{prefix: "a,b\n", body: strings.Repeat("1,", 2048)}, "data too large: a line longer than 64 MiB"},
	} {
		err := c.read(c.in)
		if !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrSyntax) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
		if c.in.read > 2*MaxLineBytes {
			t.Errorf("%s: read %d bytes of the line before stopping", c.name, c.in.read)
		}
	}
}

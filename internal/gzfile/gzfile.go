// Package gzfile opens input that may be gzip-compressed, the one way
// Arbor reads every file and standard input: input that starts with
// gzip's magic bytes 1f 8b is decompressed on the fly, whatever its name,
// its members one after the other as gzip -d reads them; other input is
// read as it is. A file named ".gz" (any case) must be gzip data.
//
// Errors name the input and wrap ErrCompressed: a .gz file that is empty
// or not gzip data, a gzip header cut short or damaged (when opened); a
// stream cut short, damaged or followed by bytes that are not gzip (when
// read, saying after which line of the decompressed text).
package gzfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// ErrCompressed: gzip input that is empty, not gzip data, truncated or
// damaged.
var ErrCompressed = errors.New("bad compressed file")

// magic are the first two bytes of gzip data.
var magic = []byte{0x1f, 0x8b}

// Open opens the file path for reading, decompressed when it is gzip
// data. A regular file of plain text is returned as the *os.File itself.
func Open(path string) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	gzName := strings.HasSuffix(strings.ToLower(path), ".gz")
	var head [2]byte
	n, err := f.ReadAt(head[:], 0)
	if (err == nil || err == io.EOF) && !gzName && !bytes.Equal(head[:n], magic) {
		return f, nil
	}
	// gzip data, a .gz name, or a file that cannot be read at an offset
	// (a pipe, a device): its first bytes are looked at as it is read.
	return File(f, path)
}

// File reads the file r, named name, as Open reads the file at a path
// (a file of another filesystem, say): decompressed when it is gzip data,
// and a name ending in ".gz" (any case) must be gzip data. Closing the
// reader returned closes r; on an error r is closed.
func File(r io.ReadCloser, name string) (io.ReadCloser, error) {
	gzName := strings.HasSuffix(strings.ToLower(name), ".gz")
	rc, err := open(r, r, name, gzName, nil)
	if err != nil {
		r.Close()
	}
	return rc, err
}

// Reader reads the stream r (standard input, a pipe), named name in
// errors, decompressed when it starts with gzip's magic bytes. r is read
// once and never closed. A stream without a byte gives the error empty
// (nil: it is read as empty input).
func Reader(r io.Reader, name string, empty error) (io.ReadCloser, error) {
	return open(r, nil, name, false, empty)
}

// open reads r, decompressed when it starts with the magic bytes; f
// closes the file r reads with the reader, nil for a stream. gzName: the
// name says r is gzip data, so that no byte at all, or data that are not
// gzip, are ErrCompressed.
func open(r io.Reader, f io.Closer, name string, gzName bool, empty error) (io.ReadCloser, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, err := br.Peek(2)
	switch {
	case err != nil && err != io.EOF:
		return nil, fmt.Errorf("%s: %w", name, err)
	case len(head) == 0 && gzName:
		return nil, fmt.Errorf("%s: %w: empty file (0 bytes), no gzip data", name, ErrCompressed)
	case len(head) == 0 && empty != nil:
		return nil, empty
	case gzName && !bytes.HasPrefix(magic, head):
		// the magic bytes, looked at before the header is read: a .gz
		// file shorter than a header is not "truncated" unless it
		// starts as gzip data does.
		return nil, fmt.Errorf("%s: %w: not gzip data (no gzip header; is the file compressed?)", name, ErrCompressed)
	case !gzName && !bytes.Equal(head, magic):
		return &plain{br, f}, nil
	}
	zr, err := gzip.NewReader(br)
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return nil, fmt.Errorf("%s: %w: truncated inside the gzip header", name, ErrCompressed)
	case err != nil:
		return nil, fmt.Errorf("%s: %w: damaged gzip header (%v)", name, ErrCompressed, err)
	}
	zr.Multistream(false)
	return &members{zr: zr, br: br, f: f}, nil
}

// Check reads the rest of r when r is gzip input opened by this package
// (Open, Reader) and returns the stream's error, ErrCompressed, when the
// stream is damaged or cut short further on; nil for any other reader and
// for a stream that ends cleanly. A damaged deflate stream may decompress
// to garbled text before gzip finds the damage (at the end of its member,
// by the checksum): a reader that stopped at an error in the text calls
// Check to learn whether the stream is the cause.
func Check(r io.Reader) error {
	g, ok := r.(*members)
	if !ok {
		return nil
	}
	_, err := io.Copy(io.Discard, g)
	return err
}

// plain reads text through the buffer its first bytes were looked at in,
// and closes the file (f; nil for a stream, which is not closed).
type plain struct {
	*bufio.Reader
	f io.Closer
}

func (p *plain) Close() error {
	if p.f == nil {
		return nil
	}
	return p.f.Close()
}

// members reads the gzip members of a file one after the other and
// closes the file (f; nil for a stream, which is not closed). It hands
// out whole lines only until the input is known to go on or to end
// cleanly: a line cut short by a truncated or damaged stream is never
// read, so the reader's first error is the stream's. Its errors say how
// many lines were read whole.
type members struct {
	zr    *gzip.Reader
	br    *bufio.Reader
	f     io.Closer
	lines int   // newlines decompressed
	err   error // sticky: the stream's first error, or io.EOF at its end
	// buf[start:done] are decompressed bytes ready to hand out (whole
	// lines), buf[done:] the start of a line not yet complete.
	buf         []byte
	start, done int
}

// chunk is the least room fill decompresses into; maxHold the longest
// unfinished line held back (a longer one is handed out as it comes, and
// the reader's own line limit decides).
const (
	chunk   = 64 << 10
	maxHold = 64 << 20
)

func (g *members) Read(p []byte) (int, error) {
	for g.start == g.done {
		if g.err != nil {
			if g.err == io.EOF && g.done < len(g.buf) {
				g.done = len(g.buf) // a last line without a newline
				continue
			}
			g.buf, g.start, g.done = nil, 0, 0
			return 0, g.err
		}
		g.fill()
	}
	n := copy(p, g.buf[g.start:g.done])
	g.start += n
	return n, nil
}

// fill decompresses the next bytes of the input into buf, moving done to
// the end of the last whole line, and sets err at the end of the input
// or on its first error.
func (g *members) fill() {
	switch {
	case g.start == len(g.buf):
		g.buf, g.start, g.done = g.buf[:0], 0, 0
	case g.start > 0 && cap(g.buf)-len(g.buf) < chunk:
		m := copy(g.buf, g.buf[g.start:])
		g.buf, g.done, g.start = g.buf[:m], g.done-g.start, 0
	}
	g.buf = slices.Grow(g.buf, chunk)
	old := len(g.buf)
	n, err := g.zr.Read(g.buf[old:cap(g.buf)])
	g.buf = g.buf[:old+n]
	g.lines += bytes.Count(g.buf[old:], []byte{'\n'})
	if i := bytes.LastIndexByte(g.buf[old:], '\n'); i >= 0 {
		g.done = old + i + 1
	} else if len(g.buf)-g.done > maxHold {
		g.done = len(g.buf)
	}
	switch {
	case err == io.EOF:
		// the end of one member: the end of the input, or the next member
		if _, e := g.br.Peek(1); e == io.EOF {
			g.err = io.EOF
			return
		}
		if e := g.zr.Reset(g.br); e != nil {
			g.err = fmt.Errorf("%w: bytes after the end of the gzip stream (after line %d) are not gzip data (trailing garbage)", ErrCompressed, g.lines)
			return
		}
		g.zr.Multistream(false)
	case errors.Is(err, io.ErrUnexpectedEOF):
		what := "the file"
		if g.f == nil {
			what = "the input"
		}
		g.err = fmt.Errorf("%w: truncated gzip stream: %s ends inside the compressed data, after line %d", ErrCompressed, what, g.lines)
	case err != nil:
		g.err = fmt.Errorf("%w: damaged gzip stream after line %d (%v)", ErrCompressed, g.lines, err)
	}
}

func (g *members) Close() error {
	err := g.zr.Close()
	if g.f == nil {
		return err
	}
	if e := g.f.Close(); err == nil {
		err = e
	}
	return err
}

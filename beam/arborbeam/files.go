package arborbeam

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"

	"github.com/arbor-ml/arbor/internal/gzfile"
)

// openAt opens path on its Beam filesystem positioned at byte offset: a
// file that can seek (local files) seeks, gs:// and s3:// objects are read
// from offset by a ranged request (see ranged.go); only another
// filesystem's reader skips the bytes before offset.
func openAt(ctx context.Context, path string, offset int64) (io.ReadCloser, error) {
	if offset > 0 {
		if r, ok, err := openRange(ctx, path, offset); ok || err != nil {
			return r, err
		}
	}
	fs, err := filesystem.New(ctx, path)
	if err != nil {
		return nil, err
	}
	r, err := fs.OpenRead(ctx, path)
	if err != nil {
		fs.Close()
		return nil, err
	}
	rc := &fsReader{r, fs}
	if offset == 0 {
		return rc, nil
	}
	if s, ok := r.(io.Seeker); ok {
		if _, err := s.Seek(offset, io.SeekStart); err != nil {
			rc.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return rc, nil
	}
	if _, err := io.CopyN(io.Discard, r, offset); err != nil {
		rc.Close()
		return nil, fmt.Errorf("%s: skipping to byte %d: %w", path, offset, err)
	}
	return rc, nil
}

// fsReader closes the filesystem with the file.
type fsReader struct {
	io.ReadCloser
	fs filesystem.Interface
}

func (r *fsReader) Close() error {
	err := r.ReadCloser.Close()
	r.fs.Close()
	return err
}

// isGzip reports whether path names a gzip file (read whole, never split).
func isGzip(path string) bool {
	return strings.HasSuffix(strings.ToLower(path), ".gz")
}

// openText opens path for reading from its first byte, decompressing a
// .gz file as arbor reads one (gzfile.File: its errors, a truncated or
// damaged stream's saying after which line, are arbor's).
func openText(ctx context.Context, path string) (io.ReadCloser, error) {
	r, err := openAt(ctx, path, 0)
	if err != nil || !isGzip(path) {
		return r, err
	}
	return gzfile.File(r, path)
}

// countLines returns the number of newlines in path's bytes [0, end): the
// physical line of the byte at end is one more. Only errors need it.
func countLines(ctx context.Context, path string, end int64) (int, error) {
	r, err := openAt(ctx, path, 0)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	br := bufio.NewReaderSize(io.LimitReader(r, end), 1<<16)
	n := 0
	for {
		b, err := br.ReadSlice('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			n++
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			return n, err
		}
	}
}

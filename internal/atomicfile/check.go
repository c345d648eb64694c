package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrPaths is wrapped by Check's errors about the paths as given: two
// outputs, or an output and an input, name the same file; an output's
// directory does not exist or is not a directory; an output is not a file
// (ErrNotFile also). They are mistakes in the command line, not in the
// system.
var ErrPaths = errors.New("outputs cannot be written as named")

// Path is a file a run reads (Input) or writes, and how messages name it
// (a flag, "--out"). Path "" (an output not asked for) and "-" (standard
// output) are skipped.
type Path struct {
	Name, Path string
	Input      bool
}

// pathError is an error of ErrPaths that says msg and wraps err.
type pathError struct {
	msg string
	err error
}

func (e pathError) Error() string        { return e.msg }
func (e pathError) Unwrap() error        { return e.err }
func (e pathError) Is(target error) bool { return target == ErrPaths }

func pathErrorf(err error, format string, a ...any) error {
	return pathError{fmt.Sprintf(format, a...), err}
}

// Check fails before any work is done when an output could not be
// written: its directory is missing or not a directory, the path is a
// directory (or a block device or socket), two outputs (or an output and
// an input) name the same file (symbolic links followed), or a file
// cannot be made there (Probe). Outputs written in place may be named
// twice (--out /dev/null --newick /dev/null). Inputs come before the
// outputs that must not overwrite them.
func Check(paths ...Path) error {
	seen := map[string]Path{}
	for _, p := range paths {
		if p.Path == "" || p.Path == "-" && !p.Input {
			continue
		}
		if p.Input {
			seen[fileKey(p.Path)] = p
			continue
		}
		file, inPlace, err := Resolve(p.Path)
		switch {
		case errors.Is(err, ErrNotFile):
			return pathErrorf(err, "%s %v", p.Name, err)
		case err != nil:
			return fmt.Errorf("%s %s: %w", p.Name, p.Path, err)
		case inPlace:
			if err := Probe(p.Path); err != nil {
				return fmt.Errorf("%s %s: cannot write: %w", p.Name, p.Path, errors.Unwrap(err))
			}
			continue
		}
		key := fileKey(file)
		if other, dup := seen[key]; dup && other.Input {
			return pathErrorf(nil, "%s %s would overwrite the %s input", p.Name, p.Path, other.Name)
		} else if dup {
			return pathErrorf(nil, "%s and %s both write %s", other.Name, p.Name, p.Path)
		}
		seen[key] = p
		dir := filepath.Dir(file)
		st, err := os.Stat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return pathErrorf(err, "%s %s: directory %s does not exist", p.Name, p.Path, dir)
		case err != nil:
			return pathErrorf(err, "%s %s: %v", p.Name, p.Path, err)
		case !st.IsDir():
			return pathErrorf(nil, "%s %s: %s is not a directory", p.Name, p.Path, dir)
		}
		// Can a file be made there? Better to know before hours of work.
		if err := Probe(p.Path); err != nil {
			return fmt.Errorf("%s %s: cannot write in %s: %w", p.Name, p.Path, dir, errors.Unwrap(err))
		}
	}
	return nil
}

// fileKey names a file for comparing paths: absolute, its symbolic links
// followed where it exists.
func fileKey(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// Stdout is the output path that names standard output.
const Stdout = "-"

// WriteOut is Write for an output that may be Stdout: that one is written
// to stdout at Commit, once every other output is in place (standard
// output cannot be taken back).
func (b *Batch) WriteOut(path string, stdout io.Writer, write func(w io.Writer) error) error {
	if path == Stdout {
		b.stdout = append(b.stdout, func() error { return write(stdout) })
		return nil
	}
	return b.Write(path, func(f *os.File) error { return write(f) })
}

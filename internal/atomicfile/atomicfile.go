// Package atomicfile writes outputs so that each regular file is either
// complete or absent: through a temporary file beside it (synced to disk)
// renamed into place, one output at a time (Write) or several all or none
// (Batch). A failed or cancelled write removes its temporary file;
// temporary files left by a killed process are removed by the next write
// of the same output. It is Arbor's one writer of outputs (the command
// line's outputs and figure.Save).
//
// What a path names decides how it is written (Resolve):
//
//   - a regular file, or a path that does not exist: replaced atomically;
//   - a symbolic link: followed, and the file it leads to is written by
//     these rules (the link stays a link);
//   - a character device (/dev/null, a terminal) or a FIFO: written in
//     place, opened for writing without creating or truncating it, as cp
//     and sort -o do;
//   - one of this process's open descriptors (/dev/stdout, /dev/stderr,
//     /dev/fd/N, /proc/self/fd/N): written through that descriptor, at its
//     offset and with its append mode;
//   - a directory, a block device or a socket: an error (ErrNotFile).
//
// Outputs written in place cannot be taken back: a Batch writes them at
// Commit, before it renames its files, so that an output that fails while
// the batch is being written leaves every output untouched.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrNotFile is returned for a path that names neither a regular file nor
// something written in place: a directory, a block device or a socket.
var ErrNotFile = errors.New("outputs are regular files, character devices or FIFOs")

// maxLinks bounds the symbolic links followed, as the kernel's ELOOP does.
const maxLinks = 40

// Resolve returns the file a write to path changes (path itself, or where
// its symbolic links lead) and whether it is written in place rather than
// replaced: a character device, a FIFO, or one of this process's open
// descriptors. A path that does not exist (or a link to one) is a new
// regular file. Errors: ErrNotFile (wrapped, saying what path is), too
// many links, and os.Lstat's.
func Resolve(path string) (file string, inPlace bool, err error) {
	t, err := resolve(path)
	return t.path, t.inPlace(), err
}

// target is where a write goes.
type target struct {
	path   string
	device bool // a character device or FIFO, opened for writing
	fd     int  // ≥ 0: this process's open descriptor fd
}

func (t target) inPlace() bool { return t.device || t.fd >= 0 }

func resolve(path string) (target, error) {
	p := path
	for links := 0; ; {
		if fd, ok := ownDescriptor(p); ok {
			return target{path: p, fd: fd}, nil
		}
		st, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return target{path: p, fd: -1}, nil
		}
		if err != nil {
			return target{}, err
		}
		m := st.Mode()
		switch {
		case m&fs.ModeSymlink != 0:
			if links++; links > maxLinks {
				return target{}, fmt.Errorf("%s: more than %d symbolic links", path, maxLinks)
			}
			dest, err := os.Readlink(p)
			if err != nil {
				return target{}, err
			}
			if !filepath.IsAbs(dest) {
				dir := filepath.Dir(p)
				if real, err := filepath.EvalSymlinks(dir); err == nil {
					dir = real // "../x" is taken from where the link's directory is
				}
				dest = filepath.Join(dir, dest)
			}
			p = dest
		case m.IsRegular():
			return target{path: p, fd: -1}, nil
		case m.IsDir():
			return target{}, fmt.Errorf("%s: is a directory (%w)", path, ErrNotFile)
		case m&fs.ModeCharDevice != 0, m&fs.ModeNamedPipe != 0:
			return target{path: p, device: true, fd: -1}, nil
		case m&fs.ModeDevice != 0:
			return target{}, fmt.Errorf("%s: is a block device (%w)", path, ErrNotFile)
		case m&fs.ModeSocket != 0:
			return target{}, fmt.Errorf("%s: is a socket (%w)", path, ErrNotFile)
		default:
			return target{}, fmt.Errorf("%s: has mode %v (%w)", path, m, ErrNotFile)
		}
	}
}

// Write writes path: a regular file through a temporary file in the same
// directory renamed into place, so a failed run never leaves half a file;
// a device, FIFO or open descriptor in place (see the package comment).
func Write(path string, write func(f *os.File) error) error {
	var b Batch
	defer b.Abort()
	if err := b.Write(path, write); err != nil {
		return err
	}
	return b.Commit()
}

// Batch writes several outputs all or none: each regular file goes to a
// temporary file beside its path (synced to disk), and only when every one
// is complete are they renamed into place. Outputs written in place are
// written at Commit, before the renames. Abort removes what is left.
type Batch struct {
	tmps, paths []string // temporary files and the files they replace
	names       []string // the paths as given, for messages
	inPlace     []inPlaceWrite
	stdout      []func() error // outputs to standard output (WriteOut)
}

// inPlaceWrite is an output written at Commit.
type inPlaceWrite struct {
	name  string
	t     target
	write func(f *os.File) error
}

// Write writes one output to its temporary file, or keeps an output
// written in place for Commit.
func (b *Batch) Write(path string, write func(f *os.File) error) (err error) {
	t, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %w", err)
	}
	if t.inPlace() {
		b.inPlace = append(b.inPlace, inPlaceWrite{path, t, write})
		return nil
	}
	tmp, err := createTemp(t.path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	addTemp(tmp.Name())
	b.tmps, b.paths, b.names = append(b.tmps, tmp.Name()), append(b.paths, t.path), append(b.names, path)
	defer func() {
		if err != nil {
			tmp.Close()
		}
	}()
	if err = write(tmp); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// On disk before the rename: a crash must not leave an empty file
	// under the final name.
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// Commit writes the outputs written in place, then renames every
// temporary file into place, then writes standard output (WriteOut). Should an output written in place fail, no
// file is renamed; should a rename fail, the outputs already renamed are
// removed again: none of the files stays.
func (b *Batch) Commit() error {
	for _, w := range b.inPlace {
		if err := writeInPlace(w.t, w.write); err != nil {
			return fmt.Errorf("write %s: %w", w.name, err)
		}
	}
	b.inPlace = nil
	for i, tmp := range b.tmps {
		if err := os.Rename(tmp, b.paths[i]); err != nil {
			for _, p := range b.paths[:i] {
				os.Remove(p)
			}
			return fmt.Errorf("write %s: %w", b.names[i], err)
		}
		dropTemp(tmp)
		b.tmps[i] = ""
	}
	b.tmps, b.paths, b.names = nil, nil, nil
	for _, w := range b.stdout {
		if err := w(); err != nil {
			return err
		}
	}
	b.stdout = nil
	return nil
}

// writeInPlace opens a device or FIFO for writing (no create, no
// truncate; a FIFO waits for its reader) or duplicates an open descriptor,
// and writes it.
func writeInPlace(t target, write func(f *os.File) error) error {
	var f *os.File
	var err error
	if t.fd >= 0 {
		f, err = dupDescriptor(t.fd, t.path)
	} else {
		f, err = os.OpenFile(t.path, os.O_WRONLY, 0)
	}
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Abort removes the temporary files not renamed and drops the outputs
// not yet written in place; after Commit it does nothing.
func (b *Batch) Abort() {
	for _, tmp := range b.tmps {
		if tmp != "" {
			os.Remove(tmp)
			dropTemp(tmp)
		}
	}
	b.tmps, b.paths, b.names, b.inPlace, b.stdout = nil, nil, nil, nil, nil
}

// tempPrefix is how Arbor names the temporary file of an output: hidden,
// the output's name, ".tmp-", the writing process's id and a random part.
func tempPrefix(path string) string {
	return "." + filepath.Base(path) + ".tmp-"
}

// createTemp creates an empty temporary file beside path with mode 0666
// less the umask, as os.Create would give path itself (os.CreateTemp's 0600
// would leave outputs readable by their owner only). It first removes
// stale temporary files of the same output: those of a process that no
// longer runs (killed while writing).
func createTemp(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	removeStaleTemps(dir, tempPrefix(path))
	for try := 0; ; try++ {
		name := filepath.Join(dir, tempPrefix(path)+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// removeStaleTemps deletes dir's files named prefix+PID-RANDOM whose
// process is gone, and those of the older naming (prefix+RANDOM, no PID)
// untouched for an hour.
func removeStaleTemps(dir, prefix string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || e.IsDir() {
			continue
		}
		rest := name[len(prefix):]
		pidText, _, hasPID := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		switch {
		case hasPID && err == nil && pid > 0:
			if pid != os.Getpid() && !processAlive(pid) {
				os.Remove(filepath.Join(dir, name))
			}
		default:
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				os.Remove(filepath.Join(dir, name))
			}
		}
	}
}

// temps are the temporary files being written, removed by a forced exit.
var temps = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

func addTemp(name string) {
	temps.Lock()
	temps.names[name] = true
	temps.Unlock()
}

func dropTemp(name string) {
	temps.Lock()
	delete(temps.names, name)
	temps.Unlock()
}

// RemovePending deletes the temporary files of writes still under way: a
// process that exits at once (a second Ctrl-C) calls it so that no
// temporary file is left behind either.
func RemovePending() {
	temps.Lock()
	defer temps.Unlock()
	for n := range temps.names {
		os.Remove(n)
	}
}

// Probe learns before long work whether path can be written: for a
// regular file it creates and removes a temporary file beside the file
// path resolves to (the error is then os.OpenFile's); an output written in
// place is checked for write permission without being opened (opening a
// FIFO would end its reader's input).
func Probe(path string) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.inPlace() {
		return checkInPlace(t)
	}
	f, err := createTemp(t.path)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

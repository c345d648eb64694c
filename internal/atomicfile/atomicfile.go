// Package atomicfile writes files so that each is either complete or
// absent: through a temporary file beside it (synced to disk) renamed into
// place, one output at a time (Write) or several all or none (Batch). A
// failed or cancelled write removes its temporary file; temporary files
// left by a killed process are removed by the next write of the same
// output. It is Arbor's one atomic writer (the command line's outputs and
// figure.Save).
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

// Write writes path through a temporary file in the same directory and
// renames it into place, so a failed run never leaves half a file.
func Write(path string, write func(f *os.File) error) error {
	var b Batch
	defer b.Abort()
	if err := b.Write(path, write); err != nil {
		return err
	}
	return b.Commit()
}

// Batch writes several outputs all or none: each goes to a
// temporary file beside its path (synced to disk), and only when every one
// is complete are they renamed into place. abort removes what is left.
type Batch struct {
	tmps, paths []string
}

// Write writes one output to its temporary file.
func (b *Batch) Write(path string, write func(f *os.File) error) (err error) {
	tmp, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	addTemp(tmp.Name())
	b.tmps, b.paths = append(b.tmps, tmp.Name()), append(b.paths, path)
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

// Commit renames every temporary file into place. Should a rename fail,
// the outputs already renamed are removed again: none of the set stays.
func (b *Batch) Commit() error {
	for i, tmp := range b.tmps {
		if err := os.Rename(tmp, b.paths[i]); err != nil {
			for _, p := range b.paths[:i] {
				os.Remove(p)
			}
			return fmt.Errorf("write %s: %w", b.paths[i], err)
		}
		dropTemp(tmp)
		b.tmps[i] = ""
	}
	b.tmps, b.paths = nil, nil
	return nil
}

// Abort removes the temporary files not renamed; after Commit it does nothing.
func (b *Batch) Abort() {
	for _, tmp := range b.tmps {
		if tmp != "" {
			os.Remove(tmp)
			dropTemp(tmp)
		}
	}
	b.tmps, b.paths = nil, nil
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

// Probe creates and removes a temporary file beside path, to learn before
// long work whether the output can be written there. The error is
// os.OpenFile's.
func Probe(path string) error {
	f, err := createTemp(path)
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

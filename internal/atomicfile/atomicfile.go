// Package atomicfile writes a file so that it is either complete or absent:
// through a temporary file in the same directory, synced and renamed into
// place. A failed or cancelled write removes the temporary file, so a run
// never leaves half an output behind. It is Arbor's one atomic writer (the
// command line's outputs and figure.Save).
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// Write creates path by write(f) on a temporary file ".BASE.tmp-RANDOM"
// beside it (mode 0666 less the umask, as os.Create gives), then syncs,
// closes and renames it. On any error the temporary file is removed and
// path is left as it was. While it is being written the temporary file is
// listed by Pending (for a forced exit to remove).
func Write(path string, write func(f *os.File) error) (err error) {
	tmp, err := createTemp(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	pending.add(tmp.Name())
	defer func() {
		pending.drop(tmp.Name())
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
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
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

func createTemp(path string) (*os.File, error) {
	dir, base := filepath.Dir(path), filepath.Base(path)
	for try := 0; ; try++ {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return f, err
		}
	}
}

// pending lists the temporary files being written.
var pending = tempSet{names: map[string]bool{}}

type tempSet struct {
	sync.Mutex
	names map[string]bool
}

func (t *tempSet) add(n string)  { t.Lock(); t.names[n] = true; t.Unlock() }
func (t *tempSet) drop(n string) { t.Lock(); delete(t.names, n); t.Unlock() }

// RemovePending deletes the temporary files of writes still under way: a
// process that exits at once (a second Ctrl-C) calls it so that no
// temporary file is left behind either.
func RemovePending() {
	pending.Lock()
	defer pending.Unlock()
	for n := range pending.names {
		os.Remove(n)
	}
}

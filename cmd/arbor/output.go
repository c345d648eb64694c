package main

import (
	"bufio"
	"encoding/csv"
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

	"github.com/arbor-ml/arbor/dataset"
)

// writeAtomic writes a file through a temporary file in the same directory
// and renames it into place, so a failed run never leaves half a file.
func writeAtomic(path string, write func(f *os.File) error) error {
	var b outputBatch
	defer b.abort()
	if err := b.write(path, write); err != nil {
		return err
	}
	return b.commit()
}

// outputBatch writes several outputs all or none: each goes to a
// temporary file beside its path (synced to disk), and only when every one
// is complete are they renamed into place. abort removes what is left.
type outputBatch struct {
	tmps, paths []string
}

// write writes one output to its temporary file.
func (b *outputBatch) write(path string, write func(f *os.File) error) (err error) {
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

// commit renames every temporary file into place. Should a rename fail,
// the outputs already renamed are removed again: none of the set stays.
func (b *outputBatch) commit() error {
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

// abort removes the temporary files not renamed; after commit it does nothing.
func (b *outputBatch) abort() {
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

// checkOutputs fails before any work is done when an output file could not
// be created: its directory is missing or not a directory, or the path is a
// directory, or two outputs (or an output and an input) name the same file.
// Its arguments are pairs flag name, path, inputs first under the names
// "data" and "test"; empty paths (outputs not asked for) are skipped.
func checkOutputs(flagPaths ...string) error {
	seen := map[string]string{}
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, path := flagPaths[i], flagPaths[i+1]
		if path == "" {
			continue
		}
		if flag == "data" || flag == "test" {
			if abs, err := filepath.Abs(path); err == nil {
				seen[abs] = flag
			}
			continue
		}
		key := filepath.Clean(path)
		if abs, err := filepath.Abs(path); err == nil {
			key = abs
		}
		if other, dup := seen[key]; dup {
			if other == "data" || other == "test" {
				return usageError("--%s %s would overwrite the --%s input", flag, path, other)
			}
			return usageError("--%s and --%s both write %s", other, flag, path)
		}
		seen[key] = flag
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return usageError("--%s %s: is a directory", flag, path)
		}
		dir := filepath.Dir(path)
		st, err := os.Stat(dir)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			return usageError("--%s %s: directory %s does not exist", flag, path, dir)
		case err != nil:
			return usageError("--%s %s: %v", flag, path, err)
		case !st.IsDir():
			return usageError("--%s %s: %s is not a directory", flag, path, dir)
		}
		// Can a file be made there? Better to know before hours of work.
		probe, err := createTemp(path)
		if err != nil {
			return fmt.Errorf("--%s %s: cannot write in %s: %w", flag, path, dir, errors.Unwrap(err))
		}
		probe.Close()
		os.Remove(probe.Name())
	}
	return nil
}

// checkPictureExt fails unless path ends in .png or .svg (any case), the
// formats figure.Save writes.
func checkPictureExt(flag, path string) error {
	if path == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".svg":
		return nil
	}
	return usageError("--%s %s: pictures must end in .png or .svg", flag, path)
}

// writeClusterLabels writes row[,id],cluster, the ID column named as in
// the input when the data have one.
func writeClusterLabels(f *os.File, ds *dataset.Dataset, labels []int) error {
	w := bufio.NewWriter(f)
	cw := csv.NewWriter(w)
	if ds.IDName != "" {
		cw.Write([]string{"row", ds.IDName, "cluster"})
	} else {
		cw.Write([]string{"row", "cluster"})
	}
	for i, c := range labels {
		if ds.IDName != "" {
			cw.Write([]string{strconv.Itoa(i), ds.IDs[i], strconv.Itoa(c)})
		} else {
			cw.Write([]string{strconv.Itoa(i), strconv.Itoa(c)})
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return w.Flush()
}

// stdoutIsEmpty maps "-" (standard output) to "" for checkOutputs.
func stdoutIsEmpty(path string) string {
	if path == "-" {
		return ""
	}
	return path
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

// removeTemps deletes the temporary files still being written.
func removeTemps() {
	temps.Lock()
	defer temps.Unlock()
	for n := range temps.names {
		os.Remove(n)
	}
}

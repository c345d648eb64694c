package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// writeAtomic writes a file through a temporary file in the same directory
// and renames it into place, so a failed run never leaves half a file.
func writeAtomic(path string, write func(f *os.File) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
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

// progress returns a Progress callback printing to stderr, or nil when quiet.
func (e *env) progress(quiet bool) func(stage string, done, total int) {
	if quiet {
		return nil
	}
	last := ""
	return func(stage string, done, total int) {
		if total > 0 {
			fmt.Fprintf(e.stderr, "\r%s: %d/%d", stage, done, total)
			if done >= total {
				fmt.Fprintln(e.stderr)
			}
		} else if stage != last {
			fmt.Fprintf(e.stderr, "%s...\n", stage)
		}
		last = stage
	}
}

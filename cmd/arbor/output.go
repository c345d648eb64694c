package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
)

// writeAtomic writes an output: a regular file through a temporary file in
// the same directory renamed into place, so a failed run never leaves half
// a file; a device, FIFO or /dev/stdout in place (internal/atomicfile).
func writeAtomic(path string, write func(f *os.File) error) error {
	return atomicfile.Write(path, write)
}

// outputBatch writes several outputs all or none (atomicfile.Batch).
type outputBatch struct {
	b      atomicfile.Batch
	stdout []func() error // outputs to standard output, written at commit
}

func (o *outputBatch) write(path string, write func(f *os.File) error) error {
	return o.b.Write(path, write)
}

// writeOut is write for an output that may be "-", standard output: that
// one is written once every file of the batch has been (standard output
// cannot be taken back).
func (o *outputBatch) writeOut(path string, stdout io.Writer, write func(w io.Writer) error) error {
	if path == "-" {
		o.stdout = append(o.stdout, func() error { return write(stdout) })
		return nil
	}
	return o.b.Write(path, func(f *os.File) error { return write(f) })
}

func (o *outputBatch) commit() error {
	if err := o.b.Commit(); err != nil {
		return err
	}
	for _, w := range o.stdout {
		if err := w(); err != nil {
			return err
		}
	}
	return nil
}
func (o *outputBatch) abort() { o.b.Abort() }

// checkOutputs fails before any work is done when an output could not be
// written: its directory is missing or not a directory, or the path is a
// directory (or a block device or socket), or two outputs (or an output
// and an input) name the same file. Outputs are written by
// internal/atomicfile: a regular file (or a symbolic link's target) is
// replaced when complete, a character device, FIFO or /dev/stdout written
// in place; in-place outputs may be named twice (--out /dev/null
// --newick /dev/null). Its arguments are pairs flag name, path, inputs
// first under the names "data", "test" and "model"; empty paths (outputs
// not asked for) are skipped.
func checkOutputs(flagPaths ...string) error {
	seen := map[string]string{}
	for i := 0; i+1 < len(flagPaths); i += 2 {
		flag, path := flagPaths[i], flagPaths[i+1]
		if path == "" {
			continue
		}
		if flag == "data" || flag == "test" || flag == "model" {
			seen[fileKey(path)] = flag
			continue
		}
		file, inPlace, err := atomicfile.Resolve(path)
		switch {
		case errors.Is(err, atomicfile.ErrNotFile):
			return usageError("--%s %v", flag, err)
		case err != nil:
			return fmt.Errorf("--%s %s: %w", flag, path, err)
		case inPlace:
			if err := atomicfile.Probe(path); err != nil {
				return fmt.Errorf("--%s %s: cannot write: %w", flag, path, errors.Unwrap(err))
			}
			continue
		}
		key := fileKey(file)
		if other, dup := seen[key]; dup {
			if other == "data" || other == "test" || other == "model" {
				return usageError("--%s %s would overwrite the --%s input", flag, path, other)
			}
			return usageError("--%s and --%s both write %s", other, flag, path)
		}
		seen[key] = flag
		dir := filepath.Dir(file)
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
		if err := atomicfile.Probe(path); err != nil {
			return fmt.Errorf("--%s %s: cannot write in %s: %w", flag, path, dir, errors.Unwrap(err))
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
func writeClusterLabels(dst io.Writer, ds *dataset.Dataset, labels []int) error {
	w := bufio.NewWriter(dst)
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

// removeTemps deletes the temporary files still being written.
func removeTemps() { atomicfile.RemovePending() }

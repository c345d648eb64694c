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

// writeAtomic writes a file through a temporary file in the same directory
// and renames it into place, so a failed run never leaves half a file
// (internal/atomicfile).
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
		if err := atomicfile.Probe(path); err != nil {
			return fmt.Errorf("--%s %s: cannot write in %s: %w", flag, path, dir, errors.Unwrap(err))
		}
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

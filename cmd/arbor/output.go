package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
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

// outputBatch writes several outputs all or none (atomicfile.Batch);
// writeOut's "-" is standard output, written once every file is.
type outputBatch struct{ b atomicfile.Batch }

func (o *outputBatch) write(path string, write func(f *os.File) error) error {
	return o.b.Write(path, write)
}
func (o *outputBatch) writeOut(path string, stdout io.Writer, write func(w io.Writer) error) error {
	return o.b.WriteOut(path, stdout, write)
}
func (o *outputBatch) commit() error { return o.b.Commit() }
func (o *outputBatch) abort()        { o.b.Abort() }

// checkOutputs fails before any work is done when an output could not be
// written (atomicfile.Check; its mistakes in naming are usage errors). Its
// arguments are pairs flag name, path, inputs first under the names
// "data", "test" and "model"; empty paths (outputs not asked for) are
// skipped.
func checkOutputs(flagPaths ...string) error {
	var paths []atomicfile.Path
	for i := 0; i+1 < len(flagPaths); i += 2 {
		name := flagPaths[i]
		paths = append(paths, atomicfile.Path{Name: "--" + name, Path: flagPaths[i+1], Input: name == "data" || name == "test" || name == "model"})
	}
	err := atomicfile.Check(paths...)
	if errors.Is(err, atomicfile.ErrPaths) {
		return usageError("%v", err)
	}
	return err
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

// writeClusterLabels writes row[,id],cluster (dataset.WriteLabels).
func writeClusterLabels(dst io.Writer, ds *dataset.Dataset, labels []int) error {
	return ds.WriteLabels(dst, "cluster", labels)
}

// stdoutIsEmpty maps "-" (standard output) to "" for checkOutputs.
func stdoutIsEmpty(path string) string {
	if path == "-" {
		return ""
	}
	return path
}

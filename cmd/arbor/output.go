package main

import (
	"errors"
	"strings"

	"github.com/arbor-ml/arbor/clustering"
	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/figure"
	"github.com/arbor-ml/arbor/internal/atomicfile"
)

// checkOutputs fails before any work is done when an output could not be
// written (atomicfile.Check; its mistakes in naming are usage errors) or
// when two inputs are standard input (checkStdin). Its arguments are pairs
// flag name, path, inputs first under the names "data", "test" and
// "model"; empty paths (outputs not asked for) are skipped.
func checkOutputs(flagPaths ...string) error {
	var paths []atomicfile.Path
	var stdin []string // the inputs named "-": no files
	for i := 0; i+1 < len(flagPaths); i += 2 {
		name, path := flagPaths[i], flagPaths[i+1]
		input := name == "data" || name == "test" || name == "model"
		if input && path == dataset.Stdin {
			stdin = append(stdin, name, path)
			continue
		}
		paths = append(paths, atomicfile.Path{Name: "--" + name, Path: path, Input: input})
	}
	if err := checkStdin(stdin...); err != nil {
		return err
	}
	err := atomicfile.Check(paths...)
	if errors.Is(err, atomicfile.ErrPaths) {
		return usageError("%v", err)
	}
	return err
}

// checkStdin fails when more than one of the inputs, given as pairs flag
// name, path, is standard input ("-"): it can be read once.
func checkStdin(flagPaths ...string) error {
	var stdin []string
	for i := 0; i+1 < len(flagPaths); i += 2 {
		if flagPaths[i+1] == dataset.Stdin {
			stdin = append(stdin, "--"+flagPaths[i]+" -")
		}
	}
	if len(stdin) > 1 {
		return usageError("%s both read standard input, which can be read once: give all but one of them a file", strings.Join(stdin, " and "))
	}
	return nil
}

// checkPictureExt fails unless path is "" or ends in .png or .svg (any
// case), the formats figure.Save writes (figure.Format).
func checkPictureExt(flag, path string) error {
	if _, err := figure.Format(path); path != "" && err != nil {
		return usageError("--%s %s: pictures must end in .png or .svg", flag, path)
	}
	return nil
}

// sizesText writes cluster sizes for a summary line (clustering.SizesText).
var sizesText = clustering.SizesText

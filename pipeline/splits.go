package pipeline

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// SplitChoice says which rows of an evaluation are labelled (Eval's
// splits): PerClass rows of each class, drawn Repeats times with the
// seeds Seed, Seed+1, … (ssl.PerClassSplits); or the lines of the file
// Path (dataset.ReadSplits; gzip data decompressed, dataset.Open;
// "usps:10" and "usps:100", when no such file exists, are the embedded
// official splits; "-" reads Stdin, gzip found by its magic bytes too), all of them or, when Line > 0, only that 1-based
// line. Log, if not nil, receives the warnings.
type SplitChoice struct {
	PerClass, Repeats int
	Seed              uint64
	Path              string
	Line              int
	Log               io.Writer
	Stdin             io.Reader
}

// Splits makes the splits of ds and describes them ("5 labelled per
// class, seeds 0..4", "splits FILE line 2"). A class with a single row
// (no labelled point with PerClass: min(N, n_c−1)) is a warning to Log.
// Errors: those wrapping learner.ErrSettings for choices that do not fit
// together, the file's, and a split whose labelled rows hold a single
// class (ssl.SplitClasses, naming the split).
func (c SplitChoice) Splits(ds *dataset.Dataset) ([][]int, string, error) {
	var splits [][]int
	var protocol string
	var err error
	switch {
	case c.Path != "" && c.PerClass > 0:
		return nil, "", learner.Settingsf("--splits and --labeled-per-class are mutually exclusive")
	case c.Path != "":
		if splits, err = readSplits(c.Path, ds.Len(), c.Stdin); err != nil {
			return nil, "", err
		}
		if c.Line < 0 || c.Line > len(splits) {
			return nil, "", learner.Settingsf("--split-line %d: %s has %d lines", c.Line, dataset.InputName(c.Path), len(splits))
		}
		protocol = "splits " + dataset.InputName(c.Path)
		if c.Line > 0 {
			splits = splits[c.Line-1 : c.Line]
			protocol += fmt.Sprintf(" line %d", c.Line)
		}
	case c.PerClass > 0:
		if c.Repeats < 1 {
			return nil, "", learner.Settingsf("--repeats must be ≥ 1")
		}
		if c.Seed+uint64(c.Repeats) > math.MaxUint32+1 {
			return nil, "", learner.Settingsf("--seed must leave room for the repeats below 2³²")
		}
		if splits, err = ssl.PerClassSplits(ds.Y, c.PerClass, c.Repeats, c.Seed); err != nil {
			return nil, "", err
		}
		protocol = fmt.Sprintf("%d labelled per class, seeds %d..%d", c.PerClass, c.Seed, c.Seed+uint64(c.Repeats)-1)
		if c.Log != nil {
			for _, k := range ssl.Singletons(ds.Y, len(ds.Classes)) {
				fmt.Fprintf(c.Log, "warning: class %q has a single row: it gets no labelled point (min(N, n_c−1), as the reference pipeline) and its row counts as an error\n", ds.Classes[k])
			}
		}
	default:
		return nil, "", learner.Settingsf("give --labeled-per-class N or --splits FILE")
	}
	for s, l := range splits {
		if err := ssl.SplitClasses(l, ds.Y, ds.Classes); err != nil {
			which := fmt.Sprintf("split %d (seed %d)", s, c.Seed+uint64(s))
			if c.Path != "" {
				which = fmt.Sprintf("split %d of %s", s, dataset.InputName(c.Path))
				if c.Line > 0 {
					which = fmt.Sprintf("line %d of %s", c.Line, dataset.InputName(c.Path))
				}
			}
			return nil, "", fmt.Errorf("%s, %s: %w", ds.Name, which, err)
		}
	}
	return splits, protocol, nil
}

// readSplits reads the splits file path of a data set of n rows, stdin
// for "-", or the embedded splits NAME:LABELLED when no file path exists.
func readSplits(path string, n int, stdin io.Reader) ([][]int, error) {
	if path == dataset.Stdin {
		r, err := dataset.OpenInput(path, stdin)
		if err != nil {
			return nil, err
		}
		defer r.Close()
		return dataset.ReadSplits(r, dataset.StdinName, n)
	}
	if name, lab, ok := strings.Cut(path, ":"); ok && slices.Contains(dataset.EmbeddedNames(), strings.TrimPrefix(name, "embedded:")) {
		if _, err := os.Stat(path); err != nil {
			k, err := strconv.Atoi(lab)
			if err != nil {
				return nil, learner.Settingsf("--splits %s: want NAME:LABELLED, e.g. usps:100", path)
			}
			return dataset.EmbeddedSplits(name, k)
		}
	}
	f, err := dataset.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return dataset.ReadSplits(f, path, n)
}

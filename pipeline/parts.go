package pipeline

import (
	"bytes"
	"context"
	"io"
	"slices"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
)

// Build returns the kernel and the one learner the settings name, with
// the learner's registered family ("lp", "svm", …): what Fit fits, for a
// caller that fits in its own way (in parts, on several machines). Errors
// wrap learner.ErrSettings.
func (s Settings) Build() (kernel.Spec, learner.Learner, string, error) {
	ln, family, err := s.learner()
	if err != nil {
		return kernel.Spec{}, nil, "", err
	}
	spec, err := kernel.ParseSpec(orDefault(s.Kernel, "linear"))
	if err != nil {
		return kernel.Spec{}, nil, "", learner.Settingsf("kernel %q: %v", s.Kernel, err)
	}
	return spec, ln, family, nil
}

// StreamPart reads part of a delimited text file as Stream reads the
// whole file (no model: every column takes its role from opt, as
// dataset.ReadCSV gives them), for reading one file in parts on several
// machines. header, r, first and opt are as Pipeline.StreamPart's.
func StreamPart(ctx context.Context, header []byte, r io.Reader, first int, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error {
	header, lineOf := partLines(header, first)
	return stream(ctx, io.MultiReader(bytes.NewReader(header), r), name, opt, chunk, nil, lineOf, fn)
}

// partLines returns the header with its newline and the map from a line
// of header + part to the file's physical line (first: the part's first
// line; ≤ 0: counted from the part's start).
func partLines(header []byte, first int) ([]byte, func(int) int) {
	if len(header) > 0 && header[len(header)-1] != '\n' {
		header = append(slices.Clone(header), '\n')
	}
	h := 0
	if len(header) > 0 {
		h = 1
	}
	return header, func(n int) int {
		switch {
		case n <= h:
			return n
		case first <= 0:
			return n - h
		}
		return first + n - h - 1
	}
}

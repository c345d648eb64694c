package pipeline

import (
	"context"
	"io"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
)

// PredictFile labels the new points of the file data (dataset.OpenInput:
// .gz too; "-" reads stdin, gzip found by its magic bytes), read with
// opt, as WritePredictions does and writes the
// predictions to the file path, or to stdout when path is "" or "-".
// Standard output, a device or a FIFO is written chunk by chunk as the
// rows are labelled (s.Flush is set: an error in a later chunk leaves the
// earlier rows written, and the error says how many); a regular file is
// written whole or not at all (atomicfile.Write). An error of the new
// points (reading, columns, values, s.Check, labelling) is returned as
// explain makes it (nil: as it is), never as one writing path; errors
// name stdin dataset.StdinName.
func (p *Pipeline) PredictFile(ctx context.Context, data, path string, stdin io.Reader, stdout io.Writer, opt dataset.CSVOptions, s PredictStream, explain func(error) error) error {
	r, err := dataset.OpenInput(data, stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	std := path == "-" || path == ""
	_, inPlace, err := atomicfile.Resolve(path)
	s.Flush = std || (err == nil && inPlace)
	return streamToFile(path, stdout, s.Flush, explain, func(w io.Writer) (int, error) {
		return p.WritePredictions(ctx, w, r, dataset.InputName(data), opt, s)
	})
}

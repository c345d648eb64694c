package pipeline

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/npy"
	"github.com/arbor-ml/arbor/landmark"
)

// ErrNoMap reports a pipeline without a landmark feature map: an exact
// pipeline, or a landmark pipeline on the anchor graph or the kNN graph,
// which work on the scaled points.
var ErrNoMap = errors.New("the model has no landmark feature map")

// CheckFeatures returns nil when p has a landmark feature map, and
// otherwise ErrNoMap, wrapped with why p has none and which pipelines do.
func (p *Pipeline) CheckFeatures() error {
	switch {
	case p.Landmarks == nil:
		return fmt.Errorf("%w: it is an exact pipeline (fit one with arbor classify --landmarks M and --learner svm, linsvm or knn)", ErrNoMap)
	case p.Landmarks.Map == nil:
		return fmt.Errorf("%w: its learner labels the points on the anchor graph or the kNN graph (the learners on landmark features are svm, linsvm and knn)", ErrNoMap)
	}
	return nil
}

// LandmarkFeatures returns the t×r landmark features z(x) of the rows of
// Xraw (unscaled, in the order of p.Features, as Columns gives them): the
// model's scaling and imputation (p.Scaler), then its feature map
// (landmark.Map.Features), the features the learner of a landmark
// pipeline reads. For a point kernel (Nyström) the features of a training
// row, computed in a block of landmark.BlockRows rows that starts at a
// multiple of BlockRows of the training file, are bit for bit those the
// learner was fitted on. A cluster kernel on the tree of all rows, landmark
// ISOMAP and the multi-type kernel fit their training rows' features from
// the tree or graph of all rows; here every row is a new point (the
// tree-aware rule, the graph through its nearest rows), as arbor predict
// sees it. Errors: ErrNoMap (CheckFeatures), ErrColumns (Xraw's width),
// the scaler's and the map's errors, ctx.Err().
func (p *Pipeline) LandmarkFeatures(ctx context.Context, Xraw *mat.Dense) (*mat.Dense, error) {
	if err := p.CheckFeatures(); err != nil {
		return nil, err
	}
	if _, d := Xraw.Dims(); d != len(p.Features) {
		return nil, fmt.Errorf("%w: %d features, the model has %d", ErrColumns, d, len(p.Features))
	}
	Xt, err := p.Scaler.Transform(nil, Xraw)
	if err != nil {
		return nil, err
	}
	return p.Landmarks.Map.Features(ctx, Xt)
}

// FeatureStream says how WriteLandmarkFeatures reads a file of points.
type FeatureStream struct {
	// Chunk is the number of rows read at a time (≤ 0: DefaultChunk),
	// rounded up to a multiple of landmark.BlockRows so that every row's
	// features are computed in the block LandmarkFeatures describes.
	Chunk int
	// Format is dataset.MatrixCSV (the default) or dataset.MatrixNpy.
	Format dataset.MatrixFormat
	// Flush writes each chunk's records through to the writer before the
	// next chunk is read (CSV only).
	Flush bool
	// Check, if not nil, is called with each chunk before its features
	// are computed; its error stops the stream.
	Check func(ds *dataset.Dataset) error
	// Progress, if not nil, is called after each chunk with the rows
	// written so far, and with done set once every row is written.
	Progress func(rows int, done bool)
}

// chunk is s.Chunk as the stream reads it.
func (s FeatureStream) chunk() int {
	c := s.Chunk
	if c <= 0 {
		c = DefaultChunk
	}
	return (c + landmark.BlockRows - 1) / landmark.BlockRows * landmark.BlockRows
}

// WriteLandmarkFeatures reads the points of r, named name, as p.Stream
// reads them with opt, and writes their landmark features
// (LandmarkFeatures) to w, chunk by chunk as s says: as CSV, a header
// row[,ID],z1,…,zr (the ID column when the first chunk has one, as arbor
// predict writes it) and a record per row, rows counted from 0, values in
// Go's shortest round-trip form (arbor-beam features --ordered writes the
// same file); or with s.Format dataset.MatrixNpy a NumPy float64 array of
// the rows × r features (no IDs), whose header, written first for 0 rows,
// is rewritten with the row count at the end through w's WriteAt (w must
// be a regular file: an *os.File, or any io.WriterAt). It returns the
// number of rows written and the first error: one writing w is a
// *WriteError; the others are those of the points (reading, columns,
// values, s.Check, the map). Memory: one chunk's rows and features.
func (p *Pipeline) WriteLandmarkFeatures(ctx context.Context, w io.Writer, r io.Reader, name string, opt dataset.CSVOptions, s FeatureStream) (int, error) {
	if err := p.CheckFeatures(); err != nil {
		return 0, err
	}
	var at io.WriterAt
	switch s.Format {
	case dataset.MatrixCSV:
	case dataset.MatrixNpy:
		var ok bool
		if at, ok = w.(io.WriterAt); !ok {
			return 0, &WriteError{errors.New("a .npy file of features is written to a regular file (its header gets the row count at the end)")}
		}
	default:
		return 0, &WriteError{fmt.Errorf("features are written as .csv or float64 .npy, not format %d", s.Format)}
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	cw := csv.NewWriter(bw)
	rows, rank := 0, -1
	idName := ""
	var rec []string
	err := p.Stream(ctx, r, name, opt, s.chunk(), func(ds *dataset.Dataset) error {
		if s.Check != nil {
			if err := s.Check(ds); err != nil {
				return err
			}
		}
		X, err := p.Columns(ds)
		if err != nil {
			return err
		}
		Z, err := p.LandmarkFeatures(ctx, X)
		if err != nil {
			return err
		}
		t, c := Z.Dims()
		if rank < 0 {
			rank, idName = c, ds.IDName
			if s.Format == dataset.MatrixNpy {
				_, err = bw.Write(npy.StreamHeader(0, c))
			} else {
				head := []string{"row"}
				if idName != "" {
					head = append(head, idName)
				}
				for j := 1; j <= c; j++ {
					head = append(head, "z"+strconv.Itoa(j))
				}
				err = cw.Write(head)
			}
			if err != nil {
				return &WriteError{err}
			}
		}
		if s.Format == dataset.MatrixNpy {
			if err := npy.AppendRows(bw, Z); err != nil {
				return &WriteError{err}
			}
		}
		for i := 0; i < t && s.Format == dataset.MatrixCSV; i++ {
			z := Z.RawRowView(i)
			rec = append(rec[:0], strconv.Itoa(rows+i))
			if idName != "" {
				id := ""
				if ds.IDs != nil {
					id = ds.IDs[i]
				}
				rec = append(rec, id)
			}
			for _, v := range z {
				rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
			}
			cw.Write(rec)
		}
		rows += t
		cw.Flush()
		if err := cw.Error(); err != nil {
			return &WriteError{err}
		}
		if s.Flush {
			if err := bw.Flush(); err != nil {
				return &WriteError{err}
			}
		}
		if s.Progress != nil {
			s.Progress(rows, false)
		}
		return nil
	})
	if err != nil {
		return rows, err
	}
	if s.Progress != nil {
		s.Progress(rows, true)
	}
	if err := bw.Flush(); err != nil {
		return rows, &WriteError{err}
	}
	if at != nil {
		if _, err := at.WriteAt(npy.StreamHeader(rows, rank), 0); err != nil {
			return rows, &WriteError{err}
		}
	}
	return rows, nil
}

// LandmarkFeaturesFile writes the landmark features of the points of the
// file data (dataset.OpenInput: .gz too, an embedded set by its name, or
// "-": stdin, gzip found by its magic bytes, named dataset.StdinName in
// errors), read with opt, as WriteLandmarkFeatures does, to the file path, or to
// stdout when path is "" or "-" (CSV only). Standard output, a device or a FIFO is written
// chunk by chunk (s.Flush is set: an error in a later chunk leaves the
// earlier rows written, and the error says how many); a regular file is
// written whole or not at all (atomicfile.Write). A .npy (s.Format
// dataset.MatrixNpy) is written to a regular file only. An error of the
// points is returned as explain makes it (nil: as it is).
func (p *Pipeline) LandmarkFeaturesFile(ctx context.Context, data, path string, stdin io.Reader, stdout io.Writer, opt dataset.CSVOptions, s FeatureStream, explain func(error) error) error {
	if err := p.CheckFeatures(); err != nil {
		return err
	}
	std := path == "-" || path == ""
	_, inPlace, err := atomicfile.Resolve(path)
	if !std && err != nil {
		return err
	}
	if s.Format == dataset.MatrixNpy && (std || inPlace) {
		where := "standard output"
		if !std {
			where = path
		}
		return fmt.Errorf("%s: a .npy of features is written to a regular file (its header gets the row count at the end); write CSV to %s", where, where)
	}
	r, err := dataset.OpenInput(data, stdin)
	if err != nil {
		return err
	}
	defer r.Close()
	return streamToFile(path, stdout, std || inPlace, explain, func(w io.Writer) (int, error) {
		s.Flush = std || inPlace
		return p.WriteLandmarkFeatures(ctx, w, r, dataset.InputName(data), opt, s)
	})
}

// streamToFile runs write, which streams rows to its writer, into the file
// path (atomically) or, when path is "" or "-", into stdout; through
// (stdout, a device or a FIFO: written as the rows come) makes a read
// error say how many rows were already written. An error that is not a
// *WriteError is one of the input and is returned as explain makes it.
func streamToFile(path string, stdout io.Writer, through bool, explain func(error) error, write func(w io.Writer) (int, error)) error {
	streamTo := ""
	if path == "-" || path == "" {
		streamTo = "standard output"
	} else if through {
		streamTo = path
	}
	var readErr error
	run := func(w io.Writer) error {
		rows, err := write(w)
		var we *WriteError
		if err == nil || errors.As(err, &we) {
			return err
		}
		readErr = err
		if explain != nil {
			readErr = explain(err)
		}
		if streamTo != "" && rows > 0 {
			readErr = fmt.Errorf("%w; %d rows were already written to %s", readErr, rows, streamTo)
		}
		return readErr
	}
	if path == "-" || path == "" {
		return run(stdout)
	}
	if err := atomicfile.Write(path, func(f *os.File) error { return run(f) }); err != nil {
		if readErr != nil {
			return readErr
		}
		return err
	}
	return nil
}

package pipeline

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"gonum.org/v1/gonum/mat"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/ssl"
)

// OutputColumns names the columns of the probabilities and decision
// values of a prediction (the columns of Proba and Decision, either nil
// when not asked): p_CLASS for each class, then d_A_B for each decision
// column (pairs, class indices into classes: A against B, f > 0 for A)
// and d_A for one class against the rest.
func OutputColumns(classes []string, proba, decision *mat.Dense, pairs []learner.Pair) []string {
	var head []string
	if proba != nil {
		for _, c := range classes {
			head = append(head, "p_"+c)
		}
	}
	if decision != nil {
		for _, pr := range pairs {
			name := "d_" + className(classes, pr.Pos)
			if pr.Neg != learner.Unlabeled {
				name += "_" + className(classes, pr.Neg)
			}
			head = append(head, name)
		}
	}
	return head
}

// className is classes[c], or c as a number when it is not a class.
func className(classes []string, c int) string {
	if c >= 0 && c < len(classes) {
		return classes[c]
	}
	return strconv.Itoa(c)
}

// AppendOutputs appends the values of row i of proba and decision (either
// nil when not asked) to rec, in OutputColumns's order and Go's shortest
// round-trip form: the probabilities, all empty for a row that has none
// (every probability 0: no label reaches it), then the decision values.
func AppendOutputs(rec []string, proba, decision *mat.Dense, i int) []string {
	if proba != nil {
		row := proba.RawRowView(i)
		none := true
		for _, v := range row {
			if v != 0 {
				none = false
			}
		}
		for _, v := range row {
			s := ""
			if !none {
				s = strconv.FormatFloat(v, 'g', -1, 64)
			}
			rec = append(rec, s)
		}
	}
	if decision != nil {
		for _, v := range decision.RawRowView(i) {
			rec = append(rec, strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return rec
}

// labelName is the class name of label c, "?" for a row left unlabelled.
func labelName(classes []string, c int) string {
	if c >= 0 && c < len(classes) {
		return classes[c]
	}
	return "?"
}

// WriteCSV writes the fit's labels to w as CSV: a header, then a record
// set,row[,id],label,given for every training row (set "data"; given is
// 1 for a row whose label was given) and every row of test (set "test",
// given 0), labels as class names ("?" for a row left unlabelled), the ID
// column named as in the training data (or test) when either has one;
// then the columns of Proba and Decision when the fit has them
// (OutputColumns, AppendOutputs). test holds the test rows passed to Fit
// (their IDs), nil when there were none.
func (r *Result) WriteCSV(w io.Writer, test *dataset.Dataset) error {
	ds := r.ds
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	idName := ds.IDName
	if idName == "" && test != nil {
		idName = test.IDName
	}
	head := []string{"set", "row", "label", "given"}
	if idName != "" {
		head = []string{"set", "row", idName, "label", "given"}
	}
	cw.Write(append(head, OutputColumns(ds.Classes, r.Proba, r.Decision, r.DecisionColumns)...))
	n := ds.Len()
	for i, c := range r.Labels {
		set, row, given, id := "data", i, "0", ""
		if i >= n {
			set, row = "test", i-n
			if test != nil && test.IDs != nil {
				id = test.IDs[row]
			}
		} else {
			if ds.Y[i] != dataset.Unlabeled {
				given = "1"
			}
			if ds.IDs != nil {
				id = ds.IDs[i]
			}
		}
		rec := []string{set, strconv.Itoa(row), labelName(ds.Classes, c), given}
		if idName != "" {
			rec = []string{set, strconv.Itoa(row), id, labelName(ds.Classes, c), given}
		}
		cw.Write(AppendOutputs(rec, r.Proba, r.Decision, i))
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// PredictionWriter writes the predictions of new points as CSV, a chunk
// at a time as Stream reads them: a header, then a record row[,id],label
// per point, rows counted from 0 over the chunks, labels as class names
// ("?" for a point left unlabelled), the ID column when the first chunk
// has one (dataset.Dataset.IDName); then the columns of the prediction's
// Proba and Decision when it has them (OutputColumns, AppendOutputs).
type PredictionWriter struct {
	p      *Pipeline
	cw     *csv.Writer
	rows   int
	idName string
}

// NewPredictionWriter returns a PredictionWriter of p's predictions to w.
func (p *Pipeline) NewPredictionWriter(w io.Writer) *PredictionWriter {
	return &PredictionWriter{p: p, cw: csv.NewWriter(w)}
}

// Write writes the predictions got of the rows of ds (the header first,
// on the first call) and flushes them to the writer; it returns the
// writer's error.
func (pw *PredictionWriter) Write(ds *dataset.Dataset, got *Prediction) error {
	classes := pw.p.Classes
	if pw.rows == 0 {
		pw.idName = ds.IDName
		head := []string{"row", "label"}
		if pw.idName != "" {
			head = []string{"row", pw.idName, "label"}
		}
		pw.cw.Write(append(head, OutputColumns(classes, got.Proba, got.Decision, pw.p.DecisionColumns())...))
	}
	for i, c := range got.Labels {
		rec := []string{strconv.Itoa(pw.rows + i), labelName(classes, c)}
		if pw.idName != "" {
			id := ""
			if ds.IDs != nil {
				id = ds.IDs[i]
			}
			rec = []string{strconv.Itoa(pw.rows + i), id, labelName(classes, c)}
		}
		pw.cw.Write(AppendOutputs(rec, got.Proba, got.Decision, i))
	}
	pw.rows += len(got.Labels)
	pw.cw.Flush()
	return pw.cw.Error()
}

// Rows is the number of rows written.
func (pw *PredictionWriter) Rows() int { return pw.rows }

// PredictStream says how WritePredictions labels a file of new points.
type PredictStream struct {
	// Want says what to write besides the labels.
	Want Want
	// Chunk is the number of rows read and labelled at a time (≤ 0:
	// DefaultChunk).
	Chunk int
	// Flush writes each chunk's records through to the writer before the
	// next chunk is read (a stream to standard output, a device or a
	// pipe: an error in a later chunk leaves the earlier rows written).
	Flush bool
	// Check, if not nil, is called with each chunk before it is
	// labelled; its error stops the stream.
	Check func(ds *dataset.Dataset) error
	// Progress, if not nil, is called after each chunk with the rows
	// written so far, and with done set once every row is labelled
	// (before the last records are flushed).
	Progress func(rows int, done bool)
}

// WriteError is an error writing the predictions (not one of the new
// points): it reads as Err.
type WriteError struct{ Err error }

func (e *WriteError) Error() string { return e.Err.Error() }
func (e *WriteError) Unwrap() error { return e.Err }

// WritePredictions labels the new points of r, named name, read as
// p.Stream reads them with opt, and writes their predictions to w as CSV
// (PredictionWriter), chunk by chunk as s says. It returns the number of
// rows written and the first error: one writing w is a *WriteError; the
// others are those of the points (reading, columns, values, s.Check,
// labelling).
func (p *Pipeline) WritePredictions(ctx context.Context, w io.Writer, r io.Reader, name string, opt dataset.CSVOptions, s PredictStream) (int, error) {
	bw := bufio.NewWriter(w)
	pw := p.NewPredictionWriter(bw)
	err := p.Stream(ctx, r, name, opt, s.Chunk, func(ds *dataset.Dataset) error {
		if s.Check != nil {
			if err := s.Check(ds); err != nil {
				return err
			}
		}
		X, err := p.Columns(ds)
		if err != nil {
			return err
		}
		got, err := p.PredictWant(ctx, X, s.Want)
		if err != nil {
			return err
		}
		if err := pw.Write(ds, got); err != nil {
			return &WriteError{err}
		}
		if s.Flush {
			if err := bw.Flush(); err != nil {
				return &WriteError{err}
			}
		}
		if s.Progress != nil {
			s.Progress(pw.Rows(), false)
		}
		return nil
	})
	if err != nil {
		return pw.Rows(), err
	}
	if s.Progress != nil {
		s.Progress(pw.Rows(), true)
	}
	if err := bw.Flush(); err != nil {
		return pw.Rows(), &WriteError{err}
	}
	return pw.Rows(), nil
}

// WriteSummary writes the summary of the fit arbor classify prints: the
// data (rows, labelled rows, features, classes), the kernel (with the
// gamma rbf:scale resolved to) when the learner uses one, the learner,
// the labels given to the unlabelled rows per class (Tally; no line when
// every row is labelled) and, with
// test (the test rows passed to Fit, their labels if any), the accuracy
// on the labelled test rows (TestCorrect).
func (r *Result) WriteSummary(w io.Writer, test *dataset.Dataset) error {
	ds := r.ds
	fmt.Fprintf(w, "data     %s (%d rows, %d labelled, %d features, %d classes)\n", ds.Name, ds.Len(), len(ds.Labeled()), ds.Dim(), len(ds.Classes))
	if ssl.UsesKernel(r.Learner) {
		fmt.Fprintf(w, "kernel   %s", r.Spec)
		if r.Gamma > 0 {
			fmt.Fprintf(w, " (gamma %.6g)", r.Gamma)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "learner  %s\n", r.Learner.Name())
	var err error
	if u := len(ds.UnlabeledRows()); u > 0 {
		counts, left := r.Tally()
		fmt.Fprintf(w, "predicted %d unlabelled rows:", u)
		for c, k := range counts {
			fmt.Fprintf(w, " %s=%d", ds.Classes[c], k)
		}
		if left > 0 {
			fmt.Fprintf(w, ", left unlabelled (?)=%d", left)
		}
		_, err = fmt.Fprintln(w)
	}
	if test != nil {
		if correct, labelled := r.TestCorrect(test); labelled > 0 {
			_, err = fmt.Fprintf(w, "test     %d points, accuracy %.2f%% on the %d with labels\n", test.Len(), 100*float64(correct)/float64(labelled), labelled)
		} else {
			_, err = fmt.Fprintf(w, "test     %d points labelled\n", test.Len())
		}
	}
	return err
}

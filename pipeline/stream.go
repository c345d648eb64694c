package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/arbor-ml/arbor/dataset"
)

// DefaultChunk is the number of rows Stream hands over at a time.
const DefaultChunk = 4096

// Stream reads delimited text from r in chunks of at most chunk rows
// (≤ 0: DefaultChunk) and calls fn with each chunk as a data set, in file
// order, holding only one chunk in memory. Columns take their roles from
// opt exactly as dataset.ReadCSV gives them (the first chunk settles the
// separator and whether there is a header, which later chunks reuse); a
// file without a label column is read as features only. Parse errors
// name the file and its physical line. Limitation: a quoted field may not
// span lines. fn's error stops the stream and is returned.
func Stream(ctx context.Context, r io.Reader, name string, opt dataset.CSVOptions, chunk int, fn func(ds *dataset.Dataset) error) error {
	if chunk <= 0 {
		chunk = DefaultChunk
	}
	opt.OneRow = true
	br := bufio.NewReaderSize(r, 1<<16)
	var header []byte // the header line, when the file has one
	headerLine := 0
	first := true
	lineNo := 0
	var buf bytes.Buffer
	var lines []int // physical line of each fed line
	eof := false
	for !eof {
		if err := ctx.Err(); err != nil {
			return err
		}
		buf.Reset()
		lines = lines[:0]
		if header != nil {
			buf.Write(header)
			lines = append(lines, headerLine)
		}
		rows := 0
		// The first chunk takes one more line: it may be the header.
		want := chunk
		if first {
			want++
		}
		for rows < want {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				lineNo++
				if lineNo == 1 {
					line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
				}
				if len(bytes.TrimSpace(line)) > 0 {
					if line[len(line)-1] != '\n' {
						line = append(line, '\n')
					}
					buf.Write(line)
					lines = append(lines, lineNo)
					rows++
				}
			}
			if err == io.EOF {
				eof = true
				break
			}
			if err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		dataLines := len(lines)
		if header != nil {
			dataLines--
		}
		if dataLines == 0 {
			if first {
				return fmt.Errorf("%s: no rows", name)
			}
			break
		}
		ds, err := dataset.ReadCSV(bytes.NewReader(buf.Bytes()), name, opt)
		if first && errors.Is(err, dataset.ErrNoLabelColumn) {
			opt.NoLabel = true
			ds, err = dataset.ReadCSV(bytes.NewReader(buf.Bytes()), name, opt)
		}
		if err != nil {
			var pe *dataset.ParseError
			if errors.As(err, &pe) && pe.Line >= 1 && pe.Line <= len(lines) {
				pe.Line = lines[pe.Line-1]
			}
			return err
		}
		if first {
			first = false
			if ds.Source != nil {
				opt.Sep = ds.Source.Sep
				opt.Header = ds.Source.Header
				opt.NoHeader = !ds.Source.Header
				if ds.Source.Header {
					i := bytes.IndexByte(buf.Bytes(), '\n')
					header = append([]byte(nil), buf.Bytes()[:i+1]...)
					headerLine = lines[0]
				}
			}
		}
		if err := fn(ds); err != nil {
			return err
		}
	}
	return nil
}

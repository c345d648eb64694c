package arborbeam

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/arbor-ml/arbor/dataset"
)

// LoadParquet reads the local Parquet file p whole as dataset.ReadCSV
// reads its CSV twin: every row group's rows as ParquetText gives them
// (numbers in the shortest form that reads back to the same value, a
// null an empty cell), after a header of the file's column names, with
// the column options of opt (the separator and header decision are the
// text's own). A parse error names the file, the row (0-based, in the
// file) and the column.
func LoadParquet(ctx context.Context, p string, opt dataset.CSVOptions) (*dataset.Dataset, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	groups, err := ParquetRowGroups(ctx, p, st.Size(), opt, nil)
	if err != nil {
		return nil, err
	}
	r, c, err := openParquet(ctx, p, st.Size())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	var text bytes.Buffer
	text.Write(headerLine(groups[0].Header))
	for _, g := range groups {
		err := ParquetText(ctx, r, g, DefaultChunk, func(lines []byte, _ int64) error {
			text.Write(lines)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	ds, err := dataset.ReadCSV(&text, p, parquetOptions(opt))
	var pe *dataset.ParseError
	if err != nil && errors.As(err, &pe) {
		where := p
		if pe.Line >= 2 {
			where += fmt.Sprintf(": row %d (counting from 0 in the file)", pe.Line-2)
		}
		if pe.Column != "" {
			where += fmt.Sprintf(", column %q", pe.Column)
		}
		return nil, fmt.Errorf("%s: %w", where, pe.Err)
	}
	return ds, err
}

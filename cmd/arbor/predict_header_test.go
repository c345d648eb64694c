package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// TestReadHeaderAsReadCSV: dataset.ReadHeader, with which predict picks
// the columns to read before reading any row, names the columns and finds
// the separator and the header as dataset.ReadCSV does.
func TestReadHeaderAsReadCSV(t *testing.T) {
	for _, text := range []string{
		"a,b,c\n1,2,3\n4,5,6\n",
		"1,2,3\n4,5,6\n",                       // no header
		"a;b;c\n1,5;2;3\n4;5;6\n",              // semicolons, a decimal comma
		",a,b\nr1,1,2\nr2,3,4\n",               // row names under an empty name
		"a,,b\n1,2,3\n4,5,6\n",                 // an unnamed column
		"\xef\xbb\xbfa\tb\r\n1\t2\r\n3\t4\r\n", // BOM, tabs, CRLF
		"a b  c\n1 2 3\n4  5 6\n",              // blanks
		"\"a,1\",b\n1,2\n3,4\n",                // a quoted name
		"0,1,2\n5,6,7\n8,9,1\n",                // pandas' column numbers: a header
		"a,b\n1,2\n",                           // one row
	} {
		for _, opt := range []dataset.CSVOptions{{}, {NoHeader: true}, {Header: true}} {
			opt.LabelOptional, opt.OneRow = true, true
			names, src, err := dataset.ReadHeader(strings.NewReader(text), "h.csv", opt)
			if err != nil {
				t.Fatalf("%q %+v: %v", text, opt, err)
			}
			ds, err := dataset.ReadCSV(strings.NewReader(text), "h.csv", opt)
			if err != nil && opt.NoHeader && (errors.Is(err, dataset.ErrNotNumber) || errors.Is(err, dataset.ErrMissing)) {
				continue // a header read as data
			}
			if err != nil {
				t.Fatalf("%q %+v: ReadCSV: %v", text, opt, err)
			}
			cols := slices.Clone(ds.Features)
			if ds.IDName != "" {
				cols = append([]string{ds.IDName}, cols...)
			}
			if !slices.Equal(names, cols) || src.Sep != ds.Source.Sep || src.Header != ds.Source.Header {
				t.Errorf("%q %+v: ReadHeader %q sep %q header %v, ReadCSV %q sep %q header %v",
					text, opt, names, src.Sep, src.Header, cols, ds.Source.Sep, ds.Source.Header)
			}
		}
	}
	for _, text := range []string{"", "\n\n", "a,b,a\n1,2,3\n"} {
		_, _, err := dataset.ReadHeader(strings.NewReader(text), "h.csv", dataset.CSVOptions{})
		_, err2 := dataset.ReadCSV(strings.NewReader(text), "h.csv", dataset.CSVOptions{NoLabel: true})
		if err == nil || err2 == nil || err.Error() != err2.Error() {
			t.Errorf("%q: ReadHeader %v, ReadCSV %v", text, err, err2)
		}
	}
}

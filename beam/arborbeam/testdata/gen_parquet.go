//go:build ignore

// gen_parquet writes the Parquet fixture points.parquet and its CSV twin
// points.csv (the same rows and columns, as text) with arrow-go's Parquet
// writer. Run from beam/arborbeam:
//
//	go run testdata/gen_parquet.go
//
// 300 rows in three row groups of 100; columns name (string), f3
// (DOUBLE), note (string, with commas and quotes), f1 (FLOAT), f2
// (DOUBLE, optional: every 37th row null, an empty cell in the twin), f4
// (INT64) and label (string).
package main

import (
	"encoding/csv"
	"fmt"
	"log"
	"math"
	"os"
	"strconv"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

const rows, group = 300, 100

func value(i, j int) float64 {
	c := float64(i % 3)
	return math.Round((c*1.2+1.5*math.Sin(float64(i*(j+3))*0.7+float64(j)))*1e6) / 1e6
}

func main() {
	req, opt := parquet.Repetitions.Required, parquet.Repetitions.Optional
	str := func(name string) schema.Node {
		return schema.MustPrimitive(schema.NewPrimitiveNodeLogical(name, req, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	}
	fields := schema.FieldList{
		str("name"),
		schema.MustPrimitive(schema.NewPrimitiveNode("f3", req, parquet.Types.Double, -1, -1)),
		str("note"),
		schema.MustPrimitive(schema.NewPrimitiveNode("f1", req, parquet.Types.Float, -1, -1)),
		schema.MustPrimitive(schema.NewPrimitiveNode("f2", opt, parquet.Types.Double, -1, -1)),
		schema.MustPrimitive(schema.NewPrimitiveNode("f4", req, parquet.Types.Int64, -1, -1)),
		str("label"),
	}
	root := schema.MustGroup(schema.NewGroupNode("schema", req, fields, -1))
	out, err := os.Create("testdata/points.parquet")
	if err != nil {
		log.Fatal(err)
	}
	pw := file.NewParquetWriter(out, root)
	twin, err := os.Create("testdata/points.csv")
	if err != nil {
		log.Fatal(err)
	}
	cw := csv.NewWriter(twin)
	cw.Write([]string{"name", "f3", "note", "f1", "f2", "f4", "label"})
	for g := 0; g < rows/group; g++ {
		var name, note, label []parquet.ByteArray
		var f3, f2 []float64
		var f2def []int16
		var f1 []float32
		var f4 []int64
		for i := g * group; i < (g+1)*group; i++ {
			rec := make([]string, 7)
			rec[0] = fmt.Sprintf("p%d", i)
			name = append(name, parquet.ByteArray(rec[0]))
			f3 = append(f3, value(i, 2))
			rec[1] = strconv.FormatFloat(value(i, 2), 'g', -1, 64)
			rec[2] = fmt.Sprintf("note %d, \"quoted\"", i)
			note = append(note, parquet.ByteArray(rec[2]))
			v1 := float32(value(i, 0))
			f1 = append(f1, v1)
			rec[3] = strconv.FormatFloat(float64(v1), 'g', -1, 32)
			if i%37 == 5 {
				f2def = append(f2def, 0)
			} else {
				f2def = append(f2def, 1)
				f2 = append(f2, value(i, 1))
				rec[4] = strconv.FormatFloat(value(i, 1), 'g', -1, 64)
			}
			v4 := int64(math.Round(10 * value(i, 3)))
			f4 = append(f4, v4)
			rec[5] = strconv.FormatInt(v4, 10)
			rec[6] = fmt.Sprintf("c%d", i%3)
			label = append(label, parquet.ByteArray(rec[6]))
			cw.Write(rec)
		}
		rg := pw.AppendRowGroup()
		write := func(f func(w file.ColumnChunkWriter) error) {
			w, err := rg.NextColumn()
			if err != nil {
				log.Fatal(err)
			}
			if err := f(w); err != nil {
				log.Fatal(err)
			}
			if err := w.Close(); err != nil {
				log.Fatal(err)
			}
		}
		bytesCol := func(v []parquet.ByteArray) func(w file.ColumnChunkWriter) error {
			return func(w file.ColumnChunkWriter) error {
				_, err := w.(*file.ByteArrayColumnChunkWriter).WriteBatch(v, nil, nil)
				return err
			}
		}
		write(bytesCol(name))
		write(func(w file.ColumnChunkWriter) error {
			_, err := w.(*file.Float64ColumnChunkWriter).WriteBatch(f3, nil, nil)
			return err
		})
		write(bytesCol(note))
		write(func(w file.ColumnChunkWriter) error {
			_, err := w.(*file.Float32ColumnChunkWriter).WriteBatch(f1, nil, nil)
			return err
		})
		write(func(w file.ColumnChunkWriter) error {
			_, err := w.(*file.Float64ColumnChunkWriter).WriteBatch(f2, f2def, nil)
			return err
		})
		write(func(w file.ColumnChunkWriter) error {
			_, err := w.(*file.Int64ColumnChunkWriter).WriteBatch(f4, nil, nil)
			return err
		})
		write(bytesCol(label))
		if err := rg.Close(); err != nil {
			log.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		log.Fatal(err)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		log.Fatal(err)
	}
	if err := twin.Close(); err != nil {
		log.Fatal(err)
	}
}

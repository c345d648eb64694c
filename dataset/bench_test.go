package dataset

import (
	"bytes"
	"fmt"
	"testing"
)

func BenchmarkReadCSV(b *testing.B) {
	for _, name := range []string{"iris", "usps"} {
		raw, err := openEmbedded(name + ".csv")
		if err != nil {
			b.Fatal(err)
		}
		b.Run("set="+name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				if _, err := ReadCSV(bytes.NewReader(raw), name, CSVOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEmbedded(b *testing.B) {
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseEmbedded("usps"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Embedded("usps"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkGunzipUSPS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openEmbedded("usps.csv"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadLIBSVM(b *testing.B) {
	d, err := Embedded("usps")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	for i := 0; i < d.Len(); i++ {
		fmt.Fprintf(&buf, "%d", d.Y[i])
		for j, v := range d.X.RawRowView(i) {
			fmt.Fprintf(&buf, " %d:%v", j+1, v)
		}
		buf.WriteByte('\n')
	}
	raw := buf.Bytes()
	b.Run("n=1500", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(raw)))
		for b.Loop() {
			if _, err := ReadLIBSVM(bytes.NewReader(raw), "usps.svm"); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkStandardize(b *testing.B) {
	d, err := Embedded("usps")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("n=1500", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Standardize(d.X)
		}
	})
}

package pipeline_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/pipeline"
)

// PredictFile and LandmarkFeaturesFile read data "-" from stdin, once and
// in chunks, plain or gzip (two members one after the other, as cat a.gz
// b.gz gives), and write what the same text gives read from a reader;
// their errors name "standard input" with the line.
func TestFilesFromStdin(t *testing.T) {
	ctx := context.Background()
	ds, p := irisKNN(t)
	var text strings.Builder
	text.WriteString(strings.Join(p.Features, ",") + "\n")
	for i := 0; i < ds.Len(); i += 3 {
		fmt.Fprintf(&text, "%g,%g,%g,%g\n", ds.X.At(i, 0), ds.X.At(i, 1), ds.X.At(i, 2), ds.X.At(i, 3))
	}
	half := strings.Index(text.String()[len(text.String())/2:], "\n") + len(text.String())/2 + 1
	gz := append(gzipText(t, text.String()[:half]), gzipText(t, text.String()[half:])...)
	s := pipeline.PredictStream{Chunk: 7}
	var want bytes.Buffer
	if _, err := p.WritePredictions(ctx, &want, strings.NewReader(text.String()), "new.csv", dataset.CSVOptions{}, s); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{[]byte(text.String()), gz} {
		var got bytes.Buffer
		if err := p.PredictFile(ctx, "-", "-", io.MultiReader(bytes.NewReader(in)), &got, dataset.CSVOptions{}, s, nil); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("predictions from standard input:\n%s\nwant\n%s", got.String(), want.String())
		}
	}
	fit, err := pipeline.Fit(ctx, pipeline.Settings{Kernel: "rbf:0.3", Learner: "svm", Landmarks: 20}, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	lm, err := fit.Pipeline()
	if err != nil {
		t.Fatal(err)
	}
	fs := pipeline.FeatureStream{Chunk: 4096}
	var wantZ bytes.Buffer
	if _, err := lm.WriteLandmarkFeatures(ctx, &wantZ, strings.NewReader(text.String()), "new.csv", dataset.CSVOptions{}, fs); err != nil {
		t.Fatal(err)
	}
	for _, in := range [][]byte{[]byte(text.String()), gz} {
		var got bytes.Buffer
		if err := lm.LandmarkFeaturesFile(ctx, "-", "-", io.MultiReader(bytes.NewReader(in)), &got, dataset.CSVOptions{}, fs, nil); err != nil {
			t.Fatal(err)
		}
		if got.String() != wantZ.String() {
			t.Errorf("features from standard input:\n%.500s\nwant\n%.500s", got.String(), wantZ.String())
		}
	}
	bad := text.String()[:half] + "1,2,x,4\n"
	line := strings.Count(text.String()[:half], "\n") + 1
	var out bytes.Buffer
	err = p.PredictFile(ctx, "-", "-", strings.NewReader(bad), &out, dataset.CSVOptions{}, s, nil)
	if want := fmt.Sprintf("standard input:%d: column %q: not a number \"x\"", line, p.Features[2]); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want %s…", err, want)
	}
	if err := p.PredictFile(ctx, "-", "-", strings.NewReader(""), &out, dataset.CSVOptions{}, s, nil); err == nil || err.Error() != "standard input: empty input: nothing was read (0 bytes)" {
		t.Errorf("empty standard input: %v", err)
	}
}

func gzipText(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A damaged gzip stream that decompresses to a garbled cell early on is
// the stream's error, in whatever chunks the rows are read: the error
// gzip finds at the stream's end, not the garbled line's.
func TestPredictGarbledGzip(t *testing.T) {
	ctx := context.Background()
	_, p := irisKNN(t)
	var text strings.Builder
	text.WriteString(strings.Join(p.Features, ",") + "\n5.1,3.5,1.4,0.2\n")
	for i := range 20000 {
		fmt.Fprintf(&text, "%d.5,3.%d,1.4,0.2\n", 4+i%4, i%10)
	}
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write([]byte(text.String()))
	zw.Close()
	z := b.Bytes()
	i := bytes.Index(z, []byte("5.1,3.5"))
	copy(z[i:], "5.1,x.5") // after the checksum was taken: stored blocks hold the text as it is
	want := "standard input: bad compressed file: damaged gzip stream after line 20002 (gzip: invalid checksum)"
	for _, chunk := range []int{1, 100, 100000} {
		var out bytes.Buffer
		err := p.PredictFile(ctx, "-", "-", bytes.NewReader(z), &out, dataset.CSVOptions{}, pipeline.PredictStream{Chunk: chunk}, nil)
		if err == nil || err.Error() != want {
			t.Errorf("chunk %d: %v, want %s", chunk, err, want)
		}
	}
}

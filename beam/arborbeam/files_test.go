package arborbeam

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
)

// openText reads a .gz file as arbor does (dataset.Open): the same bytes
// for a sound file, the same errors, naming the file and, for a stream
// cut short or damaged, the line after which it fails.
func TestOpenTextGzip(t *testing.T) {
	var b strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&b, "%d,%d\n", i, i%7)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(b.String()))
	zw.Close()
	crc := bytes.Clone(z.Bytes())
	crc[len(crc)-6] ^= 0xff
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"sound.csv.gz", z.Bytes()},
		{"cut.csv.gz", z.Bytes()[:z.Len()/2]},
		{"crc.csv.gz", crc},
		{"plain.csv.gz", []byte(b.String())},
		{"empty.csv.gz", nil},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, wantErr := readAll(dataset.Open(p))
		got, err := readAll(openText(context.Background(), p))
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || got != want {
			t.Errorf("%s: %d bytes, error %v; want %d bytes, error %v (dataset.Open)", c.name, len(got), err, len(want), wantErr)
		}
		if c.name != "sound.csv.gz" && !errors.Is(err, dataset.ErrCompressed) {
			t.Errorf("%s: error %v, want dataset.ErrCompressed", c.name, err)
		}
	}
}

func readAll(r io.ReadCloser, err error) (string, error) {
	if err != nil {
		return "", err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	return string(b), err
}

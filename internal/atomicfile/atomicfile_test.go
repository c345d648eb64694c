package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: a successful write creates the file; a failed one leaves the
// old content and no temporary file; RemovePending deletes a temporary
// file still being written.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	if err := Write(path, func(f *os.File) error { _, err := f.WriteString("1,2\n"); return err }); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(f *os.File) error {
		f.WriteString("half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "1,2\n" {
		t.Errorf("content %q after a failed write", b)
	}
	var during []string
	Write(filepath.Join(dir, "x.npy"), func(f *os.File) error {
		RemovePending()
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			during = append(during, e.Name())
		}
		return boom
	})
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "out.csv" || len(during) != 1 {
		t.Errorf("files left: %v (during the write: %v)", entries, during)
	}
}

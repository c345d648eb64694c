package kernel

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGraphText: the file reader equals ReadEdges and names the file in
// its errors; the summary and the labels name the nodes by id.
func TestGraphText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "e.txt")
	if err := os.WriteFile(path, []byte("5 3\n3 9\n9 5\n9 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := ReadEdgesFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.Summary(), "4 nodes (the ids on its edges, 3..12), 4 edges; kernel: 3 on the diagonal, 1 per edge"; got != want {
		t.Errorf("Summary %q, want %q", got, want)
	}
	var b bytes.Buffer
	if err := g.WriteLabels(&b, []int{0, 0, 1, 1}); err != nil {
		t.Fatal(err)
	}
	if want := "node,cluster\n3,0\n5,0\n9,1\n12,1\n"; b.String() != want {
		t.Errorf("labels %q, want %q", b.String(), want)
	}
	dense, _ := ReadEdges(strings.NewReader("0 1\n1 2\n"), "d.txt")
	if got, want := dense.Summary(), "3 nodes, 2 edges; kernel: 2 on the diagonal, 1 per edge"; got != want {
		t.Errorf("Summary %q, want %q", got, want)
	}
	if err := os.WriteFile(path, []byte("1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadEdgesFile(path); err == nil || !strings.HasPrefix(err.Error(), path+":1:") {
		t.Errorf("self loop: %v, want an error naming %s:1", err, path)
	}
	if _, err := ReadEdgesFile(filepath.Join(dir, "none.txt")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

package figure

import (
	"errors"
	"testing"
)

// TestFormat: .png and .svg in any case; anything else is ErrFormat.
func TestFormat(t *testing.T) {
	for path, want := range map[string]string{"a.png": ".png", "dir/B.SVG": ".svg", "c.Png": ".png"} {
		if got, err := Format(path); got != want || err != nil {
			t.Errorf("Format(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
	for _, path := range []string{"a.pdf", "png", "", "a.png.txt"} {
		if _, err := Format(path); !errors.Is(err, ErrFormat) {
			t.Errorf("Format(%q): %v, want ErrFormat", path, err)
		}
	}
}

package progress

import (
	"bytes"
	"regexp"
	"testing"
	"time"
)

// TestRows: a line when a second has passed since the last one (none
// sooner), and the total once done.
func TestRows(t *testing.T) {
	var buf bytes.Buffer
	f := Rows(&buf, "predict", time.Now().Add(-2*time.Second))
	f(100, false) // two seconds since start: printed
	f(200, false) // just after: not
	f(300, true)
	want := regexp.MustCompile(`^predict: 100 rows labelled \(2\.\ds, \d+ rows/s\)\npredict: 300 rows labelled in 2\.\ds \(\d+ rows/s\)\n$`)
	if !want.MatchString(buf.String()) {
		t.Errorf("got %q", buf.String())
	}
}

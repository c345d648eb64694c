package figure

import (
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// TestWrapTitlePhrases: a title too wide for its panel breaks between
// phrases ("q = 0.371," stays whole), each line fits the width unless a
// single word is wider, and the words are kept in order; restore puts the
// title back.
func TestWrapTitlePhrases(t *testing.T) {
	title := "iris: q = 0.371, 2 clusters, 1/(NC) = 0.0067"
	p := plot.New()
	base := p.Title.TextStyle.Width("1/(NC) = 0.0067")
	for _, width := range []float64{0.6, 1.1, 1.5, 2, 10} {
		p.Title.Text = title
		w := base * vg.Length(width)
		restore := wrapTitle(p, w)
		lines := strings.Split(p.Title.Text, "\n")
		if got := strings.Join(strings.Fields(p.Title.Text), " "); got != title {
			t.Errorf("width %v: words %q, want %q", width, got, title)
		}
		for _, l := range lines {
			if p.Title.TextStyle.Width(l) > w && strings.Contains(l, " ") {
				t.Errorf("width %v: line %q wider than the panel", width, l)
			}
			// No expression split at its spaces when the phrase fits.
			for _, ph := range []string{"q = 0.371,", "2 clusters,", "1/(NC) = 0.0067"} {
				if p.Title.TextStyle.Width(ph) <= w && strings.Contains(p.Title.Text, ph[:3]) && !strings.Contains(p.Title.Text, ph) {
					t.Errorf("width %v: %q broken in %q", width, ph, p.Title.Text)
				}
			}
		}
		if width == 10 && len(lines) != 1 {
			t.Errorf("wide panel: %d lines", len(lines))
		}
		restore()
		if p.Title.Text != title {
			t.Errorf("restore: %q", p.Title.Text)
		}
	}
	if got := strings.Join(phrases("a: b, c; d,e"), "|"); got != "a: |b, |c; |d,e" {
		t.Errorf("phrases = %q", got)
	}
}

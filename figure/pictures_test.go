package figure

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/hclust"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// leafNames returns the labelled ticks of a dendrogram's leaf axis.
func leafNames(f *Figure) []string {
	p := f.Plots[0][0]
	var names []string
	for _, tk := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tk.Label != "" {
			names = append(names, tk.Label)
		}
	}
	return names
}

// TestDendrogramLastP compares the leaves of truncated dendrograms of iris
// with SciPy's dendrogram(Z, truncate_mode="lastp", p).ivl
// (testdata/gen_lastp.py): same leaves, same order, same "(n)" sizes.
func TestDendrogramLastP(t *testing.T) {
	b, err := os.ReadFile("testdata/lastp.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		Cases []struct {
			Method string
			P      int
			Ivl    []string
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	iris, err := dataset.Embedded("iris")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ref.Cases {
		m, err := hclust.ParseMethod(c.Method)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := hclust.FromPoints(context.Background(), iris.X, m)
		if err != nil {
			t.Fatal(err)
		}
		f, err := Dendrogram(tree, DendrogramOptions{Leaves: c.P})
		if err != nil {
			t.Fatal(err)
		}
		got := leafNames(f)
		if fmt.Sprint(got) != fmt.Sprint(c.Ivl) {
			t.Errorf("%s p=%d: leaves\n got %v\nwant %v", c.Method, c.P, got, c.Ivl)
		}
	}
}

// TestDendrogramTruncationInvariants: a big tree is truncated by default to
// at most DefaultLeaves leaves whose sizes add up to N, every name is in
// the SVG, the axes are labelled; Leaves < 0 draws every leaf.
func TestDendrogramTruncationInvariants(t *testing.T) {
	const n = 700
	tree, err := hclust.FromPoints(context.Background(), lcgPoints(n, 7), hclust.Average)
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []DendrogramOptions{{}, {K: 40}, {Leaves: 9, Cut: 1}, {Leaves: -1}, {Leaves: n + 5}} {
		f, err := Dendrogram(tree, opt)
		if err != nil {
			t.Fatal(err)
		}
		want := DendrogramLeaves(n, opt)
		switch {
		case opt.Leaves < 0 || opt.Leaves > n:
			if want != n {
				t.Fatalf("%+v: %d leaves, want %d", opt, want, n)
			}
		case opt.Leaves == 0 && want != max(DefaultLeaves, opt.K):
			t.Fatalf("%+v: %d leaves, want %d", opt, want, max(DefaultLeaves, opt.K))
		}
		p := f.Plots[0][0]
		if p.X.Max-p.X.Min != float64(want) {
			t.Errorf("%+v: leaf axis spans %v, want %d leaves", opt, p.X.Max-p.X.Min, want)
		}
		if p.X.Label.Text == "" || p.Y.Label.Text == "" {
			t.Errorf("%+v: axis labels %q, %q", opt, p.X.Label.Text, p.Y.Label.Text)
		}
		names := leafNames(f)
		if want > maxNamedLeaves {
			if len(names) != 0 {
				t.Errorf("%+v: %d names on %d leaves", opt, len(names), want)
			}
			continue
		}
		if len(names) != want {
			t.Fatalf("%+v: %d names, want %d", opt, len(names), want)
		}
		total := 0
		for _, s := range names {
			var k int
			if _, err := fmt.Sscanf(s, "(%d)", &k); err != nil {
				k = 1
			}
			total += k
		}
		if total != n {
			t.Errorf("%+v: leaf sizes add up to %d, want %d", opt, total, n)
		}
		var buf bytes.Buffer
		if err := f.WriteTo(&buf, "svg"); err != nil {
			t.Fatal(err)
		}
		for _, s := range append(names, p.X.Label.Text, "height") {
			if !strings.Contains(buf.String(), ">"+s+"<") {
				t.Errorf("%+v: %q not in the SVG text", opt, s)
			}
		}
	}
	// Small trees are drawn whole, leaves named by row number.
	small, _ := hclust.FromPoints(context.Background(), lcgPoints(20, 1), hclust.Single)
	f, err := Dendrogram(small, DendrogramOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := leafNames(f); len(got) != 20 {
		t.Errorf("small tree: %d names, want 20", len(got))
	}
}

// TestNiceTicks: 4 to 8 labelled ticks at multiples of the step, labels
// that parse back to their values, no "-0".
func TestNiceTicks(t *testing.T) {
	for _, r := range [][2]float64{{-0.75, 1.25}, {0, 1}, {-1.3, 2.3}, {0, 10}, {3, 17}, {-1e-4, 3e-4}, {1e5, 1.7e5}, {0.02, 12}, {-2.1, 0.4}, {1, 3}} {
		ticks := NiceTicks{}.Ticks(r[0], r[1])
		var major []plot.Tick
		for _, tk := range ticks {
			if tk.Value < r[0]-1e-12 || tk.Value > r[1]+1e-12 {
				t.Errorf("%v: tick %v outside the range", r, tk.Value)
			}
			if tk.Label != "" {
				major = append(major, tk)
			}
		}
		if len(major) < 4 || len(major) > 8 {
			t.Errorf("%v: %d labelled ticks %v", r, len(major), major)
		}
		step := major[1].Value - major[0].Value
		for i, tk := range major {
			var v float64
			if _, err := fmt.Sscan(tk.Label, &v); err != nil || math.Abs(v-tk.Value) > 1e-9*math.Abs(step) {
				t.Errorf("%v: label %q for %v", r, tk.Label, tk.Value)
			}
			if tk.Label == "-0" || strings.HasPrefix(tk.Label, "-0") && v == 0 {
				t.Errorf("%v: label %q", r, tk.Label)
			}
			if i > 0 && math.Abs(tk.Value-major[i-1].Value-step) > 1e-9*step {
				t.Errorf("%v: uneven steps %v", r, major)
			}
		}
	}
	for _, r := range [][2]float64{{1, 3}, {-0.3, 12.6}, {0, 14}} {
		for _, tk := range (NiceTicks{Integer: true}).Ticks(r[0], r[1]) {
			if tk.Label != "" && tk.Value != math.Round(tk.Value) {
				t.Errorf("integer ticks over %v: %v", r, tk.Value)
			}
		}
	}
}

// contrast is WCAG's contrast ratio of two colours.
func contrast(a, b [3]uint8) float64 {
	lum := func(c [3]uint8) float64 {
		var l float64
		for i, w := range []float64{0.2126, 0.7152, 0.0722} {
			v := float64(c[i]) / 255
			if v <= 0.03928 {
				v /= 12.92
			} else {
				v = math.Pow((v+0.055)/1.055, 2.4)
			}
			l += w * v
		}
		return l
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestUnlabeledVisible: unlabelled points keep a contrast ratio of at least
// 3 on white and on every region colour.
func TestUnlabeledVisible(t *testing.T) {
	u := [3]uint8{UnlabeledColor.R, UnlabeledColor.G, UnlabeledColor.B}
	if c := contrast(u, [3]uint8{255, 255, 255}); c < 3 {
		t.Errorf("on white: contrast %.2f", c)
	}
	for k := range Palette {
		r := regionColor(k)
		if c := contrast(u, [3]uint8{r.R, r.G, r.B}); c < 3 {
			t.Errorf("on the region of class %d %v: contrast %.2f", k, r, c)
		}
	}
}

// textAt records the position of every text drawn.
func textAt(acts []recorder.Action) map[string]vg.Point {
	out := map[string]vg.Point{}
	for _, a := range acts {
		if s, ok := a.(*recorder.FillString); ok {
			out[s.String] = s.Point
		}
	}
	return out
}

// TestLegendBesidePanel: the legend is drawn to the right of the data area,
// so it covers no point, and long titles are wrapped to the panel's width.
func TestLegendBesidePanel(t *testing.T) {
	X := lcgPoints(300, 5)
	y := make([]int, 300)
	for i := range y {
		y[i] = i%3 - 1
	}
	title := "a long title that would not fit on one line of a narrow panel, so it is wrapped onto more lines"
	f, err := Scatter(X, y, ScatterOptions{Title: title, Labeled: []int{1, 2, 3}, Width: 4 * vg.Inch, Height: 3 * vg.Inch})
	if err != nil {
		t.Fatal(err)
	}
	p := f.Plots[0][0]
	rec := &recorder.Canvas{}
	c := draw.Canvas{Canvas: rec, Rectangle: vg.Rectangle{Max: vg.Point{X: 4 * vg.Inch, Y: 3 * vg.Inch}}}
	drawPanel(p, c)
	if p.Title.Text != title {
		t.Fatalf("title changed to %q", p.Title.Text)
	}
	texts := textAt(rec.Actions)
	lw := legendWidth(p, c)
	data := p.DataCanvas(draw.Crop(c, 0, -(lw + legendGap), 0, 0))
	for _, name := range []string{"class 0", "class 1", "unlabelled", "labelled"} {
		pt, ok := texts[name]
		if !ok {
			t.Fatalf("legend entry %q not drawn", name)
		}
		if pt.X < data.Max.X {
			t.Errorf("legend entry %q at x = %v inside the data area (right edge %v)", name, pt.X, data.Max.X)
		}
	}
	for s := range texts {
		if len(s) > 20 && strings.Contains(title, s) && p.Title.TextStyle.Width(s) > c.Size().X {
			t.Errorf("title line %q wider than the panel", s)
		}
	}
	if _, ok := texts[title]; ok {
		t.Error("long title drawn on one line")
	}
}

package figure

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// NiceTicks is a plot.Ticker that puts labelled ticks at round values, a
// step of 1, 2, 2.5 or 5 times a power of ten chosen so that 4 to 8 labels
// fall in the range (gonum's default labels only every other tick, at odd
// values such as 0.25 and 1.25), with unlabelled minor ticks between them.
// Labels carry as many decimals as the step needs and never read "-0".
type NiceTicks struct {
	// Integer keeps the step a whole number, 1 or more (e.g. for counts).
	Integer bool
}

// Ticks implements plot.Ticker.
func (t NiceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) || !finite(lo) || !finite(hi) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step, minor, dec := niceStep(hi - lo)
	if t.Integer && step < 1 {
		step, minor, dec = 1, 1, 0
	}
	if t.Integer && step == 2.5 {
		step, minor, dec = 2, 1, 0
	}
	var ticks []plot.Tick
	// Minor ticks first, major ones replace them where they coincide.
	k0, k1 := math.Ceil(lo/minor-1e-9), math.Floor(hi/minor+1e-9)
	perMajor := math.Round(step / minor)
	for k := k0; k <= k1; k++ {
		v := k * minor
		if math.Mod(math.Abs(k), perMajor) == 0 {
			s := strconv.FormatFloat(v, 'f', dec, 64)
			if strings.TrimLeft(s, "-0.") == "" {
				s = strings.TrimPrefix(s, "-")
			}
			ticks = append(ticks, plot.Tick{Value: v, Label: s})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// niceStep returns the labelled step for a range of width span (4 to 8
// labels), the minor step and the decimals a label needs.
func niceStep(span float64) (step, minor float64, dec int) {
	raw := span / 6
	p := math.Floor(math.Log10(raw))
	mag := math.Pow(10, p)
	mant := []float64{1, 2, 2.5, 5, 10}
	div := []float64{5, 4, 5, 5, 5}
	i := 0
	for i < len(mant)-1 && mant[i]*mag*1.0000001 < raw {
		i++
	}
	// Prefer the larger step if the smaller one gives more than 8 labels.
	for i < len(mant)-1 && span/(mant[i]*mag) > 8 {
		i++
	}
	step = mant[i] * mag
	minor = step / div[i]
	dec = max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	if mant[i] == 2.5 {
		dec = max(0, -int(p)+1)
	}
	return step, minor, dec
}

// legendWidth returns the width of p's legend (0 without entries).
func legendWidth(p *plot.Plot, c draw.Canvas) vg.Length {
	return p.Legend.Rectangle(c).Size().X
}

// legendGap separates a legend drawn beside its panel from the panel.
const legendGap = 3 * vg.Millimeter

// wrapTitle breaks each line of p's title so that it fits in width, and
// returns a function that restores the title. A line breaks after a
// phrase (text up to ", ", ": " or "; ") so that an expression such as
// "q = 0.1" or "3 clusters" stays on one line; a phrase wider than the
// panel breaks at its spaces.
func wrapTitle(p *plot.Plot, width vg.Length) (restore func()) {
	old := p.Title.Text
	restore = func() { p.Title.Text = old }
	if old == "" || width <= 0 {
		return restore
	}
	p.Title.Text = strings.Join(wrapText(p.Title.TextStyle, old, width), "\n")
	return restore
}

// wrapText breaks each line of text so that it fits in width in style
// sty: after a phrase (text up to ", ", ": " or "; "), or, for a phrase
// wider than width alone, at its spaces.
func wrapText(sty draw.TextStyle, text string, width vg.Length) []string {
	fits := func(s string) bool { return sty.Width(s) <= width }
	var out []string
	for _, line := range strings.Split(text, "\n") {
		cur := ""
		for _, ph := range phrases(line) {
			switch {
			case cur == "":
				cur = ph
			case fits(cur + ph):
				cur += ph
			default:
				out = append(out, strings.TrimRight(cur, " "))
				cur = ph
			}
			// A phrase alone too wide: break it at spaces.
			for !fits(cur) {
				words := strings.Split(strings.TrimRight(cur, " "), " ")
				cut := len(words) - 1
				for cut > 1 && !fits(strings.Join(words[:cut], " ")) {
					cut--
				}
				if cut < 1 {
					break
				}
				out = append(out, strings.Join(words[:cut], " "))
				cur = strings.Join(words[cut:], " ")
			}
		}
		out = append(out, strings.TrimRight(cur, " "))
	}
	return out
}

// phrases splits s after each ", ", ": " and "; " (the separator stays
// with the phrase before it); the pieces concatenate to s.
func phrases(s string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == ',' || s[i] == ':' || s[i] == ';') && s[i+1] == ' ' {
			out = append(out, s[start:i+2])
			start = i + 2
		}
	}
	return append(out, s[start:])
}

// drawPanel draws p on c with its legend, if any, beside the data area on
// the right (so that it never hides data) and its title wrapped to the
// panel's width (so that it is never clipped). A legend wider than half the
// panel stays inside, at the top.
func drawPanel(p *plot.Plot, c draw.Canvas) {
	lw := legendWidth(p, c)
	if lw == 0 || lw+legendGap > c.Size().X/2 {
		defer wrapTitle(p, c.Size().X)()
		p.Draw(c)
		return
	}
	pc := draw.Crop(c, 0, -(lw + legendGap), 0, 0)
	defer wrapTitle(p, pc.Size().X)()
	legend := p.Legend
	p.Legend = plot.NewLegend()
	p.Draw(pc)
	p.Legend = legend
	top := vg.Length(0)
	if p.Title.Text != "" {
		top = p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	}
	l := legend
	l.Top, l.Left, l.XOffs, l.YOffs = true, true, 0, 0
	l.Draw(draw.Crop(c, c.Size().X-lw, 0, 0, -top))
}

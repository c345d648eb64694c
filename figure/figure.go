package figure

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbor-ml/arbor/internal/atomicfile"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Sentinel errors, usable with errors.Is.
var (
	// ErrFormat reports an output file extension other than .png or .svg.
	ErrFormat = errors.New("figure: unsupported output format")
	// ErrInput reports empty, mismatched or non-finite input or bad options.
	ErrInput = errors.New("figure: bad input")
)

// Default figure size of one panel.
const (
	DefaultWidth  = 6 * vg.Inch
	DefaultHeight = 4 * vg.Inch
)

// Figure is a grid of plot panels, Plots[row][col], drawn on one page of
// Width×Height.
type Figure struct {
	Plots         [][]*plot.Plot
	Width, Height vg.Length
	// Key is text drawn under the panels at KeyFont size: a heading
	// across the page, then the lines in as many columns as fit, filled
	// top to bottom (e.g. what each numbered node of a tree stands for).
	// The panels get the height KeyHeight leaves.
	Key *Key
}

// Key is a block of text under a figure's panels.
type Key struct {
	Heading string
	Lines   []string
}

// KeyFont is the size of a figure key's text.
const KeyFont = 9 * vg.Inch / 72

// keyStyle is the text style of a figure key.
func keyStyle() draw.TextStyle {
	sty := plot.New().Legend.TextStyle
	sty.Font.Size = KeyFont
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	return sty
}

// keyGap is the space between the columns of a key and around it.
const keyGap = 6 * vg.Millimeter

// layout returns how many columns of k fit in width and the height of
// the block.
func (k *Key) layout(width vg.Length) (cols int, height vg.Length) {
	if k == nil || k.Heading == "" && len(k.Lines) == 0 {
		return 0, 0
	}
	sty := keyStyle()
	lineH := sty.Height("0") * 1.15
	colW := vg.Length(0)
	for _, l := range k.Lines {
		colW = max(colW, sty.Width(l))
	}
	cols = max(1, min(len(k.Lines), int((width-keyGap)/(colW+keyGap))))
	rows := (len(k.Lines) + cols - 1) / cols
	if k.Heading != "" {
		rows += len(wrapText(sty, k.Heading, width-keyGap))
	}
	return cols, vg.Length(rows)*lineH + keyGap
}

// KeyHeight returns the height the key k takes on a page of the given width.
func KeyHeight(k *Key, width vg.Length) vg.Length {
	_, h := k.layout(width)
	return h
}

// draw writes the key in the canvas c (its full width, from the top).
func (k *Key) draw(c draw.Canvas) {
	cols, _ := k.layout(c.Size().X)
	if cols == 0 {
		return
	}
	sty := keyStyle()
	lineH := sty.Height("0") * 1.15
	x0 := c.Min.X + keyGap/2
	y := c.Max.Y - keyGap/2
	if k.Heading != "" {
		for _, l := range wrapText(sty, k.Heading, c.Size().X-keyGap) {
			c.FillText(sty, vg.Point{X: x0, Y: y}, l)
			y -= lineH
		}
	}
	colW := vg.Length(0)
	for _, l := range k.Lines {
		colW = max(colW, sty.Width(l))
	}
	rows := (len(k.Lines) + cols - 1) / cols
	for i, l := range k.Lines {
		col, row := i/rows, i%rows
		c.FillText(sty, vg.Point{X: x0 + vg.Length(col)*(colW+keyGap), Y: y - vg.Length(row)*lineH}, l)
	}
}

func single(p *plot.Plot, w, h vg.Length) *Figure {
	return &Figure{Plots: [][]*plot.Plot{{p}}, Width: orDefault(w, DefaultWidth), Height: orDefault(h, DefaultHeight)}
}

func orDefault(v, d vg.Length) vg.Length {
	if v > 0 {
		return v
	}
	return d
}

// Save writes the figure to path as PNG (".png", 96 dpi) or SVG (".svg"),
// by extension (case-insensitive): a regular file through a temporary
// file in the same directory renamed on success, a character device or
// FIFO written in place (internal/atomicfile). Errors: ErrFormat, ErrInput (no panels),
// and I/O errors.
func (f *Figure) Save(path string) (err error) {
	format, err := Format(path)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(tmp *os.File) error { return f.WriteTo(tmp, format) })
}

// Format is the format Save writes path in, ".png" or ".svg" by its
// extension (any case); another extension is ErrFormat.
func Format(path string) (string, error) {
	format := strings.ToLower(filepath.Ext(path))
	if format != ".png" && format != ".svg" {
		return "", fmt.Errorf("%w: %q (want .png or .svg)", ErrFormat, path)
	}
	return format, nil
}

// WriteTo renders the figure to w in format ".png" or ".svg".
func (f *Figure) WriteTo(w io.Writer, format string) (err error) {
	if f == nil || len(f.Plots) == 0 || len(f.Plots[0]) == 0 {
		return fmt.Errorf("%w: figure has no panels", ErrInput)
	}
	width, height := orDefault(f.Width, DefaultWidth), orDefault(f.Height, DefaultHeight)
	var c vg.CanvasWriterTo
	switch strings.ToLower(format) {
	case ".png", "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(96))}
	case ".svg", "svg":
		c = vgsvg.New(width, height)
	default:
		return fmt.Errorf("%w: %q (want png or svg)", ErrFormat, format)
	}
	defer func() {
		// gonum/plot panics on some degenerate drawings; report them.
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: drawing failed: %v", ErrInput, r)
		}
	}()
	dc := draw.New(c)
	if kh := KeyHeight(f.Key, width); kh > 0 && kh < height*2/3 {
		f.Key.draw(draw.Crop(dc, 0, 0, 0, -(height - kh)))
		dc = draw.Crop(dc, 0, 0, kh, 0)
	}
	rows, cols := len(f.Plots), len(f.Plots[0])
	if rows == 1 && cols == 1 {
		drawPanel(f.Plots[0][0], dc)
	} else {
		tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
			PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
		// Wrap the titles to their tiles before aligning, so that the
		// alignment sees the titles' final heights.
		for i := range f.Plots {
			for j, p := range f.Plots[i] {
				if p != nil {
					tc := tiles.At(dc, j, i)
					w := tc.Size().X
					if lw := legendWidth(p, tc); lw > 0 && lw+legendGap <= w/2 {
						w -= lw + legendGap
					}
					defer wrapTitle(p, w)()
				}
			}
		}
		canvases := plot.Align(f.Plots, tiles, dc)
		for i := range f.Plots {
			for j, p := range f.Plots[i] {
				if p != nil {
					drawPanel(p, canvases[i][j])
				}
			}
		}
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("figure: %w", err)
	}
	return nil
}

// Palette is the qualitative colour cycle for classes and clusters
// (matplotlib's tab10).
var Palette = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xff, 0x7f, 0x0e, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xd6, 0x27, 0x28, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
	{0xe3, 0x77, 0xc2, 0xff}, {0x7f, 0x7f, 0x7f, 0xff}, {0xbc, 0xbd, 0x22, 0xff},
	{0x17, 0xbe, 0xcf, 0xff},
}

// Grey is the colour of dendrogram links above a cut.
var Grey = color.RGBA{0xb0, 0xb0, 0xb0, 0xff}

// UnlabeledColor is the colour of unlabelled points: a dark grey that keeps
// a contrast ratio of at least 3 (WCAG's minimum for graphics) on white and
// on every light region colour of DecisionRegions.
var UnlabeledColor = color.RGBA{0x5a, 0x5a, 0x5a, 0xff}

// ClassColor returns the colour of class c (UnlabeledColor for c < 0).
func ClassColor(c int) color.RGBA {
	if c < 0 {
		return UnlabeledColor
	}
	return Palette[c%len(Palette)]
}

// lighten mixes c with white: t = 0 keeps c, t = 1 gives white.
func lighten(c color.RGBA, t float64) color.RGBA {
	mix := func(v uint8) uint8 { return uint8(float64(v) + t*(255-float64(v)) + 0.5) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// points2 returns the first two columns of X after checking shape and values.
func points2(X mat.Matrix, name string) (xs, ys []float64, err error) {
	if X == nil {
		return nil, nil, fmt.Errorf("%w: %s is nil", ErrInput, name)
	}
	n, d := X.Dims()
	if n == 0 {
		return nil, nil, fmt.Errorf("%w: %s has no rows", ErrInput, name)
	}
	if d < 2 {
		return nil, nil, fmt.Errorf("%w: %s has %d column(s), want at least 2", ErrInput, name, d)
	}
	xs, ys = make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		xs[i], ys[i] = X.At(i, 0), X.At(i, 1)
		if !finite(xs[i]) || !finite(ys[i]) {
			return nil, nil, fmt.Errorf("%w: %s row %d = (%v, %v) is not finite", ErrInput, name, i, xs[i], ys[i])
		}
	}
	return xs, ys, nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// bounds returns the bounding box of the points padded by frac on each side
// (a unit box around a single point).
func bounds(xs, ys []float64, frac float64) (x0, x1, y0, y1 float64) {
	x0, x1, y0, y1 = math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := range xs {
		x0, x1 = math.Min(x0, xs[i]), math.Max(x1, xs[i])
		y0, y1 = math.Min(y0, ys[i]), math.Max(y1, ys[i])
	}
	dx, dy := x1-x0, y1-y0
	if dx == 0 {
		dx = 1
	}
	if dy == 0 {
		dy = 1
	}
	return x0 - frac*dx, x1 + frac*dx, y0 - frac*dy, y1 + frac*dy
}

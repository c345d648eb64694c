// Package progress prints the Progress(stage, done, total) callbacks of
// Arbor's long calls for people: on a terminal one line per stage redrawn
// in place with count, rate and time left, at most 10 times a second;
// elsewhere (logs, pipes) one line when a stage starts, never a carriage
// return. Lines serialises writes to one stream from several goroutines
// so that a message never continues an open progress line.
package progress

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Printer turns Progress(stage, done, total) calls into lines on W. A
// total of 0 or less is a stage of unknown length: its name, once.
type Printer struct {
	W   io.Writer
	TTY bool             // W is a terminal: redraw the stage's line in place
	Now func() time.Time // the clock; nil is time.Now

	mu     sync.Mutex
	stage  string
	start  time.Time
	drawn  time.Time
	open   bool // a terminal line is being redrawn
	closed bool // the current stage has finished
}

// New returns a Printer on w, redrawing in place when w is a terminal.
func New(w io.Writer) *Printer { return &Printer{W: w, TTY: IsTerminal(w)} }

// Report is the Progress callback.
func (p *Printer) Report(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.Now != nil {
		now = p.Now()
	}
	if stage != p.stage {
		if p.open {
			fmt.Fprintln(p.W)
			p.open = false
		}
		p.stage, p.start, p.closed = stage, now, false
		if !p.TTY {
			if total > 1 {
				fmt.Fprintf(p.W, "%s: %d steps…\n", stage, total)
			} else {
				fmt.Fprintf(p.W, "%s…\n", stage)
			}
			return
		}
		p.drawn = time.Time{}
	}
	if !p.TTY || p.closed {
		return
	}
	if total <= 0 {
		if !p.open {
			fmt.Fprintf(p.W, "%s…\n", stage)
			p.closed = true
		}
		return
	}
	finished := done >= total
	if !finished && now.Sub(p.drawn) < 100*time.Millisecond {
		return
	}
	p.drawn = now
	el := now.Sub(p.start)
	line := fmt.Sprintf("\r%s: %d/%d", stage, done, total)
	if s := el.Seconds(); s > 0.5 && done > 0 {
		rate := float64(done) / s
		line += fmt.Sprintf(" (%.3g/s", rate)
		if !finished {
			line += ", " + Duration(time.Duration(float64(total-done)/rate*float64(time.Second))) + " left"
		} else {
			line += ", " + Duration(el)
		}
		line += ")"
	}
	line += "\x1b[K" // clear the rest of the line
	fmt.Fprint(p.W, line)
	p.open = !finished
	if finished {
		fmt.Fprintln(p.W)
		p.closed = true
	}
}

// Duration prints a duration for people: 4.2s, 3m05s, 1h20m.
func Duration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// IsTerminal reports whether w is a terminal: a character device, or a
// Lines on one.
func IsTerminal(w io.Writer) bool {
	switch t := w.(type) {
	case *Lines:
		return t.tty
	case *os.File:
		st, err := t.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return false
}

// Lines serialises writes to a stream (progress, warnings and a signal's
// message come from different goroutines) and remembers whether the last
// write left a line open, so that a new line of text never continues a
// progress line.
type Lines struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	midLine bool
}

// NewLines returns Lines writing to w.
func NewLines(w io.Writer) *Lines { return &Lines{w: w, tty: IsTerminal(w)} }

// Write writes p, first ending an open progress line unless p redraws
// it (starts with a carriage return).
func (l *Lines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if l.midLine && p[0] != '\r' {
		l.w.Write([]byte{'\n'})
		l.midLine = false
	}
	n, err := l.w.Write(p)
	l.midLine = p[len(p)-1] != '\n'
	return n, err
}

// EndLine closes an open progress line.
func (l *Lines) EndLine() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.midLine {
		l.w.Write([]byte{'\n'})
		l.midLine = false
	}
}

// WholeLines passes only complete lines on to W, keeping the rest of a
// write until its line ends, so that a line printed in pieces reaches a
// stream shared with progress (Lines) in one write.
type WholeLines struct {
	W   io.Writer
	buf []byte
}

func (l *WholeLines) Write(p []byte) (int, error) {
	l.buf = append(l.buf, p...)
	if i := bytes.LastIndexByte(l.buf, '\n'); i >= 0 {
		_, err := l.W.Write(l.buf[:i+1])
		l.buf = append(l.buf[:0], l.buf[i+1:]...)
		if err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

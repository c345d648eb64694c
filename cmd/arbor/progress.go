package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/arbor-ml/arbor/internal/eigen"
	"github.com/arbor-ml/arbor/kernel"
)

// lineWriter serialises writes to stderr (progress, warnings and a
// signal's message come from different goroutines) and remembers whether
// the last write left a line open, so that an error never continues a
// progress line.
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	tty     bool
	midLine bool
}

func newLineWriter(w io.Writer) *lineWriter {
	lw := &lineWriter{w: w}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			lw.tty = true
		}
	}
	return lw
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	// A new line of text after an open progress line starts on its own line.
	if l.midLine && p[0] != '\r' {
		l.w.Write([]byte{'\n'})
		l.midLine = false
	}
	n, err := l.w.Write(p)
	l.midLine = p[len(p)-1] != '\n'
	return n, err
}

// endLine closes an open progress line.
func (l *lineWriter) endLine() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.midLine {
		l.w.Write([]byte{'\n'})
		l.midLine = false
	}
}

func (l *lineWriter) isTerminal() bool { return l.tty }

// isTerminal reports whether w is a terminal (progress is then redrawn in
// place; otherwise it is one line per stage).
func isTerminal(w io.Writer) bool {
	switch t := w.(type) {
	case interface{ isTerminal() bool }:
		return t.isTerminal()
	case *os.File:
		st, err := t.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0
	}
	return false
}

// progressPrinter turns Progress(stage, done, total) calls into messages:
// on a terminal one line per stage redrawn with count, rate and time
// left (at most 10 times a second); elsewhere (logs, pipes) one line when
// a stage starts, never a carriage return.
type progressPrinter struct {
	mu     sync.Mutex
	w      io.Writer
	tty    bool
	now    func() time.Time
	stage  string
	start  time.Time
	drawn  time.Time
	open   bool // a terminal line is being redrawn
	closed bool // the current stage has finished
}

func (p *progressPrinter) report(stage string, done, total int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	if stage != p.stage {
		if p.open {
			fmt.Fprintln(p.w)
			p.open = false
		}
		p.stage, p.start, p.closed = stage, now, false
		if !p.tty {
			if total > 1 {
				fmt.Fprintf(p.w, "%s: %d steps…\n", stage, total)
			} else {
				fmt.Fprintf(p.w, "%s…\n", stage)
			}
			return
		}
		p.drawn = time.Time{}
	}
	if !p.tty || p.closed {
		return
	}
	if total <= 0 {
		if !p.open {
			fmt.Fprintf(p.w, "%s…\n", stage)
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
			line += ", " + fmtDuration(time.Duration(float64(total-done)/rate*float64(time.Second))) + " left"
		} else {
			line += ", " + fmtDuration(el)
		}
		line += ")"
	}
	line += "\x1b[K" // clear the rest of the line
	fmt.Fprint(p.w, line)
	p.open = !finished
	if finished {
		fmt.Fprintln(p.w)
		p.closed = true
	}
}

// fmtDuration prints a duration for people: 4.2s, 3m05s, 1h20m.
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// progress returns a Progress callback printing to stderr, or nil when quiet.
func (e *env) progress(quiet bool) func(stage string, done, total int) {
	if quiet {
		return nil
	}
	p := &progressPrinter{w: e.stderr, tty: isTerminal(e.stderr), now: time.Now}
	return p.report
}

// announceCubic tells, before an O(N³) step on n points starts, how long
// it should take here (eigen.Estimate: a symmetric eigendecomposition, as
// the kernels use, measured now). Below n = 1500 it says nothing (a second
// or less).
func (e *env) announceCubic(quiet bool, what string, n int) {
	if quiet || n < 1500 {
		return
	}
	fmt.Fprintf(e.stderr, "%s: O(N³) with N = %d, about %s on this machine\n", what, n, fmtDuration(eigen.Estimate(n)))
}

// announceSpecs announces the O(N³) eigendecompositions the kernels of
// specs need (ISOMAP's and the multi-type kernel's) on n points.
func (e *env) announceSpecs(quiet bool, specs []kernel.Spec, n int) {
	for _, s := range specs {
		switch s.Kind {
		case kernel.KindISOMAP, kernel.KindMultiType:
			e.announceCubic(quiet, "kernel "+s.String()+": eigendecomposition", n)
		}
	}
}

package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// On a terminal progress is redrawn in place with rate and time left; in
// a log it is one line per stage and never a carriage return; a message
// after an open progress line starts a line of its own.
func TestProgressLines(t *testing.T) {
	var log bytes.Buffer
	clock := time.Unix(0, 0)
	p := &Printer{W: &log, Now: func() time.Time { return clock }}
	for i := 0; i <= 10; i++ {
		p.Report("paths", i, 10)
		clock = clock.Add(time.Second)
	}
	p.Report("linkage", 0, 0)
	if got := log.String(); got != "paths: 10 steps…\nlinkage…\n" {
		t.Errorf("log progress %q", got)
	}
	var tty bytes.Buffer
	clock = time.Unix(0, 0)
	p = &Printer{W: &tty, TTY: true, Now: func() time.Time { return clock }}
	for i := 0; i <= 4; i++ {
		p.Report("paths", i, 4)
		clock = clock.Add(time.Second)
	}
	got := tty.String()
	if !strings.Contains(got, "\rpaths: 1/4 (1/s, 3.0s left)") || !strings.HasSuffix(got, "\rpaths: 4/4 (1/s, 4.0s)\x1b[K\n") {
		t.Errorf("terminal progress %q", got)
	}
	var both bytes.Buffer
	lw := NewLines(&both)
	lw.Write([]byte("\rpaths: 1/4"))
	lw.EndLine()
	lw.Write([]byte("arbor: disk full\n"))
	if both.String() != "\rpaths: 1/4\narbor: disk full\n" {
		t.Errorf("error shares the progress line: %q", both.String())
	}
	if IsTerminal(&both) || IsTerminal(lw) {
		t.Error("a buffer is not a terminal")
	}
}

// On a terminal, redraws come at most every 100 ms except the last.
func TestProgressRate(t *testing.T) {
	var tty bytes.Buffer
	clock := time.Unix(0, 0)
	p := &Printer{W: &tty, TTY: true, Now: func() time.Time { return clock }}
	for i := 0; i <= 100; i++ {
		p.Report("kernel", i, 100)
		clock = clock.Add(10 * time.Millisecond)
	}
	// Draws at 0, 100, ..., 900 ms (10) and the finished one.
	if n := strings.Count(tty.String(), "\r"); n != 11 {
		t.Errorf("%d redraws, want 11: %q", n, tty.String())
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		4200 * time.Millisecond:       "4.2s",
		3*time.Minute + 5*time.Second: "3m05s",
		80 * time.Minute:              "1h20m",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %s, want %s", d, got, want)
		}
	}
}

// WholeLines writes complete lines only, each write's lines at once, and
// keeps the rest for the next write.
func TestWholeLines(t *testing.T) {
	var writes []string
	l := &WholeLines{W: writerFunc(func(p []byte) { writes = append(writes, string(p)) })}
	for _, p := range []string{"clusters   3", ", sizes [50 50 50]\n", "vs labels\nwrote ", "a.csv\n", "tail"} {
		if n, err := l.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", p, n, err)
		}
	}
	want := []string{"clusters   3, sizes [50 50 50]\n", "vs labels\n", "wrote a.csv\n"}
	if strings.Join(writes, "|") != strings.Join(want, "|") {
		t.Errorf("writes %q, want %q", writes, want)
	}
}

type writerFunc func(p []byte)

func (f writerFunc) Write(p []byte) (int, error) { f(p); return len(p), nil }

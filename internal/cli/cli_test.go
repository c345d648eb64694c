package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestExitCodes: nil and help 0, a usage error 2 (also wrapped), any
// other error 1, printed as "name: error" except help.
func TestExitCodes(t *testing.T) {
	for _, c := range []struct {
		err    error
		code   int
		stderr string
	}{
		{nil, 0, ""},
		{flag.ErrHelp, 0, ""},
		{UsageError("--k %d: want ≥ 1", 0), 2, "prog: usage: --k 0: want ≥ 1\n"},
		{fmt.Errorf("reading: %w", UsageError("bad")), 2, "prog: reading: usage: bad\n"},
		{errors.New("disk full"), 1, "prog: disk full\n"},
	} {
		var errb bytes.Buffer
		code := Exit("prog", &errb, make(chan os.Signal, 1), nil, func(context.Context, io.Writer) error { return c.err })
		if code != c.code || errb.String() != c.stderr || ExitCode(c.err) != c.code {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", c.err, code, errb.String(), c.code, c.stderr)
		}
	}
}

// TestExitSignal: a signal during the run cancels its context and ends
// with 128 + its number and "interrupted", not the run's error; one that
// comes after the run's last look does the same; a second signal calls
// hardExit at once.
func TestExitSignal(t *testing.T) {
	for _, c := range []struct {
		sig  os.Signal
		code int
	}{{os.Interrupt, 130}, {syscall.SIGTERM, 143}} {
		sigc := make(chan os.Signal, 2)
		sigc <- c.sig
		var errb bytes.Buffer
		code := Exit("prog", &errb, sigc, func(int) { t.Error("forced exit after one signal") }, func(ctx context.Context, _ io.Writer) error {
			<-ctx.Done()
			return ctx.Err()
		})
		if code != c.code || !strings.Contains(errb.String(), "prog: interrupted; stopping") || strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%v: exit %d, stderr %q", c.sig, code, errb.String())
		}
	}
	// A signal after the run's last look at its context.
	sigc := make(chan os.Signal, 2)
	var errb bytes.Buffer
	code := Exit("prog", &errb, sigc, nil, func(context.Context, io.Writer) error {
		sigc <- syscall.SIGTERM
		return nil
	})
	if code != 143 || !strings.Contains(errb.String(), "prog: interrupted") {
		t.Errorf("late signal: exit %d, stderr %q", code, errb.String())
	}
	// Two signals: the second forces the exit with its code.
	sigc = make(chan os.Signal, 2)
	sigc <- os.Interrupt
	forced := make(chan int, 1)
	Exit("prog", &errb, sigc, func(code int) { forced <- code }, func(ctx context.Context, _ io.Writer) error {
		<-ctx.Done()
		sigc <- syscall.SIGTERM
		if got := <-forced; got != 143 {
			t.Errorf("forced exit %d, want 143", got)
		}
		return ctx.Err()
	})
}

// TestVersion: the name, a version, and the Go version and platform.
func TestVersion(t *testing.T) {
	v := Version("prog")
	want := regexp.MustCompile(`^prog \S+ \((commit [0-9a-f]{1,12}(, modified)?, )?` + regexp.QuoteMeta(runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH) + `\)$`)
	if !want.MatchString(v) {
		t.Errorf("Version = %q", v)
	}
}

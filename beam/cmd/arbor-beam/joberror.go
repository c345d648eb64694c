package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"

	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
)

// doFnFailed is the line prism and the direct runner put before the error
// a DoFn returned: "DoFn[UID:13, PID:e5, Name: …headFn] failed:".
var doFnFailed = regexp.MustCompile(`DoFn\[[^\n]*\] failed:\n`)

// stepError returns the failing step's own error from the error a runner
// returned for a failed job. Prism and the direct runner wrap the error a
// DoFn returned in the bundle's plan and Beam's "caused by:" chains; the
// step's own text follows the last (innermost) "DoFn[…] failed:" line.
// An error of any other shape is returned whole: a panic, which Beam
// reports with its stack outside any DoFn's error, among them.
func stepError(err error) string {
	whole := err.Error()
	locs := doFnFailed.FindAllStringIndex(whole, -1)
	if len(locs) == 0 {
		return whole
	}
	step := strings.TrimSpace(whole[locs[len(locs)-1][1]:])
	if step == "" {
		return whole
	}
	return step
}

// runnerLogs sets where the log lines of the runner and of the Beam SDK
// go. Both log through slog's default logger: prism's job server and
// its workers' "[SDK]" lines, and the SDK's log package through its
// Logger. With verbose they keep the handler beam.Init set up (text
// lines on standard error at the SDK's level); without, they are
// dropped, all but the SDK's fatal messages, which cmd's error line
// carries to stderr (the SDK logs one before it ends the process).
func runnerLogs(verbose bool, stderr io.Writer, cmd string) {
	if verbose {
		beamlog.SetLogger(&beamlog.Structural{})
		return
	}
	// The standard log package writes to the default handler too: the
	// SDK harness logs there once its remote logging stream has closed.
	slog.SetDefault(slog.New(slog.DiscardHandler))
	beamlog.SetLogger(fatalOnly{stderr, cmd})
}

// fatalOnly is the Beam SDK's Logger without --verbose: it prints a
// fatal message as cmd's error (an unknown --runner, Dataflow without
// --project: messages the SDK logs before it exits with status 1) and
// drops every other.
type fatalOnly struct {
	w   io.Writer
	cmd string
}

func (l fatalOnly) Log(_ context.Context, sev beamlog.Severity, _ int, msg string) {
	if sev == beamlog.SevFatal {
		fmt.Fprintf(l.w, "arbor-beam %s: %s\n", l.cmd, strings.TrimSpace(msg))
	}
}

// verboseUsage is the --verbose flag's documentation.
const verboseUsage = "print the runner's and the Beam SDK's log lines on stderr, and a failed job's whole error (the Beam plan and every step it went through) instead of the failing step's own error"

// parseFlags parses args with fs, reporting a mistake in one line that
// points to -h (fs prints nothing itself; -h prints usage).
func parseFlags(fs *flag.FlagSet, args []string, stderr io.Writer, cmd string, usage func()) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stderr)
		usage()
	case err != nil:
		fmt.Fprintf(stderr, "arbor-beam %s: %v (arbor-beam %s -h lists the flags)\n", cmd, err, cmd)
	}
	return err
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strings"
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
// go: both log through slog's default logger (the SDK's log package
// writes to it, prism's job server and its workers' "[SDK]" lines too).
// With verbose they keep the handler beam.Init set up (text lines on
// standard error at the SDK's level); without, they are dropped.
func runnerLogs(verbose bool) {
	if !verbose {
		slog.SetDefault(slog.New(slog.DiscardHandler))
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

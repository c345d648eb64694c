// Package cli holds what a command-line program does around its work:
// exit statuses (usage errors 2, other errors 1, 128 + the signal number
// after SIGINT or SIGTERM), running under those signals with the work's
// context cancelled at the first and the process ended at the second,
// and the version line from the build information.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"

	"github.com/arbor-ml/arbor/internal/progress"
)

// ErrUsage marks command-line mistakes (exit status 2).
var ErrUsage = errors.New("usage")

// UsageError wraps a message as a usage error.
func UsageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, a...))
}

// ExitCode is the exit status of a run ending in err: 0 (nil or
// flag.ErrHelp), 2 (a usage error) or 1.
func ExitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	}
	return 1
}

// SignalCode is the shell's exit status for a process ended by s: 128 +
// the signal number (130 for SIGINT, 143 for SIGTERM).
func SignalCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// Exit runs run with a context cancelled by the first signal on sigc and
// returns the exit status: ExitCode of its error, printed on stderr as
// "name: error" (not flag.ErrHelp), or SignalCode after a signal, whatever
// stage the run was at, also when the signal came after the work's last
// cancellation check; the error of an interrupted run is not printed. A
// second signal calls hardExit with its code at once. run writes its
// messages to the stderr it is given, which ends a progress line still
// open before any other line (progress.Lines).
func Exit(name string, stderr io.Writer, sigc <-chan os.Signal, hardExit func(int), run func(ctx context.Context, stderr io.Writer) error) int {
	errw := progress.NewLines(stderr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got os.Signal // written by the goroutine, read after wg.Wait
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		select {
		case got = <-sigc:
			cancel()
			fmt.Fprintf(errw, "%s: interrupted; stopping (send the signal again to stop at once)\n", name)
		case <-done:
			return
		}
		select {
		case s := <-sigc:
			errw.EndLine()
			hardExit(SignalCode(s))
		case <-done:
		}
	}()
	err := run(ctx, errw)
	close(done)
	wg.Wait()
	if got == nil {
		select { // a signal that came after the run's last look
		case got = <-sigc:
			fmt.Fprintf(errw, "%s: interrupted\n", name)
		default:
		}
	}
	if got != nil {
		return SignalCode(got)
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		errw.EndLine()
		fmt.Fprintf(errw, "%s: %v\n", name, err)
	}
	return ExitCode(err)
}

// Version is the line "name VERSION (commit C[, modified], GOVERSION
// OS/ARCH)" from the build information Go records in the binary; the
// version is "(devel)" and the commit left out when it has none.
func Version(name string) string {
	version, commit, modified := "(devel)", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision":
				commit = "commit " + s.Value[:min(12, len(s.Value))]
			case s.Key == "vcs.modified" && s.Value == "true":
				modified = ", modified"
			}
		}
	}
	if commit != "" {
		commit += modified + ", "
	}
	return fmt.Sprintf("%s %s (%s%s %s/%s)", name, version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// Command arbor clusters, builds kernels and labels data with the methods of
// the Arbor library. Run "arbor help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/progress"
)

// command is one arbor sub-command. Each lives in its own file and adds
// itself to the table with register in an init function.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env carries the process streams to a command.
type env struct {
	stdout, stderr io.Writer
}

var commands = map[string]command{}

func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("arbor: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

func main() {
	sigc := make(chan os.Signal, 2)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	os.Exit(mainExit(os.Args[1:], os.Stdout, os.Stderr, sigc, forceExit))
}

// forceExit ends the process at a second signal, removing the temporary
// files of outputs being written.
func forceExit(code int) {
	atomicfile.RemovePending()
	os.Exit(code)
}

// mainExit runs the program with signal handling and returns the exit
// status: 0, 1 (error), 2 (usage), or 130 / 143 after SIGINT / SIGTERM
// ("interrupted"), whatever stage the run was at, also when the signal came
// after the work's last cancellation check. A second signal calls
// hardExit at once.
func mainExit(args []string, stdout, stderr io.Writer, sigc chan os.Signal, hardExit func(int)) int {
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
			fmt.Fprintln(errw, "arbor: interrupted; stopping (send the signal again to stop at once)")
		case <-done:
			return
		}
		select {
		case s := <-sigc:
			errw.EndLine()
			hardExit(signalCode(s))
		case <-done:
		}
	}()
	err := run(ctx, args, stdout, errw)
	close(done)
	wg.Wait()
	if got == nil {
		select { // a signal that came after the run's last look
		case got = <-sigc:
			fmt.Fprintln(errw, "arbor: interrupted")
		default:
		}
	}
	if got != nil {
		return signalCode(got)
	}
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		errw.EndLine()
		fmt.Fprintln(errw, "arbor:", err)
	}
	return exitCode(err)
}

// signalCode is the shell's exit status for a process ended by s: 128 + the
// signal number (130 for SIGINT, 143 for SIGTERM).
func signalCode(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// exitCode is the exit status of a run ending in err: 0 (nil or help), 2
// (a usage error) or 1.
func exitCode(err error) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	return 1
}

// errUsage marks command-line mistakes (exit status 2).
var errUsage = errors.New("usage")

// usageError wraps a message as a usage error.
func usageError(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

// run is the whole program; tests call it directly.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		if len(args) > 1 {
			return usageError("--version takes no arguments")
		}
		printVersion(stdout)
		return nil
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				return c.run(ctx, &env{stdout, stderr}, []string{"--help"})
			}
		}
		printUsage(stdout)
		if len(args) == 0 {
			return usageError("no command given")
		}
		return nil
	}
	c, ok := commands[args[0]]
	if !ok {
		printUsage(stderr)
		return usageError("unknown command %q", args[0])
	}
	return c.run(ctx, &env{stdout, stderr}, args[1:])
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Arbor: kernel methods for hierarchical clustering and semi-supervised learning.")
	fmt.Fprintln(w, "\nUsage: arbor <command> [flags]   (arbor <command> --help for its flags; arbor --version)")
	fmt.Fprintln(w, "\nCommands:")
	for _, n := range slices.Sorted(maps.Keys(commands)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
}

// newFlags returns a FlagSet for a command whose usage text goes to stderr
// and which reports errors rather than exiting.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet("arbor "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "Usage: arbor %s %s\n\nFlags:\n", name, synopsis)
		printFlags(e.stderr, fs)
	}
	return fs
}

// parseFlags parses args and turns flag errors into usage errors.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseOnce(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", strings.Join(fs.Args(), " "))
	}
	return checkFiniteFlags(fs)
}

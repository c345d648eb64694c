// Command arbor clusters, builds kernels and labels data with the methods of
// the Arbor library. Run "arbor help" for the list of commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/cli"
)

// command is one arbor sub-command. Each lives in its own file and adds
// itself to the table with register in an init function.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) error
}

// env carries the process streams to a command. stdin is what an input
// named "-" reads (withStdin).
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// stdinKey keys the standard input of a run in its context.
type stdinKey struct{}

// withStdin returns ctx carrying r as the standard input of run: what
// --data - (and the other inputs named "-") read. A run whose context has
// none reads an empty standard input.
func withStdin(ctx context.Context, r io.Reader) context.Context {
	return context.WithValue(ctx, stdinKey{}, r)
}

// stdinOf is the standard input ctx carries (withStdin), or an empty one.
func stdinOf(ctx context.Context) io.Reader {
	if r, ok := ctx.Value(stdinKey{}).(io.Reader); ok && r != nil {
		return r
	}
	return strings.NewReader("")
}

// commands are arbor's sub-commands by name.
var commands = cli.Set{}

func register(c command) {
	commands.Add(cli.Command{Name: c.name, Summary: c.summary, Run: func(ctx context.Context, stdout, stderr io.Writer, args []string) error {
		return c.run(ctx, &env{stdinOf(ctx), stdout, stderr}, args)
	}})
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

// mainExit runs the program under signals (cli.Exit), reading the
// process's standard input (os.Stdin) for inputs named "-", and returns
// the exit status: 0, 1 (error), 2 (usage), or 130 / 143 after SIGINT /
// SIGTERM; a second signal calls hardExit at once. The first signal also
// ends a wait for standard input (a terminal, a pipe whose writer is
// silent): see ctxReader.
func mainExit(args []string, stdout, stderr io.Writer, sigc chan os.Signal, hardExit func(int)) int {
	return cli.Exit("arbor", stderr, sigc, hardExit, func(ctx context.Context, errw io.Writer) error {
		return run(withStdin(ctx, &ctxReader{ctx: ctx, r: os.Stdin}), args, stdout, errw)
	})
}

// ctxReader reads r until ctx is done: a Read waiting on r then returns
// ctx's error at once, and every later Read returns it too. Each Read of r
// runs on a goroutine of its own into a buffer of the ctxReader's (64 KiB:
// a Read returns at most that much), copied to the caller's when it
// returns, so that a read still waiting after ctx is done never writes
// into a slice the caller has taken back.
type ctxReader struct {
	ctx  context.Context
	r    io.Reader
	buf  []byte
	done chan readResult // capacity 1: a read ended after ctx never blocks
}

// Stat is r's Stat (os.Stdin's: the size of a regular file given with <
// sizes a model's buffer once, pipeline.Load), or errors.ErrUnsupported.
func (c *ctxReader) Stat() (fs.FileInfo, error) {
	if s, ok := c.r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		return s.Stat()
	}
	return nil, errors.ErrUnsupported
}

type readResult struct {
	n   int
	err error
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if len(p) == 0 {
		return 0, nil
	}
	if c.done == nil {
		c.done = make(chan readResult, 1)
	}
	if c.buf == nil {
		c.buf = make([]byte, 64<<10)
	}
	buf := c.buf[:min(len(p), len(c.buf))]
	go func() {
		n, err := c.r.Read(buf)
		c.done <- readResult{n, err}
	}()
	select {
	case res := <-c.done:
		return copy(p, buf[:res.n]), res.err
	case <-c.ctx.Done():
		return 0, c.ctx.Err()
	}
}

// errUsage marks command-line mistakes (exit status 2, exitCode).
var errUsage = cli.ErrUsage

// usageError wraps a message as a usage error.
func usageError(format string, a ...any) error { return cli.UsageError(format, a...) }

// exitCode is the exit status of a run ending in err (cli.ExitCode).
func exitCode(err error) int { return cli.ExitCode(err) }

// run is the whole program; tests call it directly. Its standard input
// is the one ctx carries (withStdin).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return commands.Run(ctx, "arbor", "Arbor: kernel methods for hierarchical clustering and semi-supervised learning.", args, stdout, stderr)
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

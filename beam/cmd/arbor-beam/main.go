// Command arbor-beam runs Arbor jobs on Apache Beam: on prism (the
// default, in this process), or on Flink, Spark or Dataflow through
// Beam's --runner flags (--endpoint, --environment_type,
// --environment_config, --worker_binary, --project, --region, ...).
//
//	arbor-beam predict --model m.arbor --data 'gs://bucket/new/*.csv' --out gs://bucket/labels
//	arbor-beam knngraph --data X.csv --k 10 --out edges
//
// The same binary is the worker binary: a runner starts it with --worker.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"
)

// job is one arbor-beam command: flags registers its flags on the
// command line, build adds its transforms to the pipeline.
type job struct {
	summary string
	flags   func(fs *flag.FlagSet) func(ctx context.Context, s beam.Scope) error
}

var jobs = map[string]job{}

// afterRun are steps a job's builder leaves for after the pipeline ran
// successfully (eval copies its table to stdout).
var afterRun []func() error

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
	afterRun = nil
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	if strings.HasPrefix(args[0], "-") {
		// A runner starts this binary as a worker: --worker and the
		// harness flags, no command.
		flag.CommandLine.Parse(args)
		beam.Init()
		return 0
	}
	j, ok := jobs[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "arbor-beam: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	// The job's flags live in their own set: Beam registers flags of its
	// own on the command line (the worker's --id among them), and a job
	// flag of the same name must not collide with them. Each argument goes
	// to the set that defines its flag, the job's first; the rest are
	// Beam's (--runner, --endpoint, ...).
	jfs := flag.NewFlagSet("arbor-beam "+args[0], flag.ContinueOnError)
	build := j.flags(jfs)
	verbose := jfs.Bool("verbose", false, verboseUsage)
	ours, theirs := splitArgs(jfs, flag.CommandLine, args[1:])
	// Beam's set is parsed first: the flags neither set defines go to it,
	// and an unknown flag is reported as such, not the value after it as
	// an unexpected argument.
	flag.CommandLine.Init("arbor-beam "+args[0], flag.ContinueOnError)
	if err := parseFlags(flag.CommandLine, theirs, stderr, args[0], func() {}); err != nil {
		return 2
	}
	err := parseFlags(jfs, ours, stderr, args[0], func() {
		fmt.Fprintf(stderr, "usage: arbor-beam %s [flags] (and Beam's: --runner prism|direct|flink|spark|dataflow|universal, --endpoint, --environment_type, --worker_binary, ...)\n", args[0])
		jfs.PrintDefaults()
	})
	if err != nil {
		return 2
	}
	if jfs.NArg() > 0 {
		fmt.Fprintf(stderr, "arbor-beam %s: unexpected argument %q\n", args[0], jfs.Arg(0))
		return 2
	}
	beam.Init()
	runnerLogs(*verbose, stderr, args[0])
	p, s := beam.NewPipelineWithRoot()
	if err := build(ctx, s); err != nil {
		fmt.Fprintf(stderr, "arbor-beam %s: %v\n", args[0], err)
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	if err := beamx.Run(ctx, p); err != nil {
		msg := err.Error()
		if !*verbose {
			msg = stepError(err)
		}
		fmt.Fprintf(stderr, "arbor-beam %s: %s\n", args[0], msg)
		return 1
	}
	for _, f := range afterRun {
		if err := f(); err != nil {
			fmt.Fprintf(stderr, "arbor-beam %s: %v\n", args[0], err)
			return 1
		}
	}
	return 0
}

// splitArgs sends each flag of args (with its value) to ours when jobs
// defines it, else to theirs (Beam's flags). A non-flag argument and all
// that follow go to ours, whose parser reports them.
func splitArgs(jobs, beamFlags *flag.FlagSet, args []string) (ours, theirs []string) {
	isBool := func(f *flag.Flag) bool {
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return append(ours, args[i:]...), theirs
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		dst := &theirs
		f := jobs.Lookup(name)
		if f != nil || name == "h" || name == "help" {
			dst = &ours
		} else {
			f = beamFlags.Lookup(name)
		}
		*dst = append(*dst, a)
		if !hasValue && f != nil && !isBool(f) && i+1 < len(args) {
			i++
			*dst = append(*dst, args[i])
		}
	}
	return ours, theirs
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: arbor-beam COMMAND [flags]   (arbor-beam COMMAND -h for its flags)")
	var names []string
	for n := range jobs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, jobs[n].summary)
	}
}

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

// usageError is a mistake in the command line (exit status 2).
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stderr))
}

func run(ctx context.Context, args []string, stderr io.Writer) int {
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
	build := j.flags(flag.CommandLine)
	flag.CommandLine.Usage = func() {
		fmt.Fprintf(stderr, "usage: arbor-beam %s [flags] (and Beam's: --runner prism|direct|flink|spark|dataflow|universal, --endpoint, --environment_type, --worker_binary, ...)\n", args[0])
		flag.CommandLine.PrintDefaults()
	}
	if err := flag.CommandLine.Parse(args[1:]); err != nil {
		return 2
	}
	if flag.NArg() > 0 {
		fmt.Fprintf(stderr, "arbor-beam %s: unexpected argument %q\n", args[0], flag.Arg(0))
		return 2
	}
	beam.Init()
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
		fmt.Fprintf(stderr, "arbor-beam %s: %v\n", args[0], err)
		return 1
	}
	return 0
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

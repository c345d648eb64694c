package cli

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
)

// Command is a sub-command: its name, the line the usage lists it with,
// and what runs it with the arguments after its name.
type Command struct {
	Name, Summary string
	Run           func(ctx context.Context, stdout, stderr io.Writer, args []string) error
}

// Set holds a program's sub-commands by name.
type Set map[string]Command

// Add adds c; a name added twice is a programming error (panic).
func (s Set) Add(c Command) {
	if _, dup := s[c.Name]; dup {
		panic("cli: command added twice: " + c.Name)
	}
	s[c.Name] = c
}

// Run runs the program name (title describes it) as args say: the
// command args[0] with the rest of args; "version" (--version, -version)
// writes the Version line; "help" (-h, --help) writes the usage
// (WriteUsage) to stdout, "help CMD" runs CMD --help; no arguments write
// the usage and are a usage error, as is an unknown command (its usage
// on stderr).
func (s Set) Run(ctx context.Context, name, title string, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version" || args[0] == "version") {
		if len(args) > 1 {
			return UsageError("--version takes no arguments")
		}
		_, err := fmt.Fprintln(stdout, Version(name))
		return err
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := s[args[1]]; ok {
				return c.Run(ctx, stdout, stderr, []string{"--help"})
			}
		}
		s.WriteUsage(stdout, name, title)
		if len(args) == 0 {
			return UsageError("no command given")
		}
		return nil
	}
	c, ok := s[args[0]]
	if !ok {
		s.WriteUsage(stderr, name, title)
		return UsageError("unknown command %q", args[0])
	}
	return c.Run(ctx, stdout, stderr, args[1:])
}

// WriteUsage writes title, how to call the program name and its commands
// in name order with their summaries.
func (s Set) WriteUsage(w io.Writer, name, title string) {
	fmt.Fprintln(w, title)
	fmt.Fprintf(w, "\nUsage: %s <command> [flags]   (%s <command> --help for its flags; %s --version)\n", name, name, name)
	fmt.Fprintln(w, "\nCommands:")
	for _, n := range slices.Sorted(maps.Keys(s)) {
		fmt.Fprintf(w, "  %-10s %s\n", n, s[n].Summary)
	}
}

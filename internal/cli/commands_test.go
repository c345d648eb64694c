package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

// TestSetRun: a command runs with the arguments after its name; help
// lists the commands in name order, "help CMD" runs CMD --help; version,
// no command and an unknown command as documented.
func TestSetRun(t *testing.T) {
	var got []string
	s := Set{}
	for _, name := range []string{"zeta", "alpha"} {
		s.Add(Command{Name: name, Summary: name + " things", Run: func(_ context.Context, _, _ io.Writer, args []string) error {
			got = append(got, name+" "+strings.Join(args, " "))
			return nil
		}})
	}
	run := func(args ...string) (string, string, error) {
		var out, errb bytes.Buffer
		err := s.Run(context.Background(), "prog", "Prog: does things.", args, &out, &errb)
		return out.String(), errb.String(), err
	}
	if _, _, err := run("zeta", "--k", "3"); err != nil || strings.Join(got, "|") != "zeta --k 3" {
		t.Errorf("zeta: %v, ran %q", err, got)
	}
	usage := "Prog: does things.\n\nUsage: prog <command> [flags]   (prog <command> --help for its flags; prog --version)\n\nCommands:\n" +
		"  alpha      alpha things\n  zeta       zeta things\n"
	if out, _, err := run("help"); err != nil || out != usage {
		t.Errorf("help: %v\n%s", err, out)
	}
	if _, _, err := run("help", "alpha"); err != nil || got[len(got)-1] != "alpha --help" {
		t.Errorf("help alpha: %v, ran %q", err, got)
	}
	if out, _, err := run(); !errors.Is(err, ErrUsage) || out != usage {
		t.Errorf("no command: %v\n%s", err, out)
	}
	if _, errOut, err := run("beta"); !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), `unknown command "beta"`) || errOut != usage {
		t.Errorf("unknown: %v\n%s", err, errOut)
	}
	if out, _, err := run("--version"); err != nil || !strings.HasPrefix(out, "prog ") {
		t.Errorf("--version: %v %q", err, out)
	}
	if _, _, err := run("version", "x"); !errors.Is(err, ErrUsage) {
		t.Errorf("version x: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("a command added twice: no panic")
		}
	}()
	s.Add(Command{Name: "alpha"})
}

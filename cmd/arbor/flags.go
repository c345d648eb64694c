package main

import (
	"errors"
	"flag"
	"io"

	"github.com/arbor-ml/arbor/internal/cliflag"
)

// printFlags lists the flags of fs as the README writes them (cliflag.Print).
func printFlags(w io.Writer, fs *flag.FlagSet) { cliflag.Print(w, fs) }

// parseOnce parses args with each flag allowed once (cliflag.Parse); its
// mistakes are usage errors. Help output is left to the caller.
func parseOnce(fs *flag.FlagSet, args []string) error {
	err := cliflag.Parse(fs, args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usageError("%v", err)
}

// checkFiniteFlags rejects a number flag given as NaN or ±Inf
// (cliflag.CheckFinite).
func checkFiniteFlags(fs *flag.FlagSet) error {
	if err := cliflag.CheckFinite(fs); err != nil {
		return usageError("%v", err)
	}
	return nil
}

// flagGiven reports whether the flag name was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool { return cliflag.Given(fs, name) }

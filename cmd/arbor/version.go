package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// printVersion writes "arbor VERSION (commit C[, modified], GOVERSION
// OS/ARCH)" from the build information Go records in the binary.
func printVersion(w io.Writer) {
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
	fmt.Fprintf(w, "arbor %s (%s%s %s/%s)\n", version, commit, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

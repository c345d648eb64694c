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
	version, commit, modified := "(devel)", "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	fmt.Fprintf(w, "arbor %s (", version)
	if commit != "" {
		if len(commit) > 12 {
			commit = commit[:12]
		}
		fmt.Fprintf(w, "commit %s", commit)
		if modified {
			fmt.Fprint(w, ", modified")
		}
		fmt.Fprint(w, ", ")
	}
	fmt.Fprintf(w, "%s %s/%s)\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

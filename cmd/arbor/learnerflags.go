package main

import (
	"flag"
	"slices"
	"strings"

	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/ssl"
)

// learnerFlagUsers says which learners read each learner flag: a flag
// given while no chosen learner reads it is a usage error, as in arbor
// kernel (issue 11: classify ignored --kernel with lp and --affinity with
// svm). Flags not listed are checked by their own code.
var learnerFlagUsers = map[string][]string{
	"C":           {"svm", "linsvm"},
	"k":           {"knn"},
	"weights":     {"knn"},
	"ties":        {"knn"},
	"soft":        {"knn"},
	"affinity":    {"lp", "spreading"},
	"method":      {"lp"},
	"alpha":       {"spreading"},
	"unreachable": {"lp", "spreading"},
	"tol":         {"svm", "linsvm", "lp", "spreading"},
	"max-iter":    {"svm", "linsvm", "lp", "spreading"},
	"C1":          {"s4vm", "hibust"},
	"C2":          {"s4vm", "hibust"},
	"samples":     {"s4vm", "hibust"},
	"lambda":      {"s4vm", "hibust"},
	"restarts":    {"hibust"},
	"theta":       {"hibust"},
	"tree":        {"hibust"},
	"dendrogram":  {"hibust"},
}

// learnerFamily maps a --learner name to its family.
func learnerFamily(name string) string {
	switch n := strings.TrimSpace(strings.ToLower(name)); n {
	case "propagation":
		return "lp"
	default:
		return n
	}
}

// checkLearnerFlags fails when a learner flag given on the command line is
// read by none of the chosen learners, or a kernel flag is given while no
// chosen learner uses a kernel (usesKernel).
func checkLearnerFlags(fs *flag.FlagSet, learnerList string, usesKernel bool) error {
	var fams []string
	for _, n := range strings.Split(learnerList, ",") {
		if f := learnerFamily(n); f != "" {
			fams = append(fams, f)
		}
	}
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		if users, ok := learnerFlagUsers[f.Name]; ok {
			for _, u := range users {
				if slices.Contains(fams, u) {
					return
				}
			}
			err = usageError("--%s has no effect on --learner %s (it is for %s)", f.Name, learnerList, strings.Join(users, ", "))
			return
		}
		if !usesKernel && (f.Name == "kernel" || isKernelFlag(f.Name)) {
			err = usageError("--%s has no effect on --learner %s: it uses no kernel (label propagation and spreading use --affinity; --affinity kernel uses the --kernel matrix)", f.Name, learnerList)
		}
	})
	return err
}

// allFree reports whether no learner uses a kernel.
func allFree(ls []ssl.Learner) bool {
	for _, l := range ls {
		if ssl.UsesKernel(l) {
			return false
		}
	}
	return true
}

// isKernelFlag reports whether name is --kernel or one of its parameters.
func isKernelFlag(name string) bool {
	if name == "kernel" {
		return true
	}
	for _, f := range kernel.Flags() {
		if f.Name == name {
			return true
		}
	}
	return false
}

// Command accuracy compares Arbor's S4VM with the reference (RSSL 0.9.7's
// S4VM through R) on whole runs: the splits and the reference's
// accuracies are read from s4vm/testdata/rssl_accuracy_NAME.json (made by
// s4vm/testdata/rssl_accuracy.R: features min–max scaled, 10 labelled rows
// per class, 10 splits, linear kernel, C1 = 100, C2 = 0.1, sampleTime =
// 100, λ = 3; one-vs-one with max-wins voting beyond two classes). Arbor
// runs s4vm.S4VM with the same settings on the same splits (its own
// random draws, seeded by the split index) and the inductive SVM
// (svm.Classifier, C = 100, on the labelled rows). It prints, per set, the
// mean accuracy (%) of both S4VMs and both inductive SVMs and the
// difference, and exits 1 when a mean S4VM accuracy is more than -tol
// points from the reference's.
//
//	go run ./bench/s4vm/accuracy [-sets iris,wine,two_moons,breast_cancer] [-tol 1.5]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/svm"
	"gonum.org/v1/gonum/mat"
)

type reference struct {
	Name    string    `json:"name"`
	Splits  [][]int   `json:"splits"`
	S4VM    []float64 `json:"s4vm"`
	SVM     []float64 `json:"svm"`
	Seconds []float64 `json:"seconds"`
}

func main() {
	sets := flag.String("sets", "iris,wine,two_moons,breast_cancer", "data sets (testdata/rssl_accuracy_NAME.json must exist)")
	dir := flag.String("dir", "s4vm/testdata", "directory of the reference files and breast_cancer.csv.gz")
	tol := flag.Float64("tol", 1.5, "allowed |Arbor − RSSL| of the mean S4VM accuracy, in points")
	flag.Parse()
	ctx := context.Background()
	fmt.Printf("%-14s %6s  %9s %9s %6s  %9s %9s  %8s %8s\n", "set", "splits", "s4vm", "rssl", "diff", "svm", "rssl svm", "arbor s", "rssl s")
	bad := false
	for _, name := range strings.Split(*sets, ",") {
		ref, err := readRef(filepath.Join(*dir, "rssl_accuracy_"+name+".json"))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		ds, err := load(*dir, name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		X := dataset.MinMax(ds.X)
		K, err := kernel.Gram(ctx, nil, kernel.Linear{}, X)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		Kt := mat.DenseCopyOf(K)
		var accS, accV, secs, refS, refV, refSecs float64
		for s, lab := range ref.Splits {
			y := make([]int, ds.Len())
			for i := range y {
				y[i] = learner.Unlabeled
			}
			for _, i := range lab {
				y[i] = ds.Y[i]
			}
			t0 := time.Now()
			m, err := s4vm.S4VM{Seed: uint64(s)}.FitGram(ctx, K, y)
			if err != nil {
				fmt.Fprintln(os.Stderr, name, err)
				os.Exit(2)
			}
			secs += time.Since(t0).Seconds()
			tr := m.Transduction()
			sm, err := svm.Classifier{C: 100, AllowSingleton: true}.FitGram(ctx, K, y)
			if err != nil {
				fmt.Fprintln(os.Stderr, name, err)
				os.Exit(2)
			}
			pv, err := sm.Predict(ctx, nil, Kt)
			if err != nil {
				fmt.Fprintln(os.Stderr, name, err)
				os.Exit(2)
			}
			right, rightV, total := 0, 0, 0
			for i, v := range y {
				if v != learner.Unlabeled {
					continue
				}
				total++
				if tr[i] == ds.Y[i] {
					right++
				}
				if pv[i] == ds.Y[i] {
					rightV++
				}
			}
			accS += float64(right) / float64(total)
			accV += float64(rightV) / float64(total)
			refS += ref.S4VM[s]
			refV += ref.SVM[s]
			refSecs += ref.Seconds[s]
		}
		k := float64(len(ref.Splits))
		d := 100 * (accS - refS) / k
		flagBad := ""
		if d > *tol || d < -*tol {
			bad, flagBad = true, "  *"
		}
		fmt.Printf("%-14s %6d  %9.2f %9.2f %+6.2f  %9.2f %9.2f  %8.2f %8.2f%s\n", name, len(ref.Splits),
			100*accS/k, 100*refS/k, d, 100*accV/k, 100*refV/k, secs/k, refSecs/k, flagBad)
	}
	fmt.Println("accuracy (%) on the unlabelled rows, mean over splits; seconds per split (RSSL: its S4VM calls in R, elapsed)")
	if bad {
		fmt.Printf("* S4VM mean accuracy differs from RSSL's by more than %.1f points\n", *tol)
		os.Exit(1)
	}
}

func readRef(path string) (*reference, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r reference
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(r.Splits) == 0 || len(r.S4VM) != len(r.Splits) || len(r.SVM) != len(r.Splits) || len(r.Seconds) != len(r.Splits) {
		return nil, fmt.Errorf("%s: inconsistent lengths", path)
	}
	return &r, nil
}

func load(dir, name string) (*dataset.Dataset, error) {
	if name != "breast_cancer" {
		return dataset.Embedded(name)
	}
	r, err := dataset.Open(filepath.Join(dir, "breast_cancer.csv.gz"))
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return dataset.ReadCSV(r, "breast_cancer.csv", dataset.CSVOptions{})
}

// Command digits times S4VM one-vs-one in process on a CSV with unlabelled
// rows (bench/s4vm/digits/make_digits.py writes scikit-learn's digits with
// 10 labelled rows per class): features min–max scaled, linear kernel,
// the defaults C1 = 100, C2 = 0.1, 100 samples, λ = 3. It prints the
// seconds of FitGram, the memory it allocated in all (live and dropped), the work per pair summed (candidates, local-descent
// steps, solves run, SMO iterations) and a checksum of the transductive
// labels; -labels writes them one per line, -cpuprofile a CPU profile,
// -memprofile the heap profile at the end of FitGram (its alloc_space
// sample is every allocation of the fit: go tool pprof -sample_index
// alloc_space).
//
//	/usr/bin/python3 bench/s4vm/digits/make_digits.py /tmp/digits10.csv --labeled-per-class 10
//	go run ./bench/s4vm/digits -data /tmp/digits10.csv [-classes 4] [-cpuprofile cpu.out] [-memprofile mem.out]
//
// -classes C keeps the labels of classes 0..C−1 only (C(C−1)/2 pairs) for a
// shorter run. The whole-process comparison of two builds is time.sh.
package main

import (
	"context"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/learner"
	"github.com/arbor-ml/arbor/s4vm"
)

func main() {
	data := flag.String("data", "", "CSV file (label column \"label\", empty = unlabelled)")
	classes := flag.Int("classes", 0, "keep the labels of classes 0..C-1 only (0 = all)")
	seed := flag.Uint64("seed", 1, "S4VM seed")
	labels := flag.String("labels", "", "write the transductive labels to this file")
	prof := flag.String("cpuprofile", "", "write a CPU profile to this file")
	memProf := flag.String("memprofile", "", "write the heap profile at the end of FitGram to this file")
	flag.Parse()
	if err := run(*data, *classes, *seed, *labels, *prof, *memProf); err != nil {
		fmt.Fprintln(os.Stderr, "digits:", err)
		os.Exit(1)
	}
}

func run(data string, classes int, seed uint64, labels, prof, memProf string) error {
	f, err := os.Open(data)
	if err != nil {
		return err
	}
	ds, err := dataset.ReadCSV(f, data, dataset.CSVOptions{Label: "label"})
	f.Close()
	if err != nil {
		return err
	}
	y := append([]int(nil), ds.Y...)
	if classes > 0 {
		for i, v := range y {
			if v >= classes {
				y[i] = learner.Unlabeled
			}
		}
	}
	ctx := context.Background()
	K, err := kernel.Gram(ctx, nil, kernel.Linear{}, dataset.MinMax(ds.X))
	if err != nil {
		return err
	}
	if prof != "" {
		pf, err := os.Create(prof)
		if err != nil {
			return err
		}
		defer pf.Close()
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0 := ms.TotalAlloc
	t0 := time.Now()
	m, err := s4vm.S4VM{Seed: seed}.FitGram(ctx, K, y)
	if err != nil {
		return err
	}
	secs := time.Since(t0).Seconds()
	runtime.ReadMemStats(&ms)
	allocMiB := float64(ms.TotalAlloc-alloc0) / (1 << 20)
	if memProf != "" {
		if err := writeHeapProfile(memProf); err != nil {
			return err
		}
	}
	var cands, steps, fits, iter int
	for _, p := range m.Pairs {
		cands += p.Candidates
		steps += p.Steps
		fits += p.Fits
		iter += p.Iter
	}
	tr := m.Transduction()
	h := fnv.New64a()
	for _, v := range tr {
		fmt.Fprintf(h, "%d\n", v)
	}
	fmt.Printf("%s: %d rows, %d pairs, FitGram %.2f s, allocated %.1f MiB; candidates %d, steps %d, solves %d, SMO iterations %d; labels fnv64a %016x\n",
		data, len(y), len(m.Pairs), secs, allocMiB, cands, steps, fits, iter, h.Sum64())
	if labels != "" {
		out, err := os.Create(labels)
		if err != nil {
			return err
		}
		for _, v := range tr {
			fmt.Fprintln(out, v)
		}
		return out.Close()
	}
	return nil
}

// writeHeapProfile writes the heap profile (allocations so far, sampled at
// runtime.MemProfileRate) to path. It collects first: the profile counts
// the allocations up to the last completed collection.
func writeHeapProfile(path string) error {
	runtime.GC()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

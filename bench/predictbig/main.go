// Command predictbig writes the CSV files of the large `arbor predict`
// check: the points of bench/million's generator (d = 10, 10 classes whose
// centres are drawn from N(0, 1.2²·I), unit variance per coordinate; the
// same draws in the same order, so -seed 1 gives bench/million's points),
// streamed to a file row by row, so that 10⁷ rows need no memory.
//
//	go run ./bench/predictbig -n 100000 -labeled-per-class 10 -out /tmp/train.csv
//	go run ./bench/predictbig -n 10000000 -seed 2 -out /tmp/new.csv      (no label column)
//
// Then (docs/performance.md, "arbor predict at ten million rows"):
//
//	arbor classify --data /tmp/train.csv --label class --kernel hck:average --landmarks 500 \
//	    --learner svm --save-model /tmp/m.arbor --out /tmp/fit.csv --quiet
//	nice -n 10 /usr/bin/time -v arbor predict --model /tmp/m.arbor --data /tmp/new.csv --out /tmp/pred.csv
//
// With -labeled-per-class L the file has a "class" column: the first L
// points met of each class carry their class, the others an empty cell;
// -truth adds the true class as a column "truth" (to be --ignore'd).
// Without it there is no label column (new points).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
)

func main() {
	n := flag.Int("n", 1000000, "rows")
	d := flag.Int("d", 10, "dimension")
	classes := flag.Int("classes", 10, "classes")
	perClass := flag.Int("labeled-per-class", 0, "write a class column with this many labelled rows per class (0: no label column)")
	truth := flag.Bool("truth", false, "write the true class in a column truth")
	spread := flag.Float64("spread", 1.2, "standard deviation of the class centres")
	seed := flag.Uint64("seed", 1, "seed (of the points; the centres always come from seed 1's stream, see -centre-seed)")
	centreSeed := flag.Uint64("centre-seed", 1, "seed of the class centres (the same classes for training and new files)")
	out := flag.String("out", "", "output CSV file")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "predictbig: -out is required")
		os.Exit(2)
	}
	if err := write(*out, *n, *d, *classes, *perClass, *truth, *spread, *seed, *centreSeed); err != nil {
		fmt.Fprintln(os.Stderr, "predictbig:", err)
		os.Exit(1)
	}
}

func write(path string, n, d, classes, perClass int, truth bool, spread float64, seed, centreSeed uint64) error {
	// bench/million draws the centres first from the points' stream; with
	// seed == centreSeed this is exactly its sequence.
	crng := rand.New(rand.NewPCG(centreSeed, 12))
	centres := make([]float64, classes*d)
	for i := range centres {
		centres[i] = crng.NormFloat64() * spread
	}
	rng := crng
	if seed != centreSeed {
		rng = rand.New(rand.NewPCG(seed, 12))
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := 0; j < d; j++ {
		if j > 0 {
			w.WriteByte(',')
		}
		fmt.Fprintf(w, "x%d", j+1)
	}
	if perClass > 0 {
		w.WriteString(",class")
	}
	if truth {
		w.WriteString(",truth")
	}
	w.WriteByte('\n')
	seen := make([]int, classes)
	var buf []byte
	for i := 0; i < n; i++ {
		c := rng.IntN(classes)
		buf = buf[:0]
		for j := 0; j < d; j++ {
			if j > 0 {
				buf = append(buf, ',')
			}
			buf = strconv.AppendFloat(buf, centres[c*d+j]+rng.NormFloat64(), 'f', 5, 64)
		}
		if perClass > 0 {
			buf = append(buf, ',')
			if seen[c] < perClass {
				seen[c]++
				buf = strconv.AppendInt(buf, int64(c), 10)
			}
		}
		if truth {
			buf = append(buf, ',')
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
		buf = append(buf, '\n')
		w.Write(buf)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

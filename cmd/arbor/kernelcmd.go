package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/arbor-ml/arbor/dataset"
	"github.com/arbor-ml/arbor/internal/atomicfile"
	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
)

func init() {
	register(command{name: "kernel", summary: "compute an N×N kernel matrix (point or data-dependent) to CSV or .npy", run: runKernel})
}

func runKernel(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "kernel", "--data F --kernel NAME [params] --out K.csv|K.npy")
	var d dataFlags
	d.register(fs, "none")
	var mf memFlags
	mf.register(fs)
	d.LabelOptional = true
	d.Prep.Method = "arbor kernel"
	var kf kernelFlags
	kf.register(fs, "linear")
	var lmf landmarkFlags
	lmf.register(fs)
	out := fs.String("out", "", "output file: .csv (comma-separated, full precision) or .npy (NumPy float64); with --landmarks the N×r landmark features Z (K ≈ Z·Zᵀ)")
	embed := fs.Int("embed", 0, "also write the embedding Z = U·√S with this many dimensions (to --embed-out)")
	f32 := fs.Bool("float32", false, float32Usage+"; a .npy output is then float32 ('<f4')")
	embedOut := fs.String("embed-out", "", "embedding output file (.csv or .npy)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return usageError("--out is required")
	}
	if err := checkMatrixExt(*out); err != nil {
		return err
	}
	if *embed < 0 {
		return usageError("--embed %d: give the number of dimensions, at least 1", *embed)
	}
	if (*embed > 0) != (*embedOut != "") {
		return usageError("--embed and --embed-out go together")
	}
	if err := checkMatrixExt(*embedOut); err != nil {
		return err
	}
	if err := checkOutputs("data", d.Path, "out", *out, "embed-out", *embedOut); err != nil {
		return err
	}
	specs, err := kf.specs()
	if err != nil {
		return err
	}
	if len(specs) != 1 {
		return usageError("arbor kernel computes one kernel; got %d", len(specs))
	}
	ds, err := d.load(e)
	if err != nil {
		return err
	}
	if lmf.m > 0 {
		if *f32 {
			return usageError("--float32 and --landmarks: the landmark features are N×M, not an N×N matrix; leave out --float32")
		}
		if *embed > 0 {
			return usageError("--landmarks writes the N×r features Z (K ≈ Z·Zᵀ), an embedding already: --embed does not apply")
		}
		return kernelLandmarks(ctx, e, lmf, mf, ds, specs[0], *out)
	}
	if *f32 {
		if *embed > 0 {
			return usageError("--embed needs the float64 kernel matrix: leave out --float32")
		}
		return kernelFloat32(ctx, e, mf, ds, specs[0], *out, *quiet)
	}
	hint := "" // --embed needs the float64 matrix and takes no landmarks
	if *embed == 0 {
		hint = memory.JoinHints(mf.float32Hint(kernel.Bytes32(specs[0], ds.Len())), mf.landmarkHint(specs[0], ds.Len(), ds.Dim()))
	}
	if err := mf.check(kernel.Bytes(specs[0], ds.Len()), fmt.Sprintf("the %s kernel matrix of %d rows", specs[0], ds.Len()), hint); err != nil {
		return err
	}
	if *embed > ds.Len() {
		return usageError("--embed %d: at most the number of rows (%d)", *embed, ds.Len())
	}
	start := time.Now()
	e.announceSpecs(*quiet, specs, ds.Len())
	built, err := kernel.BuildAll(ctx, ds.X, specs, kernel.BuildOptions{Progress: e.progress(*quiet)})
	if err != nil {
		return err
	}
	b := built[0]
	if err := b.CheckFinite(); err != nil {
		return err
	}
	n := ds.Len()
	fmt.Fprintf(e.stdout, "data    %s (%d rows, %d features)\n", ds.Name, n, ds.Dim())
	fmt.Fprintf(e.stdout, "kernel  %s", b.Describe())
	fmt.Fprintf(e.stdout, "\nsize    %d×%d, built in %.2fs\n", n, n, time.Since(start).Seconds())
	var batch atomicfile.Batch // all outputs or none
	defer batch.Abort()
	if err := batch.Write(*out, matrixWriter(ctx, *out, b.K)); err != nil {
		return err
	}
	if *embed > 0 {
		if n := ds.Len(); n < 1000 || *embed > n/20 { // else Lanczos, O(N²) per step
			e.announceCubic(*quiet, "--embed: eigendecomposition", n)
		}
		Z, err := kernel.Embed(ctx, b.K, *embed)
		if err != nil {
			return err
		}
		if err := batch.Write(*embedOut, matrixWriter(ctx, *embedOut, Z)); err != nil {
			return err
		}
	}
	if err := batch.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote   %s\n", *out)
	if *embed > 0 {
		fmt.Fprintf(e.stdout, "wrote   %s (embedding, %d dims)\n", *embedOut, *embed)
	}
	return nil
}

// checkMatrixExt fails unless path is "" or ends in .csv or .npy (any
// case), the matrix files dataset.WriteMatrix writes.
func checkMatrixExt(path string) error {
	if _, err := dataset.MatrixFormatOf(path, false); path != "" && err != nil {
		return usageError("%s: output must end in .csv or .npy", path)
	}
	return nil
}

// matrixWriter writes m as CSV or .npy by the extension of path ('<f4'
// for a --float32 kernel.Sym32); a cancelled ctx stops it (and the batch
// leaves no file).
func matrixWriter(ctx context.Context, path string, m interface {
	Dims() (r, c int)
	At(i, j int) float64
}) func(f *os.File) error {
	_, f32 := m.(*kernel.Sym32)
	format, _ := dataset.MatrixFormatOf(path, f32) // checkMatrixExt: .csv or .npy
	return func(f *os.File) error { return dataset.WriteMatrix(ctx, f, m, format) }
}

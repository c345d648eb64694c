package main

import (
	"flag"

	"github.com/arbor-ml/arbor/internal/memory"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/pipeline"
)

// memFlags is --max-memory SIZE, the budget every large allocation is
// checked against before it is made.
type memFlags struct {
	raw string
}

func (m *memFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&m.raw, "max-memory", "", "memory budget, such as 4G, 512M or 2GiB (default: the memory the machine has available, MemAvailable in /proc/meminfo); a run that would need more stops before the work with the size it needs and the option that fits")
}

// budget returns the budget in bytes and where it comes from; 0 means
// unknown (no /proc/meminfo and no --max-memory): nothing is checked.
func (m memFlags) budget() (int64, string, error) {
	b, src, err := memory.Budget(m.raw, "--max-memory")
	if err != nil {
		return 0, "", usageError("--max-memory %q: %v", m.raw, err)
	}
	return b, src, nil
}

// check returns a one-line error when need bytes exceed the budget: what
// needs it, how much, the budget, and hint (the option that fits).
func (m memFlags) check(need float64, what, hint string) error {
	b, src, err := m.budget()
	if err != nil {
		return err
	}
	return memory.Estimate{Bytes: need, What: what, Hint: hint, Budget: b, Source: src}.Err()
}

// landmarkHint names the --landmarks M that fits the budget, if any.
func (m memFlags) landmarkHint(spec kernel.Spec, n, d int) string {
	b, _, _ := m.budget()
	return pipeline.LandmarkHint(b, n, func(lm int) float64 { return pipeline.KernelLandmarkBytes(spec, n, d, lm) })
}

// float32Hint names --float32 with the memory it needs when it is an
// option and fits the budget; need32 is that memory.
func (m memFlags) float32Hint(need32 float64) string {
	b, _, _ := m.budget()
	return pipeline.Float32Hint(b, need32)
}

// Package memory holds the memory budget every large allocation is
// checked against before it is made: the budget's size (ParseSize, the
// machine's Available memory), the one-line refusal (Estimate.Err) and the
// sizes as people read them (Human).
package memory

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// ErrMemory is wrapped by the one-line error of a run that would not fit
// in its memory budget.
var ErrMemory = errors.New("not enough memory")

// Estimate is the memory a run needs and what it is for, checked against
// a budget.
type Estimate struct {
	// Bytes is the estimated peak, about (the models are within about a
	// third of the measured peak).
	Bytes float64
	// What names what needs the memory ("the exact svm run on 5000 rows").
	What string
	// Hint names the settings that fit the budget, "" when none is known.
	Hint string
	// Budget is the budget in bytes; 0 means none: nothing is refused.
	Budget int64
	// Source says where the budget comes from, named in the refusal in
	// parentheses ("--max-memory"); "" names nothing.
	Source string
}

// Fits reports whether the estimate is within the budget (or there is no
// budget).
func (e Estimate) Fits() bool { return e.Budget <= 0 || e.Bytes <= float64(e.Budget) }

// Err is nil when the estimate fits, else the one-line refusal wrapping
// ErrMemory: "not enough memory: WHAT needs about X, more than the budget
// of Y (SOURCE); HINT".
func (e Estimate) Err() error {
	if e.Fits() {
		return nil
	}
	msg := fmt.Sprintf("%s needs about %s, more than the budget of %s", e.What, Human(e.Bytes), Human(float64(e.Budget)))
	if e.Source != "" {
		msg += " (" + e.Source + ")"
	}
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return fmt.Errorf("%w: %s", ErrMemory, msg)
}

// Human writes b bytes as GiB with one decimal, MiB (whole from 10 MiB)
// or whole KiB rounded up.
func Human(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 10<<20:
		return fmt.Sprintf("%.0f MiB", b/(1<<20))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", math.Ceil(b/(1<<10)))
}

// JoinHints joins the non-empty hints with "; ".
func JoinHints(hints ...string) string {
	out := ""
	for _, h := range hints {
		if h == "" {
			continue
		}
		if out != "" {
			out += "; "
		}
		out += h
	}
	return out
}

// ParseSize reads 1.5G, 512M, 2GiB, 300MB, 1e9 (bytes); K/M/G/T are
// powers of 1024 with or without "iB"/"B". A fraction of a byte is rounded
// up (1.5 is 2 bytes); zero, negative sizes, sizes below 1 byte and sizes
// of 2⁶³ bytes or more are errors.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToUpper(s))
	mult := 1.0
	for _, u := range []struct {
		suf string
		m   float64
	}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10},
		{"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10},
		{"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suf) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suf)), u.m
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("want a positive size such as 4G, 512M or 2GiB")
	}
	b := math.Ceil(v * mult) // a fraction of a byte counts as a byte
	switch {
	case v*mult < 1:
		return 0, fmt.Errorf("%g bytes is less than 1 byte: want a size such as 4G, 512M or 2GiB", v*mult)
	case b >= math.MaxInt64: // 2⁶³ and above (float64(MaxInt64) is 2⁶³)
		return 0, fmt.Errorf("more than the largest budget, 8388607T (2⁶³−1 bytes)")
	}
	return int64(b), nil
}

// Available returns MemAvailable from /proc/meminfo in bytes, or 0 where
// there is no such file.
func Available() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == "MemAvailable:" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// Budget returns the memory budget in bytes and where it comes from: the
// size limit (ParseSize) when it is not "", with source flag (the option
// that set it), else the memory available (Available), whose source says
// that flag changes it; 0 means unknown (no limit and no /proc/meminfo):
// nothing is checked. A limit that does not parse is ParseSize's error.
func Budget(limit, flag string) (int64, string, error) {
	if limit != "" {
		b, err := ParseSize(limit)
		return b, flag, err
	}
	if b := Available(); b > 0 {
		return b, "available memory; " + flag + " to change", nil
	}
	return 0, "", nil
}

// Package modelio is the one envelope of Arbor's saved models: a single
// JSON document whose "format" and "version" fields name what it is. Every
// learner package (svm, knn, propagate, s4vm, hibust, svcluster) writes
// its model with Encode and reads it with Decode, so they share one
// strictness (unknown fields are errors) and one way of naming a foreign,
// newer or damaged file.
package modelio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
)

// Encode writes v as one indented JSON document.
func Encode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(v)
}

// Decode reads one document written by Encode into v, which must be a
// pointer to a struct with the fields format and version. The format and
// version are checked before the strict decoding, so a foreign file or a
// newer version is reported as such rather than by its first unknown
// field. Every error, a read error included, wraps errFormat.
func Decode(r io.Reader, v any, format string, version int, errFormat error) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return fmt.Errorf("%w: %w", errFormat, err)
	}
	var h struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(data, &h); err != nil {
		return fmt.Errorf("%w: %w", errFormat, err)
	}
	if h.Format != format {
		return fmt.Errorf("%w: format %.40q, want %q", errFormat, h.Format, format)
	}
	if h.Version != version {
		return fmt.Errorf("%w: version %d, this reader supports %d", errFormat, h.Version, version)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %w", errFormat, err)
	}
	return nil
}

// Product returns rows·cols, the length a block of rows × cols values
// read from a file must have, and false when a count is negative or the
// product overflows an int: a check len(block) == rows·cols against a
// product that wrapped around could pass with counts far larger than the
// block.
func Product(rows, cols int) (int, bool) {
	if rows < 0 || cols < 0 {
		return 0, false
	}
	if rows != 0 && cols > math.MaxInt/rows {
		return 0, false
	}
	return rows * cols, true
}

// IsShape reports whether a block of n values is rows × cols with both
// counts at least 1 (Product without overflow).
func IsShape(n, rows, cols int) bool {
	p, ok := Product(rows, cols)
	return ok && rows >= 1 && cols >= 1 && p == n
}

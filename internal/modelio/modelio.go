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
		return fmt.Errorf("%w: format %q, want %q", errFormat, h.Format, format)
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

package modelio

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
)

// Floats is a []float64 that a saved model stores compactly and exactly:
// JSON encodes it as one base64 string of the values' IEEE-754 bits,
// little-endian, 8 bytes each (about 11 characters a value instead of up
// to 24 as decimal text, and no parsing on load). Large matrices of fitted
// models (landmark rows, Nyström factors, geodesic distances) use it.
type Floats []float64

// MarshalJSON writes f as a base64 string.
func (f Floats) MarshalJSON() ([]byte, error) {
	raw := make([]byte, 8*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint64(raw[8*i:], math.Float64bits(v))
	}
	out := make([]byte, 0, base64.StdEncoding.EncodedLen(len(raw))+2)
	out = append(out, '"')
	out = base64.StdEncoding.AppendEncode(out, raw)
	return append(out, '"'), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Floats) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("float block: %w", err)
	}
	raw, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fmt.Errorf("float block: %w", err)
	}
	if len(raw)%8 != 0 {
		return fmt.Errorf("float block: %d bytes, not a multiple of 8", len(raw))
	}
	out := make([]float64, len(raw)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	*f = out
	return nil
}

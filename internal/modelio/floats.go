package modelio

import (
	"bytes"
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

// UnmarshalJSON reads what MarshalJSON writes. A plain quoted block (no
// escapes, as MarshalJSON writes it) is decoded straight from the JSON
// bytes, 24 values at a time, into the result: no copy of the text and no
// intermediate byte slice (a 10⁶ × 10 block used to hold 107 MB of string
// and 80 MB of bytes beside its 80 MB of values while loading). Anything
// else (escapes, null) goes through encoding/json's string decoding.
func (f *Floats) UnmarshalJSON(b []byte) error {
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 {
		return f.decode(b[1 : len(b)-1])
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("float block: %w", err)
	}
	return f.decode([]byte(s))
}

// decode sets f from the base64 text src (padded, standard alphabet).
func (f *Floats) decode(src []byte) error {
	if len(src)%4 != 0 {
		return fmt.Errorf("float block: %d base64 characters, not a multiple of 4", len(src))
	}
	n := len(src) / 4 * 3
	if len(src) > 0 && src[len(src)-1] == '=' {
		n--
		if src[len(src)-2] == '=' {
			n--
		}
	}
	if n%8 != 0 {
		return fmt.Errorf("float block: %d bytes, not a multiple of 8", n)
	}
	out := make([]float64, n/8)
	// 256 characters are 192 bytes, 24 values; only the last chunk may
	// carry padding.
	var raw [192]byte
	v := 0
	for at := 0; at < len(src); at += 256 {
		chunk := src[at:min(at+256, len(src))]
		m, err := base64.StdEncoding.Decode(raw[:], chunk)
		if err != nil {
			return fmt.Errorf("float block: %w", err)
		}
		if m%8 != 0 || v+m/8 > len(out) || (m < len(raw) && at+256 < len(src)) {
			return fmt.Errorf("float block: malformed base64 near character %d", at)
		}
		for i := 0; i < m; i += 8 {
			out[v] = math.Float64frombits(binary.LittleEndian.Uint64(raw[i:]))
			v++
		}
	}
	if v != len(out) {
		return fmt.Errorf("float block: padding inside the block")
	}
	*f = out
	return nil
}

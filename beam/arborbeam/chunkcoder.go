package arborbeam

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// Chunks cross between the stages of a job (the labels of 10⁶ rows are
// 2·10⁶ strings): Beam's schema coder decodes each string on its own by
// reflection, with an allocation a string. chunkCoder writes a Chunk as
// its fields, each list of strings as its count, the lengths and one run
// of bytes, and reads each list back as one string that its elements are
// slices of.
func init() {
	beam.RegisterCoder(reflect.TypeOf((*Chunk)(nil)).Elem(), encodeChunk, decodeChunk)
}

func encodeChunk(c Chunk) []byte {
	n := 4*binary.MaxVarintLen64 + len(c.File) + len(c.IDName) + 8*len(c.Z)
	for _, s := range c.IDs {
		n += binary.MaxVarintLen64 + len(s)
	}
	for _, s := range c.Labels {
		n += binary.MaxVarintLen64 + len(s)
	}
	b := make([]byte, 0, n+2*binary.MaxVarintLen64)
	b = appendString(b, c.File)
	b = binary.AppendVarint(b, c.Pos)
	b = appendString(b, c.IDName)
	b = appendStrings(b, c.IDs)
	b = appendStrings(b, c.Labels)
	b = binary.AppendUvarint(b, uint64(c.Dim))
	b = binary.AppendUvarint(b, uint64(len(c.Z)))
	for _, v := range c.Z {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendStrings writes a list: 0 for nil, else its length + 1, then each
// string's length, then their bytes.
func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return binary.AppendUvarint(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(ss))+1)
	for _, s := range ss {
		b = binary.AppendUvarint(b, uint64(len(s)))
	}
	for _, s := range ss {
		b = append(b, s...)
	}
	return b
}

// chunkReader reads what encodeChunk wrote.
type chunkReader struct {
	b   []byte
	err error
}

func (r *chunkReader) uvarint() uint64 {
	v, k := binary.Uvarint(r.b)
	if k <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[k:]
	return v
}

func (r *chunkReader) fail() {
	if r.err == nil {
		r.err = fmt.Errorf("arborbeam: a chunk's encoding is cut short or damaged")
	}
	r.b = nil
}

func (r *chunkReader) bytes(n uint64) []byte {
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	out := r.b[:n]
	r.b = r.b[n:]
	return out
}

func (r *chunkReader) string() string { return string(r.bytes(r.uvarint())) }

func (r *chunkReader) strings() []string {
	n := r.uvarint()
	if n == 0 {
		return nil
	}
	n--
	if n > uint64(len(r.b)) { // each length takes a byte at least
		r.fail()
		return nil
	}
	lens := make([]uint64, n)
	total := uint64(0)
	for i := range lens {
		lens[i] = r.uvarint()
		total += lens[i]
	}
	all := string(r.bytes(total))
	if r.err != nil {
		return nil
	}
	out := make([]string, n)
	off := uint64(0)
	for i, l := range lens {
		out[i] = all[off : off+l]
		off += l
	}
	return out
}

func decodeChunk(b []byte) (Chunk, error) {
	r := &chunkReader{b: b}
	var c Chunk
	c.File = r.string()
	pos, k := binary.Varint(r.b)
	if k <= 0 {
		r.fail()
	} else {
		r.b = r.b[k:]
	}
	c.Pos = pos
	c.IDName = r.string()
	c.IDs = r.strings()
	c.Labels = r.strings()
	c.Dim = int(r.uvarint())
	nz := r.uvarint()
	if nz > uint64(len(r.b))/8 {
		r.fail()
	} else if nz > 0 {
		c.Z = make([]float64, nz)
		for i := range c.Z {
			c.Z[i] = math.Float64frombits(binary.LittleEndian.Uint64(r.b[8*i:]))
		}
		r.b = r.b[8*nz:]
	}
	if r.err == nil && len(r.b) != 0 {
		r.fail()
	}
	return c, r.err
}

package pipeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/arbor-ml/arbor/hibust"
	"github.com/arbor-ml/arbor/kernel"
	"github.com/arbor-ml/arbor/propagate"
	"github.com/arbor-ml/arbor/s4vm"
	"github.com/arbor-ml/arbor/svm"
)

// trailerPrefix starts the last line of a version 3 file:
// "ARBOR-CRC32C xxxxxxxx\n", the CRC-32C (Castagnoli) of every byte
// before that line, as 8 lowercase hexadecimal digits.
const trailerPrefix = "ARBOR-CRC32C "

// trailerLen is the length of the trailer line.
const trailerLen = len(trailerPrefix) + 8 + 1

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// trailer returns the checksum line of the bytes sum was computed over.
func trailer(sum uint32) string { return fmt.Sprintf("%s%08x\n", trailerPrefix, sum) }

// crcWriter passes writes on to w and keeps the CRC-32C of what passed.
type crcWriter struct {
	w   io.Writer
	crc uint32
}

func (c *crcWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.crc = crc32.Update(c.crc, castagnoli, b[:n])
	return n, err
}

// damaged is ErrTruncated with what is wrong.
func damaged(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrTruncated, fmt.Sprintf(format, args...))
}

// badField is ErrTruncated naming the manifest field that is wrong.
func badField(field, format string, args ...any) error {
	return fmt.Errorf("%w: manifest field %q: %s", ErrTruncated, field, fmt.Sprintf(format, args...))
}

// readHeader reads the first line, "ARBOR-PIPELINE v\n", and returns the
// version and the line's bytes. At most 64 bytes are looked at.
func readHeader(br *bufio.Reader) (int, []byte, error) {
	peek, perr := br.Peek(64)
	nl := bytes.IndexByte(peek, '\n')
	line := peek
	if nl >= 0 {
		line = peek[:nl]
	}
	magic, ver, _ := strings.Cut(string(line), " ")
	if magic != Magic {
		if perr != nil && perr != io.EOF && perr != bufio.ErrBufferFull {
			return 0, nil, perr
		}
		return 0, nil, fmt.Errorf("%w (it does not start with %q; write one with arbor classify --save-model)", ErrForeign, Magic)
	}
	if nl < 0 {
		if perr == io.EOF {
			return 0, nil, damaged("the header line is cut short")
		}
		return 0, nil, damaged("the header line is longer than 64 bytes")
	}
	v, err := strconv.Atoi(ver)
	if err != nil || strconv.Itoa(v) != ver {
		return 0, nil, damaged("header line %s: the version is not a number", quote(string(line)))
	}
	if v < 1 || v > Version {
		return 0, nil, fmt.Errorf("%w: version %d, this Arbor reads versions 1..%d", ErrVersion, v, Version)
	}
	head := make([]byte, nl+1)
	if _, err := io.ReadFull(br, head); err != nil {
		return 0, nil, err
	}
	return v, head, nil
}

// readRest reads what follows the header to the end, growing the buffer
// as bytes arrive (a size field is never trusted for an allocation); when
// r is a regular file its length sizes the buffer once.
func readRest(br *bufio.Reader, r io.Reader) ([]byte, error) {
	var buf bytes.Buffer
	switch r := r.(type) {
	case interface{ Stat() (fs.FileInfo, error) }:
		if fi, err := r.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 && fi.Size() < math.MaxInt32 {
			buf.Grow(int(fi.Size()) + 1)
		}
	case interface{ Len() int }: // bytes.Reader, bytes.Buffer, strings.Reader
		buf.Grow(br.Buffered() + r.Len() + 1)
	}
	if _, err := buf.ReadFrom(br); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// splitFile checks the checksum of a version 3 file (head and rest are
// the header line and the bytes after it) and returns the manifest line,
// the map and the payload, their lengths checked against the manifest
// before anything is decoded.
func splitFile(v int, head, rest []byte) (manifest, []byte, []byte, error) {
	var m manifest
	body := rest
	if v >= 3 {
		if len(rest) < trailerLen || !bytes.HasPrefix(rest[len(rest)-trailerLen:], []byte(trailerPrefix)) || rest[len(rest)-1] != '\n' {
			return m, nil, nil, damaged("the checksum line %q at the end is missing: the file is cut short or damaged", strings.TrimSpace(trailerPrefix))
		}
		body = rest[:len(rest)-trailerLen]
		hex := rest[len(rest)-trailerLen+len(trailerPrefix) : len(rest)-1]
		want, err := strconv.ParseUint(string(hex), 16, 32)
		if err != nil || fmt.Sprintf("%08x", want) != string(hex) {
			return m, nil, nil, damaged("the checksum line ends in %q, not 8 hexadecimal digits", hex)
		}
		got := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, body)
		if got != uint32(want) {
			return m, nil, nil, damaged("the file does not match its checksum (CRC-32C %08x, the file says %08x): it was changed after it was written", got, want)
		}
	}
	nl := bytes.IndexByte(body, '\n')
	if nl < 0 {
		return m, nil, nil, damaged("the manifest is cut short")
	}
	if err := decodeManifest(body[:nl], &m); err != nil {
		return m, nil, nil, err
	}
	after := len(body) - nl - 1
	switch {
	case m.MapBytes < 0:
		return m, nil, nil, badField("map_bytes", "%d is negative", m.MapBytes)
	case m.PayloadBytes < 0:
		return m, nil, nil, badField("payload_bytes", "%d is negative", m.PayloadBytes)
	case m.MapBytes > after:
		return m, nil, nil, badField("map_bytes", "%d, but only %d bytes follow the manifest: the map is cut short", m.MapBytes, after)
	case m.PayloadBytes > after-m.MapBytes:
		return m, nil, nil, badField("payload_bytes", "%d, but only %d bytes follow the manifest and the map: the model is cut short",
			m.PayloadBytes, after-m.MapBytes)
	case m.PayloadBytes < after-m.MapBytes:
		return m, nil, nil, damaged("%d bytes after the model (payload_bytes %d, map_bytes %d)", after-m.MapBytes-m.PayloadBytes, m.PayloadBytes, m.MapBytes)
	}
	mapBytes := body[nl+1 : nl+1+m.MapBytes]
	payload := body[nl+1+m.MapBytes:]
	if crc32.ChecksumIEEE(mapBytes) != m.MapCRC {
		return m, nil, nil, damaged("the map does not match its checksum (map_crc32)")
	}
	if crc32.ChecksumIEEE(payload) != m.PayloadCRC {
		return m, nil, nil, damaged("the model does not match its checksum (payload_crc32)")
	}
	return m, mapBytes, payload, nil
}

// decodeManifest reads the manifest line strictly: one JSON object, no
// unknown fields, nothing after it.
func decodeManifest(line []byte, m *manifest) error {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(m); err != nil {
		return damaged("manifest: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return damaged("manifest: text after the JSON object")
	}
	return nil
}

// quote quotes a name read from a file, at most its first 40 characters.
func quote(s string) string {
	if r := []rune(s); len(r) > 40 {
		return strconv.Quote(string(r[:40])) + "…"
	}
	return strconv.Quote(s)
}

// checkNames checks a list of column or class names: not empty, no name
// twice.
func checkNames(field string, names []string) error {
	if len(names) == 0 {
		return badField(field, "empty")
	}
	seen := make(map[string]bool, len(names))
	for _, s := range names {
		if seen[s] {
			return badField(field, "the name %s occurs twice", quote(s))
		}
		seen[s] = true
	}
	return nil
}

// checkHead checks the parts of a manifest every pipeline has: distinct
// feature and class names, a scaling of as many columns with finite
// shifts and positive finite factors, a finite gamma and a known rule.
func checkHead(m manifest) error {
	if err := checkNames("features", m.Features); err != nil {
		return err
	}
	if err := checkNames("classes", m.Classes); err != nil {
		return err
	}
	d := len(m.Features)
	sc := m.Scale
	if sc == nil {
		return badField("scale", "missing")
	}
	switch sc.How {
	case "none", "std", "minmax":
	default:
		return badField("scale", "method %s (want none, std or minmax)", quote(sc.How))
	}
	if len(sc.Shift) != d || len(sc.Factor) != d {
		return badField("scale", "%d shifts and %d factors for %d features", len(sc.Shift), len(sc.Factor), d)
	}
	for j := range d {
		if math.IsNaN(sc.Shift[j]) || !(sc.Factor[j] > 0) {
			return badField("scale", "feature %s: shift %v, factor %v (want a number and a positive factor)", quote(m.Features[j]), sc.Shift[j], sc.Factor[j])
		}
	}
	if im := sc.Impute; im != nil {
		if len(im.Fill) != d {
			return badField("scale", "%d imputed values for %d features", len(im.Fill), d)
		}
		for j, v := range im.Fill {
			if math.IsNaN(v) {
				return badField("scale", "feature %s: imputed value NaN", quote(m.Features[j]))
			}
		}
	}
	if math.IsNaN(m.Gamma) || math.IsInf(m.Gamma, 0) || m.Gamma < 0 {
		return badField("gamma", "%v", m.Gamma)
	}
	switch m.Rule {
	case "", kernel.RuleTree, kernel.RuleLinear:
	default:
		return badField("rule", "%s (want %s or %s)", quote(m.Rule), kernel.RuleTree, kernel.RuleLinear)
	}
	if m.Affinity != "" {
		a, err := propagate.ParseAffinity(m.Affinity)
		if err != nil {
			return badField("affinity", "%v", err)
		}
		if a.Kind != propagate.RBF && a.Kind != propagate.KNN {
			return badField("affinity", "%s: new points get rbf or knn affinities only", quote(m.Affinity))
		}
	}
	return nil
}

// checkModel checks what the manifest and the loaded model must agree on:
// every label the model gives is a class of the manifest, and a model
// fitted on the N training rows (svm, propagate, s4vm, hibust) was
// fitted on as many rows as the manifest holds; the anchor graph and the
// kNN graph read as many features as the manifest names.
func checkModel(p *Pipeline) error {
	var m any = p.Model
	if p.Landmarks != nil {
		m = p.Landmarks.Model
	}
	if c, ok := m.(interface{ Classes() []int }); ok {
		for _, l := range c.Classes() {
			if l < 0 || l >= len(p.Classes) {
				return badField("classes", "%d names, but the model gives label %d", len(p.Classes), l)
			}
		}
	}
	if p.X != nil {
		n, _ := p.X.Dims()
		rows := -1
		switch m := m.(type) {
		case *svm.Model:
			rows = m.NTrain
		case *propagate.Model:
			rows, _ = m.Distributions.Dims()
		case *s4vm.Model:
			rows = len(m.Transduction())
		case *hibust.Model:
			rows = m.NTrain()
		}
		if rows >= 0 && rows != n {
			return badField("train", "%d rows, but the %T was fitted on %d", n, m, rows)
		}
	}
	if d, ok := m.(interface{ Dim() int }); ok && p.Landmarks != nil && p.Landmarks.Map == nil && d.Dim() != len(p.Features) {
		return badField("features", "%d names, but the %T reads %d features", len(p.Features), m, d.Dim())
	}
	return nil
}

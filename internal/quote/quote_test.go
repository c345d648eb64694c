package quote

import (
	"strings"
	"testing"
)

func TestCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"1,5", `"1,5"`},
		{"", `""`},
		{strings.Repeat("x", Max), `"` + strings.Repeat("x", Max) + `"`},
		{strings.Repeat("1", 20<<20), `"` + strings.Repeat("1", Keep) + `"… (20971520 bytes)`},
		// a cut inside a character backs up to its first byte
		{strings.Repeat("a", Keep-1) + strings.Repeat("é", 20), `"` + strings.Repeat("a", Keep-1) + `"… (71 bytes)`},
		{"\xff\xfe" + strings.Repeat("x\x00", 30), `"\xff\xfe` + strings.Repeat(`x\x00`, 15) + `"… (62 bytes)`},
	} {
		if got := Cell(tc.in); got != tc.want {
			t.Errorf("Cell(%.20q…) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

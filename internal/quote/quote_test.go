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

// Shell's words read back as the text under POSIX quoting (unshell), and
// plain words are left as they are.
func TestShell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"age", "age"},
		{"patient id", "'patient id'"},
		{"", "''"},
		{"it's", `'it'\''s'`},
		{"a,b", "a,b"},
		{"x$y", "'x$y'"},
		{"tab\there", "'tab\there'"},
	} {
		got := Shell(tc.in)
		if got != tc.want {
			t.Errorf("Shell(%q) = %s, want %s", tc.in, got, tc.want)
		}
		if back, ok := unshell(got); !ok || back != tc.in {
			t.Errorf("Shell(%q) = %s reads back as %q (ok %v)", tc.in, got, back, ok)
		}
	}
}

// unshell reads one shell word made of plain characters, single-quoted
// text (literal) and backslash-escaped characters; ok is false for a
// special character left unquoted or an unclosed quote.
func unshell(w string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case c == '\\' && i+1 < len(w):
			i++
			b.WriteByte(w[i])
		case c == '\'':
			j := strings.IndexByte(w[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			b.WriteString(w[i+1 : i+1+j])
			i += j + 1
		case strings.IndexByte(" \t\"$`\\|&;()<>*?[]#~!", c) >= 0:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// Package quote quotes text for messages: file content (Cell) short in
// full, long cut to its start with the length, so that a 20 MB cell makes
// a one-line message; and words of a suggested command line (Shell).
package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Max is the longest text (in bytes) Cell quotes in full; longer text is
// cut to its first Keep bytes (at a character boundary).
const (
	Max  = 48
	Keep = 32
)

// Cell returns s quoted as strconv.Quote does when len(s) ≤ Max, else
// its first Keep bytes quoted, an ellipsis and the length:
//
//	"11111111111111111111111111111111"… (20971520 bytes)
func Cell(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	k := Keep
	for k > Keep-utf8.UTFMax && !utf8.RuneStart(s[k]) {
		k--
	}
	return strconv.Quote(s[:k]) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Shell returns s as one word of a POSIX shell command line: as it is
// when it holds no blank or character the shell treats specially, else
// in single quotes (a quote inside closes them, is escaped with a
// backslash and opens them again).
func Shell(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t'\"$`\\|&;()<>*?[]#~!") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

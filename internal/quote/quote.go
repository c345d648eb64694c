// Package quote quotes file content for error messages: short text in
// full, long text cut to its start with the length, so that a 20 MB cell
// makes a one-line message.
package quote

import (
	"strconv"
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

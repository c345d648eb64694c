package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestReadSplits(t *testing.T) {
	s, err := ReadSplits(strings.NewReader("3, 1,2\r\n\n0\n"), "s.csv", 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) != 2 || !slices.Equal(s[0], []int{1, 2, 3}) || !slices.Equal(s[1], []int{0}) {
		t.Errorf("got %v", s)
	}
	for _, tc := range []struct {
		what, in string
		want     error
		msg      string
	}{
		{"empty", "\n\n", ErrEmpty, `s.csv:1: empty input: no splits`},
		{"not number", "1,2\n1,x\n", ErrNotNumber, `s.csv:2: not a number "x" (field 2)`},
		{"empty field", "1,,2\n", ErrNotNumber, `s.csv:1: not a number "" (field 2)`},
		{"range", "1,2\n\n1,4\n", ErrIndexRange, `s.csv:3: index out of range: 4 not in [0, 4) (field 2)`},
		{"negative", "-1\n", ErrIndexRange, `s.csv:1: index out of range: -1 not in [0, 4) (field 1)`},
		{"duplicate", "1,2,1\n", ErrDuplicateIndex, `s.csv:1: duplicate index 1 (field 3)`},
	} {
		_, err := ReadSplits(strings.NewReader(tc.in), "s.csv", 4)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.what, err, tc.want)
			continue
		}
		if err.Error() != tc.msg {
			t.Errorf("%s:\n got %s\nwant %s", tc.what, err, tc.msg)
		}
	}
}

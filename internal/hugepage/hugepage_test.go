package hugepage

import (
	"runtime"
	"testing"
	"unsafe"
)

func TestFloat64s(t *testing.T) {
	for _, n := range []int{0, 1, 1000, MinBytes/8 - 1, MinBytes / 8, 3*MinBytes/8 + 5} {
		b := Float64s(n)
		if len(b) != n || cap(b) != n && n >= MinBytes/8 {
			t.Fatalf("n=%d: len %d cap %d", n, len(b), cap(b))
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("n=%d: b[%d] = %v, want 0", n, i, v)
			}
		}
		if n*8 >= MinBytes && runtime.GOOS == "linux" {
			if p := uintptr(unsafe.Pointer(&b[0])); p%pageBytes != 0 {
				t.Fatalf("n=%d: start %#x not at a 2 MiB boundary", n, p)
			}
		}
		for i := range b { // writable end to end
			b[i] = float64(i)
		}
	}
}

func TestFloat32s(t *testing.T) {
	for _, n := range []int{0, 1, 1000, MinBytes/4 - 1, MinBytes / 4, 3*MinBytes/4 + 5} {
		b := Float32s(n)
		if len(b) != n || cap(b) != n && n >= MinBytes/4 {
			t.Fatalf("n=%d: len %d cap %d", n, len(b), cap(b))
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("n=%d: b[%d] = %v, want 0", n, i, v)
			}
		}
		if n*4 >= MinBytes && runtime.GOOS == "linux" {
			if p := uintptr(unsafe.Pointer(&b[0])); p%pageBytes != 0 {
				t.Fatalf("n=%d: start %#x not at a 2 MiB boundary", n, p)
			}
		}
		for i := range b {
			b[i] = float32(i)
		}
	}
}

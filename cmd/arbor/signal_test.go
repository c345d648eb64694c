package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// A signal at any stage, even after the work's last cancellation check,
// ends the run with 128 + its number and "interrupted" (not exit 1 with
// "context canceled", nor 0 when it comes late).
func TestSignalExitCodes(t *testing.T) {
	for _, tc := range []struct {
		sig  os.Signal
		code int
	}{{os.Interrupt, 130}, {syscall.SIGTERM, 143}} {
		sigc := make(chan os.Signal, 2)
		sigc <- tc.sig
		var out, errb bytes.Buffer
		code := mainExit([]string{"cluster", "--data", "iris", "--k", "3", "--quiet"}, &out, &errb, sigc, func(int) { t.Error("forced exit after one signal") })
		if code != tc.code || !strings.Contains(errb.String(), "arbor: interrupted") || strings.Contains(errb.String(), "context canceled") {
			t.Errorf("%v: exit %d, stderr %q", tc.sig, code, errb.String())
		}
	}
	// no signal: the ordinary codes
	var out, errb bytes.Buffer
	if code := mainExit([]string{"cluster", "--data", "iris", "--bogus"}, &out, &errb, make(chan os.Signal, 1), nil); code != 2 {
		t.Errorf("usage error: exit %d", code)
	}
}

// A second signal forces the exit at once.
func TestSecondSignalForces(t *testing.T) {
	sigc := make(chan os.Signal, 2)
	var mu sync.Mutex
	forced := -1
	hard := func(code int) {
		mu.Lock()
		forced = code
		mu.Unlock()
	}
	sigc <- os.Interrupt
	sigc <- syscall.SIGTERM
	var out, errb bytes.Buffer
	mainExit([]string{"kernel", "--data", "iris", "--kernel", "rbf", "--out", t.TempDir() + "/K.csv", "--quiet"}, &out, &errb, sigc, hard)
	// A liveness bound, not a timing: generous for a loaded machine.
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		f := forced
		mu.Unlock()
		if f == 143 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("forced exit code %d, want 143", f)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A signal ends a run waiting for standard input that never comes (a
// terminal, a silent pipe): the first one, with exit 130, not the second.
func TestSignalWhileReadingStdin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close() // the writer stays silent until the test ends
	stdin := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = stdin }()
	for _, args := range [][]string{
		{"cluster", "--data", "-", "--clusters", "2", "--quiet"},
		{"predict", "--model", "-", "--data", "iris", "--quiet"},
	} {
		sigc := make(chan os.Signal, 2)
		code := make(chan int, 1)
		var errb bytes.Buffer
		go func() {
			code <- mainExit(args, io.Discard, &errb, sigc, func(int) { t.Error("forced exit after one signal") })
		}()
		time.Sleep(50 * time.Millisecond) // most often inside the read by now; before it works too
		sigc <- os.Interrupt
		select {
		case c := <-code:
			if c != 130 || !strings.Contains(errb.String(), "arbor: interrupted") {
				t.Errorf("arbor %s: exit %d, stderr %q", strings.Join(args, " "), c, errb.String())
			}
		case <-time.After(60 * time.Second):
			t.Fatalf("arbor %s: still reading standard input 60 s after the signal", strings.Join(args, " "))
		}
	}
}

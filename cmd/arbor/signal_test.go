package main

import (
	"bytes"
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
	deadline := time.Now().Add(5 * time.Second)
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

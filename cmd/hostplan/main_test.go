package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"hostplan/internal/store"
)

// TestMain lets the test binary stand in for hostplan itself, so the window
// can be started as a real process under Xvfb.
func TestMain(m *testing.M) {
	if os.Getenv("HOSTPLAN_AS_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// The window opens on a fresh store: the process stays up under a real X
// server, holds the store (a second opener is told it is in use), and the
// store it created is seeded with the example scenarios.
func TestWindowOpensOnSeededStore(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display (make test runs this under xvfb-run)")
	}
	db := filepath.Join(t.TempDir(), "hostplan.db")
	cmd := exec.Command(os.Args[0], "--db", db)
	cmd.Env = append(os.Environ(), "HOSTPLAN_AS_MAIN=1", "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
	out, _ := os.Create(filepath.Join(t.TempDir(), "out.log"))
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// Wait for the window's process to create the store, give it time to
	// open the window, then check it is alive and shares the store.
	// (Polling with Open would race the window for the file lock.)
	// Two minutes: under the race detector, with every other package's
	// tests on the same two cores, a start has taken more than 20 s.
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := os.Stat(db); err == nil {
			break
		}
		select {
		case err := <-exited:
			log, _ := os.ReadFile(out.Name())
			t.Fatalf("hostplan exited early (%v):\n%s", err, log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("hostplan never created its store")
		}
	}
	select {
	case err := <-exited:
		log, _ := os.ReadFile(out.Name())
		t.Fatalf("hostplan exited (%v):\n%s", err, log)
	case <-time.After(3 * time.Second):
	}
	// The window shares the store: a command writes beside it.
	if st, err := store.Open(db, &store.Options{Timeout: 2 * time.Second}); err != nil {
		t.Fatalf("a command cannot open the store beside the window: %v", err)
	} else {
		st.Close()
	}
	cmd.Process.Kill()
	<-exited

	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	items, err := st.List()
	if err != nil || len(items) < 5 {
		t.Fatalf("store has %d scenarios (%v), want the examples", len(items), err)
	}
}

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hostplan/internal/app"
)

// xdotool runs xdotool with args and returns its output's fields.
func xdotool(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("xdotool", args...).Output()
	if err != nil {
		t.Fatalf("xdotool %s: %v", strings.Join(args, " "), err)
	}
	return strings.Fields(string(out))
}

// A window the last session left larger than the screen (kept from a
// larger one) opens inside the screen it opens on, under a real X server.
func TestWindowOpensWithinTheScreen(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		t.Skip("no X display (make test runs this under xvfb-run)")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Skip("xdotool is not installed")
	}
	screen := xdotool(t, "getdisplaygeometry")
	sw, _ := strconv.Atoi(screen[0])
	sh, _ := strconv.Atoi(screen[1])
	if sw < 1024 || sh < 700 {
		t.Skipf("the screen is %d × %d, smaller than the window's least size", sw, sh)
	}
	db := filepath.Join(t.TempDir(), "hostplan.db")
	p, err := app.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	for key, v := range map[string]string{"window.width": strconv.Itoa(sw + 600), "window.height": strconv.Itoa(sh + 400)} {
		if err := p.SetSetting(key, v); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()

	cmd := exec.Command(os.Args[0], "--db", db)
	cmd.Env = append(os.Environ(), "HOSTPLAN_AS_MAIN=1", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "LANGUAGE=en")
	// The program's error output goes to a file (an os.File is written by
	// the child itself, not copied by a goroutine the test would race).
	errPath := filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd.Stderr = errFile
	stderr := func() string { b, _ := os.ReadFile(errPath); return string(b) }
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	// Under the race detector, with every other package's tests on the
	// same two cores, the first frame has taken more than 20 s; the wait
	// ends early only when the program does.
	const wait = 3 * time.Minute
	var win string
	deadline := time.Now().Add(wait)
	for win == "" {
		if time.Now().After(deadline) {
			t.Fatalf("no hostplan window after %v; its error output:\n%s", wait, stderr())
		}
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("hostplan ended before it showed a window (%v); its error output:\n%s", err, stderr())
		case <-time.After(200 * time.Millisecond):
		}
		out, _ := exec.Command("xdotool", "search", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid)).Output()
		if f := strings.Fields(string(out)); len(f) > 0 {
			win = f[0]
		}
	}
	time.Sleep(time.Second) // the fitting follows the first frame
	geo := xdotool(t, "getwindowgeometry", "--shell", win)
	val := map[string]int{}
	for _, kv := range geo {
		k, v, _ := strings.Cut(kv, "=")
		val[k], _ = strconv.Atoi(v)
	}
	if val["WIDTH"] > sw || val["HEIGHT"] > sh || val["X"] < 0 || val["Y"] < 0 || val["X"]+val["WIDTH"] > sw || val["Y"]+val["HEIGHT"] > sh {
		t.Errorf("on a %d × %d screen the window is %d × %d at %d, %d", sw, sh, val["WIDTH"], val["HEIGHT"], val["X"], val["Y"])
	}
}

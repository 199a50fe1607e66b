package store

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"hostplan/internal/scenario"
)

// Tests that need a second process re-run this test binary as a child: with
// childEnv set, TestMain runs the child's part instead of the tests.
const (
	childEnv      = "HOSTPLAN_STORE_TEST_CHILD" // save-loop, hold or hold-ro
	childDBEnv    = "HOSTPLAN_STORE_TEST_DB"
	childStartEnv = "HOSTPLAN_STORE_TEST_START" // save-loop: the first iteration number
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		if err := child(mode, os.Getenv(childDBEnv)); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(3)
		}
		os.Exit(0)
	}
	code := m.Run()
	removeBenchFixture()
	os.Exit(code)
}

func child(mode, path string) error {
	switch mode {
	case "save-loop":
		start, err := strconv.Atoi(os.Getenv(childStartEnv))
		if err != nil {
			return err
		}
		return saveLoop(path, start)
	case "hold", "hold-ro":
		s, err := Open(path, &Options{ReadOnly: mode == "hold-ro"})
		if err != nil {
			return err
		}
		fmt.Println("open")
		_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes our stdin
		return s.Close()
	}
	return fmt.Errorf("unknown child mode %q", mode)
}

// crashIDs are the scenarios the save loop writes in turn.
var crashIDs = []string{"crash-a", "crash-b", "crash-c"}

// crashScenario is iteration i of the save loop: its description names i, and
// every fifth iteration carries a long description that spills to overflow
// pages, so commits both add and free pages.
func crashScenario(i int) *scenario.Scenario {
	sc := baseScenario(crashIDs[i%len(crashIDs)], "Crash test")
	sc.Description = fmt.Sprintf("iteration %d", i)
	if i%5 == 0 {
		sc.Description += strings.Repeat(" padding", 2000)
	}
	return sc
}

// saveLoop saves crashScenario(start), crashScenario(start+1), … until it is
// killed, printing "ID REV I" on stdout after each Save returns: a printed
// line is a revision the store has committed. Every seventh iteration also
// writes the scenario's checklist state.
func saveLoop(path string, start int) error {
	s, err := Open(path, &Options{Timeout: 10 * time.Second})
	if err != nil {
		return err
	}
	for i := start; ; i++ {
		sc := crashScenario(i)
		rev, err := s.Save(sc, scenario.RevisionMeta{Author: "crash", Note: strconv.Itoa(i)})
		if err != nil {
			return err
		}
		if i%7 == 0 {
			if err := s.PutChecklist(sc.ID, []byte(fmt.Sprintf(`{"iteration": %d}`, i))); err != nil {
				return err
			}
		}
		// One short write per line: a pipe write below PIPE_BUF is atomic.
		if _, err := fmt.Fprintf(os.Stdout, "%s %d %d\n", sc.ID, rev.Number, i); err != nil {
			return err
		}
	}
}

func startChild(t *testing.T, mode, path string, extraEnv ...string) (*exec.Cmd, io.WriteCloser, *bufio.Reader, *bytes.Buffer) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childDBEnv+"="+path)
	cmd.Env = append(cmd.Env, extraEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil { // still running after a failed test
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, stdin, bufio.NewReader(stdout), &stderr
}

// committedRev is one line of the save loop's output.
type committedRev struct {
	id     string
	number int
	i      int
}

// A child process killed with SIGKILL in the middle of a save loop leaves
// every revision it reported committed readable, the store consistent and
// each scenario's history contiguous. Five rounds on one file: each round
// starts from what the previous kill left.
func TestKilledDuringSaveLoop(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGKILL")
	}
	path := filepath.Join(t.TempDir(), "hostplan.db")
	rng := rand.New(rand.NewPCG(6, 6))
	var all []committedRev
	next := 0 // the next iteration number
	for round := range 5 {
		cmd, stdin, out, stderr := startChild(t, "save-loop", path, childStartEnv+"="+strconv.Itoa(next))
		// Kill after at least 20 commits, at a random moment: the loop spends
		// nearly all its time inside Save, so the kill lands in one.
		killAfter := 20 + rng.IntN(30)
		var got []committedRev
		killed := false
		for {
			line, err := out.ReadString('\n')
			if err != nil { // EOF: the child is gone; a fragment without '\n' was never a whole report
				break
			}
			var c committedRev
			if _, err := fmt.Sscanf(line, "%s %d %d\n", &c.id, &c.number, &c.i); err != nil {
				t.Fatalf("round %d: child printed %q: %v", round, line, err)
			}
			got = append(got, c)
			if len(got) == killAfter && !killed {
				time.Sleep(time.Duration(rng.IntN(3000)) * time.Microsecond)
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
		err := cmd.Wait()
		stdin.Close()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("round %d: child ended with %v, want killed by SIGKILL; stderr:\n%s", round, err, stderr)
		}
		if len(got) < 20 {
			t.Fatalf("round %d: child reported %d commits before the kill, want ≥ 20; stderr:\n%s", round, len(got), stderr)
		}
		t.Logf("round %d: killed after %d reported commits", round, len(got))
		all = append(all, got...)
		next = got[len(got)-1].i + 1

		verifyAfterKill(t, path, all)
		// The iteration that was in flight may or may not have committed;
		// skip past it so the next round's first save is a change.
		next++
	}
}

// verifyAfterKill opens the store the killed child left and checks it.
func verifyAfterKill(t *testing.T, path string, committed []committedRev) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("store mode %v, want 0600", fi.Mode().Perm())
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open after the kill: %v", err)
	}
	defer s.Close()
	for _, p := range s.Check() {
		t.Errorf("store after the kill: %v", p)
	}
	last := map[string]int{} // id → highest reported revision
	for _, c := range committed {
		sc, rev, err := s.GetRevision(c.id, c.number)
		if err != nil {
			t.Errorf("reported revision %s %d is not readable: %v", c.id, c.number, err)
			continue
		}
		want := crashScenario(c.i)
		if sc.Description != want.Description || rev.Note != strconv.Itoa(c.i) {
			t.Errorf("%s revision %d holds note %q, want iteration %d", c.id, c.number, rev.Note, c.i)
		}
		last[c.id] = max(last[c.id], c.number)
	}
	for id, n := range last {
		h, err := s.History(id)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range h {
			if r.Number != i+1 {
				t.Fatalf("%s history is not contiguous: position %d holds revision %d", id, i, r.Number)
			}
		}
		// At most one save can have committed without being reported.
		if len(h) < n || len(h) > n+1 {
			t.Errorf("%s has %d revisions; %d were reported", id, len(h), n)
		}
		_, cur, err := s.Get(id)
		if err != nil || cur.Number != len(h) {
			t.Errorf("%s current revision %d, %v; want %d", id, cur.Number, err, len(h))
		}
	}
}

// A second process that opens a store another process holds waits for the
// timeout and then gets "in use by another hostplan", for read-write and
// read-only opens; read-only openers share the file.
func TestSecondProcessTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s := mustOpenPath(t, path)
	mustSave(t, s, testScenario(t, "held", "Held"), scenario.RevisionMeta{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	const timeout = 300 * time.Millisecond
	for _, tc := range []struct {
		child  string
		rw, ro bool // whether a read-write / read-only open is refused
	}{
		{child: "hold", rw: true, ro: true},
		{child: "hold-ro", rw: true, ro: false},
	} {
		t.Run(tc.child, func(t *testing.T) {
			cmd, stdin, out, stderr := startChild(t, tc.child, path)
			if line, err := out.ReadString('\n'); line != "open\n" {
				t.Fatalf("child: %q %v; stderr:\n%s", line, err, stderr)
			}
			for _, ro := range []bool{false, true} {
				refused := tc.rw
				if ro {
					refused = tc.ro
				}
				start := time.Now()
				s, err := Open(path, &Options{Timeout: timeout, ReadOnly: ro})
				waited := time.Since(start)
				if !refused {
					if err != nil {
						t.Errorf("ReadOnly=%v open beside a read-only holder: %v", ro, err)
					} else {
						s.Close()
					}
					continue
				}
				if err == nil {
					s.Close()
					t.Fatalf("ReadOnly=%v: Open succeeded while another process holds the store", ro)
				}
				want := fmt.Sprintf("store %s is in use by another hostplan (close the other window or pass --db PATH)", path)
				if !errors.Is(err, ErrInUse) || err.Error() != want {
					t.Errorf("ReadOnly=%v: error %q, want %q", ro, err, want)
				}
				if waited < timeout-50*time.Millisecond || waited > timeout+5*time.Second {
					t.Errorf("ReadOnly=%v: gave up after %v, want about %v", ro, waited, timeout)
				}
			}
			stdin.Close() // the child closes the store and exits
			if err := cmd.Wait(); err != nil {
				t.Fatalf("child: %v; stderr:\n%s", err, stderr)
			}
			s := mustOpenPath(t, path)
			if _, _, err := s.Get("held"); err != nil {
				t.Error(err)
			}
			s.Close()
		})
	}
}

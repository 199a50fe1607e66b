//go:build unix

package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The file's mode is perm less the umask, for a new file and for one that
// replaces a file of another mode.
func TestWriteModeFollowsUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o022))
	for _, tc := range []struct {
		umask int
		perm  fs.FileMode
		want  fs.FileMode
	}{
		{0o022, 0o644, 0o644},
		{0o027, 0o644, 0o640},
		{0o077, 0o644, 0o600},
		{0o022, 0o600, 0o600},
		{0o000, 0o666, 0o666},
	} {
		syscall.Umask(tc.umask)
		for _, replace := range []bool{false, true} {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if replace {
				if err := os.WriteFile(path, nil, 0o400); err != nil {
					t.Fatal(err)
				}
			}
			if err := WriteFile(path, []byte("x"), tc.perm); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := fi.Mode().Perm(); got != tc.want {
				t.Errorf("umask %03o, perm %v, replacing %v: mode %v, want %v", tc.umask, tc.perm, replace, got, tc.want)
			}
		}
	}
}

// The signal tests re-run this test binary as a child that starts a write
// and blocks in the middle of it.
const (
	childEnv = "HOSTPLAN_ATOMICFILE_CHILD" // "write" or "write-handled"
	childDir = "HOSTPLAN_ATOMICFILE_DIR"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(childEnv); mode != "" {
		os.Exit(child(mode, os.Getenv(childDir)))
	}
	os.Exit(m.Run())
}

// child writes target.txt in dir: it writes part of the content, says
// "writing" on stdout and waits for its stdin to close. In "write-handled"
// mode the program listens for SIGTERM itself, as a program that shuts down
// cleanly would, and says "signalled" when it gets one.
func child(mode, dir string) int {
	if mode == "write-handled" {
		sigs := make(chan os.Signal, 2)
		signal.Notify(sigs, syscall.SIGTERM)
		go func() {
			<-sigs
			fmt.Println("signalled")
		}()
	}
	err := Write(filepath.Join(dir, "target.txt"), 0o644, func(w io.Writer) error {
		if _, err := io.WriteString(w, "part of the content"); err != nil {
			return err
		}
		fmt.Println("writing")
		_, _ = io.Copy(io.Discard, os.Stdin)
		_, err := io.WriteString(w, ", the rest")
		return err
	})
	fmt.Printf("write returned: %v\n", err)
	if !errors.Is(err, ErrInterrupted) {
		return 3
	}
	return 0
}

func startChild(t *testing.T, mode, dir string) (*exec.Cmd, io.WriteCloser, *bufio.Reader) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, childDir+"="+dir)
	cmd.Stderr = os.Stderr
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
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	})
	return cmd, stdin, bufio.NewReader(stdout)
}

// waitChild waits for the child to end, killing it after ten seconds: a
// child that neither ends by the signal nor returns is a failure, not a
// hung test.
func waitChild(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("the child did not end within 10 s of the signal")
		return nil
	}
}

func expectLine(t *testing.T, out *bufio.Reader, want string) {
	t.Helper()
	line, err := out.ReadString('\n')
	if strings.TrimSpace(line) != want {
		t.Fatalf("child said %q (%v), want %q", line, err, want)
	}
}

// tempFiles returns the package's temporary files in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".hostplan-*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// SIGINT or SIGTERM in the middle of a write removes the temporary file,
// and the process then ends by the signal as it would have without the
// package.
func TestSignalRemovesTemporaryFile(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd, stdin, out := startChild(t, "write", dir)
			defer stdin.Close()
			expectLine(t, out, "writing")
			if tmp := tempFiles(t, dir); len(tmp) != 1 {
				t.Fatalf("during the write %s holds %q, want one temporary file", dir, entries(t, dir))
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			err := waitChild(t, cmd)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Errorf("child ended with %v, want killed by %v", err, sig)
			}
			assertEntries(t, dir)
		})
	}
}

// A program that handles SIGTERM itself gets the signal and goes on; the
// write in flight is abandoned (ErrInterrupted), its temporary file removed
// and the target not created.
func TestSignalHandledByProgram(t *testing.T) {
	dir := t.TempDir()
	cmd, stdin, out := startChild(t, "write-handled", dir)
	expectLine(t, out, "writing")
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	expectLine(t, out, "signalled")
	deadline := time.Now().Add(5 * time.Second)
	for len(tempFiles(t, dir)) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	stdin.Close() // the write function returns
	line, _ := out.ReadString('\n')
	if err := waitChild(t, cmd); err != nil {
		t.Fatalf("child: %v (%q)", err, line)
	}
	if !strings.Contains(line, ErrInterrupted.Error()) {
		t.Errorf("child's write returned %q, want ErrInterrupted", line)
	}
	assertEntries(t, dir)
}

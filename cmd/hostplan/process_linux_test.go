package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"hostplan/internal/cli"
	"hostplan/internal/store"
)

// hostplan runs the test binary as hostplan itself (TestMain) with args,
// through prefix (a command such as unshare and its flags) when given.
func hostplan(prefix []string, args ...string) *exec.Cmd {
	argv := append(append(append([]string(nil), prefix...), os.Args[0]), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "HOSTPLAN_AS_MAIN=1", "LANG=C.UTF-8", "LC_ALL=C.UTF-8")
	return cmd
}

// unshareOrSkip returns the unshare command with flags, or skips the test
// when the system has no unshare or does not let this user make the
// namespaces (a container without user namespaces, for one).
func unshareOrSkip(t *testing.T, flags string) []string {
	t.Helper()
	path, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("no unshare(1) on this system: the test needs it to make a namespace")
	}
	if out, err := exec.Command(path, flags, "true").CombinedOutput(); err != nil {
		t.Skipf("unshare %s is not permitted here (%v: %s); the test needs a user namespace", flags, err, bytes.TrimSpace(out))
	}
	return []string{path, flags}
}

// tempFiles returns atomicfile's temporary files in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".hostplan-*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Nothing hostplan does needs the network: every command runs in a network
// namespace with no interface but a loopback that is down.
func TestNoNetwork(t *testing.T) {
	ns := unshareOrSkip(t, "-rn")
	out, err := exec.Command(ns[0], ns[1], "cat", "/proc/net/dev").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(name) != "lo" {
			t.Fatalf("the namespace has the interface %q:\n%s", name, out)
		}
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "hostplan.db")
	example, err := filepath.Abs("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	overrides := filepath.Join(dir, "prices.csv")
	if err := os.WriteFile(overrides, []byte("kind,id,field,value,as_of,source\ncloud,aws-p5-h100,on_demand,5.10,2026-10-01,quote\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trial := filepath.Join(dir, "trial.csv")
	if err := os.WriteFile(trial, []byte("gpus,throughput\n1,100\n2,190\n4,350\n8,600\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"validate", example},
		{"eval", example, "--draws", "2000"},
		{"--db", db, "list"}, // creates and seeds the store
		{"--db", db, "save", example, "--note", "offline"},
		{"--db", db, "eval", "qlora-legal-70b", "--format", "json", "--draws", "2000"},
		{"--db", db, "decide", "qlora-legal-70b"},
		{"--db", db, "brief", "qlora-legal-70b", "-o", filepath.Join(dir, "brief.md")},
		{"--db", db, "export", "qlora-legal-70b", "-o", filepath.Join(dir, "plan.xlsx"), "--draws", "2000"},
		{"--db", db, "catalog", "import", overrides},
		{"--db", db, "catalog", "export", "-o", filepath.Join(dir, "catalog.csv")},
		{"--db", db, "export-scenarios", filepath.Join(dir, "scenarios")},
		{"--db", db, "history", "qlora-legal-70b"},
		{"--db", db, "store", "check"},
		{"--db", db, "store", "backup", filepath.Join(dir, "backup.db")},
		{"fit", trial},
		{"estimate", "train", "--params", "7B", "--tokens", "100B", "--gpu", "h100-sxm", "--gpus", "8", "--mfu", "0.4"},
	} {
		cmd := hostplan(ns, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Errorf("hostplan %s without a network: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
	}
	for _, f := range []string{"brief.md", "plan.xlsx", "catalog.csv", "backup.db", "scenarios/qlora-legal-70b.json"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
}

// SIGINT or SIGTERM in the middle of hostplan store backup leaves no
// temporary file and no backup: the process ends by the signal, and the
// store is as it was.
func TestBackupSignalLeavesNoTemporaryFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "hostplan.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A store of some 64 MB (a large setting), so that the copy takes a
	// while to write and sync.
	if err := st.PutSetting("ballast", strings.Repeat("0123456789abcdef", 4<<20)); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			dst := filepath.Join(dir, "backup.db")
			cmd := hostplan(nil, "--db", db, "store", "backup", dst)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			deadline := time.Now().Add(20 * time.Second)
			for len(tempFiles(t, dir)) == 0 {
				select {
				case err := <-exited:
					t.Fatalf("the backup ended (%v) before its temporary file was seen:\n%s", err, stderr.Bytes())
				default:
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("no temporary file within 20 s")
				}
				time.Sleep(time.Millisecond)
			}
			// Stop the process where it is, as soon as its temporary file is
			// there (the copy takes some tens of milliseconds), signal it
			// and let it go on: it gets the signal in the middle of the
			// write, or, the first time, between creating the file and
			// registering it, which once left the file behind.
			for _, s := range []syscall.Signal{syscall.SIGSTOP, sig, syscall.SIGCONT} {
				if err := cmd.Process.Signal(s); err != nil {
					t.Fatal(err)
				}
				if s == syscall.SIGSTOP {
					if _, err := os.Stat(dst); err == nil {
						t.Fatal("the backup was complete before the process could be stopped: the store is too small for this test")
					}
				}
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("hostplan did not end within 20 s of the signal")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != sig {
				t.Fatalf("hostplan ended with %v, want killed by %v (the copy finished first?):\n%s", err, sig, stderr.Bytes())
			}
			if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
				t.Errorf("after %v the backup's directory holds %v (%v)", sig, left, err)
			}
		})
	}
	ro, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if problems := ro.Check(); problems != nil {
		t.Errorf("the store after the interrupted backups: %v", problems)
	}
}

// On a full disk (a small tmpfs, in a mount namespace) saving, exporting
// and backing up fail with a message naming the file and the cause, and
// leave the files that were there as they were, the store included.
func TestFullDisk(t *testing.T) {
	ns := unshareOrSkip(t, "-rm")
	dir := t.TempDir()
	cmd := exec.Command(ns[0], ns[1], os.Args[0], "-test.run=^TestFullDiskChild$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), fullDiskEnv+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("--- PASS: TestFullDiskChild")) {
		t.Fatalf("in a mount namespace with a full tmpfs: %v\n%s", err, out)
	}
	if testing.Verbose() {
		t.Logf("%s", out)
	}
}

const fullDiskEnv = "HOSTPLAN_FULL_DISK_DIR"

// TestFullDiskChild is TestFullDisk inside its mount namespace: it mounts
// a 1 MiB tmpfs on the directory it is given and fills it.
func TestFullDiskChild(t *testing.T) {
	dir := os.Getenv(fullDiskEnv)
	if dir == "" {
		t.Skip("run by TestFullDisk inside a mount namespace")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m,mode=0700"); err != nil {
		t.Fatalf("mount a tmpfs on %s: %v", dir, err)
	}
	defer syscall.Unmount(dir, 0)
	db := filepath.Join(dir, "hostplan.db")
	run := func(args ...string) (int, string) {
		var out, errb bytes.Buffer
		code := cli.Run(append([]string{"--db", db}, args...), &out, &errb)
		return code, errb.String()
	}
	must := func(args ...string) {
		t.Helper()
		if code, errs := run(args...); code != cli.ExitOK {
			t.Fatalf("%v on the empty tmpfs: exit %d %s", args, code, errs)
		}
	}
	plan, brief, cat := filepath.Join(dir, "plan.xlsx"), filepath.Join(dir, "brief.md"), filepath.Join(dir, "catalog.csv")
	must("list")
	must("export", "qlora-legal-70b", "-o", plan, "--draws", "500")
	must("brief", "qlora-legal-70b", "-o", brief)
	must("catalog", "export", "-o", cat)
	example, err := os.ReadFile("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	// A revision too large for what will be left of the disk: the
	// description at its length limit (20,000 characters).
	bigger := filepath.Join(dir, "bigger.json")
	edited := bytes.Replace(example, []byte(`"description": "`), []byte(`"description": "`+strings.Repeat("long text ", 1_900)), 1)
	if bytes.Equal(edited, example) {
		t.Fatal("the example has no description to lengthen")
	}
	if err := os.WriteFile(bigger, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	// The files keep their bytes; the store (whose failed commit may have
	// written to pages no revision uses) keeps its content.
	before := map[string][]byte{}
	for _, f := range []string{plan, brief, cat} {
		if before[f], err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	content := func() string {
		var out bytes.Buffer
		for _, args := range [][]string{{"list"}, {"history", "qlora-legal-70b"}, {"show", "qlora-legal-70b"}, {"store", "check"}} {
			var o, e bytes.Buffer
			code := cli.Run(append([]string{"--db", db}, args...), &o, &e)
			fmt.Fprintf(&out, "%v: exit %d\n%s%s", args, code, o.Bytes(), e.Bytes())
		}
		return out.String()
	}
	stored := content()

	// Fill the disk.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{'x'}, 4096)
	for {
		if _, err := filler.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	filler.Close()

	for _, c := range []struct {
		args []string
		file string // the file the message names
	}{
		// The files exist (written above): --force replaces them, and a
		// full disk leaves each with its old content.
		{[]string{"export", "qlora-legal-70b", "-o", plan, "--draws", "500", "--force"}, plan},
		{[]string{"brief", "qlora-legal-70b", "-o", brief, "--force"}, brief},
		{[]string{"catalog", "export", "-o", cat, "--force"}, cat},
		{[]string{"store", "backup", filepath.Join(dir, "backup.db")}, filepath.Join(dir, "backup.db")},
		{[]string{"save", bigger}, db},
	} {
		code, errs := run(c.args...)
		t.Logf("%v: exit %d: %s", c.args, code, strings.TrimSpace(errs))
		if code != cli.ExitFail || !strings.Contains(errs, c.file) || !strings.Contains(errs, "no space left on device") ||
			strings.Count(strings.TrimSpace(errs), "\n") > 0 || strings.Contains(errs, ".hostplan-") {
			t.Errorf("%v on a full disk: exit %d, %q; want exit 1 and one line naming %s (not a temporary file) and the full disk", c.args, code, errs, c.file)
		}
	}
	for f, b := range before {
		if got, err := os.ReadFile(f); err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s changed on the full disk (%v)", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "backup.db")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed backup left a file: %v", err)
	}
	if tmp := tempFiles(t, dir); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	if now := content(); now != stored {
		t.Errorf("the store changed:\n%s\nwas\n%s", now, stored)
	}
	// Space again: everything works.
	if err := os.Remove(filepath.Join(dir, "filler")); err != nil {
		t.Fatal(err)
	}
	must("save", bigger)
	must("store", "check")
}

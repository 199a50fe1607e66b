package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// withCommand registers c for the length of the test.
func withCommand(t *testing.T, c command) {
	t.Helper()
	saved := commands
	commands = append(append([]command(nil), commands...), c)
	t.Cleanup(func() { commands = saved })
}

// A panic in a command is an internal error: exit 1 and one line that
// says so, no Go stack trace unless HOSTPLAN_TRACEBACK asks for one.
func TestPanicBecomesInternalError(t *testing.T) {
	withCommand(t, command{"explode", "", "", func(e *env, args []string) error {
		panic("index 3 out of range [3] with length 3") // what a bug looks like
	}})
	t.Setenv(TracebackEnv, "")
	code, out, errs := run(t, tempDB(t), "explode")
	want := "hostplan: internal error in explode: index 3 out of range [3] with length 3 (please report it; HOSTPLAN_TRACEBACK=1 prints the details)\n"
	if code != ExitFail || out != "" || errs != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want 1 and %q", code, out, errs, want)
	}
	t.Setenv(TracebackEnv, "1")
	_, _, errs = run(t, tempDB(t), "explode")
	if !strings.HasPrefix(errs, want) || !strings.Contains(errs, "goroutine ") || !strings.Contains(errs, "boundary_test.go") {
		t.Errorf("with %s=1 the stack should follow:\n%s", TracebackEnv, errs)
	}
}

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A file over the limit is refused before it is read: a 50 MB scenario,
// overrides CSV or trial CSV costs far less than its size to refuse, and
// the refusal names the file and the limit.
func TestLargeFilesRefusedBeforeReading(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(50 << 20); err != nil { // sparse: 50 MB of zeros
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", big}, big + ": (file): is 52,428,800 bytes, too large to read (allowed: a scenario file of at most 1,048,576 bytes (1 MiB))"},
		{[]string{"eval", big}, big + ": (file): is 52,428,800 bytes, too large to read"},
		{[]string{"import", big}, big + ": (file): is 52,428,800 bytes, too large to read"},
		{[]string{"save", big}, big + ": (file): is 52,428,800 bytes, too large to read"},
		{[]string{"catalog", "import", big}, big + ": (file): is 52,428,800 bytes, too large to read (allowed: an overrides CSV of at most 4,194,304 bytes (4 MiB))"},
		{[]string{"fit", big}, big + ": (file): is 52,428,800 bytes, too large to read (allowed: a trial CSV of at most 1,048,576 bytes (1 MiB))"},
	} {
		var code int
		var errs string
		n := allocated(func() { code, _, errs = run(t, tempDB(t), tc.args...) })
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args[0], code, errs, tc.want)
		}
		if n > 16<<20 {
			t.Errorf("%v: refusing a 50 MB file allocated %d MB", tc.args[0], n>>20)
		}
	}
}

// What is not a regular file (a pipe) is read through a limit: at most
// the limit and a byte, then refused.
func TestLargeStreamRefusedWithBoundedMemory(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "scenario.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		chunk := make([]byte, 1<<20)
		for i := 0; i < 50; i++ {
			if _, err := w.Write(chunk); err != nil {
				return // the reader stopped: EPIPE
			}
		}
	}()
	var code int
	var errs string
	n := allocated(func() { code, _, errs = run(t, tempDB(t), "validate", fifo) })
	<-done
	want := fifo + ": (file): is over 1,048,576 bytes, too large to read (allowed: a scenario file of at most 1,048,576 bytes (1 MiB))"
	if code != ExitUsage || !strings.Contains(errs, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, want)
	}
	if n > 16<<20 {
		t.Errorf("refusing a 50 MB stream allocated %d MB", n>>20)
	}
}

// estimate and fit use the scenario's ranges: a parameter count of 1e308
// is refused naming the flag and the range, not printed as +Inf FLOPs.
func TestEstimateAndFitUseTheBounds(t *testing.T) {
	db := tempDB(t)
	train := func(extra ...string) []string {
		args := map[string]string{"--params": "7B", "--tokens": "1T", "--gpu": "h100-sxm", "--gpus": "8", "--mfu": "0.4"}
		for i := 0; i+1 < len(extra); i += 2 {
			args[extra[i]] = extra[i+1]
		}
		out := []string{"estimate", "train"}
		for _, k := range []string{"--params", "--tokens", "--gpu", "--gpus", "--mfu"} {
			if v := args[k]; v != "" {
				out = append(out, k, v)
			}
		}
		if v, ok := args["--tflops"]; ok {
			out = append(out[:len(out)-2], "--tflops", v)
		}
		return out
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{train("--params", "1e308"), `estimate train: --params "1e308" is out of range (allowed: a number > 0 and ≤ 100T, optionally with K, M, B or T, e.g. 70B)`},
		{train("--params", "200T"), `--params "200T" is out of range`},
		{train("--tokens", "1e300"), `estimate train: --tokens "1e300" is out of range (allowed: a number > 0 and ≤ 10,000T`},
		{train("--gpus", "2000000"), "--gpus 2000000 is out of range (allowed: a whole number from 1 to 1,000,000)"},
		{train("--mfu", "1e-300"), "--mfu 1e-300 is out of range (allowed: a number ≥ 0.001 and ≤ 1)"},
		{train("--tflops", "1e-300"), "--tflops 1e-300 is out of range (allowed: a number ≥ 1 and ≤ 1,000,000)"},
		{[]string{"estimate", "serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "1e300"},
			"--latency-ms 1e300 is out of range (allowed: a number > 0 and ≤ 3,600,000)"},
		{[]string{"estimate", "serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "1e9", "--latency-ms", "50"},
			"--context 1e9 is out of range (allowed: a whole number from 1 to 10,000,000)"},
	} {
		code, out, errs := run(t, db, tc.args...)
		if code != ExitUsage || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out, errs, tc.want)
		}
	}
	// The largest values allowed give finite figures.
	code, out, errs := run(t, db, train("--params", "100T", "--tokens", "10000T", "--gpus", "1", "--mfu", "0.001")...)
	if code != ExitOK || strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
		t.Errorf("at the limits: exit %d\n%s%s", code, out, errs)
	}
}

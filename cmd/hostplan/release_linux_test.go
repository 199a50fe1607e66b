package main

import (
	"bytes"
	"context"
	"debug/pe"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/testtool"
)

// The release, as a user gets it: make windows's executable run under Wine
// against this build, and make install's menu entry. Both run the
// Makefile's own targets, so what they check is what make builds.

// repoRoot is the repository's top directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// runMake runs make with args in the repository and returns its output;
// the test fails with that output when make does.
func runMake(t *testing.T, args ...string) string {
	t.Helper()
	testtool.Need(t, "make", "make release-check")
	start := time.Now()
	cmd := exec.Command("make", append([]string{"-s", "--no-print-directory"}, args...)...)
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	t.Logf("make %s: %.0f s", strings.Join(args, " "), time.Since(start).Seconds())
	return string(out)
}

// stamp is what make stamps a build with: FyneApp.toml's version and
// build number, and git's commit and whether the tree has changes.
type stamp struct {
	version, build, commit string
	modified               bool
}

func currentStamp(t *testing.T) stamp {
	t.Helper()
	root := repoRoot(t)
	toml, err := os.ReadFile(filepath.Join(root, "FyneApp.toml"))
	if err != nil {
		t.Fatal(err)
	}
	var s stamp
	for _, line := range strings.Split(string(toml), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "Version":
			s.version = strings.Trim(strings.TrimSpace(v), `"`)
		case "Build":
			s.build = strings.TrimSpace(v)
		}
	}
	if s.version == "" || s.build == "" {
		t.Fatalf("FyneApp.toml has no Version or Build:\n%s", toml)
	}
	if out, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output(); err == nil {
		s.commit = strings.TrimSpace(string(out))
		st, _ := exec.Command("git", "-C", root, "status", "--porcelain").Output()
		s.modified = len(bytes.TrimSpace(st)) > 0
	}
	return s
}

// checkVersion checks "hostplan version" of a build made by make for
// goos/goarch.
func checkVersion(t *testing.T, out string, s stamp, platform string) {
	t.Helper()
	commit := "unknown"
	if s.commit != "" {
		commit = s.commit
		if s.modified {
			commit += " (with uncommitted changes)"
		}
	}
	for _, want := range []string{
		"hostplan " + s.version + "\n",
		"\ncommit:          " + commit + "\n",
		"\ngo:              " + runtime.Version() + " " + platform + "\n",
		"\nmodel:           " + model.Version + "\n",
		"\nscenario schema: " + strconv.Itoa(scenario.SchemaVersion) + "\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	built := out[strings.Index(out, "built:")+len("built:"):]
	built = strings.TrimSpace(built[:strings.Index(built, "\n")])
	if _, err := time.Parse(time.RFC3339, built); err != nil {
		t.Errorf("build date %q: %v", built, err)
	}
}

// wineEnv runs Windows executables under Wine in a prefix of its own,
// without a display and with a home directory of its own, so Wine writes
// no menu entries or file associations into the user's.
type wineEnv struct {
	wine, prefix string
	env          []string
}

func newWine(t *testing.T) *wineEnv {
	t.Helper()
	wine := testtool.Need(t, "wine", "make release-check")
	dir := t.TempDir()
	w := &wineEnv{wine: wine, prefix: filepath.Join(dir, "prefix")}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k == "DISPLAY" || k == "WAYLAND_DISPLAY" || k == "HOME" || strings.HasPrefix(k, "WINE") {
			continue
		}
		w.env = append(w.env, kv)
	}
	w.env = append(w.env, "HOME="+filepath.Join(dir, "home"), "WINEPREFIX="+w.prefix, "WINEARCH=win64", "WINEDEBUG=-all",
		// No Mono or Gecko installer on first start, no menu builder.
		"WINEDLLOVERRIDES=mscoree,mshtml=;winemenubuilder.exe=d")
	t.Cleanup(func() {
		// The Wine server outlives the last program by a few seconds.
		cmd := exec.Command("wineserver", "-k")
		cmd.Env = w.env
		_ = cmd.Run()
	})
	start := time.Now()
	if code, out, errs := w.run(t, "wineboot", "--init"); code != 0 {
		t.Fatalf("wineboot --init: exit %d\n%s%s", code, out, errs)
	}
	t.Logf("Wine prefix made: %.0f s", time.Since(start).Seconds())
	w.addProcessPrng(t)
	return w
}

// addProcessPrng gives a Wine without bcryptprimitives.dll (Wine 8, as in
// Debian 12) a stand-in that Go's Windows runtime can load at start-up
// (testdata/wine/bcryptprimitives.c), built with MinGW-w64 into the
// prefix's system32, where the runtime looks for it. Windows 10 and later
// have the DLL.
func (w *wineEnv) addProcessPrng(t *testing.T) {
	t.Helper()
	dll := filepath.Join(w.prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")
	if _, err := os.Stat(dll); err == nil {
		return
	}
	src, err := filepath.Abs("testdata/wine/bcryptprimitives.c")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-s", "-o", dll, src, "-ladvapi32").CombinedOutput()
	if err != nil {
		t.Fatalf("building the bcryptprimitives.dll stand-in: %v\n%s", err, out)
	}
	t.Log("this Wine has no bcryptprimitives.dll: using the stand-in from testdata/wine")
}

// run runs exe (a path, or a program of Wine's) with args under Wine.
func (w *wineEnv) run(t *testing.T, exe string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.wine, append([]string{exe}, args...)...)
	cmd.Env = w.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("wine %s %v: timed out", filepath.Base(exe), args)
	}
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("wine %s %v: %v", filepath.Base(exe), args, err)
	}
	return code, out.String(), errb.String()
}

// winPath is a Linux path as Wine's drive Z: shows it to a Windows program.
func winPath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// linux runs this build (the test binary standing in for hostplan) and
// fails the test unless it succeeds.
func linux(t *testing.T, args ...string) string {
	t.Helper()
	cmd := hostplan(nil, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("hostplan %v: %v\n%s", args, err, errb.String())
	}
	return out.String()
}

// make windows cross-builds a console executable with its icon and version
// resource; under Wine it prints its version with the commit, keeps its
// store in the Windows user's AppData, reads and writes paths with spaces
// and accents, and evaluates and exports every example to the same
// figures as this Linux build (within 1e-12 relative).
func TestWindowsExecutableUnderWine(t *testing.T) {
	testtool.Need(t, "x86_64-w64-mingw32-gcc", "make release-check")
	w := newWine(t)
	st := currentStamp(t)
	dist := t.TempDir()
	runMake(t, "windows", "DIST="+dist)
	exe := filepath.Join(dist, "hostplan.exe")
	checkPE(t, exe, st.version+"."+st.build)

	code, out, errs := w.run(t, exe, "version")
	if code != 0 {
		t.Fatalf("version: exit %d\n%s%s", code, out, errs)
	}
	checkVersion(t, out, st, "windows/amd64")

	// The default store: the Windows user's configuration directory
	// (%AppData%), seeded with the examples.
	code, out, errs = w.run(t, exe, "list")
	if code != 0 || !strings.Contains(out, "qlora-legal-70b") {
		t.Fatalf("list on the default store: exit %d\n%s%s", code, out, errs)
	}
	if m, _ := filepath.Glob(filepath.Join(w.prefix, "drive_c", "users", "*", "AppData", "Roaming", "hostplan", "hostplan.db")); len(m) != 1 {
		t.Errorf("no store in the user's AppData\\Roaming\\hostplan: %v", m)
	}

	// A store and scenario files under names with spaces and accents.
	storeDir := filepath.Join(w.prefix, "drive_c", "Données de test")
	if err := os.MkdirAll(storeDir, 0o755); err != nil {
		t.Fatal(err)
	}
	winDB := `C:\Données de test\s.db`
	files := copyExamples(t, filepath.Join(t.TempDir(), "Exemples à tester – été"))
	winFiles := make([]string, len(files))
	for i, f := range files {
		winFiles[i] = winPath(f)
	}
	start := time.Now()
	code, out, errs = w.run(t, exe, append([]string{"--db", winDB, "validate"}, winFiles...)...)
	if code != 0 || strings.Count(out, ": valid\n") != len(files) {
		t.Fatalf("validate: exit %d\n%s%s", code, out, errs)
	}

	linuxDB := filepath.Join(t.TempDir(), "linux.db")
	outDir := filepath.Join(t.TempDir(), "Classeurs à vérifier")
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(id, func(t *testing.T) {
			// The file, and the same scenario as seeded into each store.
			for _, src := range [][2]string{{f, winFiles[i]}, {id, id}} {
				want := linux(t, "--db", linuxDB, "eval", src[0], "--format", "json")
				code, got, errs := w.run(t, exe, "--db", winDB, "eval", src[1], "--format", "json")
				if code != 0 {
					t.Fatalf("eval %s: exit %d\n%s", src[1], code, errs)
				}
				sameJSON(t, "eval "+src[1], want, got)
			}
			linuxXLSX := filepath.Join(outDir, id+"-linux.xlsx")
			linux(t, "--db", linuxDB, "export", f, "-o", linuxXLSX)
			winXLSX := filepath.Join(outDir, "Coût – "+id+".xlsx")
			code, out, errs := w.run(t, exe, "--db", winDB, "export", winFiles[i], "-o", winPath(winXLSX))
			if code != 0 {
				t.Fatalf("export: exit %d\n%s%s", code, out, errs)
			}
			sameWorkbook(t, linuxXLSX, winXLSX)
		})
	}
	t.Logf("validate, eval (file and stored) and export of %d examples under Wine, with the Linux runs: %.0f s", len(files), time.Since(start).Seconds())
	if _, err := os.Stat(filepath.Join(storeDir, "s.db")); err != nil {
		t.Errorf("the store under %s: %v", winDB, err)
	}
}

// copyExamples copies the example scenarios into dir.
func copyExamples(t *testing.T, dir string) []string {
	t.Helper()
	src, _ := filepath.Glob("../../scenarios/*.json")
	if len(src) < 5 {
		t.Fatalf("found %d examples", len(src))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range src {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, dst)
	}
	return out
}

// checkPE checks the executable is a 64-bit console program (its output
// shows in cmd.exe) with a resource section holding its file version.
func checkPE(t *testing.T, exe, fileVersion string) {
	t.Helper()
	f, err := pe.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Errorf("machine %#x, want amd64", f.Machine)
	}
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
		t.Errorf("optional header %T, want a console (CUI) program", f.OptionalHeader)
	}
	rsrc := f.Section(".rsrc")
	if rsrc == nil {
		t.Fatal("no resource section: no icon or version information")
	}
	data, err := rsrc.Data()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, utf16le(fileVersion)) || !bytes.Contains(data, utf16le("hostplan.exe")) {
		t.Errorf("the resource section lacks the file version %s or the original file name", fileVersion)
	}
}

func utf16le(s string) []byte {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return b
}

// sameJSON compares two JSON documents: the same structure, strings and
// booleans, and numbers equal within 1e-12 relative.
func sameJSON(t *testing.T, what, want, got string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(want), &a); err != nil {
		t.Fatalf("%s (Linux): %v", what, err)
	}
	if err := json.Unmarshal([]byte(got), &b); err != nil {
		t.Fatalf("%s (Windows): %v\n%.400s", what, err, got)
	}
	var diffs []string
	walkJSON("", a, b, &diffs)
	if len(diffs) > 0 {
		t.Errorf("%s: %d differences between Linux and Windows, the first:\n%s", what, len(diffs), strings.Join(diffs[:min(len(diffs), 15)], "\n"))
	}
}

func walkJSON(path string, a, b any, diffs *[]string) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*diffs = append(*diffs, fmt.Sprintf("%s: object, Windows has %T", path, b))
			return
		}
		keys := map[string]bool{}
		for k := range x {
			keys[k] = true
		}
		for k := range y {
			keys[k] = true
		}
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range keys {
				if !yield(k) {
					return
				}
			}
		}) {
			walkJSON(path+"."+k, x[k], y[k], diffs)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %d items, Windows has %v", path, len(x), describe(b)))
			return
		}
		for i := range x {
			walkJSON(path+"["+strconv.Itoa(i)+"]", x[i], y[i], diffs)
		}
	case float64:
		y, ok := b.(float64)
		if !ok || !closeTo(x, y) {
			*diffs = append(*diffs, fmt.Sprintf("%s: Linux %v, Windows %v", path, x, b))
		}
	default:
		if a != b {
			*diffs = append(*diffs, fmt.Sprintf("%s: Linux %v, Windows %v", path, a, b))
		}
	}
}

func describe(v any) string {
	if l, ok := v.([]any); ok {
		return strconv.Itoa(len(l)) + " items"
	}
	return fmt.Sprintf("%T", v)
}

// closeTo reports x and y equal within 1e-12 relative.
func closeTo(x, y float64) bool {
	return x == y || math.Abs(x-y) <= 1e-12*math.Max(math.Abs(x), math.Abs(y))
}

// sameWorkbook opens both workbooks and compares every sheet cell by cell
// (formulas and values; numbers within 1e-12 relative), but for what
// names the build, the machine or the moment: the Brief sheet's lineage
// line, and the Lineage sheet (the file's path as each system writes it,
// who exported it and when), whose rows are only counted.
func sameWorkbook(t *testing.T, linuxPath, winPath string) {
	t.Helper()
	lx, err := excelize.OpenFile(linuxPath)
	if err != nil {
		t.Fatal(err)
	}
	defer lx.Close()
	wx, err := excelize.OpenFile(winPath)
	if err != nil {
		t.Fatalf("the Windows workbook does not open: %v", err)
	}
	defer wx.Close()
	if ls, ws := lx.GetSheetList(), wx.GetSheetList(); !slices.Equal(ls, ws) {
		t.Fatalf("sheets: Linux %v, Windows %v", ls, ws)
	}
	var diffs []string
	for _, sheet := range lx.GetSheetList() {
		lr, err := lx.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		wr, err := wx.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(lr) != len(wr) {
			diffs = append(diffs, fmt.Sprintf("%s: %d rows, Windows %d", sheet, len(lr), len(wr)))
			continue
		}
		if sheet == "Lineage" {
			continue
		}
		for r := range lr {
			for c := range max(len(lr[r]), len(wr[r])) {
				lv, wv := cell(lr[r], c), cell(wr[r], c)
				if lv == wv || sameLineage(lv, wv) {
					continue
				}
				lf, lerr := strconv.ParseFloat(lv, 64)
				wf, werr := strconv.ParseFloat(wv, 64)
				if lerr == nil && werr == nil && closeTo(lf, wf) {
					continue
				}
				name, _ := excelize.CoordinatesToCellName(c+1, r+1)
				diffs = append(diffs, fmt.Sprintf("%s!%s: Linux %q, Windows %q", sheet, name, lv, wv))
			}
		}
	}
	if len(diffs) > 0 {
		t.Errorf("the workbooks differ in %d cells, the first:\n%s", len(diffs), strings.Join(diffs[:min(len(diffs), 15)], "\n"))
	}
}

// sameLineage reports two lineage lines of the brief that differ only in
// the build that wrote them.
func sameLineage(a, b string) bool {
	const head, tail = "Written by hostplan ", "; model "
	i, j := strings.Index(a, tail), strings.Index(b, tail)
	return strings.HasPrefix(a, head) && strings.HasPrefix(b, head) && i > 0 && j > 0 && a[i:] == b[j:]
}

func cell(row []string, c int) string {
	if c < len(row) {
		return row[c]
	}
	return ""
}

// The comparison of the two builds' JSON finds a number off by more than
// 1e-12 relative, a changed string and a missing field, and lets a
// difference in the last bits through.
func TestSameJSONTolerance(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		diffs int
	}{
		{`{"x": 1.0, "y": [1, "a"]}`, `{"x": 1.0000000000000002, "y": [1, "a"]}`, 0},
		{`{"x": 123456.789}`, `{"x": 123456.7890000002}`, 0},
		{`{"x": -1.0}`, `{"x": -1.0000000000005}`, 0},
		{`{"x": 1.0}`, `{"x": 1.000000000002}`, 1},
		{`{"x": 0}`, `{"x": 1e-300}`, 1},
		{`{"y": ["a", true]}`, `{"y": ["b", true]}`, 1},
		{`{"x": 1, "y": 2}`, `{"x": 1}`, 1},
		{`{"y": [1, 2]}`, `{"y": [1]}`, 1},
	} {
		var a, b any
		if err := json.Unmarshal([]byte(c.a), &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(c.b), &b); err != nil {
			t.Fatal(err)
		}
		var diffs []string
		walkJSON("", a, b, &diffs)
		if len(diffs) != c.diffs {
			t.Errorf("%s against %s: %d differences %q, want %d", c.a, c.b, len(diffs), diffs, c.diffs)
		}
	}
}

package cli

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata/bad from what the commands print")

// The corpus of bad inputs in testdata/bad: each file has a sibling .want
// holding the exit code ("exit 2") and then, exactly, every line of
// standard error that names the file (FILE standing for its path). A
// scenario file must give the same exit code and the same lines from
// validate, eval and import; an overrides CSV from catalog import; a trial
// CSV from fit. Every line of standard error names the file or starts with
// "hostplan: ", none is part of a Go stack trace, and nothing is written
// to the store. go test ./internal/cli -run TestBadInputs -update rewrites
// the .want files; review the diff.
func TestBadInputs(t *testing.T) {
	type cmd struct {
		name string
		args func(file string) []string
	}
	sets := []struct {
		dir, ext string
		cmds     []cmd
	}{
		{"testdata/bad/scenario", ".json", []cmd{
			{"validate", func(f string) []string { return []string{"validate", f} }},
			{"eval", func(f string) []string { return []string{"eval", f} }},
			{"import", func(f string) []string { return []string{"import", f} }},
		}},
		{"testdata/bad/catalog", ".csv", []cmd{
			{"catalog import", func(f string) []string { return []string{"catalog", "import", f} }},
		}},
		{"testdata/bad/trial", ".csv", []cmd{
			{"fit", func(f string) []string { return []string{"fit", f} }},
		}},
	}
	total := 0
	for _, set := range sets {
		files, err := filepath.Glob(filepath.Join(set.dir, "*"+set.ext))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no files (%v)", set.dir, err)
		}
		for _, f := range files {
			total++
			t.Run(strings.TrimPrefix(f, "testdata/bad/"), func(t *testing.T) {
				var first string
				for _, c := range set.cmds {
					db := tempDB(t)
					code, _, stderr := run(t, db, c.args(f)...)
					got := transcript(t, c.name, f, code, stderr)
					if _, err := os.Stat(db); !os.IsNotExist(err) {
						t.Errorf("%s created or changed the store", c.name)
					}
					if first == "" {
						first = got
					} else if got != first {
						t.Errorf("%s disagrees with %s:\n%s\n--\n%s", c.name, set.cmds[0].name, got, first)
					}
				}
				want := strings.TrimSuffix(f, set.ext) + ".want"
				if *update {
					if err := os.WriteFile(want, []byte(first), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				b, err := os.ReadFile(want)
				if err != nil {
					t.Fatalf("%v (go test -run TestBadInputs -update writes it)", err)
				}
				if string(b) != first {
					t.Errorf("%s:\ngot\n%s\nwant\n%s", want, first, b)
				}
				if !strings.HasPrefix(first, "exit 2\n") || !strings.Contains(first, "\nFILE: ") {
					t.Errorf("a bad input must end with exit 2 naming the file and the field:\n%s", first)
				}
			})
		}
	}
	if total < 70 {
		t.Errorf("the corpus holds %d files", total)
	}
}

var stackLine = regexp.MustCompile(`^(goroutine \d+|panic:|\s+/.*\.go:\d+|[\w./]+\(.*\)$)`)

// transcript is the exit code and the lines of stderr that name file, with
// FILE for its path; it fails the test on any other line that does not
// start with "hostplan: ", and on anything that looks like a stack trace.
func transcript(t *testing.T, cmd, file string, code int, stderr string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("exit " + strconv.Itoa(code) + "\n")
	for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
		switch {
		case stackLine.MatchString(l):
			t.Errorf("%s printed a stack trace line: %q", cmd, l)
		case strings.HasPrefix(l, file+": "):
			b.WriteString("FILE: " + strings.TrimPrefix(l, file+": ") + "\n")
		case strings.HasPrefix(l, "hostplan: "+file+": "): // fit's form
			b.WriteString("FILE: " + strings.TrimPrefix(l, "hostplan: "+file+": ") + "\n")
		case strings.HasPrefix(l, "hostplan: "):
		default:
			t.Errorf("%s: line names neither the file nor hostplan: %q", cmd, l)
		}
	}
	return b.String()
}

// The corpus of inputs at the edge: valid, at the limits of their ranges,
// they validate, evaluate to finite figures, are decided and briefed
// without NaN or Inf, and import.
func TestEdgeInputs(t *testing.T) {
	files, _ := filepath.Glob("testdata/edge/*.json")
	if len(files) < 3 {
		t.Fatalf("found %d edge files", len(files))
	}
	for _, f := range files {
		db := tempDB(t)
		for _, args := range [][]string{{"validate", f}, {"eval", "--draws", "200", "--format", "json", f}, {"decide", f}, {"brief", f}, {"import", f}} {
			code, out, stderr := run(t, db, args...)
			if code != ExitOK {
				t.Errorf("%v: exit %d\n%s", args, code, stderr)
				continue
			}
			for _, bad := range []string{"NaN", "+Inf", "-Inf"} {
				if strings.Contains(out, bad) {
					t.Errorf("%v: the report holds %q", args, bad)
				}
			}
		}
	}
}

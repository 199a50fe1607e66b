package num

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"0", 0}, {"1200", 1200}, {"1,200", 1200}, {"1_200", 1200}, {"1 200", 1200},
		{"1\u00a0200", 1200}, {" 1,234,567.25 ", 1234567.25}, {"-1,234", -1234},
		{"+5", 5}, {".5", 0.5}, {"5.", 5}, {"0.075", 0.075}, {"2e6", 2e6},
		{"2.5E-3", 2.5e-3}, {"1e+15", 1e15}, {"1,000e3", 1e6}, {"007", 7},
		{"999,999", 999999}, {"1,000,000,000,000,000", 1e15}, {"1e-400", 0},
		{"4,611,686,018,427,387,904", 4611686018427387904},
	} {
		got, err := Parse(c.text)
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	for _, text := range []string{
		"", " ", "-", "+", ".", "e5", "1e", "1e+", "--1", "+-1", "12o", "1.2.3",
		"NaN", "nan", "inf", "-Inf", "infinity", "0x10", "0x1p4", "1_0", "1,23",
		"12,34", "1,2,3", "1,2345", ",123", "123,", "1,,234", "1,234_567",
		"1, 234", "0,500", "00,123", "1.234,5", "1,234.567,8", "1e1,000",
		"1 000,5", "1–2", "1e400", "-1e400", "70B", "1,000.5.",
	} {
		x, err := Parse(text)
		if err == nil {
			t.Errorf("Parse(%q) = %v, want an error", text, x)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, "“"+strings.TrimSpace(text)+"”") {
			t.Errorf("Parse(%q): %q does not quote the text", text, msg)
		}
		if !strings.Contains(msg, "allowed: ") {
			t.Errorf("Parse(%q): %q does not say what is allowed", text, msg)
		}
		if strings.HasSuffix(text, "e400") != strings.Contains(msg, "out of range") {
			t.Errorf("Parse(%q): %q", text, msg)
		}
	}
	_, err := Parse("1,23")
	if want := "“1,23” is not a number (allowed: " + Syntax + ")"; err.Error() != want {
		t.Errorf("Parse(1,23): %q, want %q", err, want)
	}
}

func TestParseCount(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"70B", 70e9}, {"70b", 70e9}, {"70G", 70e9}, {"1.4T", 1.4 * 1e12}, {"1,000B", 1e12},
		{"10,000T", 1e16}, {"7e10", 7e10}, {"500", 500}, {"2 K", 2000}, {"3M", 3e6},
		{" 1 000 B ", 1e12}, {"0.5k", 500},
	} {
		got, err := ParseCount(c.text)
		if err != nil || got != c.want {
			t.Errorf("ParseCount(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	for _, text := range []string{"", "B", "70BB", "70X", "1,00B", "NaNB", "infT", "1e300T", "7 0B", "0x10K"} {
		x, err := ParseCount(text)
		if err == nil {
			t.Errorf("ParseCount(%q) = %v, want an error", text, x)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, "“"+strings.TrimSpace(text)+"”") || !strings.Contains(msg, "allowed: ") {
			t.Errorf("ParseCount(%q): %q", text, msg)
		}
	}
	_, err := ParseCount("1,00B")
	if want := "“1,00B” is not a number (allowed: " + CountSyntax + ")"; err.Error() != want {
		t.Errorf("ParseCount(1,00B): %q, want %q", err, want)
	}
}

func TestGroup(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "999": "999", "1000": "1,000", "1234567.25": "1,234,567.25",
		"-1234": "-1,234", "-0.00": "0.00", "-0": "0", "-0.001": "-0.001",
		"12345.6789": "12,345.6789", "1e15": "1e15", "NaN": "NaN", "-Inf": "-Inf",
		"+Inf": "+Inf", "100000": "100,000",
	} {
		if got := Group(in); got != want {
			t.Errorf("Group(%q) = %q, want %q", in, got, want)
		}
	}
	for x, want := range map[float64]string{
		0.075: "0.075", 1000: "1,000", 250000: "250,000", -15000.5: "-15,000.5",
		1e15: "1e15", 2.5e-7: "2.5e-7", 1e-6: "0.000001", 999999999999999: "999,999,999,999,999",
	} {
		if got := Format(x); got != want {
			t.Errorf("Format(%v) = %q, want %q", x, got, want)
		}
	}
	if got := Fixed(1234.5, 2); got != "1,234.50" {
		t.Errorf("Fixed(1234.5, 2) = %q", got)
	}
	if got := Whole(-1234567.8); got != "-1,234,568" {
		t.Errorf("Whole(-1234567.8) = %q", got)
	}
}

// Every finite float64 written by Format reads back as itself, bit for
// bit, and so does every number Fixed and Whole write.
func TestRoundTrip(t *testing.T) {
	xs := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 0.075, 999, 1000, 1234.5, 1e6, 2e6, 1e15 - 1, 1e15,
		1 << 53, 1<<53 + 2, 1 << 62, 1e21, 1e22, math.MaxFloat64, -math.MaxFloat64,
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308,
		1e-6, 9.99999e-7, 1e-7, 0.1 + 0.2, 1.0 / 3, -2.0 / 3, 123456789.123456789,
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		xs = append(xs,
			math.Float64frombits(r.Uint64()),
			(r.Float64()-0.5)*math.Pow(10, float64(r.IntN(40)-10)),
			float64(r.Int64N(1<<62)-1<<61),
		)
	}
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		text := Format(x)
		got, err := Parse(text)
		if err != nil || math.Float64bits(got) != math.Float64bits(x) {
			t.Fatalf("%v (%#x) written %q reads back %v, %v", x, math.Float64bits(x), text, got, err)
		}
		if math.Abs(x) < 1e21 {
			for _, s := range []string{Whole(x), Fixed(x, 3)} {
				if _, err := Parse(s); err != nil {
					t.Fatalf("%v written %q does not read back: %v", x, s, err)
				}
			}
		}
	}
}

// groupingIdiom matches the ways code groups digits in threes by hand.
var groupingIdiom = regexp.MustCompile(`%\s*3\s*==\s*0|-=\s*3\b`)

// No other package groups thousands: every number a person reads is
// grouped by Group, so that every one reads back through Parse.
func TestNoOtherGrouping(t *testing.T) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("no go.mod at %s: %v", root, err)
	}
	self, _ := filepath.Abs(".")
	checked := 0
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "vendor" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Dir(path) == self {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if groupingIdiom.MatchString(line) {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d groups digits itself (use num.Group): %s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Fatalf("only %d Go files found under %s", checked, root)
	}
}

func TestParseUint(t *testing.T) {
	for text, want := range map[string]uint64{
		"0": 0, "42": 42, "1,024": 1024, "2e6": 2e6, "18,446,744,073,709,551,615": math.MaxUint64,
		"9007199254740993": 1<<53 + 1, "-0": 0, "+7": 7,
	} {
		if got, err := ParseUint(text); err != nil || got != want {
			t.Errorf("ParseUint(%q) = %v, %v; want %v", text, got, err, want)
		}
	}
	for _, text := range []string{"", "-1", "1.5", "18446744073709551616", "2e19", "1,00", "x"} {
		if got, err := ParseUint(text); err == nil || !strings.Contains(err.Error(), "allowed: ") {
			t.Errorf("ParseUint(%q) = %v, %v; want an error saying what is allowed", text, got, err)
		}
	}
	for _, x := range []uint64{0, 1, 1 << 53, 1<<53 + 1, math.MaxUint64} {
		if got, err := ParseUint(Group(strconv.FormatUint(x, 10))); err != nil || got != x {
			t.Errorf("%d grouped reads back %v, %v", x, got, err)
		}
	}
}

package testtool

import "testing"

func TestRequired(t *testing.T) {
	t.Setenv(RequireVar, "soffice,wine")
	for _, c := range []struct {
		program string
		want    bool
	}{{"soffice", true}, {"wine", true}, {"make", false}, {"", false}, {"soff", false}} {
		if got := Required(c.program); got != c.want {
			t.Errorf("Required(%q) with %s=soffice,wine: %v, want %v", c.program, RequireVar, got, c.want)
		}
	}
	t.Setenv(RequireVar, "")
	if Required("soffice") {
		t.Error("Required with the variable empty: true")
	}
}

// A program that exists is found and its path returned (outside -short).
func TestNeedFinds(t *testing.T) {
	if testing.Short() {
		t.Skip("Need skips in -short mode by design")
	}
	if p := Need(t, "sh", "make test"); p == "" {
		t.Fatal("Need(sh): empty path")
	}
}

// A missing program that HOSTPLAN_REQUIRE names fails the test.
func TestNeedFailsWhenRequired(t *testing.T) {
	if testing.Short() {
		t.Skip("Need skips in -short mode by design")
	}
	t.Setenv(RequireVar, "hostplan-no-such-program")
	var ft fakeT
	func() {
		defer func() { recover() }()
		Need(&ft, "hostplan-no-such-program", "make test-workbook")
	}()
	if !ft.failed || ft.skipped {
		t.Fatalf("missing and required: failed %v, skipped %v; want a failure", ft.failed, ft.skipped)
	}
	t.Setenv(RequireVar, "")
	ft = fakeT{}
	func() {
		defer func() { recover() }()
		Need(&ft, "hostplan-no-such-program", "make test-workbook")
	}()
	if ft.failed || !ft.skipped {
		t.Fatalf("missing, not required: failed %v, skipped %v; want a skip", ft.failed, ft.skipped)
	}
}

// fakeT records Fatalf and Skipf and stops like them (by panicking, which
// the caller recovers).
type fakeT struct {
	testing.TB
	failed, skipped bool
}

func (f *fakeT) Helper()               {}
func (f *fakeT) Fatalf(string, ...any) { f.failed = true; panic("fatal") }
func (f *fakeT) Skipf(string, ...any)  { f.skipped = true; panic("skip") }

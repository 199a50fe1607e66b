// Package testtool is how a test that runs an outside program — LibreOffice,
// Wine, the MinGW-w64 cross-compiler, make — says so, once, with the same
// rule everywhere:
//
//   - in -short mode (make test) the test is skipped: the quick suite needs
//     no such program;
//   - otherwise, when the program is missing, the test fails if the
//     HOSTPLAN_REQUIRE environment variable names it (the make target meant
//     to run the test sets it: make test-workbook, make release-check), and
//     is skipped with the target that installs and runs it if not.
//
// So a suite meant to exercise a program never passes green without it.
package testtool

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// RequireVar is the environment variable that lists, comma-separated, the
// programs whose absence fails a test instead of skipping it.
const RequireVar = "HOSTPLAN_REQUIRE"

// Need returns the path of program for a test that runs it; target is the
// make target that runs the test with the program installed ("make
// test-workbook"). See the package doc for when it skips or fails.
func Need(t testing.TB, program, target string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("runs %s: %s runs this test", program, target)
	}
	path, err := exec.LookPath(program)
	if err == nil {
		return path
	}
	if Required(program) {
		t.Fatalf("%s is not installed, and %s=%s requires it (%s installs it)", program, RequireVar, os.Getenv(RequireVar), target)
	}
	t.Skipf("%s is not installed: %s installs it and runs this test", program, target)
	return ""
}

// Required reports whether HOSTPLAN_REQUIRE names program.
func Required(program string) bool {
	return slices.Contains(strings.Split(os.Getenv(RequireVar), ","), program)
}

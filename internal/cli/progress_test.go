package cli

import (
	"strings"
	"testing"
)

// On a terminal reprice and list --recommended tell how far they are on
// stderr and clear the line at the end; --quiet and a stderr that is not a
// terminal get none. The second run reads the outcomes the first kept and
// has nothing to evaluate.
func TestProgressOnTerminal(t *testing.T) {
	was := isTerminal
	t.Cleanup(func() { isTerminal = was })
	isTerminal = func(any) bool { return true }
	db := tempDB(t)
	mustRun(t, db, "list") // the examples, seeded without outcomes

	_, _, errs := run(t, db, "list", "--recommended", "hybrid")
	if !strings.HasPrefix(errs, "\r\x1b[Kdeciding 1 of 6…") || !strings.HasSuffix(errs, "\r\x1b[K") {
		t.Errorf("progress of list --recommended: %q", errs)
	}
	if _, _, errs := run(t, db, "list", "--recommended", "hybrid"); errs != "" {
		t.Errorf("list --recommended with every outcome kept: %q", errs)
	}
	if _, _, errs := run(t, db, "reprice", "--from", writeCSV(t, "cloud,lambda-h100,on_demand,7,2026-10-01,x")); !strings.HasPrefix(errs, "\r\x1b[Krepricing 1 of 6…") {
		t.Errorf("progress of reprice: %q", errs)
	}
	if _, _, errs := run(t, db, "reprice", "--quiet", "--from", writeCSV(t, "cloud,lambda-h100,on_demand,9,2026-10-01,x")); errs != "" {
		t.Errorf("reprice --quiet: %q", errs)
	}
	isTerminal = func(any) bool { return false }
	if _, _, errs := run(t, db, "reprice", "--from", writeCSV(t, "cloud,lambda-h100,on_demand,8,2026-10-01,x")); errs != "" {
		t.Errorf("reprice, not on a terminal: %q", errs)
	}
}

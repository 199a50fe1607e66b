package app

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"hostplan/internal/catalog"
)

// A copy that differs only in id, name and description has the outcome of
// the scenario it copies, on either catalog: what evaluationInput leaves
// out, the evaluation and the decision do not read. Any other change is
// another input.
func TestCopiesShareOutcome(t *testing.T) {
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	moved, err := def.Apply(overrideRows(t, "cloud,lambda-h100,on_demand,2.99,2026-11-01,test"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range readsScenarios(t) {
		c := *s
		c.ID, c.Name, c.Description = "copy-of-"+s.ID, "A copy", "kept for another team"
		a, _ := evaluationInput(s)
		b, _ := evaluationInput(&c)
		if a != b {
			t.Errorf("%s: a renamed copy has another evaluation input", s.ID)
		}
		for _, cat := range []*catalog.Catalog{def, moved} {
			if x, y := encodeOutcome(outcomeOn(s, cat)), encodeOutcome(outcomeOn(&c, cat)); !bytes.Equal(x, y) {
				t.Errorf("%s: the copy's outcome differs:\n%s\n%s", s.ID, x, y)
			}
		}
		c.Seed++
		if b, _ := evaluationInput(&c); a == b {
			t.Errorf("%s: another seed has the same evaluation input", s.ID)
		}
	}
}

// A reprice of many copies evaluates each distinct input once per
// catalog, and lists every copy whose outcome moved.
func TestRepriceEvaluatesCopiesOnce(t *testing.T) {
	p := openTemp(t)
	base, _, err := p.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	const copies = 12
	for i := range copies {
		c := *base
		c.ID, c.Name = fmt.Sprintf("copy-%02d", i), fmt.Sprintf("Copy %d", i)
		if _, err := p.Save(&c, Lineage{Author: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	// A baseline where every price is dearer: every outcome moves, and
	// none of the stored ones (on the catalog in use) serves it.
	rows := ""
	for _, e := range def.Cloud {
		if e.OnDemand > 0 {
			rows += fmt.Sprintf("cloud,%s,on_demand,%g,2026-11-01,test\n", e.ID, e.OnDemand*3)
		}
	}
	dear, err := def.Apply(overrideRows(t, rows[:len(rows)-1]))
	if err != nil {
		t.Fatal(err)
	}
	n := outcomesFound.Load()
	rp, err := p.Reprice(context.Background(), dear, DefaultRepriceThreshold)
	if err != nil {
		t.Fatal(err)
	}
	// The six examples (seeded without outcomes: both catalogs) and the
	// copies, one input with the example they copy (the baseline only).
	if got := outcomesFound.Load() - n; got != 12 {
		t.Errorf("%d evaluations for 6 examples and %d copies of one, want 12", got, copies)
	}
	listed := 0
	for _, c := range rp.Changed {
		if c.ID == base.ID || len(c.ID) == 7 && c.ID[:5] == "copy-" {
			listed++
		}
	}
	if listed != copies+1 {
		t.Errorf("%d of the %d copies and their original listed as changed: %+v", listed, copies+1, rp.Changed)
	}
}

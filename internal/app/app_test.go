package app

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// tempPath is a store path in a fresh temporary directory; nothing is
// created there.
func tempPath(t *testing.T) string { return filepath.Join(t.TempDir(), "hostplan.db") }

// openTemp opens a planner over a new store, closed when the test ends.
func openTemp(t *testing.T) *Planner {
	t.Helper()
	p, err := Open(tempPath(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// overrideRows parses CSV rows (without the header) as catalog overrides.
func overrideRows(t *testing.T, rows ...string) catalog.Overrides {
	t.Helper()
	o, err := catalog.ParseOverridesCSV(strings.NewReader(catalog.OverridesHeader + "\n" + strings.Join(rows, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// A new store holds every example, each with the lineage of its report on
// the built-in catalog.
func TestOpenSeedsExamples(t *testing.T) {
	p := openTemp(t)
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	items, err := p.List()
	if err != nil || len(items) != len(files) || len(files) < 5 {
		t.Fatalf("%d scenarios for %d examples, %v", len(items), len(files), err)
	}
	h, err := p.History("constrained-snapshot-training")
	if err != nil || len(h) != 1 {
		t.Fatalf("history %v, %v", h, err)
	}
	if h[0].Author != "hostplan" || h[0].ModelVersion != model.Version || h[0].CatalogAsOf == "" {
		t.Errorf("seeded lineage %+v", h[0])
	}
	if _, err := p.Catalog(); err != nil {
		t.Fatal(err)
	}
	if err := p.Open(); err == nil {
		t.Error("opened an open store a second time")
	}
}

// Reading the catalog of a store that does not exist uses the built-in
// one and creates nothing; a planner that holds no store opens it for each
// call, and the first read of a missing store creates and seeds it, as the
// first run of any command does.
func TestClosedAndMissingStore(t *testing.T) {
	path := tempPath(t)
	p := New(path)
	if _, err := p.Save(&scenario.Scenario{}, Lineage{}); err == nil {
		t.Error("Save of an empty scenario")
	}
	cat, err := p.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	def, _ := catalog.Default()
	if len(cat.Items("")) != len(def.Items("")) {
		t.Errorf("the catalog of a missing store has %d entries, the built-in one %d", len(cat.Items("")), len(def.Items("")))
	}
	for _, it := range cat.Items("") {
		if it.Entry.Overridden {
			t.Errorf("%s/%s is overridden in the catalog of a missing store", it.Kind, it.ID)
		}
	}
	if o, err := p.Overrides(); err != nil || len(o.Rows) != 0 {
		t.Errorf("overrides of a missing store: %v, %v", o, err)
	}
	if removed, err := p.ResetOverrides(); err != nil || removed != nil {
		t.Errorf("reset of a missing store: %q, %v", removed, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("reading a missing store's catalog created it (%v)", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("closing a planner with nothing open: %v", err)
	}
	if items, err := p.List(); err != nil || len(items) == 0 {
		t.Errorf("List of a missing store: %d scenarios, %v; want the examples", len(items), err)
	}
}

// Save refuses, with field errors and without writing, a scenario that
// does not validate or names what the catalog lacks; a good one becomes a
// revision with its lineage, and the same content again adds none.
func TestSave(t *testing.T) {
	p := openTemp(t)
	s, cur, err := p.Load("qlora-legal-70b")
	if err != nil || cur.Number != 1 {
		t.Fatalf("load: revision %d, %v", cur.Number, err)
	}
	for name, change := range map[string]func(*scenario.Scenario){
		"unknown offer": func(s *scenario.Scenario) { s.Options.Cloud.Offer = "no-such-offer" },
		"MFU of 3":      func(s *scenario.Scenario) { s.Workload.MFU = scenario.Known(3) },
	} {
		bad := scenario.Clone(s)
		change(bad)
		var fe scenario.Errors
		if _, err := p.Save(bad, Lineage{Author: "ana", Note: name}); !errors.As(err, &fe) {
			t.Errorf("%s: error %v, want scenario.Errors", name, err)
		}
	}
	if _, err := p.Save(nil, Lineage{}); err == nil {
		t.Error("saved no scenario")
	}
	if h, _ := p.History(s.ID); len(h) != 1 {
		t.Fatalf("%d revisions after refused saves, want 1", len(h))
	}
	good := scenario.Clone(s)
	good.Seed++
	rev, err := p.Save(good, Lineage{Author: "ana", Note: "new seed"})
	if err != nil || rev.Number != 2 {
		t.Fatalf("revision %d, %v", rev.Number, err)
	}
	r, _ := p.Evaluate(context.Background(), good)
	if rev.Author != "ana" || rev.Note != "new seed" || rev.ModelVersion != model.Version || rev.CatalogAsOf != r.CatalogAsOf {
		t.Errorf("lineage %+v, want ana, new seed, %s, %s", rev, model.Version, r.CatalogAsOf)
	}
	if again, err := p.Save(good, Lineage{Author: "bo", Note: "again"}); err != nil || again.Number != 2 {
		t.Errorf("saving the current content again: revision %d, %v", again.Number, err)
	}
}

// Restore brings an old revision back as a new one, noted as restored;
// restoring what is current writes nothing.
func TestRestore(t *testing.T) {
	p := openTemp(t)
	s, _, _ := p.Load("qlora-legal-70b")
	changed := scenario.Clone(s)
	changed.Name += " (v2)"
	if _, err := p.Save(changed, Lineage{Author: "ana", Note: "renamed"}); err != nil {
		t.Fatal(err)
	}
	rev, err := p.Restore(s.ID, 1, Lineage{Author: "bo", Note: "the old name reads better"})
	if err != nil || rev.Number != 3 {
		t.Fatalf("restore: revision %d, %v", rev.Number, err)
	}
	if rev.Note != "restored from revision 1: the old name reads better" || rev.Author != "bo" || rev.ModelVersion != model.Version {
		t.Errorf("lineage %+v", rev)
	}
	back, _, _ := p.Load(s.ID)
	if back.Name != s.Name {
		t.Errorf("current name %q, want %q", back.Name, s.Name)
	}
	if again, err := p.Restore(s.ID, 1, Lineage{}); err != nil || again.Number != 3 {
		t.Errorf("restoring the current content: revision %d, %v", again.Number, err)
	}
	if _, err := p.Restore(s.ID, 9, Lineage{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("restoring a revision that does not exist: %v", err)
	}
}

// Evaluation starts only while its context lasts; draws 0 is the report
// without the Monte Carlo spread.
func TestEvaluateAndAnalyze(t *testing.T) {
	p := openTemp(t)
	s, _, _ := p.Load("constrained-snapshot-training")
	ctx := context.Background()
	r, err := p.Evaluate(ctx, s)
	if err != nil || r.Uncertainty != nil || r.Cheapest != scenario.Hybrid {
		t.Fatalf("evaluate: cheapest %q, uncertainty %v, %v", r.Cheapest, r.Uncertainty != nil, err)
	}
	if r0, err := p.Analyze(ctx, s, 0); err != nil || r0.Uncertainty != nil || r0.Tornado != nil {
		t.Errorf("analyze with 0 draws: %v", err)
	}
	ra, err := p.Analyze(ctx, s, 500)
	if err != nil || ra.Uncertainty == nil || ra.Uncertainty.Draws != 500 || ra.Tornado == nil {
		t.Fatalf("analyze: %+v, %v", ra.Uncertainty, err)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Evaluate(done, s); !errors.Is(err, context.Canceled) {
		t.Errorf("evaluate after cancel: %v", err)
	}
	if _, err := p.Analyze(done, s, 500); !errors.Is(err, context.Canceled) {
		t.Errorf("analyze after cancel: %v", err)
	}
	bad := scenario.Clone(s)
	bad.Options.Cloud.Offer = "no-such-offer"
	var fe scenario.Errors
	if _, err := p.Analyze(ctx, bad, 500); !errors.As(err, &fe) || fe[0].Path != "options.cloud.offer" {
		t.Errorf("analyze of an unknown offer: %v", err)
	}
}

// The window evaluates off its UI goroutine while the user saves: the
// planner is used from several goroutines at once (run with -race).
func TestConcurrentUse(t *testing.T) {
	p := openTemp(t)
	s, _, _ := p.Load("qlora-legal-70b")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for i := range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := p.Analyze(context.Background(), s, 200); err != nil {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			c := scenario.Clone(s)
			c.Seed = uint64(100 + i)
			if _, err := p.Save(c, Lineage{Note: "seed"}); err != nil {
				errs <- err
			}
			if _, err := p.List(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if h, _ := p.History(s.ID); len(h) != 5 {
		t.Errorf("%d revisions, want 5", len(h))
	}
}

// Checklist state is kept per scenario; a deleted scenario keeps it and
// cannot be given new state.
func TestChecklistAndDelete(t *testing.T) {
	p := openTemp(t)
	const id = "constrained-snapshot-training"
	if cs, err := p.Checklist(id); err != nil || len(cs) != 0 {
		t.Fatalf("fresh checklist %v, %v", cs, err)
	}
	cs := brief.ChecklistState{}
	item := brief.ItemIDs(scenario.ShapeTraining)[0]
	if err := cs.Set(scenario.ShapeTraining, item, brief.StatusDone, "Platform team"); err != nil {
		t.Fatal(err)
	}
	if err := p.SaveChecklist(id, cs); err != nil {
		t.Fatal(err)
	}
	if got, err := p.Checklist(id); err != nil || got[item].Owner != "Platform team" {
		t.Errorf("checklist %v, %v", got, err)
	}
	if err := p.Delete(id); err != nil {
		t.Fatal(err)
	}
	if err := p.SaveChecklist(id, cs); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("checklist of a deleted scenario: %v", err)
	}
	if d, _ := p.ListDeleted(); len(d) != 1 || d[0].ID != id {
		t.Errorf("deleted %v", d)
	}
	if err := p.Undelete(id); err != nil {
		t.Fatal(err)
	}
	if got, _ := p.Checklist(id); got[item].Status != brief.StatusDone {
		t.Error("the checklist did not survive delete and undelete")
	}
	if err := p.Purge(id); !errors.Is(err, store.ErrNotDeleted) {
		t.Errorf("purge of a live scenario: %v", err)
	}
}

// Imported price overrides become the catalog in use, in this planner at
// once and in the next one from the store; rows that do not apply are
// refused whole, and into a store that does not exist yet they create none.
func TestOverrides(t *testing.T) {
	path := tempPath(t)
	p := New(path)
	bad := overrideRows(t, "cloud,lambda-h100,spot,2.5,2026-01-01,quote", "cloud,no-such-offer,on_demand,1,2026-01-01,quote")
	var oe catalog.OverrideErrors
	if _, err := p.ImportOverrides(bad); !errors.As(err, &oe) {
		t.Errorf("import of an unknown entry: %v, want catalog.OverrideErrors", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a refused import created the store")
	}

	im, err := p.ImportOverrides(overrideRows(t, "cloud,lambda-h100,on_demand,5.99,2022-06-01,Lambda quote"))
	if err != nil || im.Changed != 1 || im.Added != 0 || len(im.Kept.Rows) != 1 {
		t.Fatalf("import: %+v, %v", im, err)
	}
	onDemand := func(p *Planner) float64 {
		t.Helper()
		cat, err := p.Catalog()
		if err != nil {
			t.Fatal(err)
		}
		o, _ := cat.CloudOffer("lambda-h100")
		return o.OnDemand
	}
	if got := onDemand(p); got != 5.99 {
		t.Errorf("on-demand price after import %g, want 5.99", got)
	}
	if got := onDemand(New(path)); got != 5.99 {
		t.Errorf("on-demand price read from the store %g, want 5.99", got)
	}
	if o, err := p.Overrides(); err != nil || len(o.Rows) != 1 {
		t.Errorf("stored overrides %v, %v", o, err)
	}
	if items, err := func() ([]store.Summary, error) {
		if err := p.Open(); err != nil {
			return nil, err
		}
		defer p.Close()
		return p.List()
	}(); err != nil || len(items) < 5 {
		t.Errorf("the store an import created is not seeded: %d scenarios, %v", len(items), err)
	}

	removed, err := p.ResetOverrides()
	if err != nil || len(removed) == 0 {
		t.Fatalf("reset: %q, %v", removed, err)
	}
	if got := onDemand(p); got != 3.99 {
		t.Errorf("on-demand price after reset %g, want the built-in 3.99", got)
	}
	if removed, err := p.ResetOverrides(); err != nil || removed != nil {
		t.Errorf("second reset: %q, %v", removed, err)
	}
}

// Stored overrides that no longer apply keep the planner from opening,
// with a way out, and leave the store closed for that way out.
func TestBrokenOverrides(t *testing.T) {
	path := tempPath(t)
	st, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.PutCatalogOverrides([]byte(`{"format":1,"rows":[{"kind":"cloud","id":"gone","field":"on_demand","value":"1","as_of":"2026-01-01","source":"x"}]}`))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(path)
	if err == nil || !strings.Contains(err.Error(), "no longer apply") || !strings.Contains(err.Error(), "hostplan catalog reset") || !strings.Contains(err.Error(), path) {
		t.Fatalf("open with broken overrides: %v", err)
	}
	p := New(path)
	if removed, err := p.ResetOverrides(); err != nil || len(removed) == 0 {
		t.Fatalf("reset: %q, %v", removed, err)
	}
	if _, err := Open(path); err != nil {
		t.Fatalf("open after reset: %v", err)
	}
}

// The maintenance operations work on the file as it is: a missing one is
// ErrNoStore and is not created, a backup never replaces a file, and a
// file that is not a store is an OpenError.
func TestCheckAndBackup(t *testing.T) {
	missing := tempPath(t)
	if _, err := New(missing).CheckStore(); !errors.Is(err, ErrNoStore) || err.Error() != "no store at "+missing {
		t.Errorf("check of a missing store: %v", err)
	}
	if _, err := New(missing).BackupStore(tempPath(t), false); !errors.Is(err, ErrNoStore) {
		t.Errorf("backup of a missing store: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Error("check or backup created a store")
	}

	p := openTemp(t)
	p.Close()
	if problems, err := p.CheckStore(); err != nil || problems != nil {
		t.Errorf("check of a good store: %v, %v", problems, err)
	}
	dst := tempPath(t)
	size, err := p.BackupStore(dst, false)
	if fi, serr := os.Stat(dst); err != nil || serr != nil || fi.Size() != size || size == 0 {
		t.Fatalf("backup: %d bytes, %v", size, err)
	}
	if _, err := p.BackupStore(dst, false); !errors.Is(err, fs.ErrExist) {
		t.Errorf("backup over an existing file: %v", err)
	}
	if problems, err := New(dst).CheckStore(); err != nil || problems != nil {
		t.Errorf("check of the backup: %v, %v", problems, err)
	}

	junk := tempPath(t)
	if err := os.WriteFile(junk, []byte(strings.Repeat("not a database ", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	var oe *OpenError
	if _, err := New(junk).CheckStore(); !errors.As(err, &oe) || oe.Path != junk || !strings.Contains(err.Error(), "not a hostplan store") {
		t.Errorf("check of junk: %v", err)
	}
}

// A damaged store opens read-only: the planner says so, reads what it can,
// is not seeded, and refuses to write, changing nothing.
func TestOpenDamagedStoreReadOnly(t *testing.T) {
	path := tempPath(t)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Delete("qlora-legal-70b"); err != nil {
		t.Fatal(err)
	}
	p.Close()
	// Damage one scenario record (the store's layout: a "scenarios" bucket
	// of binary records, see internal/store/record.go).
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte("scenarios")).Put([]byte("support-assistant-70b"), []byte{1, 0, 0xff})
	})
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	d := New(path)
	if err := d.Open(); err != nil {
		t.Fatalf("Open of a damaged store: %v", err)
	}
	defer d.Close()
	dmg := d.Damaged()
	if !errors.Is(dmg, store.ErrDamaged) || !strings.Contains(dmg.Error(), "hostplan store check") {
		t.Fatalf("Damaged() = %v", dmg)
	}
	if _, _, err := d.Load("flood-simulation-ensemble"); err != nil {
		t.Errorf("reading a sound scenario: %v", err)
	}
	s, _, err := d.Load("flood-simulation-ensemble")
	if err != nil {
		t.Fatal(err)
	}
	s.Name += " (changed)"
	if _, err := d.Save(s, Lineage{Author: "t"}); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Save: %v, want store.ErrDamaged", err)
	}
	if err := d.Undelete("qlora-legal-70b"); !errors.Is(err, store.ErrDamaged) {
		t.Errorf("Undelete (which seeding would not have brought back either): %v", err)
	}
	d.Close()
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the damaged store changed (%v)", err)
	}
	if d.Damaged() == nil {
		t.Error("Damaged() forgot after Close")
	}
}

package store

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// revisionStore writes a store with scenario "dmg" of two revisions
// (horizon 36, then 12 months) and closes it; it returns the path, the
// two scenarios and the file's bytes.
func revisionStore(t *testing.T) (path string, v1, v2 *scenario.Scenario, file []byte) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	v1 = testScenario(t, "dmg", "Damage probe")
	v2 = scenario.Clone(v1)
	v2.Dimensions.Economics.HorizonMonths = 12
	mustSave(t, s, v1, scenario.RevisionMeta{Note: "one"})
	mustSave(t, s, v2, scenario.RevisionMeta{Note: "two"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path, v1, v2, mustRead(t, path)
}

// liveBody returns where in the file the body (the scenario JSON) of
// revision n of "dmg" begins and ends: of the copies of the marker in the
// file (bbolt leaves old copies of a page on its free pages), the one that
// revision n is read from.
func liveBody(t *testing.T, path string, file []byte, marker string, n int) (start, end int) {
	t.Helper()
	for off := 0; ; {
		i := bytes.Index(file[off:], []byte(marker))
		if i < 0 {
			t.Fatalf("no copy of %s in the file is revision %d's", marker, n)
		}
		at := off + i
		off = at + 1
		b := bytes.Clone(file)
		b[at] ^= 1
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.GetRevision("dmg", n)
		s.Close()
		if err == nil {
			continue
		}
		start = bytes.LastIndex(file[:at], []byte(`"scenario":"`))
		end = at + bytes.Index(file[at:], []byte(`"}`))
		if start < 0 || end < at {
			t.Fatalf("no revision body around %s", marker)
		}
		if err := os.WriteFile(path, file, 0o600); err != nil {
			t.Fatal(err)
		}
		return start + len(`"scenario":"`), end
	}
}

func damagedRead(t *testing.T, what string, err error, n int) {
	t.Helper()
	var d *RevisionDamagedError
	if !errors.As(err, &d) || !errors.Is(err, ErrRevisionDamaged) {
		t.Errorf("%s = %v, want a damaged revision", what, err)
		return
	}
	msg := err.Error()
	for _, want := range []string{`scenario "dmg" revision `, "hostplan store check", "backup"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q does not say %q", what, msg, want)
		}
	}
	if d.Number != n {
		t.Errorf("%s names revision %d, want %d", what, d.Number, n)
	}
}

// Every read of a revision whose bytes no longer match their sha256
// refuses it; the sound revisions still read, a save or a restore of
// sound content writes a sound revision after it, and Check reports it.
func TestDamagedRevisionRefused(t *testing.T) {
	path, v1, v2, file := revisionStore(t)
	at, _ := liveBody(t, path, file, `horizon_months\": 12`, 2)
	at = at + bytes.Index(file[at:], []byte(`horizon_months\": 12`))
	file[at+len(`horizon_months\": `)] ^= 2 // 12 → 32: still valid JSON, another horizon
	if err := os.WriteFile(path, file, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.now = fakeClock()

	_, _, err = s.Get("dmg")
	damagedRead(t, "Get", err, 2)
	_, _, err = s.GetRevision("dmg", 2)
	damagedRead(t, "GetRevision 2", err, 2)
	_, _, err = s.Bytes("dmg", 0)
	damagedRead(t, "Bytes current", err, 2)
	_, _, err = s.Bytes("dmg", 2)
	damagedRead(t, "Bytes 2", err, 2)
	_, err = s.History("dmg")
	damagedRead(t, "History", err, 2)
	_, err = s.Restore("dmg", 2, scenario.RevisionMeta{})
	damagedRead(t, "Restore 2", err, 2)

	if sc, _, err := s.GetRevision("dmg", 1); err != nil || !bytes.Equal(mustMarshal(t, sc), mustMarshal(t, v1)) {
		t.Errorf("GetRevision 1 (sound) = %v", err)
	}
	problems := s.Check()
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), `scenario "dmg" revision 2: its input hash does not match its bytes`) {
		t.Errorf("Check = %v", problems)
	}

	// Saving revision 2's content again writes it sound, as revision 3.
	rev, err := s.Save(v2, scenario.RevisionMeta{Note: "again"})
	if err != nil || rev.Number != 3 {
		t.Fatalf("Save over a damaged current revision = %+v, %v; want revision 3", rev, err)
	}
	if sc, _, err := s.Get("dmg"); err != nil || sc.Dimensions.Economics.HorizonMonths != 12 {
		t.Errorf("Get after the save = %v", err)
	}
	if rev, err := s.Restore("dmg", 1, scenario.RevisionMeta{}); err != nil || rev.Number != 4 {
		t.Errorf("Restore of a sound revision = %+v, %v", rev, err)
	}

	// A backup copies the damage, and the copy's check finds it.
	dst := filepath.Join(t.TempDir(), "copy.db")
	if err := s.Backup(dst); err != nil {
		t.Fatal(err)
	}
	c, err := Open(dst, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if problems := c.Check(); len(problems) == 0 {
		t.Error("the copy of a damaged store passes its check")
	}
}

// Any one bit flipped inside a revision's body makes every read of it
// refuse it: none returns altered content.
func TestFlippedBitsRefused(t *testing.T) {
	path, _, _, file := revisionStore(t)
	start, end := liveBody(t, path, file, `horizon_months\": 36`, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	n := 40
	if testing.Short() {
		n = 12
	}
	for range n {
		b := bytes.Clone(file)
		at := start + rng.IntN(end-start)
		b[at] ^= 1 << rng.IntN(8)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = s.GetRevision("dmg", 1)
		damagedRead(t, "GetRevision 1", err, 1)
		_, _, err = s.Bytes("dmg", 1)
		damagedRead(t, "Bytes 1", err, 1)
		_, err = s.History("dmg")
		damagedRead(t, "History", err, 1)
		if _, _, err := s.Get("dmg"); err != nil {
			t.Errorf("Get of the sound current revision: %v", err)
		}
		s.Close()
	}
}

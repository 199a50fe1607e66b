package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// Drafts: unsaved edits of the inputs are kept in the store's settings, a
// moment after each edit, so that a window that ends without saving them —
// killed, crashed, the machine gone down — offers them back the next time
// it opens. Saving, discarding or undoing every edit removes the draft.

// settingDraft holds the draft: a JSON draft, or "" for none.
const settingDraft = "window.draft"

// draftPause is how long after an edit the draft is written, so that
// typing writes it once a pause, not once a key; 0 writes it at once.
var draftPause = 1500 * time.Millisecond

// draft is the unsaved inputs of one scenario.
type draft struct {
	ID       string          `json:"id,omitempty"`       // the stored scenario edited; "" for a new one
	Revision int             `json:"revision,omitempty"` // the stored revision the edits start from
	Name     string          `json:"name"`
	Saved    time.Time       `json:"saved"`
	Scenario json.RawMessage `json:"scenario"`
}

// draftKeeper writes the window's draft, one write at a time, the latest
// asked for winning.
type draftKeeper struct {
	prefs Preferences
	gen   int  // counts requests (UI goroutine)
	kept  bool // a draft has been written and not removed (UI goroutine)
	// held keeps the stored draft from being removed while the window
	// asks whether to bring it back (UI goroutine).
	held bool

	mu     sync.Mutex
	latest string // what to write: a draft, or "" to remove it
}

// keep asks for text ("" to remove the draft) to be written after
// draftPause, unless another request comes first.
func (k *draftKeeper) keep(text string) {
	if k == nil || k.prefs == nil || (text == "" && (!k.kept || k.held)) {
		return
	}
	k.kept = text != ""
	k.gen++
	gen := k.gen
	k.mu.Lock()
	k.latest = text
	k.mu.Unlock()
	if draftPause <= 0 {
		k.write()
		return
	}
	time.AfterFunc(draftPause, func() {
		fyne.Do(func() {
			if gen == k.gen {
				k.write()
			}
		})
	})
}

// write writes the latest draft off the UI goroutine. A failure is
// dropped: the draft is a safety net, and the edits are still on screen.
func (k *draftKeeper) write() {
	prefs := k.prefs
	inBackground(func() func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		_ = prefs.SetSetting(settingDraft, k.latest)
		return func() {}
	})
}

// removeNow removes the draft at once (the window is closing).
func (k *draftKeeper) removeNow() {
	if k == nil || k.prefs == nil || !k.kept {
		return
	}
	k.gen++
	k.kept = false
	k.mu.Lock()
	defer k.mu.Unlock()
	k.latest = ""
	_ = k.prefs.SetSetting(settingDraft, "")
}

// keepDraft writes the unsaved inputs as the draft, or removes the draft
// when there are none.
func (e *liveEditor) keepDraft() {
	if e.drafts == nil {
		return
	}
	if e.work == nil || !e.dirty() {
		e.drafts.keep("")
		return
	}
	b, err := scenario.Marshal(e.work)
	if err != nil {
		return
	}
	d := draft{ID: e.item.ID, Revision: e.item.Revisions, Name: e.work.Name, Saved: time.Now().UTC(), Scenario: b}
	if e.base == nil {
		d.ID, d.Revision = "", 0
	}
	text, err := json.Marshal(d)
	if err != nil {
		return
	}
	e.drafts.keep(string(text))
}

// readDraft is the draft the store keeps, false when there is none (or it
// cannot be read).
func readDraft(prefs Preferences) (draft, *scenario.Scenario, bool) {
	if prefs == nil {
		return draft{}, nil, false
	}
	text, ok, err := prefs.Setting(settingDraft)
	if err != nil || !ok || strings.TrimSpace(text) == "" {
		return draft{}, nil, false
	}
	var d draft
	if err := json.Unmarshal([]byte(text), &d); err != nil {
		return draft{}, nil, false
	}
	s, err := scenario.Parse(d.Scenario)
	if err != nil {
		return draft{}, nil, false
	}
	return d, s, true
}

// offerDraft asks, when the store keeps a draft, whether to bring the
// unsaved edits back.
func (p *planner) offerDraft() {
	d, s, ok := readDraft(p.backend)
	if !ok {
		return
	}
	keeper := p.view.live.drafts
	keeper.kept, keeper.held = true, true // it stays until restored and saved, or discarded
	name := d.Name
	if name == "" {
		name = report.OrText(d.ID, "a new scenario")
	}
	what := "a new scenario, not saved yet"
	if d.ID != "" {
		what = "scenario " + d.ID + ", from revision " + report.Whole(d.Revision)
		if !p.scenarios.has(d.ID) {
			what += " (no longer in the store: it comes back as a new scenario)"
		}
	}
	text := widgets.WrappedLabel(fmt.Sprintf("The window closed on %s without saving the edits of “%s” (%s). Bring them back into the form, to save or discard there, or throw them away?",
		d.Saved.Local().Format("2006-01-02 15:04"), name, what))
	dlg := dialog.NewCustomConfirm("Unsaved edits", "Bring them back", "Throw away", container.New(&widgets.MinWidth{Width: 520}, text), func(restore bool) {
		keeper.held = false
		if !restore {
			p.view.live.drafts.keep("")
			p.scenarios.notify("The unsaved edits of “" + name + "” were thrown away.")
			return
		}
		p.restoreDraft(d, s)
	}, p.window)
	p.dialogs.showDialog(dlg)
}

// restoreDraft makes the draft's inputs the ones being edited: over the
// stored scenario it was made from, or as a new scenario.
func (p *planner) restoreDraft(d draft, s *scenario.Scenario) {
	p.setComparing(false)
	live := p.view.live
	if d.ID == "" || !p.scenarios.has(d.ID) {
		p.scenarios.list.UnselectAll()
		p.view.startNew(s)
		live.setStatus("Brought back the unsaved edits of "+d.Saved.Local().Format("2006-01-02 15:04")+".", widget.WarningImportance)
		return
	}
	if p.view.shownID() == d.ID && live.work != nil {
		live.applyDraft(s, d)
		return
	}
	live.pendingDraft = &pendingDraft{d: d, s: s}
	p.scenarios.selectID(d.ID) // its report, then the draft over it (begin)
}

// pendingDraft is a draft to apply once its scenario is shown.
type pendingDraft struct {
	d draft
	s *scenario.Scenario
}

// applyDraft makes s, the draft d's inputs, the ones being edited, in
// the form, unsaved.
func (e *liveEditor) applyDraft(s *scenario.Scenario, d draft) {
	e.work = s
	e.history.record(e.work, "")
	e.form = nil
	e.setOpen(true)
	e.changedState()
	e.schedule(0)
	note := "Brought back the unsaved edits of " + d.Saved.Local().Format("2006-01-02 15:04") + "."
	if d.Revision > 0 && d.Revision != e.item.Revisions {
		note += " They were made on revision " + report.Whole(d.Revision) + "; the stored one is now revision " + report.Whole(e.item.Revisions) + "."
	}
	e.setStatus(present.Sentence(note), widget.WarningImportance)
}

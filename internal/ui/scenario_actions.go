package ui

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The actions that add revisions: editing the chosen scenario as JSON,
// duplicating it, and importing a scenario file. Each saves through
// Backend.Save only a scenario that parsed and validated, then reloads the
// list and chooses what was saved.

// maxImportBytes bounds what Import reads: scenario files are a few
// kilobytes, so anything this large is the wrong file.
const maxImportBytes = 8 << 20

// editCurrent opens the JSON editor on the scenario the view shows, with
// the edits made in the form; saving there saves them.
func (p *planner) editCurrent() {
	s := p.view.live.work
	if s == nil && p.view.current != nil {
		s = p.view.current.s
	}
	if s == nil {
		return
	}
	e, err := newJSONEditor(p.window, p.dialogs, p.backend, s, p.scenarios.has, func(id string, rev int) {
		p.view.live.stop() // what the form held is in the revision just saved
		p.afterSave(id, rev, "Saved")
	})
	if err != nil {
		p.showProblems("Cannot edit this scenario", []string{err.Error()})
		return
	}
	if p.view.live.work != nil {
		e.canon = p.view.live.stored // nil for a new scenario: anything valid saves
		e.check()
	}
	e.show()
}

// duplicateCurrent saves a copy of the scenario the view shows under a new
// id ("ID-copy", or "ID-copy-2" when that is taken) and chooses it.
func (p *planner) duplicateCurrent() {
	ev := p.view.current
	if ev == nil || ev.s == nil {
		return
	}
	c := duplicateOf(ev.s, p.scenarios.has)
	p.view.duplicate.Disable()
	b, note := p.backend, "duplicate of "+ev.s.ID
	inBackground(func() func() {
		rev, err := safeSave(b, c, note)
		return func() {
			p.view.duplicate.Enable()
			if err != nil {
				p.showProblems(fmt.Sprintf("Could not duplicate “%s”: nothing was saved", itemName(ev.item)), problemLines(err))
				return
			}
			p.afterSave(c.ID, rev, "Duplicated as")
		}
	})
}

// duplicateOf copies s under a new id and name.
func duplicateOf(s *scenario.Scenario, taken func(string) bool) *scenario.Scenario {
	c := scenario.Clone(s)
	c.ID = copyID(s.ID, taken)
	c.Name = s.Name + " (copy)"
	return c
}

// maxIDLength is the longest id the scenario schema allows.
const maxIDLength = 64

// copyID is id + "-copy", or "-copy-2", "-copy-3", … when taken says the
// shorter one exists, shortening id so the result stays a valid id.
func copyID(id string, taken func(string) bool) string {
	for n := 1; ; n++ {
		suffix := "-copy"
		if n > 1 {
			suffix = fmt.Sprintf("-copy-%d", n)
		}
		base := id
		if len(base)+len(suffix) > maxIDLength {
			base = strings.TrimRight(base[:maxIDLength-len(suffix)], "-")
		}
		if c := base + suffix; taken == nil || !taken(c) {
			return c
		}
	}
}

// chooseImport asks for a scenario file and imports it.
func (p *planner) chooseImport() {
	p.chooseFile(".json", maxImportBytes, "8 MiB, too large for a scenario file", p.importBytes)
}

// chooseFile asks for a file with extension ext and hands its name and
// bytes to use; a file that cannot be read or holds more than limit bytes
// (too large says how much is allowed and for what) is not imported.
func (p *planner) chooseFile(ext string, limit int, tooLarge string, use func(name string, data []byte)) {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil {
			p.showProblems("Could not open the file", []string{err.Error()})
			return
		}
		if rc == nil {
			return // cancelled
		}
		name := rc.URI().Name()
		data, err := io.ReadAll(io.LimitReader(rc, int64(limit)+1))
		rc.Close()
		switch {
		case err != nil:
			p.showProblems(fmt.Sprintf("“%s” was not imported", name), []string{name + ": " + err.Error()})
		case len(data) > limit:
			p.showProblems(fmt.Sprintf("“%s” was not imported", name), []string{name + ": is larger than " + tooLarge})
		default:
			use(name, data)
		}
	}, p.window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{ext}))
	d.Resize(fileDialogSize(p.window))
	p.dialogs.show(d, d.Dismiss)
}

// fileDialogSize is most of the window: Fyne's file dialogs open at a size
// that shows only a few files at a time.
func fileDialogSize(w fyne.Window) fyne.Size {
	s := w.Canvas().Size()
	return fyne.NewSize(max(640, s.Width*0.8), max(480, s.Height*0.8))
}

// importBytes parses the file name's bytes and saves the scenario as a new
// revision (a new scenario, or the next revision of the one with its id).
// A file with any problem is not saved, and every problem is listed with
// the file's name: "name: path: problem (allowed: …)".
func (p *planner) importBytes(name string, data []byte) {
	fail := func(err error) {
		lines := problemLines(err)
		for i, l := range lines {
			lines[i] = name + ": " + l
		}
		p.showProblems(fmt.Sprintf("“%s” was not imported: %s", name, present.Count(len(lines), "problem")), lines)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		fail(err)
		return
	}
	if s == nil {
		fail(errors.New("the file holds no scenario"))
		return
	}
	b := p.backend
	inBackground(func() func() {
		rev, err := safeSave(b, s, "imported from "+name)
		return func() {
			if err != nil {
				fail(err)
				return
			}
			p.afterSave(s.ID, rev, "Imported "+name+" as")
		}
	})
}

// afterSave reloads the list, chooses scenario id and says what happened.
func (p *planner) afterSave(id string, rev int, what string) {
	p.setComparing(false)
	p.scenarios.reload()
	name := id
	if it, ok := p.scenarios.item(id); ok {
		name = itemName(it)
	}
	p.scenarios.notify(what + " “" + name + "”, revision " + report.Whole(rev) + ".")
	p.scenarios.selectID(id)
}

// showProblems shows a list of problems in a dialog, one a line.
func (p *planner) showProblems(title string, lines []string) {
	l := widget.NewLabel(strings.Join(lines, "\n"))
	l.Wrapping = fyne.TextWrapWord
	l.TextStyle = fyne.TextStyle{Monospace: true}
	scroll := container.NewVScroll(l)
	size := p.window.Canvas().Size()
	// Most problems wrap onto a second line in a dialog this wide.
	rows := float32(2*len(lines) + 1)
	scroll.SetMinSize(fyne.NewSize(min(760, size.Width*0.8), min(rows*textLineHeight()*1.2, size.Height*0.6)))
	d := dialog.NewCustom(title, "Close", scroll, p.window)
	p.dialogs.showDialog(d)
}

package ui

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// briefView is the Brief tab: the Compute Readiness Brief as the CLI's
// "hostplan brief" writes it, rendered, with a button that saves the
// Markdown to a file. When the scenario fills too few of the brief's fields
// it lists the ones missing instead.
type briefView struct {
	window fyne.Window // parent of the save dialog

	id       string // the scenario's id, for the file name
	markdown []byte // the brief; nil when there is none

	// pending is the rendered brief waiting for the tab to be shown:
	// laying out a brief's text takes a noticeable moment, so it is done
	// only when someone looks at it.
	pending []widget.RichTextSegment
	shown   bool // the Brief tab is the selected one

	save     *widget.Button
	note     *widget.Label // what the file is, or why there is no brief
	missing  *widget.Label // the missing fields, one a line
	text     *widget.RichText
	scroll   *container.Scroll
	content  fyne.CanvasObject
	saveErrs func(error) // shows a failed save; dialog.ShowError unless set
}

func newBriefView(w fyne.Window) *briefView {
	v := &briefView{window: w}
	v.save = widget.NewButtonWithIcon("Save brief…", theme.DocumentSaveIcon(), v.chooseFile)
	v.note = widget.NewLabel("")
	v.note.Wrapping = fyne.TextWrapWord
	v.missing = widget.NewLabel("")
	v.missing.Wrapping = fyne.TextWrapWord
	v.text = widget.NewRichText()
	v.text.Wrapping = fyne.TextWrapWord
	v.scroll = container.NewVScroll(container.NewVBox(v.missing, v.text))
	top := container.NewBorder(nil, widget.NewSeparator(), nil, v.save, v.note)
	v.content = container.NewBorder(top, nil, nil, nil, v.scroll)
	return v
}

// briefResult is the brief of one scenario, or why there is none.
type briefResult struct {
	markdown []byte
	err      error
	// checklistErr is set when the stored checklist could not be read; the
	// brief is then written with every item open.
	checklistErr error
	// checklist is the stored checklist state the brief was written with;
	// nil when the backend keeps none or it could not be read.
	checklist brief.ChecklistState
}

// makeBrief writes the brief of s from its report and decision (nil: the
// brief decides itself), with the stored checklist state when the backend
// keeps one. It runs off the UI goroutine with the evaluation.
func makeBrief(b Backend, s *scenario.Scenario, r *model.Report, d *decide.Decision) (res briefResult) {
	defer func() {
		if p := recover(); p != nil {
			res = briefResult{err: fmt.Errorf("internal error: %v", p)}
		}
	}()
	var st brief.ChecklistState
	if cr, ok := b.(ChecklistReader); ok {
		st, res.checklistErr = cr.Checklist(s.ID)
		if res.checklistErr != nil {
			st = nil
		}
	}
	res.checklist = st
	res.markdown, res.err = brief.WithChecklist(s, r, d, st)
	return res
}

// set shows the brief of scenario id.
func (v *briefView) set(id string, res briefResult) {
	v.id = id
	v.markdown = nil
	v.missing.Hide()
	v.note.Importance = widget.MediumImportance
	var few *brief.TooFewFieldsError
	switch {
	case errors.As(res.err, &few):
		v.note.SetText(fmt.Sprintf("No brief yet: a Compute Readiness Brief needs at least %d of its %d fields, and this scenario fills %d. Fill in these fields (Edit JSON) and the brief appears here:",
			brief.MinFields, len(brief.Fields), few.Filled))
		v.missing.SetText(missingFieldsText(few.Missing))
		v.missing.Show()
		v.text.Segments = nil
	case res.err != nil:
		v.note.Importance = widget.DangerImportance
		v.note.SetText("Could not write the brief: " + strings.TrimPrefix(res.err.Error(), "brief: "))
		v.text.Segments = nil
	default:
		v.markdown = res.markdown
		note := "The brief as “hostplan brief " + id + "” writes it; save it as Markdown to share or edit."
		if res.checklistErr != nil {
			note = fmt.Sprintf("The stored checklist could not be read (%v), so every item shows as open. ", res.checklistErr) + note
		}
		v.note.SetText(note)
		v.pending = widget.NewRichTextFromMarkdown(displayMarkdown(string(res.markdown))).Segments
	}
	if v.markdown == nil {
		v.save.Disable()
		v.pending = nil
		v.text.Segments = nil
		v.text.Refresh()
	} else {
		v.save.Enable()
	}
	if v.shown {
		v.render()
	}
	v.scroll.ScrollToTop()
}

// setShown tells the view whether its tab is the selected one; the brief
// is laid out the first time it is shown.
func (v *briefView) setShown(shown bool) {
	v.shown = shown
	if shown {
		v.render()
	}
}

// render lays out a pending brief.
func (v *briefView) render() {
	if v.pending == nil {
		return
	}
	v.text.Segments = v.pending
	v.pending = nil
	v.text.Refresh()
	v.scroll.Refresh()
}

// missingFieldsText lists missing brief fields, one a line, with the
// scenario field that fills each.
func missingFieldsText(fields []brief.Field) string {
	lines := make([]string, len(fields))
	for i, f := range fields {
		lines[i] = fmt.Sprintf("• %s — %s (%s)", f.Label, f.Path, f.Section)
	}
	return strings.Join(lines, "\n")
}

// briefFileName is the name the save dialog proposes.
func briefFileName(id string) string {
	if id == "" {
		return "brief.md"
	}
	return id + "-brief.md"
}

// chooseFile asks where to save the brief and writes it there.
func (v *briefView) chooseFile() {
	if v.markdown == nil || v.window == nil {
		return
	}
	md := v.markdown
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err == nil && wc == nil {
			return // cancelled
		}
		if err == nil {
			err = writeBrief(wc, md)
		}
		if err != nil {
			v.showSaveError(err)
		}
	}, v.window)
	d.SetFileName(briefFileName(v.id))
	d.SetFilter(storage.NewExtensionFileFilter([]string{".md"}))
	d.Resize(fileDialogSize(v.window))
	d.Show()
}

func (v *briefView) showSaveError(err error) {
	err = fmt.Errorf("could not save the brief: %w", err)
	if v.saveErrs != nil {
		v.saveErrs(err)
		return
	}
	dialog.ShowError(err, v.window)
}

// writeBrief writes the Markdown to wc and closes it; a failed close is a
// failed save.
func writeBrief(wc io.WriteCloser, md []byte) error {
	_, err := wc.Write(md)
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	return err
}

// tableSeparator matches a Markdown table's rule line: "|---|:--:|".
var tableSeparator = regexp.MustCompile(`^\|(\s*:?-+:?\s*\|)+\s*$`)

// displayMarkdown prepares the brief for widget.RichText, whose Markdown
// has no tables: each table becomes a list, one item per row, each cell
// named by its heading ("**direction:** Hybrid; **total:** 0.84"). Names
// with underscores (scenario paths, skills) become code spans, because
// RichText puts a space at every underscore of plain text. The file the
// user saves keeps the Markdown as the brief wrote it.
func displayMarkdown(md string) string {
	lines := strings.Split(md, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") || i+1 >= len(lines) || !tableSeparator.MatchString(lines[i+1]) {
			out = append(out, codeUnderscores(lines[i]))
			continue
		}
		headings := tableCells(lines[i])
		i += 2
		for ; i < len(lines) && strings.HasPrefix(lines[i], "|"); i++ {
			var parts []string
			for c, cell := range tableCells(lines[i]) {
				if cell == "" {
					continue
				}
				if c < len(headings) && headings[c] != "" {
					cell = "**" + headings[c] + ":** " + cell
				}
				parts = append(parts, cell)
			}
			out = append(out, codeUnderscores("- "+strings.Join(parts, "; ")))
		}
		i-- // the loop's i++ moves to the line after the table
	}
	return strings.Join(out, "\n")
}

// underscored matches a name with an underscore inside it:
// "data.provider_may_process", "hpc_scheduler".
var underscored = regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9.\-]*_[A-Za-z0-9_.\-]*[A-Za-z0-9]`)

// codeUnderscores puts each underscored name outside code spans into a
// code span of its own.
func codeUnderscores(line string) string {
	if !strings.Contains(line, "_") {
		return line
	}
	parts := strings.Split(line, "`")
	for i := 0; i < len(parts); i += 2 { // the even parts are outside code spans
		if i == len(parts)-1 && len(parts)%2 == 0 {
			break // an unmatched backtick: leave the rest alone
		}
		parts[i] = underscored.ReplaceAllString(parts[i], "`$0`")
	}
	return strings.Join(parts, "`")
}

// tableCells splits a Markdown table row at its unescaped pipes.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(b.String()))
}

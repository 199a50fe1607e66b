package ui

import (
	"errors"
	"fmt"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// briefView is the Brief tab: the Compute Readiness Brief that the CLI's
// "hostplan brief" writes, rendered from its Document, with a button that
// saves its Markdown to a file (onSave, set by the planner: the same as
// File → Save brief…). When the scenario fills too few of the brief's
// fields it lists the ones missing instead.
type briefView struct {
	onSave func()

	id       string // the scenario's id, for the file name
	markdown []byte // the brief as Save brief… writes it (Markdown); nil when there is none

	// pending is the rendered brief waiting for the tab to be shown:
	// laying out a brief's text takes a noticeable moment, so it is done
	// only when someone looks at it.
	pending []widget.RichTextSegment
	shown   bool // the Brief tab is the selected one

	save    *widgets.TipButton
	note    *widget.Label // what the file is, or why there is no brief
	missing *widget.Label // the missing fields, one a line
	text    *widget.RichText
	scroll  *container.Scroll
	content fyne.CanvasObject
}

func newBriefView() *briefView {
	v := &briefView{}
	v.save = widgets.NewTipButton("Save brief…", theme.DocumentSaveIcon(), "Save the brief as a Markdown file", func() {
		if v.onSave != nil {
			v.onSave()
		}
	})
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
	doc *document.Document
	err error
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
	st, err := b.Checklist(s.ID)
	if res.checklistErr = err; err != nil {
		st = nil
	}
	res.checklist = st
	res.doc, res.err = brief.Build(s, r, d, st)
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
		v.note.SetText("No brief yet: a Compute Readiness Brief needs at least " + report.Whole(brief.MinFields) + " of its " + report.Whole(len(brief.Fields)) +
			" fields, and this scenario fills " + report.Whole(few.Filled) + ". Fill in these fields (Edit JSON) and the brief appears here:")
		v.missing.SetText(missingFieldsText(few.Missing))
		v.missing.Show()
		v.text.Segments = nil
	case res.err != nil:
		v.note.Importance = widget.DangerImportance
		v.note.SetText("Could not write the brief: " + strings.TrimPrefix(res.err.Error(), "brief: "))
		v.text.Segments = nil
	case res.doc == nil: // makeBrief always gives a brief or an error
		v.note.Importance = widget.DangerImportance
		v.note.SetText("Could not write the brief.")
		v.text.Segments = nil
	default:
		v.markdown = res.doc.Markdown()
		note := "The brief as “hostplan brief " + id + "” writes it; save it as Markdown to share or edit."
		if res.checklistErr != nil {
			note = fmt.Sprintf("The stored checklist could not be read (%v), so every item shows as open. ", res.checklistErr) + note
		}
		widgets.SetText(v.note, note)
		v.pending = briefSegments(res.doc)
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
	segs := v.pending
	v.pending = nil
	widgets.SetSegments(v.text, segs) // the same brief is not laid out again
	widgets.Refit(v.scroll)
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

// briefSegments renders the brief's Document for widget.RichText as
// RichText renders Markdown: the title as a heading, parts as
// subheadings, smaller ones in bold; a paragraph's lines flow together;
// lists as lists, a checklist box written in front of its item. RichText
// has no tables: each row becomes a list item whose cells are named by
// their headings ("rank: 1; direction: Hybrid"), empty cells left out.
func briefSegments(doc *document.Document) []widget.RichTextSegment {
	var out richSegments
	for _, sec := range doc.Sections {
		out = append(out, headingSegment(sec.Level, sec.Title))
		for _, b := range sec.Blocks {
			switch b := b.(type) {
			case *document.Paragraph:
				for i, l := range b.Lines {
					if i > 0 {
						out.plain(" ")
					}
					out.spans(l)
				}
				out = append(out, &widget.TextSegment{Style: widget.RichTextStyleParagraph})
			case *document.List:
				out = append(out, listSegment(b.Items))
			case *document.Table:
				out = append(out, tableSegment(b))
			}
		}
	}
	return out
}

func headingSegment(level int, title string) widget.RichTextSegment {
	switch level {
	case 1:
		return &widget.TextSegment{Style: widget.RichTextStyleHeading, Text: title}
	case 2:
		return &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: title}
	}
	st := widget.RichTextStyleParagraph
	st.TextStyle.Bold = true
	return &widget.TextSegment{Style: st, Text: title}
}

// richSegments collects RichText segments, joining neighbouring plain
// text into one segment.
type richSegments []widget.RichTextSegment

func (r *richSegments) plain(text string) {
	if n := len(*r); n > 0 {
		if t, ok := (*r)[n-1].(*widget.TextSegment); ok && t.Style == widget.RichTextStyleInline {
			t.Text += text
			return
		}
	}
	r.add(text, widget.RichTextStyleInline)
}

func (r *richSegments) add(text string, st widget.RichTextStyle) {
	*r = append(*r, &widget.TextSegment{Style: st, Text: text})
}

// spans adds a line of the brief: strong text bold, emphasis italic, code
// in the monospace font.
func (r *richSegments) spans(t document.Text) {
	for _, s := range t {
		switch s.Style {
		case document.Strong:
			r.add(s.Text, widget.RichTextStyleStrong)
		case document.Emphasis:
			r.add(s.Text, widget.RichTextStyleEmphasis)
		case document.Code:
			r.add(s.Text, widget.RichTextStyleCodeInline)
		default:
			r.plain(s.Text)
		}
	}
}

func listSegment(items []document.ListItem) *widget.ListSegment {
	l := &widget.ListSegment{}
	for _, it := range items {
		var texts richSegments
		if m := it.Box.Mark(); m != "" {
			// RichText draws a space between brackets too narrow to
			// see; an en space keeps the open box "[ ]" open.
			texts.plain(strings.ReplaceAll(m, " ", "\u2002") + " ")
		}
		texts.spans(it.Text)
		if len(it.Items) > 0 {
			texts = append(texts, listSegment(it.Items))
		}
		l.Items = append(l.Items, &widget.ParagraphSegment{Texts: texts})
	}
	return l
}

func tableSegment(t *document.Table) *widget.ListSegment {
	l := &widget.ListSegment{}
	for _, row := range t.Rows {
		var texts richSegments
		for c, cell := range row {
			if len(cell.Text) == 0 {
				continue
			}
			if len(texts) > 0 {
				texts.plain("; ")
			}
			if c < len(t.Header) && t.Header[c] != "" {
				texts.add(t.Header[c]+":", widget.RichTextStyleStrong)
				texts.plain(" ")
			}
			texts.spans(cell.Text)
		}
		l.Items = append(l.Items, &widget.ParagraphSegment{Texts: texts})
	}
	return l
}

package report

import (
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
)

// NotesSegments builds the Notes tab: the report's warnings first, then each
// direction's notes (the assumptions a reader should know) under its title.
func NotesSegments(r *model.Report) []widget.RichTextSegment {
	var segs []widget.RichTextSegment
	heading := func(text string) {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleSubHeading, Text: text})
	}
	paragraph := func(text string) {
		segs = append(segs, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: text})
	}
	bullets := func(items []string) {
		list := &widget.ListSegment{}
		for _, it := range items {
			list.Items = append(list.Items, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: it})
		}
		segs = append(segs, list)
	}

	if len(r.Warnings) > 0 {
		heading("Warnings")
		bullets(model.NoteTexts(r.Warnings))
	}
	for _, d := range r.Directions {
		title := TitleOf(d)
		if d.OfferName != "" {
			title += " — " + d.OfferName
		}
		heading(title)
		if len(d.Notes) == 0 {
			paragraph("No notes.")
			continue
		}
		bullets(model.NoteTexts(d.Notes))
	}
	if len(segs) == 0 {
		paragraph("The report has no notes.")
	}
	return segs
}

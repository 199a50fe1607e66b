package ui

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/document"
	"hostplan/internal/ui/uitest"
)

// checklistBackend is a fake backend that also keeps checklist state.
type checklistBackend struct {
	*fakeBackend
	state brief.ChecklistState
	err   error
}

func (c *checklistBackend) Checklist(string) (brief.ChecklistState, error) { return c.state, c.err }

var _ Backend = (*checklistBackend)(nil)

func openBriefTab(t *testing.T, p *planner, i int) *briefView {
	t.Helper()
	p.scenarios.list.Select(i)
	waitFor(t, p.view, stateReady)
	selectTab(t, p.view.tabs, "Brief")
	return p.view.brief
}

// The tab holds exactly what brief.WithChecklist writes (what "hostplan
// brief" writes), with the stored checklist, and renders it with its
// tables turned into lists.
func TestBriefTab(t *testing.T) {
	fb := newFakeBackend()
	state := brief.ChecklistState{"before.quota": {Status: brief.StatusDone, Owner: "Platform team"}}
	b := &checklistBackend{fakeBackend: fb, state: state}
	w, p := openWindow(t, b)
	v := openBriefTab(t, p, 0)

	s := fb.scenarios["ft-7b"]
	want, err := brief.WithChecklist(s, fb.reports["ft-7b"], nil, state)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(v.markdown, want) {
		t.Errorf("the tab's brief differs from brief.WithChecklist:\n got %q\nwant %q", v.markdown, want)
	}
	if !bytes.Contains(v.markdown, []byte("- [x] Ask for GPU quota")) {
		t.Error("the brief does not show the stored checklist state")
	}
	if v.save.Disabled() {
		t.Error("Save brief… is disabled with a brief to save")
	}
	if v.missing.Visible() {
		t.Error("missing fields shown for a brief that was written")
	}
	if got := briefFileName(v.id); got != "ft-7b-brief.md" {
		t.Errorf("proposed file name = %q, want ft-7b-brief.md", got)
	}
	text := uitest.SegmentTexts(v.text.Segments)
	for _, want := range []string{"Compute Readiness Brief: Fine-tune 7B on claims notes", "Recommendation", "Readiness checklist"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered brief lacks %q", want)
		}
	}
	if strings.Contains(text, "|---") || strings.Contains(text, "| rank |") {
		t.Errorf("a Markdown table is rendered as raw pipes:\n%s", text)
	}
	// No Markdown is read: the checklist box and the code spans show as
	// the brief has them, with nothing split or spaced apart.
	for _, want := range []string{"[x] Ask for GPU quota", "rank:", "direction:", "\nbefore.quota\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered brief lacks %q", want)
		}
	}
	for _, bad := range []string{"**", "`", "[ x]"} {
		if strings.Contains(text, bad) {
			t.Errorf("rendered brief shows Markdown %q", bad)
		}
	}
	if !strings.Contains(test.RenderToMarkup(w.Canvas()), "Save brief…") {
		t.Error("window does not show the Save brief… button")
	}

	// What Save brief… writes is the Markdown, byte for byte, where the
	// dialog says; a path in a missing folder is refused.
	test.Tap(v.save)
	entry := overlayOf[*escEntry](w)
	if entry == nil || !strings.HasSuffix(entry.Text, "ft-7b-brief.md") {
		t.Fatalf("the save dialog proposes %v", entry)
	}
	dir := t.TempDir()
	entry.SetText(filepath.Join(dir, "missing", "b.md"))
	if save := overlayButton(w, "Save"); !save.Disabled() {
		t.Error("a path in a missing folder is accepted")
	}
	path := filepath.Join(dir, "b.md")
	entry.SetText(path)
	test.Tap(overlayButton(w, "Save"))
	settle(t, p)
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("saved %d bytes (%v), want the %d of the brief", len(got), err, len(want))
	}
	if text := overlayLabels(w); !strings.Contains(text, path) {
		t.Errorf("the confirmation does not name %s: %q", path, text)
	}
}

// A scenario with too few fields has no brief: the tab says how many are
// needed and lists every missing field with its path; nothing to save.
func TestBriefTabTooFewFields(t *testing.T) {
	_, p := openWindow(t, newFakeBackend())
	v := openBriefTab(t, p, 1) // the chat service fills only shape and precision

	if v.markdown != nil || !v.save.Disabled() {
		t.Errorf("a brief to save (%d bytes, button disabled %v) for a scenario with too few fields", len(v.markdown), v.save.Disabled())
	}
	for _, want := range []string{"needs at least 7 of its 15 fields", "this scenario fills 2"} {
		if !strings.Contains(v.note.Text, want) {
			t.Errorf("note %q lacks %q", v.note.Text, want)
		}
	}
	if !v.missing.Visible() {
		t.Fatal("missing fields not shown")
	}
	for _, want := range []string{
		"• Decision supported — purpose.decision (Purpose and success)",
		"• Data volume — data.volume_gb (Technical envelope)",
		"• Retention and clean-up owner — data.retention_owner (Access and operation)",
	} {
		if !strings.Contains(v.missing.Text, want) {
			t.Errorf("missing list lacks %q:\n%s", want, v.missing.Text)
		}
	}
	if n := strings.Count(v.missing.Text, "•"); n != 13 {
		t.Errorf("%d missing fields listed, want 13 (15 less shape and precision)", n)
	}
}

// A checklist that cannot be read does not cost the brief: it is written
// with every item open, and the tab says why.
func TestBriefTabChecklistError(t *testing.T) {
	b := &checklistBackend{fakeBackend: newFakeBackend(), err: errors.New("checklist record is corrupt")}
	_, p := openWindow(t, b)
	v := openBriefTab(t, p, 0)
	if v.markdown == nil {
		t.Fatal("no brief")
	}
	if !strings.Contains(v.note.Text, "checklist record is corrupt") {
		t.Errorf("note %q does not give the checklist error", v.note.Text)
	}
	if bytes.Contains(v.markdown, []byte("[x]")) {
		t.Error("an item is done although the checklist could not be read")
	}
}

// briefSegments renders each part of the Document as RichText renders
// the same Markdown, with no Markdown in between: headings by level, a
// paragraph's lines flowing, styles, boxes, nested lists, and a table as a
// list of rows whose cells are named by their headings.
func TestBriefSegments(t *testing.T) {
	plain := func(s string) document.Span { return document.Span{Text: s} }
	doc := &document.Document{Sections: []document.Section{
		{Level: 1, Title: "Title", Blocks: []document.Block{
			&document.Paragraph{Lines: []document.Text{
				{{Text: "Question?", Style: document.Strong}},
				{plain("needs "), {Text: "data.provider_may_process", Style: document.Code}, plain(" and "), {Text: "estimate", Style: document.Emphasis}},
			}},
		}},
		{Level: 2, Title: "Part", Blocks: []document.Block{
			&document.List{Items: []document.ListItem{
				{Box: document.BoxDone, Text: document.Text{plain("done item")}},
				{Box: document.BoxOpen, Text: document.Text{plain("open item")}},
				{Text: document.Text{plain("It must record:")}, Items: []document.ListItem{{Text: document.Text{plain("the hpc_scheduler skill")}}}},
			}},
		}},
		{Level: 3, Title: "Ranking", Blocks: []document.Block{
			&document.Table{Header: []string{"rank", "direction", "note"}, Rows: [][]document.Cell{
				{{Text: document.Text{plain("1")}, Figure: true, Value: 1}, {Text: document.Text{plain("Hybrid")}}, {Text: document.Text{plain("a | b")}}},
				{{Text: document.Text{plain("—")}}, {Text: document.Text{plain("Cloud IaaS")}}, {}},
			}},
		}},
	}}
	segs := briefSegments(doc)
	type seg struct {
		kind, text string
		st         widget.RichTextStyle
	}
	var flat []seg
	var walk func([]widget.RichTextSegment, string)
	walk = func(ss []widget.RichTextSegment, in string) {
		for _, x := range ss {
			switch x := x.(type) {
			case *widget.ListSegment:
				flat = append(flat, seg{kind: in + "list"})
				walk(x.Items, in+"  ")
			case *widget.ParagraphSegment:
				flat = append(flat, seg{kind: in + "item"})
				walk(x.Texts, in+"  ")
			case *widget.TextSegment:
				flat = append(flat, seg{kind: in + "text", text: x.Text, st: x.Style})
			default:
				t.Fatalf("unexpected segment %T", x)
			}
		}
	}
	walk(segs, "")
	bold := widget.RichTextStyleParagraph
	bold.TextStyle.Bold = true
	in, strong := widget.RichTextStyleInline, widget.RichTextStyleStrong
	want := []seg{
		{"text", "Title", widget.RichTextStyleHeading},
		{"text", "Question?", strong},
		{"text", " needs ", in},
		{"text", "data.provider_may_process", widget.RichTextStyleCodeInline},
		{"text", " and ", in},
		{"text", "estimate", widget.RichTextStyleEmphasis},
		{"text", "", widget.RichTextStyleParagraph},
		{"text", "Part", widget.RichTextStyleSubHeading},
		{kind: "list"},
		{kind: "  item"},
		{"    text", "[x] done item", in},
		{kind: "  item"},
		{"    text", "[\u2002] open item", in},
		{kind: "  item"},
		{"    text", "It must record:", in},
		{kind: "    list"},
		{kind: "      item"},
		{"        text", "the hpc_scheduler skill", in},
		{"text", "Ranking", bold},
		{kind: "list"},
		{kind: "  item"},
		{"    text", "rank:", strong}, {"    text", " 1; ", in},
		{"    text", "direction:", strong}, {"    text", " Hybrid; ", in},
		{"    text", "note:", strong}, {"    text", " a | b", in},
		{kind: "  item"},
		{"    text", "rank:", strong}, {"    text", " —; ", in},
		{"    text", "direction:", strong}, {"    text", " Cloud IaaS", in},
	}
	if len(flat) != len(want) {
		t.Fatalf("%d segments, want %d:\n%+v", len(flat), len(want), flat)
	}
	for i := range want {
		if flat[i] != want[i] {
			t.Errorf("segment %d = %+v, want %+v", i, flat[i], want[i])
		}
	}
	if got := widget.NewRichText(segs...); !strings.Contains(uitest.SegmentTexts(got.Segments), "Hybrid") {
		t.Error("the rendered table does not show its rows")
	}
}

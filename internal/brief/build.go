package brief

import (
	"errors"
	"fmt"

	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

// Build writes the Compute Readiness Brief of a scenario as a Document,
// from the scenario, its report, the decision (nil: decided here) and the
// scenario's recorded checklist state (nil: every item open). With fewer
// than MinFields fields filled there is no brief: the error is a
// *TooFewFieldsError (errors.Is ErrTooFewFields) listing what is missing.
// Its last section, Lineage, names the build of hostplan that wrote it
// (version.Current).
func Build(s *scenario.Scenario, r *model.Report, d *decide.Decision, st ChecklistState) (*document.Document, error) {
	return build(s, r, d, st, version.Current())
}

// build is Build with the build of hostplan to record given.
func build(s *scenario.Scenario, r *model.Report, d *decide.Decision, st ChecklistState, bi version.Info) (*document.Document, error) {
	if s == nil {
		return nil, errors.New("brief: no scenario")
	}
	filled, missing := Filled(s)
	if len(filled) < MinFields {
		return nil, &TooFewFieldsError{Filled: len(filled), Missing: missing}
	}
	if r == nil {
		return nil, errors.New("brief: no report")
	}
	if d == nil {
		var err error
		if d, err = decide.Decide(s, r); err != nil {
			return nil, err
		}
	}
	if d.ScenarioID != s.ID || r.ScenarioID != s.ID {
		return nil, fmt.Errorf("brief: scenario %q, report %q and decision %q do not belong together", s.ID, r.ScenarioID, d.ScenarioID)
	}
	w := &writer{s: s, r: r, d: d, st: st, missing: missing, build: bi}
	if dir := d.Recommendation; dir != "" {
		w.win = r.Direction(dir)
	}
	w.write(len(filled))
	return &w.doc, nil
}

// Brief writes the Compute Readiness Brief of a scenario as Markdown, with
// the checklist in its default state (every item open): Build rendered by
// Document.Markdown.
func Brief(s *scenario.Scenario, r *model.Report, d *decide.Decision) (markdown []byte, err error) {
	return WithChecklist(s, r, d, nil)
}

// WithChecklist is Brief with the scenario's recorded checklist state.
func WithChecklist(s *scenario.Scenario, r *model.Report, d *decide.Decision, st ChecklistState) ([]byte, error) {
	doc, err := Build(s, r, d, st)
	if err != nil {
		return nil, err
	}
	return doc.Markdown(), nil
}

// writer builds a Document, one section after the other; the files named
// after each part of the brief hold the methods that write it.
type writer struct {
	doc     document.Document
	s       *scenario.Scenario
	r       *model.Report
	d       *decide.Decision
	st      ChecklistState
	win     *model.DirectionResult // nil when nothing is feasible
	missing []Field
	build   version.Info // the hostplan that writes the brief
}

// write writes the whole brief, in order.
func (w *writer) write(nFilled int) {
	w.intro(nFilled)
	w.fields()
	w.assumptions()
	w.recommendation()
	w.energy()
	w.leadership()
	w.lifecycle()
	w.trial()
	w.checklist()
	w.lineage()
}

// section starts a section; the blocks added next belong to it.
func (w *writer) section(level int, title string) {
	w.doc.Sections = append(w.doc.Sections, document.Section{Level: level, Title: title})
}

func (w *writer) add(b document.Block) {
	s := &w.doc.Sections[len(w.doc.Sections)-1]
	s.Blocks = append(s.Blocks, b)
}

// para adds a paragraph of the given lines.
func (w *writer) para(lines ...document.Text) { w.add(&document.Paragraph{Lines: lines}) }

// list adds a list of the given items.
func (w *writer) list(items ...document.ListItem) { w.add(&document.List{Items: items}) }

// item is a list item of spans.
func item(spans ...document.Span) document.ListItem { return document.ListItem{Text: txt(spans...)} }

// intro writes the title, what the brief is and how many fields it fills.
func (w *writer) intro(nFilled int) {
	s, r := w.s, w.r
	w.section(1, "Compute Readiness Brief: "+inline(s.Name))
	w.para(
		txt(plain("A sizing hypothesis, not a purchase order. Scenario "), code(s.ID),
			plain(fmt.Sprintf(", model %s, prices as of %s (the oldest any direction used; each direction's under Recommendation)%s.", r.ModelVersion, orDash(r.CatalogAsOf), conversions(r)))),
		txt(plain("Figures marked "), emphasis("estimate"), plain(" are the team's ranges (the likely value is used); "),
			emphasis("assumed"), plain(" marks a default of the model; "), emphasis("model"), plain(" marks a figure hostplan computed.")),
	)
	count := []document.Span{plain(fmt.Sprintf("Fields filled: %d of %d.", nFilled, len(Fields)))}
	if len(w.missing) > 0 {
		count = append(count, plain(" Not stated: "))
		for i, f := range w.missing {
			if i > 0 {
				count = append(count, plain(", "))
			}
			count = append(count, plain(f.Label+" ("), code(f.Path), plain(")"))
		}
		count = append(count, plain("."))
	}
	w.para(txt(count...))
}

// conversions names the exchange rates r converted catalog prices with:
// "; amounts in EUR, prices in USD converted at …", or "".
func conversions(r *model.Report) string {
	if len(r.ExchangeRates) == 0 {
		return ""
	}
	out := "; amounts in " + r.Currency
	for _, x := range r.ExchangeRates {
		out += ", " + present.Conversion(x.From, x.To, x.Rate, x.AsOf)
	}
	return out
}

// lineage writes the last section: which hostplan wrote the brief, from
// which model, scenario format and prices, so a brief found later can be
// traced to the build and the figures behind it.
func (w *writer) lineage() {
	b := w.build
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	spans := []document.Span{plain("Written by hostplan " + b.Version + ", commit "), code(commit)}
	if b.Modified {
		spans = append(spans, plain(" with uncommitted changes"))
	}
	spans = append(spans, plain(fmt.Sprintf(", built %s with %s for %s; model %s, scenario schema %d, prices as of %s.",
		b.DateOrUnknown(), orDash(b.GoVersion), orDash(b.Platform), w.r.ModelVersion, scenario.SchemaVersion, orDash(w.r.CatalogAsOf))))
	w.section(2, "Lineage")
	w.para(txt(spans...))
}

package export

import (
	"fmt"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Layout of the Decision sheet: a label column, seven narrow columns for
// scores and figures, and a wide one for reasons. Text wider than a column
// is merged across the columns to its right.
const (
	colDecLabel = 1 // direction or fact
	colDecFirst = 2 // first figure column
	colDecLast  = 9 // the wide text column
)

// Columns of the ranking table.
const (
	colRankDir   = 1
	colRankRank  = 2
	colRankTotal = 3
	colRankDim   = 4 // the five dimensions, D–H
	colRankNote  = 9
)

// decWriter writes the Decision sheet row by row.
type decWriter struct {
	b   *book
	r   *model.Report
	d   *decide.Decision
	row int
}

func (w *decWriter) field(format string, a ...any) string {
	return "decision." + fmt.Sprintf(format, a...)
}

// Number formats of the Decision sheet beyond the shared ones.
const (
	fmtLead   = "0.000"      // weighted scores and leads
	fmtChange = "+0%;-0%;0%" // a signed weight change
)

// fig writes a figure centred in its column and at the top of its row.
func (w *decWriter) fig(col int, x float64, format string, bold bool, field string) {
	w.b.num(sheetDecision, col, w.row, x, w.b.aligned(w.b.numFmt(format, bold), "center", "top"), field)
}

// section starts a titled block after a blank row.
func (w *decWriter) section(title string) {
	w.row++
	w.b.spanText(sheetDecision, w.row, 1, colDecLast, title, textStyle{bold: true, size: sizeHead})
	w.row++
}

// para writes a paragraph across the sheet.
func (w *decWriter) para(text string) {
	w.b.spanText(sheetDecision, w.row, 1, colDecLast, text, textStyle{})
	w.row++
}

// fact writes a label and text spanning the rest of the row.
func (w *decWriter) fact(label, text string) {
	w.b.spanText(sheetDecision, w.row, 1, 1, label, textStyle{bold: true})
	w.b.spanText(sheetDecision, w.row, colDecFirst, colDecLast, text, textStyle{})
	w.row++
}

// factNum writes a label, a number and, when given, text after it.
func (w *decWriter) factNum(label string, x float64, format, field, text string) {
	const sh = sheetDecision
	w.b.spanText(sh, w.row, 1, 1, label, textStyle{bold: true})
	w.b.numLeft(sh, colDecFirst, w.row, x, format, field)
	if text != "" {
		w.b.spanText(sh, w.row, colDecFirst+1, colDecLast, text, textStyle{indent: 1})
	}
	w.row++
}

// header writes a table header: each title in columns from–to.
func (w *decWriter) header(cols ...hcol) {
	for _, c := range cols {
		w.b.spanText(sheetDecision, w.row, c.from, c.to, c.title, textStyle{header: true, indent: c.indent, align: c.align})
	}
	w.row++
}

// hcol is a header title over columns from–to, indented beside a column
// of figures.
type hcol struct {
	from, to int
	title    string
	indent   int
	align    string
}

func hc(from, to int, title string) hcol { return hcol{from: from, to: to, title: title} }

func (h hcol) indented() hcol { h.indent = 1; return h }

// centred centres a title over a column of figures.
func (h hcol) centred() hcol { h.align = "center"; return h }

// writeDecision writes the decision: the recommendation, the ranking with
// the five scores, each score's reason, the directions ruled out, why the
// winner wins, what would make the runner-up win, the robustness checks,
// the bottlenecks and the first trial. These are the decide package's
// values, not formulas: a change of a driver does not re-rank.
func writeDecision(b *book, r *model.Report, d *decide.Decision) {
	const sh = sheetDecision
	b.widths(sh, 26, 12, 12, 12, 12, 12, 12, 12, 62)
	w := &decWriter{b: b, r: r, d: d, row: 1}

	title := "Decision: no direction is feasible"
	if top := d.For(d.Recommendation); top != nil {
		title = "Decision: " + top.Title + " is recommended"
	}
	b.spanText(sh, w.row, 1, colDecLast, title, textStyle{bold: true, size: sizeTitle})
	b.freeze(sh, 1)
	w.row++
	w.para(d.Summary)
	w.para("Values from hostplan's decision rules, not formulas: changing the drivers re-ranks the costs on Summary, not these scores; re-run the analysis in hostplan.")

	w.ranking()
	w.scores()
	w.ruledOut()
	w.why()
	w.runnerUp()
	w.robustness()
	w.bottlenecks()
	w.trial()
}

func (w *decWriter) ranking() {
	const sh = sheetDecision
	b, d := w.b, w.d
	w.section("Ranking by the scenario's weights (scores 0–1, higher is better)")
	cols := []hcol{hc(colRankDir, colRankDir, "Direction"), hc(colRankRank, colRankRank, "Rank").centred(), hc(colRankTotal, colRankTotal, "Weighted total").centred()}
	for j, name := range scenario.DimensionNames {
		cols = append(cols, hc(colRankDim+j, colRankDim+j, present.DimensionTitle(name)).centred())
	}
	cols = append(cols, hc(colRankNote, colRankNote, "Standing").indented())
	w.header(cols...)

	b.spanText(sh, w.row, colRankDir, colRankDir, "Weight (normalised)", textStyle{italic: true})
	given := make([]string, len(d.Weights))
	for j, wt := range d.Weights {
		w.fig(colRankDim+j, wt.Normalised, fmtRatio, false, w.field("weights[%s].normalised", wt.Dimension))
		given[j] = present.Number(wt.Given)
	}
	b.spanText(sh, w.row, colRankNote, colRankNote, "as given: "+strings.Join(given, ", "), textStyle{italic: true, indent: 1})
	w.row++

	for _, id := range d.Ranking {
		dd := d.For(id)
		bold := dd.Rank == 1
		b.spanText(sh, w.row, colRankDir, colRankDir, dd.Title, textStyle{bold: bold})
		w.fig(colRankRank, float64(dd.Rank), fmtGeneral, bold, w.field("directions[%s].rank", id))
		w.fig(colRankTotal, dd.Total, fmtRatio, bold, w.field("directions[%s].total", id))
		for _, sc := range dd.Scores {
			j := dimIndex(sc.Dimension)
			if j < 0 {
				continue
			}
			w.fig(colRankDim+j, sc.Score, fmtRatio, bold, w.field("directions[%s].scores[%s].score", id, sc.Dimension))
		}
		standing := "feasible"
		switch {
		case dd.Rank == 1:
			standing = "recommended"
		case d.RunnerUp != nil && id == d.RunnerUp.Direction:
			standing = "runner-up"
		}
		b.spanText(sh, w.row, colRankNote, colRankNote, standing, textStyle{bold: bold, indent: 1})
		w.row++
	}
	for _, dd := range d.Directions {
		if dd.Feasible {
			continue
		}
		b.spanText(sh, w.row, colRankDir, colRankDir, dd.Title, textStyle{})
		b.spanText(sh, w.row, colRankRank, colRankRank, present.NoValue, textStyle{align: "center"})
		b.spanText(sh, w.row, colRankNote, colRankNote, "ruled out: "+decide.KindList(dd.Kinds()), textStyle{indent: 1})
		w.row++
	}
}

func (w *decWriter) scores() {
	const sh = sheetDecision
	b, d := w.b, w.d
	if len(d.Ranking) == 0 {
		return
	}
	w.section("Scores and their reasons")
	w.header(hc(1, 1, "Direction"), hc(2, 3, "Dimension"), hc(4, 4, "Score").centred(), hc(5, 5, "Weight").centred(),
		hc(6, 6, "Score × weight").centred(), hc(7, colDecLast, "Reason").indented())
	for _, id := range d.Ranking {
		dd := d.For(id)
		for _, sc := range dd.Scores {
			f := func(name string) string { return w.field("directions[%s].scores[%s].%s", id, sc.Dimension, name) }
			b.spanText(sh, w.row, 1, 1, dd.Title, textStyle{})
			b.spanText(sh, w.row, 2, 3, present.DimensionTitle(sc.Dimension), textStyle{})
			w.fig(4, sc.Score, fmtRatio, false, f("score"))
			w.fig(5, sc.Weight, fmtRatio, false, f("weight"))
			w.fig(6, sc.Weighted, fmtLead, false, f("weighted"))
			b.spanText(sh, w.row, 7, colDecLast, sc.Reason, textStyle{indent: 1})
			w.row++
		}
	}
}

func (w *decWriter) ruledOut() {
	const sh = sheetDecision
	b, d := w.b, w.d
	var out []decide.Direction
	for _, dd := range d.Directions {
		if !dd.Feasible {
			out = append(out, dd)
		}
	}
	if len(out) == 0 {
		return
	}
	w.section("Ruled out: the hard constraints each direction breaks")
	w.header(hc(1, 1, "Direction"), hc(2, 2, "Constraint"), hc(3, 6, "Reason (the model's words)"), hc(7, colDecLast, "First question it raises").indented())
	for _, dd := range out {
		if len(dd.Constraints) == 0 {
			b.spanText(sh, w.row, 1, 1, dd.Title, textStyle{})
			b.spanText(sh, w.row, 3, 6, "not feasible (no reason given)", textStyle{})
			w.row++
		}
		for _, c := range dd.Constraints {
			b.spanText(sh, w.row, 1, 1, dd.Title, textStyle{})
			b.spanText(sh, w.row, 2, 2, string(c.Kind), textStyle{})
			b.spanText(sh, w.row, 3, 6, c.Reason, textStyle{})
			b.spanText(sh, w.row, 7, colDecLast, c.Question, textStyle{indent: 1})
			w.row++
		}
	}
}

func (w *decWriter) why() {
	const sh = sheetDecision
	b, d := w.b, w.d
	top := d.For(d.Recommendation)
	if top == nil {
		w.section("Why no direction is recommended")
		w.para(d.Why)
		return
	}
	w.section("Why " + top.Title + " wins")
	w.para(d.Why)
	if len(d.WhyWinner) == 0 || d.RunnerUp == nil {
		return
	}
	second := present.DirectionTitle(d.RunnerUp.Direction)
	w.header(hc(1, 1, "Dimension"), hc(2, 2, top.Title+" score").centred(), hc(3, 3, second+" score").centred(),
		hc(4, 4, "Weight").centred(), hc(5, 5, "Weighted lead").centred(), hc(6, colDecLast, ""))
	for i, l := range d.WhyWinner {
		f := func(name string) string { return w.field("why_winner[%d].%s", i, name) }
		b.spanText(sh, w.row, 1, 1, present.DimensionTitle(l.Dimension), textStyle{})
		w.fig(2, l.Winner, fmtRatio, false, f("winner_score"))
		w.fig(3, l.RunnerUp, fmtRatio, false, f("runner_up_score"))
		w.fig(4, l.Weight, fmtRatio, false, f("weight"))
		w.fig(5, l.Lead, fmtLead, false, f("weighted_lead"))
		w.row++
	}
}

func (w *decWriter) runnerUp() {
	d := w.d
	w.section("What would make the runner-up win")
	ru := d.RunnerUp
	if ru == nil {
		w.para("No runner-up: fewer than two directions are feasible.")
		return
	}
	w.para(ru.Summary)
	w.fact("Runner-up", present.DirectionTitle(ru.Direction))
	w.factNum("Behind by (weighted total)", ru.Gap, "0.000", w.field("runner_up.gap"), "")
	if wc := ru.Weight; wc != nil {
		leader := present.DirectionTitle(wc.NewLeader)
		w.fact("One weight that ties them", fmt.Sprintf("%s weight from %s to %s, the others as given; just past the tie %s leads",
			present.DimensionTitle(wc.Dimension), present.Figure(wc.From), present.Figure(wc.To), leader))
	} else {
		w.fact("One weight that ties them", "none: no single weight change closes the gap")
	}
	if cc := ru.Cost; cc != nil {
		cur := w.r.Currency
		w.factNum("Its cost over the horizon ("+cur+")", cc.From, fmtMoneyWhole, w.field("runner_up.cost_change.from"), "as the model costs it now")
		w.factNum("Cost at which it ties ("+cur+")", cc.To, fmtMoneyWhole, w.field("runner_up.cost_change.to"),
			present.Percent(cc.Reduction)+" lower")
	} else {
		w.fact("A cost that ties them", "none: a lower cost alone cannot close the gap")
	}
}

func (w *decWriter) robustness() {
	const sh = sheetDecision
	b, d := w.b, w.d
	rb := d.Robustness
	w.section("Robustness: each weight moved by ±" + present.Percent(rb.Perturbation) + ", the others as given")
	w.para(rb.Text())
	if len(rb.Checks) == 0 {
		return
	}
	w.header(hc(1, 1, "Dimension"), hc(2, 2, "Weight change").centred(), hc(3, 5, "First").indented(), hc(6, 8, "Second"), hc(9, 9, "Order kept"))
	for i, c := range rb.Checks {
		b.spanText(sh, w.row, 1, 1, present.DimensionTitle(c.Dimension), textStyle{})
		w.fig(2, c.Change, fmtChange, false, w.field("robustness.checks[%d].change", i))
		b.spanText(sh, w.row, 3, 5, decideTitle(c.Winner), textStyle{indent: 1})
		b.spanText(sh, w.row, 6, 8, decideTitle(c.RunnerUp), textStyle{})
		kept := "Yes"
		if !c.Survives {
			kept = "No"
		}
		b.spanText(sh, w.row, 9, 9, kept, textStyle{bold: !c.Survives})
		w.row++
	}
}

func (w *decWriter) bottlenecks() {
	const sh = sheetDecision
	b, d := w.b, w.d
	w.section("Likely bottlenecks and the first infrastructure question")
	w.header(hc(1, 1, "Direction"), hc(2, 4, "Likely bottleneck"), hc(5, colDecLast, "First infrastructure question"))
	for _, dd := range d.Directions {
		bn := dd.Bottleneck
		if !dd.Feasible {
			bn += " (ruled out)"
		}
		b.spanText(sh, w.row, 1, 1, dd.Title, textStyle{})
		b.spanText(sh, w.row, 2, 4, bn, textStyle{})
		b.spanText(sh, w.row, 5, colDecLast, dd.Question, textStyle{})
		w.row++
	}
}

func (w *decWriter) trial() {
	d := w.d
	w.section("First trial to request")
	t := d.FirstTrial
	if t == nil {
		w.para("None yet: no direction is feasible.")
		return
	}
	f := func(name string) string { return w.field("first_trial.%s", name) }
	w.fact("Direction", present.DirectionTitle(t.Direction))
	if t.GPU != "" {
		top := t.GPUs
		for _, n := range t.GPUCounts {
			top = max(top, n)
		}
		gpus := fmt.Sprintf("%d × %s", top, t.GPU)
		if top > t.GPUs {
			gpus = fmt.Sprintf("up to %d × %s (%d is the smallest count that fits)", top, t.GPU, t.GPUs)
		}
		w.fact("GPUs", gpus)
	} else {
		w.fact("GPUs", "none to reserve: a managed service")
	}
	if len(t.GPUCounts) > 0 {
		counts := make([]string, len(t.GPUCounts))
		for i, n := range t.GPUCounts {
			counts[i] = fmt.Sprint(n)
		}
		w.fact("Throughput measured on", strings.Join(counts, ", ")+" GPUs")
	}
	if t.MeasuredSteps > 0 {
		w.factNum("Measured steps per GPU count", float64(t.MeasuredSteps), fmtGeneral, f("measured_steps"), "after warm-up")
	}
	inTurn := ""
	if len(t.GPUCounts) > 1 {
		inTurn = "all GPU counts in turn"
	}
	w.factNum("Elapsed (hours)", t.Hours, fmtRatio, f("hours"), inTurn)
	if t.GPUHours > 0 {
		w.factNum("GPU-hours", t.GPUHours, fmtRatio, f("gpu_hours"), "")
	}
	if t.ShareOfRun > 0 {
		w.factNum("Share of one full run", t.ShareOfRun, fmtPercent, f("share_of_run"), "of its GPU-hours")
	}
	if t.SampleGB > 0 {
		files := ""
		if t.SampleFiles > 0 {
			files = fmt.Sprintf("about %s files", present.Whole(float64(t.SampleFiles)))
		}
		w.factNum("Data sample (GB)", t.SampleGB, fmtGeneral, f("sample_gb"), files)
	}
	w.fact("It answers", t.Answers)
	for i, e := range t.Evidence {
		label := ""
		if i == 0 {
			label = "It must record"
		}
		w.fact(label, "• "+e)
	}
	w.fact("Result accepted by", orDash(t.AcceptedBy))
	w.fact("Clean-up confirmed by", orDash(t.CleanupBy))
	w.fact("Sizing", t.Basis)
}

// dimIndex is the position of a dimension in scenario.DimensionNames, or −1.
func dimIndex(name string) int {
	for i, n := range scenario.DimensionNames {
		if n == name {
			return i
		}
	}
	return -1
}

// decideTitle is a direction's title, present.NoValue for none.
func decideTitle(id string) string {
	if id == "" {
		return present.NoValue
	}
	return present.DirectionTitle(id)
}

func orDash(s string) string {
	if strings.TrimSpace(s) == "" {
		return present.NoValue
	}
	return s
}

package brief

import (
	"fmt"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The recommendation: package decide's summary and ranking, the weights,
// why the winner wins and what would change it, its scores, what is ruled
// out and why, each direction's bottleneck and first question, and the
// parallel layouts of those that split the model over GPUs.

// rankingHeader heads the ranking table: rank, direction, total and one
// column per decision dimension, in decide's order.
func rankingHeader() []string {
	h := []string{"rank", "direction", "total"}
	for _, name := range scenario.DimensionNames {
		h = append(h, present.Lower(present.DimensionTitle(name)))
	}
	return h
}

func (w *writer) recommendation() {
	d := w.d
	w.section(2, "Recommendation")
	w.para(txt(plain(d.Summary)))

	rank := &document.Table{Header: rankingHeader()}
	for _, name := range d.Ranking {
		dd := d.For(name)
		row := []document.Cell{figureCell(float64(dd.Rank), 0), textCell(plain(dd.Title)), figureCell(dd.Total, 2)}
		for _, sc := range dd.Scores {
			row = append(row, figureCell(sc.Score, 2))
		}
		rank.Rows = append(rank.Rows, row)
	}
	for _, dd := range d.Directions {
		if !dd.Feasible {
			rank.Rows = append(rank.Rows, []document.Cell{textCell(plain(present.NoValue)), textCell(plain(dd.Title)), textCell(plain("ruled out: " + decide.KindList(dd.Kinds())))})
		}
	}
	w.add(rank)
	w.para(txt(plain(fmt.Sprintf("Weights: %s.", weightsText(d)))))
	w.para(txt(plain("Prices as of, by direction (the oldest price each used): " + w.pricesAsOf() + ".")))

	if w.win != nil {
		w.para(txt(plain("Why: " + d.Why)))
		if ru := d.RunnerUp; ru != nil {
			w.para(txt(plain("What would change it: " + ru.Summary)))
		}
		w.para(txt(plain(d.Robustness.Text())))
		w.section(3, "Scores of "+w.win.Title)
		var items []document.ListItem
		for _, sc := range d.For(w.win.Direction).Scores {
			items = append(items, item(plain(fmt.Sprintf("%s %.2f × weight %.2f: %s", present.DimensionTitle(sc.Dimension), sc.Score, sc.Weight, sc.Reason))))
		}
		w.list(items...)
	}

	var out []document.ListItem
	for _, dd := range d.Directions {
		if dd.Feasible {
			continue
		}
		for _, c := range dd.Constraints {
			out = append(out, item(strong(dd.Title), plain(fmt.Sprintf(" (%s): %s", c.Kind, c.Reason))))
		}
	}
	if len(out) > 0 {
		w.section(3, "Ruled out")
		w.list(out...)
	}

	w.section(3, "Bottlenecks and first questions")
	bn := &document.Table{Header: []string{"direction", "likely bottleneck", "first infrastructure question"}}
	for _, dd := range d.Directions {
		b := dd.Bottleneck
		if !dd.Feasible {
			b += " (ruled out)"
		}
		bn.Rows = append(bn.Rows, []document.Cell{textCell(plain(dd.Title)), textCell(plain(b)), textCell(plain(dd.Question))})
	}
	w.add(bn)
	w.layouts()
}

// layouts lists, one line per feasible direction that splits the model
// over GPUs (tensor or pipeline parallelism), the layout the model chose.
func (w *writer) layouts() {
	var items []document.ListItem
	for _, d := range w.r.Directions {
		l := d.Layout
		if !d.Feasible || l == nil || (l.Tensor <= 1 && l.Pipeline <= 1) {
			continue
		}
		words := present.Layout(l.Tensor, l.Pipeline, l.Data, l.MicroBatches, l.Bubble, d.Serving != nil)
		items = append(items, item(strong(d.Title), plain(fmt.Sprintf(": %s as %s (model)", present.GPUs(d.GPU, d.GPUs), words))))
	}
	if len(items) > 0 {
		w.section(3, "Parallel layouts")
		w.list(items...)
	}
}

// pricesAsOf lists each direction with the date of the oldest price it
// used (its prices_as_of), "—" for one that used none.
func (w *writer) pricesAsOf() string {
	parts := make([]string, len(w.r.Directions))
	for i, d := range w.r.Directions {
		title := d.Title
		if title == "" {
			title = present.DirectionTitle(d.Direction)
		}
		parts[i] = title + " " + orDash(d.PricesAsOf)
	}
	return strings.Join(parts, ", ")
}

func weightsText(d *decide.Decision) string {
	parts := make([]string, len(d.Weights))
	for i, x := range d.Weights {
		parts[i] = fmt.Sprintf("%s %.2f", present.DimensionTitle(x.Dimension), x.Normalised)
	}
	return strings.Join(parts, ", ")
}

package report

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// The window has one headline: the recommended direction (the decision
// panel's headline and badge, shown in the header). The cheapest feasible
// direction comes second, on the line under it: when it is the
// recommended one too, that is all it says; when it is not, it says where
// it ranks and why the weights put the recommended one first.

// Headline is the window's one headline: "Recommended: Hybrid" in bold
// with the badge of how firmly it leads, or that nothing is recommended.
// The decision panel shows it in the window's header, review mode at the
// top of a scenario's sheet.
type Headline struct {
	label   *widget.Label
	badge   *Badge
	content fyne.CanvasObject
}

// NewHeadline makes a headline, empty until Set.
func NewHeadline() *Headline {
	h := &Headline{label: widget.NewLabel(""), badge: NewBadge()}
	h.label.TextStyle.Bold = true
	h.label.SizeName = theme.SizeNameSubHeadingText
	h.content = container.NewHBox(h.label, container.NewCenter(h.badge))
	return h
}

// Set shows the recommendation of decision d with its badge, what
// HeadlineText says when nothing is feasible, or "No recommendation" when
// there is no decision (d nil).
func (h *Headline) Set(d *decide.Decision) {
	if d == nil {
		widgets.SetText(h.label, "No recommendation")
		h.badge.Hide()
		return
	}
	widgets.SetText(h.label, HeadlineText(d))
	if d.Recommendation == "" {
		h.badge.Hide()
		return
	}
	h.badge.Set(d)
	h.badge.Show()
}

// Text is what the headline says.
func (h *Headline) Text() string { return h.label.Text }

// Content is the headline beside its badge.
func (h *Headline) Content() fyne.CanvasObject { return h.content }

// CheapestText is the line under the headline for report r and decision
// d (nil when there is none).
func CheapestText(r *model.Report, d *decide.Decision) string {
	c := r.Direction(r.Cheapest)
	if c == nil {
		return "No direction is feasible for this scenario: see “Why not” below."
	}
	cost := fmt.Sprintf("%s over %s", present.Money(c.CostHorizon, r.Currency), present.Count(r.HorizonMonths, "month"))
	if d == nil || d.Recommendation == "" {
		return fmt.Sprintf("Cheapest feasible direction: %s, %s.", TitleOf(*c), cost)
	}
	if d.Recommendation == c.Direction {
		return "Also the cheapest feasible direction: " + cost + "."
	}
	return fmt.Sprintf("Cheapest feasible: %s, %s. %s", TitleOf(*c), cost, notRecommendedWhy(r, d, c.Direction))
}

// CheapestIcon is the icon before that line: a tick when the recommended
// direction is also the cheapest, information when another one is, an
// error when none is feasible.
func CheapestIcon(r *model.Report, d *decide.Decision) (fyne.Resource, widget.Importance) {
	switch {
	case r.Direction(r.Cheapest) == nil:
		return theme.NewErrorThemedResource(theme.ErrorIcon()), widget.DangerImportance
	case d != nil && d.Recommendation == r.Cheapest:
		return theme.NewSuccessThemedResource(theme.ConfirmIcon()), widget.MediumImportance
	}
	return theme.InfoIcon(), widget.MediumImportance
}

// notRecommendedWhy says why the cheapest direction is not the one
// recommended: its rank and score, how much more the recommended one
// costs, and the dimensions on which the weights favour it, largest
// weighted lead first.
func notRecommendedWhy(r *model.Report, d *decide.Decision, cheapest string) string {
	win, c := d.For(d.Recommendation), d.For(cheapest)
	if win == nil || c == nil {
		return ""
	}
	name := DirectionName(d, d.Recommendation)
	text := "It ranks " + ordinal(c.Rank) + " (score " + present.Fixed(c.Total, 2) + " against " + present.Fixed(win.Total, 2) + ")"
	if w, cr := r.Direction(d.Recommendation), r.Direction(cheapest); w != nil && cr != nil && cr.CostHorizon > 0 {
		text += fmt.Sprintf(": %s costs %s more", name, present.Percent(w.CostHorizon/cr.CostHorizon-1))
	}
	leads := favouredOn(win, c)
	if len(leads) == 0 {
		return text + "."
	}
	if len(leads) > 2 {
		leads = leads[:2]
	}
	return fmt.Sprintf("%s, but the weights favour it on %s.", text, strings.Join(leads, " and "))
}

// favouredOn lists the dimensions on which a leads b after weighting,
// largest lead first, in words.
func favouredOn(a, b *decide.Direction) []string {
	type lead struct {
		dim string
		by  float64
	}
	var leads []lead
	for i := range a.Scores {
		if i >= len(b.Scores) {
			break
		}
		if by := a.Scores[i].Weighted - b.Scores[i].Weighted; by > 1e-9 {
			leads = append(leads, lead{a.Scores[i].Dimension, by})
		}
	}
	sort.SliceStable(leads, func(i, j int) bool { return leads[i].by > leads[j].by })
	out := make([]string, len(leads))
	for i, l := range leads {
		out[i] = present.Lower(present.DimensionTitle(l.dim))
	}
	return out
}

// ordinal is "1st", "2nd", "3rd", "4th", "5th".
func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return Whole(n) + "th"
}

package form

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// The cloud offer field: an entry for the offer's id with a button that
// opens a picker over every cloud offer of the catalog in use — hundreds
// once a SkyPilot catalog is imported — searchable by id, provider,
// region, jurisdiction and GPU, each row with its provider, region,
// jurisdiction, GPUs per node and prices per GPU-hour. Under the entry a
// caption says what the chosen id is.

// offerCurrency is the currency of the catalog's cloud prices (package
// catalog keeps them in USD and converts them for a scenario).
const offerCurrency = "USD"

// noOfferMeaning is what leaving the offer out does (the field's help in
// package present says it too).
const noOfferMeaning = "the model chooses the one with the lowest price per unit of compute where residency allows"

// offerChoice is one cloud offer as the picker lists it.
type offerChoice struct {
	offer catalog.CloudOffer
	cells []string // as offerHeadings
	key   string   // lower-cased words the search looks in
}

// offerHeadings are the picker's columns.
// (the prices' unit, per GPU-hour, is in the picker's title).
var offerHeadings = []string{"Offer", "Provider", "Region", "Jurisdiction", "GPUs per node", "On demand", "Spot"}

// offerColumns are the columns' shares of the picker's width.
var offerColumns = []float32{0.28, 0.09, 0.14, 0.11, 0.14, 0.12, 0.12}

// orNone is text, or present.NoValue when it is empty (a region whose
// jurisdiction the catalog does not know).
func orNone(text string) string {
	if text == "" {
		return present.NoValue
	}
	return text
}

// offerPrice writes a price per GPU-hour; a missing one (the catalog's 0)
// as present.NoValue, never as a free offer.
func offerPrice(x float64) string {
	if x <= 0 {
		return present.NoValue
	}
	return present.Money(x, offerCurrency)
}

// offerChoices lists the cloud offers of cat by GPU, then by on-demand
// price per GPU-hour (offers without one last), then by id.
func offerChoices(cat *catalog.Catalog) []offerChoice {
	if cat == nil {
		return nil
	}
	out := make([]offerChoice, 0, len(cat.Cloud))
	for _, o := range cat.Cloud {
		gpuName := ""
		if g, ok := cat.GPU(o.GPU); ok {
			gpuName = g.Name
		}
		out = append(out, offerChoice{
			offer: o,
			cells: []string{o.ID, orNone(o.Provider), orNone(o.Region), orNone(o.Jurisdiction), present.GPUs(o.GPU, o.GPUsPerNode),
				offerPrice(o.OnDemand), offerPrice(o.Spot)},
			key: strings.ToLower(strings.Join([]string{o.ID, o.Provider, o.Name, o.Region, o.Jurisdiction, o.GPU, gpuName}, " ")),
		})
	}
	slices.SortStableFunc(out, func(a, b offerChoice) int {
		if c := cmp.Compare(a.offer.GPU, b.offer.GPU); c != 0 {
			return c
		}
		pa, pb := a.offer.OnDemand, b.offer.OnDemand
		if (pa > 0) != (pb > 0) {
			if pa > 0 {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(pa, pb); c != 0 {
			return c
		}
		return cmp.Compare(a.offer.ID, b.offer.ID)
	})
	return out
}

// filterOffers keeps the offers whose id, provider, region, jurisdiction
// or GPU (id or name) hold every word of query, in order.
func filterOffers(all []offerChoice, query string) []offerChoice {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return all
	}
	var out []offerChoice
	for _, c := range all {
		if widgets.HasWords(c.key, words) {
			out = append(out, c)
		}
	}
	return out
}

// offerSummary is the caption under the field: what the id given names.
func offerSummary(all []offerChoice, id string) string {
	if id == "" {
		return "No offer chosen: " + noOfferMeaning + "."
	}
	i := slices.IndexFunc(all, func(c offerChoice) bool { return c.offer.ID == id })
	if i < 0 {
		return "No cloud offer of the catalog has this id: choose one from the list (Choose…)."
	}
	return all[i].describe()
}

// describe is the offer in one line, without its id: "aws · us-east-1 ·
// US · 8 × h100-sxm · on demand USD 6.88, spot USD 3.20 per GPU-hour".
func (c offerChoice) describe() string {
	x := c.cells
	return strings.Join([]string{x[1], x[2], x[3], x[4]}, " · ") + " · on demand " + x[5] + ", spot " + x[6] + " per GPU-hour"
}

// newOfferControl edits a cloud offer id: an entry (typing an id works as
// before) with a Choose… button that opens the picker, and a caption
// under it that says what the id names.
func (f *Form) newOfferControl(ff *Field, dst reflect.Value, all []offerChoice) fyne.CanvasObject {
	e := widgets.NewKeyEntry()
	e.Form = true
	e.SetPlaceHolder("not given")
	summary := widgets.Caption("")
	e.OnChanged = func(text string) {
		summary.SetText(offerSummary(all, strings.TrimSpace(text)))
		if f.loading {
			return
		}
		dst.SetString(text)
		f.changed(ff, false)
	}
	e.OnSubmitted = func(string) { f.flush() }
	choose := widgets.NewTipButton("Choose…", theme.SearchIcon(), "Search the catalog's cloud offers by id, provider, region, jurisdiction or GPU", nil)
	choose.OnTapped = func() {
		c := fyne.CurrentApp().Driver().CanvasForObject(choose)
		if c == nil {
			return
		}
		p := showOfferPicker(c, all, dst.String(), func(id string) {
			if id == dst.String() {
				return
			}
			dst.SetString(id)
			f.loading = true // the choice is one change, not the entry's
			e.SetText(id)
			f.loading = false
			f.changed(ff, true)
		})
		p.onClose = func() { c.Focus(e) } // the keyboard back in the field
	}
	ff.load = func() {
		e.SetText(dst.String())
		summary.SetText(offerSummary(all, dst.String()))
	}
	ff.disable = func() { e.Disable(); choose.Disable() }
	return container.NewVBox(container.NewBorder(nil, nil, nil, choose, e), summary)
}

// offerPicker is the pop-up list of cloud offers. Its first row is "no
// offer" (the model chooses); the others are the offers the search
// keeps. The keyboard stays in the search field: Up and Down (Page Up,
// Page Down) move the marked row, Enter chooses it, Escape closes the
// picker without a change; a click on a row chooses it.
type offerPicker struct {
	all, shown []offerChoice
	mark       int // the marked row: 0 for "no offer", i+1 for shown[i]
	choose     func(id string)
	onClose    func() // after the picker closes, chosen or not; nil for nothing

	search *pickerEntry
	list   *widget.List
	count  *widget.Label
	marked *widget.Label // the marked row whole (the list cuts long ids)
	popup  *widget.PopUp
}

// showOfferPicker opens the picker on c with current marked; choose is
// called with the id chosen ("" for no offer) once the picker has closed.
func showOfferPicker(c fyne.Canvas, all []offerChoice, current string, choose func(id string)) *offerPicker {
	p := newOfferPicker(all, current, choose)
	p.popup = widget.NewModalPopUp(p.content(), c)
	size := c.Size()
	p.popup.Resize(fyne.NewSize(min(size.Width*0.92, 1400), size.Height*0.8))
	p.popup.Show()
	c.Focus(p.search)
	p.list.ScrollTo(p.mark)
	return p
}

func newOfferPicker(all []offerChoice, current string, choose func(string)) *offerPicker {
	p := &offerPicker{all: all, shown: all, choose: choose}
	if i := slices.IndexFunc(all, func(c offerChoice) bool { return c.offer.ID == current }); i >= 0 {
		p.mark = i + 1
	}
	p.search = newPickerEntry(p)
	p.search.SetPlaceHolder("Search: id, provider, region, jurisdiction or GPU — e.g. “eu h100”")
	p.search.OnChanged = func(text string) { p.filter(text) }
	p.count = widgets.Caption("")
	p.marked = widget.NewLabel("")
	p.marked.Wrapping = fyne.TextWrapWord
	p.list = widget.NewList(func() int { return len(p.shown) + 1 }, p.newRow, p.updateRow)
	p.list.OnSelected = func(id widget.ListItemID) {
		p.list.UnselectAll()
		p.pick(id)
	}
	p.setCount()
	p.setMarked()
	return p
}

// content lays the picker out: title, search, headings, rows, count and
// buttons.
func (p *offerPicker) content() fyne.CanvasObject {
	title := widget.NewLabel("Choose the cloud offer — prices per GPU-hour")
	title.TextStyle.Bold = true
	headings := make([]fyne.CanvasObject, len(offerHeadings))
	for i, h := range offerHeadings {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		l.Truncation = fyne.TextTruncateEllipsis
		if i >= len(offerHeadings)-2 { // the prices, as their cells
			l.Alignment = fyne.TextAlignTrailing
		}
		headings[i] = l
	}
	head := container.New(offerRowLayout{}, headings...)
	cancel := widget.NewButton("Cancel", p.close)
	ok := widget.NewButtonWithIcon("Choose", theme.ConfirmIcon(), func() { p.pick(p.mark) })
	ok.Importance = widget.HighImportance
	bottom := container.NewVBox(widget.NewSeparator(), p.marked,
		container.NewBorder(nil, nil, nil, container.NewHBox(cancel, ok), p.count))
	top := container.NewVBox(title, p.search, head, widget.NewSeparator())
	return container.NewBorder(top, bottom, nil, nil, p.list)
}

// offerRow is one row of the picker: a mark behind the cells.
type offerRow struct {
	widget.BaseWidget
	mark  *canvas.Rectangle
	cells []*widget.Label
	none  *widget.Label // the "no offer" row's text, across the columns
}

func (p *offerPicker) newRow() fyne.CanvasObject {
	r := &offerRow{mark: canvas.NewRectangle(theme.Color(theme.ColorNameSelection))}
	objs := make([]fyne.CanvasObject, len(offerHeadings))
	for i := range offerHeadings {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		if i >= len(offerHeadings)-2 {
			l.Alignment = fyne.TextAlignTrailing
		}
		r.cells = append(r.cells, l)
		objs[i] = l
	}
	r.none = widget.NewLabel("No offer — " + noOfferMeaning)
	r.none.TextStyle.Italic = true
	r.none.Truncation = fyne.TextTruncateEllipsis
	r.ExtendBaseWidget(r)
	return r
}

func (r *offerRow) CreateRenderer() fyne.WidgetRenderer {
	objs := make([]fyne.CanvasObject, len(r.cells))
	for i, c := range r.cells {
		objs[i] = c
	}
	return widget.NewSimpleRenderer(container.NewStack(r.mark, container.New(offerRowLayout{}, objs...), r.none))
}

func (p *offerPicker) updateRow(id widget.ListItemID, o fyne.CanvasObject) {
	r := o.(*offerRow)
	widgets.ShowIf(r.mark, id == p.mark)
	r.mark.FillColor = theme.Color(theme.ColorNameSelection)
	r.mark.Refresh()
	if id == 0 {
		r.none.Show()
		for _, c := range r.cells {
			c.SetText("")
		}
		return
	}
	r.none.Hide()
	if id-1 >= len(p.shown) {
		return
	}
	for i, text := range p.shown[id-1].cells {
		r.cells[i].SetText(text)
	}
}

// filter shows the offers that match text and marks the first of them
// (or "no offer" when none does).
func (p *offerPicker) filter(text string) {
	p.shown = filterOffers(p.all, text)
	p.mark = min(1, len(p.shown))
	if strings.TrimSpace(text) == "" {
		p.mark = 0
	}
	p.setCount()
	p.setMarked()
	p.list.Refresh()
	p.list.ScrollTo(p.mark)
}

// setMarked writes the marked row whole under the list.
func (p *offerPicker) setMarked() {
	if p.mark == 0 || p.mark > len(p.shown) {
		p.marked.SetText("No offer: " + noOfferMeaning + ".")
		return
	}
	c := p.shown[p.mark-1]
	p.marked.SetText(c.offer.ID + ": " + c.describe())
}

func (p *offerPicker) setCount() {
	text := present.Count(len(p.all), "offer")
	if len(p.shown) != len(p.all) {
		text = present.Whole(float64(len(p.shown))) + " of " + text
	}
	p.count.SetText(text + " · prices in " + offerCurrency + " per GPU-hour, " + present.NoValue +
		" where the catalog has none · ↑ ↓ to move, Enter to choose, Escape to close")
}

// move marks the row by rows below (above when negative) the marked one.
func (p *offerPicker) move(by int) {
	next := min(max(p.mark+by, 0), len(p.shown))
	if next == p.mark {
		return
	}
	prev := p.mark
	p.mark = next
	p.setMarked()
	p.list.RefreshItem(prev)
	p.list.RefreshItem(next)
	p.list.ScrollTo(next)
}

// pick closes the picker and chooses row i.
func (p *offerPicker) pick(i int) {
	if i < 0 || i > len(p.shown) {
		return
	}
	id := ""
	if i > 0 {
		id = p.shown[i-1].offer.ID
	}
	p.close()
	if p.choose != nil {
		p.choose(id)
	}
}

func (p *offerPicker) close() {
	if p.popup != nil {
		p.popup.Hide()
	}
	if p.onClose != nil {
		p.onClose()
	}
}

// pickerEntry is the picker's search field: it keeps the keyboard, and
// hands the keys that move in the list to the picker.
type pickerEntry struct {
	widget.Entry
	p *offerPicker
}

func newPickerEntry(p *offerPicker) *pickerEntry {
	e := &pickerEntry{p: p}
	e.ExtendBaseWidget(e)
	return e
}

// pageRows is how far Page Up and Page Down move the marked row.
const pageRows = 10

// TypedKey implements fyne.Focusable.
func (e *pickerEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown:
		e.p.move(1)
	case fyne.KeyUp:
		e.p.move(-1)
	case fyne.KeyPageDown:
		e.p.move(pageRows)
	case fyne.KeyPageUp:
		e.p.move(-pageRows)
	case fyne.KeyReturn, fyne.KeyEnter:
		e.p.pick(e.p.mark)
	case fyne.KeyEscape:
		e.p.close()
	default:
		e.Entry.TypedKey(ev)
	}
}

// offerRowLayout places a row's cells at offerColumns' shares of its
// width.
type offerRowLayout struct{}

func (offerRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objects {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(float32(len(objects))*40, h)
}

func (offerRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objects {
		w := size.Width * offerColumns[min(i, len(offerColumns)-1)]
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

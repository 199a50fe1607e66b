package form

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// manyOffers is the built-in catalog with generated cloud offers added, as
// an imported SkyPilot catalog has them: extra offers of four GPUs at
// five providers in six regions each, every 7th without a spot price and
// every 11th without an on-demand one.
func manyOffers(t testing.TB, extra int) *catalog.Catalog {
	t.Helper()
	base, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	cat := *base
	cat.Cloud = slices.Clone(base.Cloud)
	gpus := []string{"h100-sxm", "a100-80gb", "l40s", "h200"}
	providers := []string{"aws", "gcp", "azure", "lambda", "nebius"}
	regions := []struct{ name, jurisdiction string }{
		{"us-east-1", "US"}, {"us-west-2", "US"}, {"eu-west-1", "EU"}, {"eu-central-1", "EU"}, {"ap-northeast-1", "JP"}, {"uk-south", "UK"},
	}
	for i := range extra {
		r := regions[i%len(regions)]
		o := catalog.CloudOffer{
			ID: fmt.Sprintf("gen-%04d", i), Provider: providers[i%len(providers)], Region: r.name, Jurisdiction: r.jurisdiction,
			GPU: gpus[i%len(gpus)], GPUsPerNode: 1 << (i % 4), OnDemand: 1 + float64(i%97)/10, Spot: 0.5 + float64(i%53)/20,
		}
		if i%7 == 0 {
			o.Spot = 0
		}
		if i%11 == 0 {
			o.OnDemand = 0
		}
		cat.Cloud = append(cat.Cloud, o)
	}
	return &cat
}

// The picker lists every offer by GPU, then by on-demand price with the
// offers that have none last; a missing price reads "—", never 0.
func TestOfferChoices(t *testing.T) {
	cat := manyOffers(t, 600)
	all := offerChoices(cat)
	if len(all) != len(cat.Cloud) {
		t.Fatalf("%d choices for %d offers", len(all), len(cat.Cloud))
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1].offer, all[i].offer
		switch {
		case a.GPU > b.GPU:
			t.Fatalf("%s (%s) before %s (%s)", a.ID, a.GPU, b.ID, b.GPU)
		case a.GPU == b.GPU && a.OnDemand <= 0 && b.OnDemand > 0:
			t.Fatalf("%s without a price before %s with one", a.ID, b.ID)
		case a.GPU == b.GPU && a.OnDemand > 0 && b.OnDemand > 0 && a.OnDemand > b.OnDemand:
			t.Fatalf("%s (%v) before the cheaper %s (%v)", a.ID, a.OnDemand, b.ID, b.OnDemand)
		}
	}
	for _, c := range all {
		if len(c.cells) != len(offerHeadings) {
			t.Fatalf("%s: %d cells", c.offer.ID, len(c.cells))
		}
		for i, price := range []float64{c.offer.OnDemand, c.offer.Spot} {
			cell := c.cells[5+i]
			want := present.Money(price, "USD")
			if price <= 0 {
				want = present.NoValue
			}
			if cell != want || cell == present.Money(0, "USD") {
				t.Errorf("%s: price cell %q, want %q", c.offer.ID, cell, want)
			}
		}
		if want := present.GPUs(c.offer.GPU, c.offer.GPUsPerNode); c.cells[4] != want {
			t.Errorf("%s: GPU cell %q, want %q", c.offer.ID, c.cells[4], want)
		}
	}
	if offerChoices(nil) != nil {
		t.Error("choices without a catalog")
	}
}

// The search keeps the offers whose id, provider, region, jurisdiction or
// GPU (id or name) hold every word typed, in any case.
func TestFilterOffers(t *testing.T) {
	cat := manyOffers(t, 600)
	all := offerChoices(cat)
	for _, c := range []struct {
		query string
		keep  func(o catalog.CloudOffer) bool
	}{
		{"", func(catalog.CloudOffer) bool { return true }},
		{"EU h100-sxm", func(o catalog.CloudOffer) bool { return o.Jurisdiction == "EU" && o.GPU == "h100-sxm" }},
		{"lambda", func(o catalog.CloudOffer) bool {
			return strings.Contains(strings.ToLower(o.Provider+" "+o.ID+" "+o.Name), "lambda")
		}},
		{"ap-northeast-1 l40s", func(o catalog.CloudOffer) bool { return o.Region == "ap-northeast-1" && o.GPU == "l40s" }},
		{"gen-0042", func(o catalog.CloudOffer) bool { return o.ID == "gen-0042" }},
		{"no-such-thing", func(catalog.CloudOffer) bool { return false }},
	} {
		got := filterOffers(all, c.query)
		var want []string
		for _, o := range all {
			if c.keep(o.offer) {
				want = append(want, o.offer.ID)
			}
		}
		ids := make([]string, len(got))
		for i, o := range got {
			ids[i] = o.offer.ID
		}
		if !slices.Equal(ids, want) {
			t.Errorf("%q: %d offers, want %d", c.query, len(ids), len(want))
		}
	}
	// A GPU's name finds its offers as its id does.
	g, _ := cat.GPU("h100-sxm")
	byName := filterOffers(all, g.Name)
	if len(byName) == 0 || slices.ContainsFunc(byName, func(c offerChoice) bool { return c.offer.GPU != "h100-sxm" }) {
		t.Errorf("searching %q finds %d offers, not all of them h100-sxm", g.Name, len(byName))
	}
}

// openPicker shows the picker over a test window and returns it with
// the ids it chooses.
func openPicker(t *testing.T, all []offerChoice, current string) (*offerPicker, fyne.Canvas, *[]string) {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("picker")
	t.Cleanup(w.Close)
	w.SetContent(container.NewStack())
	w.Resize(fyne.NewSize(1280, 800))
	chosen := &[]string{}
	p := showOfferPicker(w.Canvas(), all, current, func(id string) { *chosen = append(*chosen, id) })
	return p, w.Canvas(), chosen
}

// The keyboard does all of it: typing narrows the list, arrows move the
// mark, Enter chooses, Escape leaves without a choice.
func TestOfferPickerKeys(t *testing.T) {
	all := offerChoices(manyOffers(t, 600))
	p, c, chosen := openPicker(t, all, "")
	if c.Focused() != p.search {
		t.Fatalf("the keyboard is in %T, not the search", c.Focused())
	}
	if p.mark != 0 || !strings.Contains(p.count.Text, present.Count(len(all), "offer")) {
		t.Errorf("opens with row %d marked, count %q", p.mark, p.count.Text)
	}
	test.Type(p.search, "eu h100-sxm")
	want := filterOffers(all, "eu h100-sxm")
	if len(p.shown) != len(want) || len(want) < 2 {
		t.Fatalf("typing shows %d offers, want %d", len(p.shown), len(want))
	}
	if !strings.HasPrefix(p.count.Text, present.Whole(float64(len(want)))+" of ") {
		t.Errorf("count %q", p.count.Text)
	}
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if got := p.marked.Text; !strings.HasPrefix(got, want[2].offer.ID+": ") || !strings.Contains(got, want[2].offer.Region) {
		t.Errorf("the marked row reads %q, want %s whole", got, want[2].offer.ID)
	}
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(*chosen, []string{want[2].offer.ID}) {
		t.Errorf("chose %v, want the third match %s", *chosen, want[2].offer.ID)
	}
	if p.popup.Visible() {
		t.Error("the picker stays open after Enter")
	}

	p, _, chosen = openPicker(t, all, all[5].offer.ID)
	if p.mark != 6 {
		t.Errorf("the current offer is row %d, want 6", p.mark)
	}
	test.Type(p.search, "lambda")
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(*chosen) != 0 || p.popup.Visible() {
		t.Errorf("Escape chose %v, open %v", *chosen, p.popup.Visible())
	}

	// Up from the top stays on "no offer"; Page Down and Page Up move by
	// pages; Enter on "no offer" clears the choice.
	p, _, chosen = openPicker(t, all, all[0].offer.ID)
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	if p.mark != 1+pageRows {
		t.Errorf("Page Down marks row %d", p.mark)
	}
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageUp})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	p.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(*chosen, []string{""}) {
		t.Errorf("no offer chose %v", *chosen)
	}
}

// A search that keeps nothing marks "no offer", and a click on a row
// chooses it.
func TestOfferPickerNoMatchAndClick(t *testing.T) {
	all := offerChoices(manyOffers(t, 50))
	p, _, chosen := openPicker(t, all, "")
	test.Type(p.search, "no-such-offer")
	if len(p.shown) != 0 || p.mark != 0 || !strings.HasPrefix(p.count.Text, "0 of ") {
		t.Errorf("no match: %d shown, row %d marked, count %q", len(p.shown), p.mark, p.count.Text)
	}
	p.search.SetText("")
	p.list.Select(3)
	if !slices.Equal(*chosen, []string{all[2].offer.ID}) {
		t.Errorf("clicking row 3 chose %v, want %s", *chosen, all[2].offer.ID)
	}
}

// In the form, the cloud offer field opens the picker; a choice is one
// immediate change of the field, the caption says what it is, and "no
// offer" clears it. Typing an id still works.
func TestOfferFieldInForm(t *testing.T) {
	a := test.NewTempApp(t)
	cat := manyOffers(t, 300)
	s := example(t, "qlora-legal-70b")
	s.Options.Cloud.Offer = ""
	var changes []string
	f := New(s, true, cat, func(path string, immediate bool) {
		changes = append(changes, fmt.Sprintf("%s %v", path, immediate))
	}, func() {})
	w := a.NewWindow("form")
	t.Cleanup(w.Close)
	w.SetContent(container.NewVScroll(f.content))
	w.Resize(fyne.NewSize(1280, 800))
	f.accordion.OpenAll() // the options' section starts closed
	ff := f.FieldAt("options.cloud.offer")
	if ff == nil {
		t.Fatal("no cloud offer field")
	}
	caption := func() string {
		l := uitest.Find(ff.box, func(o fyne.CanvasObject) bool {
			l, ok := o.(*widget.Label)
			return ok && strings.HasPrefix(l.Text, "No offer chosen") || ok && strings.Contains(l.Text, "per GPU-hour") || ok && strings.HasPrefix(l.Text, "No cloud offer")
		})
		if l == nil {
			return ""
		}
		return l.(*widget.Label).Text
	}
	if got := caption(); !strings.HasPrefix(got, "No offer chosen") {
		t.Errorf("caption before a choice: %q", got)
	}
	button := uitest.Find(ff.box, func(o fyne.CanvasObject) bool {
		b, ok := o.(*widgets.TipButton)
		return ok && b.Text == "Choose…"
	}).(*widgets.TipButton)
	test.Tap(button)
	entry := uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool { _, ok := o.(*pickerEntry); return ok })
	if entry == nil {
		t.Fatal("Choose… opened no picker")
	}
	pick := entry.(*pickerEntry).p
	test.Type(pick.search, "gen-0017")
	pick.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if s.Options.Cloud.Offer != "gen-0017" {
		t.Fatalf("the scenario's offer is %q after choosing gen-0017", s.Options.Cloud.Offer)
	}
	if !slices.Equal(changes, []string{"options.cloud.offer true"}) {
		t.Errorf("changes %v, want one immediate change of the field", changes)
	}
	o, _ := cat.CloudOffer("gen-0017")
	if got := caption(); !strings.Contains(got, o.Provider) || !strings.Contains(got, o.Region) || !strings.Contains(got, present.Money(o.OnDemand, "USD")) {
		t.Errorf("caption %q does not describe %+v", got, o)
	}

	test.Tap(button)
	pick = uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool { _, ok := o.(*pickerEntry); return ok }).(*pickerEntry).p
	if pick.mark == 0 || pick.shown[pick.mark-1].offer.ID != "gen-0017" {
		t.Errorf("the picker opens on row %d, not the chosen offer", pick.mark)
	}
	pick.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageUp})
	pick.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageUp})
	for pick.mark > 0 {
		pick.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	}
	pick.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if s.Options.Cloud.Offer != "" || !strings.HasPrefix(caption(), "No offer chosen") {
		t.Errorf("after no offer: %q, caption %q", s.Options.Cloud.Offer, caption())
	}

	// Escape leaves the choice as it was and the keyboard in the field.
	e := uitest.Find(ff.box, func(o fyne.CanvasObject) bool { _, ok := o.(*widgets.KeyEntry); return ok }).(*widgets.KeyEntry)
	test.Tap(button)
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if s.Options.Cloud.Offer != "" || w.Canvas().Focused() != e {
		t.Errorf("after Escape: offer %q, keyboard in %T", s.Options.Cloud.Offer, w.Canvas().Focused())
	}
	n := len(changes)
	test.Tap(button)
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn}) // "no offer" again: no change
	if len(changes) != n {
		t.Errorf("choosing what was chosen changed the field: %v", changes[n:])
	}

	test.Type(e, "nope")
	if s.Options.Cloud.Offer != "nope" || !strings.HasPrefix(caption(), "No cloud offer") {
		t.Errorf("typed: %q, caption %q", s.Options.Cloud.Offer, caption())
	}
}

package chart

import (
	"errors"
	"image/color"
	"testing"

	"gonum.org/v1/plot/plotter"

	"hostplan/internal/model"
)

// twoDirections is a report with a feasible cloud direction that spends
// up to 1,200 and an on-premises one, not feasible, that spends 50,000 by
// the end of the horizon.
func twoDirections() *model.Report {
	r := &model.Report{ScenarioID: "x", Currency: "EUR", HorizonMonths: 12}
	cloud := model.DirectionResult{Direction: "cloud", Title: "Cloud IaaS", Feasible: true}
	onprem := model.DirectionResult{Direction: "onprem", Title: "On-premises"}
	for m := 1; m <= 12; m++ {
		cloud.CumulativeByMonth = append(cloud.CumulativeByMonth, 100*float64(m))
		onprem.CumulativeByMonth = append(onprem.CumulativeByMonth, 40000+float64(m)*10000/12)
	}
	r.Directions = []model.DirectionResult{cloud, onprem}
	return r
}

// A direction that is not feasible is faded and dashed and does not set
// the scale: the axis ends near the feasible direction's 1,200.
func TestCumulativeSetsAsideInfeasible(t *testing.T) {
	c, err := Cumulative(twoDirections())
	if err != nil {
		t.Fatal(err)
	}
	c.Plot.Draw(testCanvas()) // the axes take their final range when drawn
	if max := c.Plot.Y.Max; max < 1200 || max > 2000 {
		t.Errorf("y axis ends at %g, want about 1,200 (the feasible cloud direction), not 50,000", max)
	}
	lines := map[string]*plotter.Line{}
	for _, e := range c.legend {
		if l, ok := e.thumb.(*plotter.Line); ok {
			lines[e.label] = l
		}
	}
	cloud, onprem := lines["Cloud IaaS"], lines["On-premises (not feasible)"]
	if cloud == nil || onprem == nil {
		t.Fatalf("legend %v lacks a direction", c.legend)
	}
	if len(cloud.Dashes) != 0 || cloud.Color != color.Color(Colour("cloud")) {
		t.Errorf("feasible cloud line: dashes %v, colour %v", cloud.Dashes, cloud.Color)
	}
	if len(onprem.Dashes) == 0 || onprem.Color != color.Color(Faded("onprem")) {
		t.Errorf("infeasible on-premises line: dashes %v, colour %v; want dashed and faded", onprem.Dashes, onprem.Color)
	}
}

// With no feasible direction the infeasible ones set the scale: there is
// nothing else to show.
func TestCumulativeNoneFeasible(t *testing.T) {
	r := twoDirections()
	r.Directions[0].Feasible = false
	c, err := Cumulative(r)
	if err != nil {
		t.Fatal(err)
	}
	c.Plot.Draw(testCanvas())
	if max := c.Plot.Y.Max; max < 50000 {
		t.Errorf("y axis ends at %g, want at least 50,000", max)
	}
}

func TestNoData(t *testing.T) {
	r := &model.Report{ScenarioID: "x", Currency: "EUR", HorizonMonths: 12,
		Directions: []model.DirectionResult{{Direction: "managed", Title: "Managed", CumulativeByMonth: make([]float64, 12)}}}
	for name, draw := range map[string]func(*model.Report) (*Chart, error){"cumulative": Cumulative, "efficiency": Efficiency, "tornado": Tornado} {
		if _, err := draw(r); !errors.Is(err, ErrNoData) {
			t.Errorf("%s of a report without data: %v, want ErrNoData", name, err)
		}
	}
	if cs, err := Charts(r); err != nil || len(cs) != 0 {
		t.Errorf("Charts = %d charts, %v; want none", len(cs), err)
	}
}

func TestNiceStep(t *testing.T) {
	for _, c := range []struct{ rough, want float64 }{
		{0.3, 0.5}, {1, 1}, {1.1, 2}, {2.2, 2.5}, {3, 5}, {7, 10}, {16000, 20000}, {0, 1}, {-5, 1},
	} {
		if got := niceStep(c.rough); got != c.want {
			t.Errorf("niceStep(%g) = %g, want %g", c.rough, got, c.want)
		}
	}
}

//go:build costid_gen

package costid

// Built with the tag costid_gen, as go generate builds its generator, the
// package evaluates the definitions with Eval instead of cost_gen.go: the
// generator then runs while cost_gen.go is stale, or refers to a driver
// that is gone.

var deriveParts, deriveInfo [NumCostModels]func(*Values)

func init() {
	for m := range NumCostModels {
		deriveParts[m] = func(v *Values) { evalModel(m, v, true) }
		deriveInfo[m] = func(v *Values) { evalModel(m, v, false) }
	}
}

// evalModel sets the figures of m the costs need (costly) or the others.
func evalModel(m CostModel, v *Values, costly bool) {
	for _, df := range costModels[m] {
		if m.costly(df.d) == costly {
			v[df.d] = df.e.Eval(v)
		}
	}
}

func deriveFigures(v *Values) { evalIdentity(v, false) }

func deriveByMonth(v *Values) { evalIdentity(v, true) }

// evalIdentity sets the figures of the shared identity that depend on the
// month (month) or the others.
func evalIdentity(v *Values, month bool) {
	for _, df := range costIdentity {
		if byMonth[df.d] == month {
			v[df.d] = df.e.Eval(v)
		}
	}
}

package decide_test

import (
	"fmt"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// The seed's constrained case: the source records stay on-premises and
// only an approved snapshot may leave, so hybrid is the one direction left.
func ExampleDecide() {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		panic(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		panic(err)
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		panic(err)
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		panic(err)
	}
	fmt.Println("recommended:", d.Recommendation)
	for _, dd := range d.Directions {
		if !dd.Feasible {
			fmt.Printf("%s ruled out: %v\n", dd.Direction, dd.Kinds())
		}
	}
	// Output:
	// recommended: hybrid
	// managed ruled out: [sovereignty other]
	// cloud ruled out: [sovereignty]
	// on_prem ruled out: [operations budget]
	// hpc ruled out: [sovereignty operations]
}

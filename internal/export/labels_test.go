package export

import (
	"strings"
	"testing"

	"hostplan/internal/model"
)

// Every driver of the cost identity has a label and a unit for the
// Drivers and Costs sheets: a new driver without words would show its code
// name and no unit.
func TestEveryDriverHasWords(t *testing.T) {
	n := 0
	for d := model.Driver(0); !strings.HasPrefix(d.String(), "driver("); d++ {
		n++
		w, ok := driverWords[d]
		switch {
		case !ok:
			t.Errorf("driver %s has no label and unit in driverWords", d)
		case w[0] == "":
			t.Errorf("driver %s has an empty label", d)
		}
	}
	if n < 50 {
		t.Errorf("only %d drivers found: the walk stopped early", n)
	}
}

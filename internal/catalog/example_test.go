package catalog_test

import (
	"fmt"
	"strings"

	"hostplan/internal/catalog"
)

// A user's quote replaces one price; the entry takes the row's date and
// source, and the embedded catalog is left as it was.
func ExampleCatalog_Apply() {
	def, err := catalog.Default()
	if err != nil {
		panic(err)
	}
	o, err := catalog.ParseOverridesCSV(strings.NewReader(
		"kind,id,field,value,as_of,source\n" +
			"cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n"))
	if err != nil {
		panic(err)
	}
	eff, err := def.Apply(o)
	if err != nil {
		panic(err)
	}
	before, _ := def.CloudOffer("aws-p5-h100")
	after, _ := eff.CloudOffer("aws-p5-h100")
	fmt.Println(before.OnDemand, before.AsOf, before.Overridden)
	fmt.Println(after.OnDemand, after.AsOf, after.Source, after.Overridden)
	// Output:
	// 6.88 2026-01-21 false
	// 5.1 2026-10-01 AWS pricing page true
}

// A file with bad rows is refused whole, every problem with its line.
func ExampleParseOverridesCSV() {
	_, err := catalog.ParseOverridesCSV(strings.NewReader(
		"kind,id,field,value,as_of,source\n" +
			"cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n" +
			"cloud,aws-p5-h100,spot,cheap,2026-10-01,AWS pricing page\n" +
			"gpu,h100-sxm,power_w,700,10/01/2026,\n"))
	if es, ok := err.(catalog.OverrideErrors); ok {
		for _, e := range es {
			fmt.Println(e)
		}
	}
	// Output:
	// line 3: cloud aws-p5-h100: spot "cheap" is not a number (allowed: a number ≥ 0, written as digits with an optional sign, decimal point and exponent, thousands grouped in threes by commas, underscores or spaces, e.g. -1,234.5 or 2.5e6)
	// line 4: gpu h100-sxm: as_of "10/01/2026" is not a date (allowed: YYYY-MM-DD)
	// line 4: gpu h100-sxm: source is empty (allowed: where the figure was published)
}

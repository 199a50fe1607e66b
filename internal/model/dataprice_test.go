package model

import (
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// TestMissingDataPriceNotFree: Lambda has no storage or egress price in
// the catalog (assets/catalog/data.json lists AWS, GCP and Azure). Its
// data set is not stored for free: the dearest catalog prices stand in
// (storage 0.023 $/GB-month, AWS's and Azure's; egress 0.10245 $/GB,
// GCP's), labelled by the data_prices_missing note.
func TestMissingDataPriceNotFree(t *testing.T) {
	s := base()
	s.Data.VolumeGB = scenario.Known(10_000)
	s.Data.OutputGB = scenario.Known(100)
	s.Options.Cloud = scenario.CloudOptions{Offer: "lambda-h100", GPUs: 8}
	d := eval(t, s).Direction(scenario.Cloud)
	if got := d.Drivers[costid.StoragePricePerGBMonth]; !near(got, 0.023, 1e-9) {
		t.Errorf("storage price %g, want the dearest in the catalog, 0.023", got)
	}
	if got := d.Drivers[costid.EgressPricePerGB]; !near(got, 0.10245, 1e-9) {
		t.Errorf("egress price %g, want the dearest in the catalog, 0.10245", got)
	}
	if !hasNote(d.Notes, NoteDataPricesMissing, "no storage or egress price for lambda in the catalog: the dearest the catalog has stand in, an estimate") {
		t.Errorf("no data_prices_missing note naming the stand-in: %+v", d.Notes)
	}
	// A price the scenario gives is used as it is, without the note.
	s.Options.Cloud.StorageGBMonth, s.Options.Cloud.EgressPerGB = scenario.Known(0.01), scenario.Known(0.02)
	d = eval(t, s).Direction(scenario.Cloud)
	if d.Drivers[costid.StoragePricePerGBMonth] != 0.01 || d.Drivers[costid.EgressPricePerGB] != 0.02 || hasNote(d.Notes, NoteDataPricesMissing, "") {
		t.Errorf("given prices: storage %g, egress %g, notes %+v", d.Drivers[costid.StoragePricePerGBMonth], d.Drivers[costid.EgressPricePerGB], d.Notes)
	}
}

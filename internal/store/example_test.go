package store_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

func ExampleStore_Save() {
	dir, err := os.MkdirTemp("", "hostplan")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	s, err := store.Open(filepath.Join(dir, "hostplan.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	sc := &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            "chat-eu",
		Name:          "Support chat in the EU",
		Currency:      "EUR",
		Purpose:       scenario.Purpose{Decision: "Where to serve the assistant", SuccessMeasure: "p95 under 2 s", Owner: "Support"},
		Workload: scenario.Workload{
			Shape: scenario.ShapeInteractive, Model: scenario.Model{ParamsB: 8}, Precision: "bf16",
			Traffic: &scenario.Traffic{PeakRPS: scenario.Known(20), MeanRPS: scenario.Estimate(3, 5, 8), TokensIn: scenario.Known(800), TokensOut: scenario.Known(300)},
		},
		Data:       scenario.Data{VolumeGB: scenario.Known(5), Classification: "internal", Residency: "EU", Movement: scenario.MoveAny},
		Dimensions: scenario.Dimensions{Economics: scenario.Economics{Dimension: scenario.Dimension{Weight: 1}, HorizonMonths: 24}, Operations: scenario.Operations{StaffFTE: scenario.Known(0.5)}},
	}
	if _, err := s.Save(sc, scenario.RevisionMeta{Author: "ana", Note: "first draft"}); err != nil {
		log.Fatal(err)
	}
	sc.Workload.Traffic.PeakRPS = scenario.Estimate(15, 20, 40)
	if _, err := s.Save(sc, scenario.RevisionMeta{Author: "ben", Note: "peak is a guess"}); err != nil {
		log.Fatal(err)
	}
	// Saving the same input again adds nothing.
	if _, err := s.Save(sc, scenario.RevisionMeta{Author: "ben"}); err != nil {
		log.Fatal(err)
	}

	history, err := s.History("chat-eu")
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range history {
		fmt.Printf("revision %d by %s: %s\n", r.Number, r.Author, r.Note)
	}
	// Output:
	// revision 1 by ana: first draft
	// revision 2 by ben: peak is a guess
}

func ExampleStore_Restore() {
	dir, err := os.MkdirTemp("", "hostplan")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := store.Open(filepath.Join(dir, "hostplan.db"), nil)
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	sc := &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            "adapter-eu",
		Name:          "Adapter fine-tuning in the EU",
		Currency:      "EUR",
		Purpose:       scenario.Purpose{Decision: "Where to fine-tune", SuccessMeasure: "F1 ≥ 0.9", Owner: "Legal tech"},
		Workload: scenario.Workload{
			Shape: scenario.ShapeFineTuning, Model: scenario.Model{ParamsB: 8}, Precision: "bf16", Method: "lora",
			TokensPerRunB: scenario.Known(0.5), RunsPerMonth: scenario.Known(4),
		},
		Data:       scenario.Data{VolumeGB: scenario.Known(50), Classification: "confidential", Residency: "EU", Movement: scenario.MoveAny},
		Dimensions: scenario.Dimensions{Economics: scenario.Economics{Dimension: scenario.Dimension{Weight: 1}, HorizonMonths: 12}, Operations: scenario.Operations{StaffFTE: scenario.Known(1)}},
	}
	if _, err := s.Save(sc, scenario.RevisionMeta{Author: "ana", Note: "four runs a month"}); err != nil {
		log.Fatal(err)
	}
	sc.Workload.RunsPerMonth = scenario.Known(10)
	if _, err := s.Save(sc, scenario.RevisionMeta{Author: "ben", Note: "ten runs a month"}); err != nil {
		log.Fatal(err)
	}
	// Back to the first figures: a new revision, the history kept.
	if _, err := s.Restore(sc.ID, 1, scenario.RevisionMeta{Author: "ana"}); err != nil {
		log.Fatal(err)
	}
	history, err := s.History(sc.ID)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range history {
		fmt.Printf("revision %d by %s: %s\n", r.Number, r.Author, r.Note)
	}
	fmt.Println("revision 3 has the input of revision 1:", history[2].InputHash == history[0].InputHash)
	cur, _, err := s.Get(sc.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("runs per month now:", cur.Workload.RunsPerMonth)
	// Output:
	// revision 1 by ana: four runs a month
	// revision 2 by ben: ten runs a month
	// revision 3 by ana: restored from revision 1
	// revision 3 has the input of revision 1: true
	// runs per month now: 4
}

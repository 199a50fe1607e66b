package present_test

import (
	"fmt"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

func ExampleLookup() {
	f, _ := present.Lookup("workload.trial[2].throughput")
	fmt.Println(f.Title("USD"))
	fmt.Println(f.Help)
	// Output:
	// Trial throughput (items or tokens/s)
	// Throughput measured at that GPU count, in items or tokens per second.
}

func ExampleChoiceLabel() {
	fmt.Println(present.ChoiceLabel("data.movement", scenario.MoveSnapshot))
	fmt.Println(present.Lower(present.ShapeTitle(scenario.ShapeFineTuning)))
	// Output:
	// Only an approved, minimised snapshot may leave
	// fine-tuning
}

func ExampleMoney() {
	fmt.Println(present.Money(1234567.89, "EUR"))
	fmt.Println(present.Money(3.2, "EUR"))
	fmt.Println(present.Hours(0.25), present.Hours(140.4), present.Figure(1234.6), present.Percent(0.684))
	// Output:
	// EUR 1,234,568
	// EUR 3.20
	// 0.25 140 1,235 68 %
}

func ExampleInputName() {
	fmt.Println(present.InputName("workload.tokens_per_run_b"))
	fmt.Println(present.InputTitle("options.hpc.queue_wait_hours (catalog)", "USD"))
	// Output:
	// Tokens per run
	// Shared HPC: queue wait (hours), catalog estimate
}

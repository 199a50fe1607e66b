package estimate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/present/num"
)

// A bad calculator input names the input as the face asks: the command
// line by its flag, the window by its label.
func TestBadInputNamesTheField(t *testing.T) {
	cat := defaultCatalog(t)
	_, err := Train(cat, TrainInput{Params: Given("70B"), Tokens: Given("1.4T"), GPU: "h100-sxm", GPUs: Entered("1.5"), MFU: Given("0.4"), Precision: "bf16"})
	var b *BadInput
	if !errors.As(err, &b) || b.Field != "gpus" {
		t.Fatalf("error %v, want a bad gpus input", err)
	}
	if got, want := b.Error(), "--gpus 1.5 is out of range (allowed: a whole number from 1 to 1,000,000)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	label := func(f string) string { return map[string]string{"gpus": "GPUs"}[f] }
	if got, want := b.Say(label), "GPUs 1.5 is out of range (allowed: a whole number from 1 to 1,000,000)"; got != want {
		t.Errorf("Say(label) = %q, want %q", got, want)
	}
	_, err = Train(cat, TrainInput{Params: Entered(""), Tokens: Given("1T"), GPU: "h100-sxm", GPUs: Given("8"), MFU: Given("0.4"), Precision: "bf16"})
	if !errors.As(err, &b) || b.Field != "params" || b.Error() != "--params is required (allowed: a number > 0 and ≤ 100T, optionally with K, M, B or T, e.g. 70B)" {
		t.Errorf("no params: %v", err)
	}
	_, err = Serve(cat, ServeInput{Model: "llama-3.1-70b", GPU: "h100-sxm", Bits: Given("8"), Context: Given("4096"), LatencyMS: Given("0.001")})
	if !errors.As(err, &b) || b.Field != "" {
		t.Errorf("an unreachable latency: %v, want a bad input of no one field", err)
	}
}

// The estimates are the model's: 6·P·D FLOPs; Young's √(2δM).
func TestEstimates(t *testing.T) {
	cat := defaultCatalog(t)
	tr, err := Train(cat, TrainInput{Params: Given("7B"), Tokens: Given("1T"), GPU: "h100-sxm", GPUs: Given("8"), TFLOPs: Given("400")})
	if err != nil {
		t.Fatal(err)
	}
	if tr.K != 6 || math.Abs(tr.FLOPs-6*7e9*1e12) > 1e9 || tr.GPUs != 8 || tr.Achieved != 400e12 {
		t.Errorf("train %+v", tr)
	}
	sv, err := Serve(cat, ServeInput{Model: "llama-3.1-70b", GPU: "h100-sxm", Bits: Given("8"), Context: Given("4096"), LatencyMS: Given("50")})
	if err != nil || sv.GPUs < 1 || sv.Batch < 1 || sv.Bits != 8 || sv.Context != 4096 {
		t.Errorf("serve %+v, %v", sv, err)
	}
	cp, err := Checkpoint(CheckpointInput{WriteMinutes: Given("10"), MTBFHours: Given("24"), RestartMinutes: Entered("")})
	if err != nil {
		t.Fatal(err)
	}
	if young := math.Sqrt(2*10.0/60*24) * 60; math.Abs(cp.YoungMinutes-young) > 1e-9 || cp.DalyMinutes >= cp.YoungMinutes || cp.Hopeless {
		t.Errorf("checkpoint %+v", cp)
	}
}

// A count reads grouped digits and a suffix, and the limits its message
// shows read back: "10,000T" is both a limit and an input.
func TestCountReadsWhatItsMessageShows(t *testing.T) {
	r := bound("workload.tokens_per_run_b")
	v, b := Count(Given("1,000B"), "tokens", r, 1e9)
	if b != nil || v != 1e12 {
		t.Fatalf("1,000B read as %v, %v", v, b)
	}
	for _, x := range []float64{r.Max * 1e9, 1e14, 7e10, 1.5e12, 123456} {
		s := suffixed(x)
		got, err := num.ParseCount(s)
		if err != nil || got != x {
			t.Errorf("%v written %q reads back %v, %v", x, s, got, err)
		}
	}
	_, b = Count(Given("100,000T"), "tokens", r, 1e9)
	if b == nil || !strings.Contains(b.Error(), "≤ "+suffixed(r.Max*1e9)) {
		t.Fatalf("100,000T: %v", b)
	}
	if v, b := Count(Given(suffixed(r.Max*1e9)), "tokens", r, 1e9); b != nil || v != r.Max*1e9 {
		t.Errorf("the limit %s read as %v, %v", suffixed(r.Max*1e9), v, b)
	}
	if v, b := Number(Given("1,000"), "write-minutes", Positive); b != nil || v != 1000 {
		t.Errorf("1,000 minutes read as %v, %v", v, b)
	}
	if _, b := Number(Given("1,00"), "write-minutes", Positive); b == nil || !strings.Contains(b.Error(), num.Syntax) {
		t.Errorf("1,00 minutes: %v", b)
	}
}

func defaultCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

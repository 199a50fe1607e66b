package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/present"
)

// lambdaOnDemand is the built-in on-demand rate of lambda-h100.
func lambdaOnDemand(t *testing.T) float64 {
	t.Helper()
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	o, ok := def.CloudOffer("lambda-h100")
	if !ok {
		t.Fatal("no lambda-h100")
	}
	return o.OnDemand
}

// hostplan reprice after an import that doubles one cloud price: the
// scenarios whose cost it moves are listed, with the price named with its
// old and new value and date, the others not; as text and as JSON; the
// scenarios are not written (only the outcomes reprice found are kept).
func TestReprice(t *testing.T) {
	db := tempDB(t)
	was := lambdaOnDemand(t)
	mustRun(t, db, "catalog", "import", writeCSV(t, fmt.Sprintf("cloud,lambda-h100,on_demand,%v,2026-10-01,price list seen in October", 2*was)))
	stored := func() string {
		var b strings.Builder
		for _, id := range []string{"foundation-7b-pretraining", "qlora-legal-70b", "nightly-document-batch"} {
			b.WriteString(mustRun(t, db, "history", id))
		}
		return mustRun(t, db, "list") + b.String()
	}
	before := stored()

	out := mustRun(t, db, "reprice")
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "Repriced 6 stored scenarios on the catalog in use against the built-in catalog;") || !strings.HasSuffix(lines[0], "moved more than 5 %.") {
		t.Errorf("first line %q", lines[0])
	}
	price := fmt.Sprintf("    Cloud IaaS — price per GPU-hour, Lambda 8×H100 SXM (on demand): %s → %s USD/GPU-hour, as of ", present.Figure(was), present.Figure(2*was))
	for _, want := range []string{
		"\nQLoRA fine-tuning of a 70B model on contracts (qlora-legal-70b, revision 1)\n  Cloud IaaS: cost over the horizon USD ",
		"  prices that moved:\n" + price,
		" → 2026-10-01\n",
		"\n3 of 6 scenarios changed.\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"support-assistant-70b", "flood-simulation-ensemble", "constrained-snapshot-training", "Not evaluated"} {
		if strings.Contains(out, not) {
			t.Errorf("output has %q:\n%s", not, out)
		}
	}

	var got struct {
		Baseline  string  `json:"baseline"`
		Threshold float64 `json:"threshold"`
		Scenarios int     `json:"scenarios"`
		Changed   []struct {
			ID                  string `json:"id"`
			RecommendationAfter string `json:"recommendation_after"`
			Directions          []struct {
				Direction string  `json:"direction"`
				Change    float64 `json:"change"`
				Beyond    bool    `json:"beyond_threshold"`
				Prices    []struct {
					Input       string  `json:"input"`
					Label       string  `json:"label"`
					EntryBefore string  `json:"entry_before"`
					Before      float64 `json:"before"`
					AsOfAfter   string  `json:"as_of_after"`
				} `json:"prices"`
			} `json:"directions"`
		} `json:"changed"`
		Failed []any `json:"failed"`
	}
	js := mustRun(t, db, "reprice", "--format", "json", "--threshold", "50%")
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	if got.Baseline != "the built-in catalog" || got.Threshold != 0.5 || got.Scenarios != 6 || got.Failed == nil || len(got.Failed) != 0 {
		t.Errorf("header %+v", got)
	}
	ids := []string{}
	for _, c := range got.Changed {
		ids = append(ids, c.ID)
		beyond := false
		for _, d := range c.Directions {
			beyond = beyond || d.Beyond && d.Change > 0.5
			for _, p := range d.Prices {
				if p.EntryBefore != "cloud/lambda-h100/on_demand" || p.Before != was || p.Label != "price per GPU-hour" || !strings.HasSuffix(p.Input, "price_per_gpu_hour") {
					t.Errorf("%s %s: price %+v", c.ID, d.Direction, p)
				}
			}
		}
		if !beyond {
			t.Errorf("%s listed with no move beyond 50 %%: %+v", c.ID, c)
		}
	}
	// The nightly batch's cloud cost moves by about 11 %: listed at 5 %,
	// not at 50 %.
	if strings.Join(ids, " ") != "foundation-7b-pretraining qlora-legal-70b" {
		t.Errorf("listed at 50 %%: %v", ids)
	}
	if !strings.Contains(out, "(nightly-document-batch, revision 1)") {
		t.Error("the nightly batch is not listed at 5 %")
	}

	// Against the imported prices themselves, nothing moved.
	same := writeCSV(t, fmt.Sprintf("cloud,lambda-h100,on_demand,%v,2026-10-01,price list seen in October", 2*was))
	if out := mustRun(t, db, "reprice", "--from", same, "--threshold", "0"); !strings.HasSuffix(out, "\nNo scenario changed.\n") || !strings.Contains(out, "against "+same+" on the built-in catalog;") {
		t.Errorf("against the same prices:\n%s", out)
	}
	if after := stored(); after != before {
		t.Errorf("reprice changed the scenarios:\n%s\nwas\n%s", after, before)
	}
}

// Bad flags and baselines are usage errors (exit 2) that say what is
// allowed; with no store there is nothing to reprice and none is made.
func TestRepriceUsage(t *testing.T) {
	db := tempDB(t)
	bad := writeCSV(t, "cloud,lambda-h100,on_demnd,5,2026-10-01,x")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--threshold", "x"}, `reprice: --threshold "x" is not a percentage from 0 to 1,000 % (e.g. 5%)`},
		{[]string{"--threshold", "-1%"}, `--threshold "-1%" is not a percentage`},
		{[]string{"--format", "xml"}, `reprice: --format "xml" is not known (allowed: text, json)`},
		{[]string{"some-id"}, `reprice: unexpected argument "some-id"`},
		{[]string{"--from", "/no/such.csv"}, "/no/such.csv: cannot read"},
		{[]string{"--from", bad}, bad + `: line 2: cloud lambda-h100: field "on_demnd" is not a field of cloud`},
		{[]string{"--from", bad}, "reprice: --from " + bad + " refused (1 problem; the header is kind,id,field,value,as_of,source)"},
	} {
		code, _, errs := run(t, db, append([]string{"reprice"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	out := mustRun(t, db, "reprice")
	if !strings.Contains(out, "Repriced 0 stored scenarios") || !strings.HasSuffix(out, "\nNo stored scenarios.\n") {
		t.Errorf("no store:\n%s", out)
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("a store was made: %v", err)
	}
	if help := mustRun(t, db, "help"); !strings.Contains(help, "hostplan reprice [--from default|FILE] [--threshold 5%] [--format text|json]") {
		t.Errorf("help does not list reprice:\n%s", help)
	}
}

// --threshold reads a percentage as every number entry reads a number,
// and its message's limit ("1,000 %") reads back.
func TestParseThreshold(t *testing.T) {
	for s, want := range map[string]float64{"5%": 0.05, "2.5": 0.025, " 5 % ": 0.05, "1,000 %": 10, "1,000%": 10, "0": 0} {
		if got, err := parseThreshold(s); err != nil || got != want {
			t.Errorf("parseThreshold(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "%", "-1%", "1,001%", "1,00%", "NaN%", "five"} {
		if got, err := parseThreshold(s); err == nil || !strings.Contains(err.Error(), "from 0 to 1,000 %") {
			t.Errorf("parseThreshold(%q) = %v, %v; want an error naming 0 to 1,000 %%", s, got, err)
		}
	}
}

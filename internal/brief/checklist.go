package brief

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"hostplan/internal/document"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The readiness checklist: what has to be in place around an AI workload
// before, during and after its runs, grouped as the seed's infrastructure
// checklist groups it, in this project's words. Each item names the
// workload shapes it applies to; the state (status and owner) is kept per
// scenario by the store as JSON (ChecklistState).

// Status is the state of one checklist item.
type Status string

// Item statuses.
const (
	StatusOpen          Status = "open"
	StatusDone          Status = "done"
	StatusNotApplicable Status = "not_applicable"
)

// Statuses lists the allowed statuses.
var Statuses = []Status{StatusOpen, StatusDone, StatusNotApplicable}

// Group is one heading of the checklist.
type Group struct {
	ID, Title string
}

// Groups in display order.
var Groups = []Group{
	{"before", "Before anything runs"},
	{"data", "Data"},
	{"environment", "Reproducible environments"},
	{"training", "Training runs"},
	{"serving", "Serving"},
	{"governance", "Governance"},
}

// Item is one thing to have in place.
type Item struct {
	ID    string   `json:"id"` // "group.name", stable: the store keys state by it
	Group string   `json:"group"`
	Text  string   `json:"text"`
	Shape []string `json:"shapes"` // workload shapes it applies to; empty: all
}

// AppliesTo reports whether the item applies to a workload shape.
func (it Item) AppliesTo(shape string) bool {
	return len(it.Shape) == 0 || slices.Contains(it.Shape, shape)
}

var (
	tuning    = []string{scenario.ShapeTraining, scenario.ShapeFineTuning}
	inference = []string{scenario.ShapeInteractive, scenario.ShapeBatch}
	live      = []string{scenario.ShapeInteractive}
)

// Items is the whole checklist.
var Items = []Item{
	{"before.quota", "before", "Ask for GPU quota well before it is needed: new accounts often start at zero and raising it takes days.", nil},
	{"before.region", "before", "Choose the region by where the GPU type is actually offered, not by where the team usually works.", nil},
	{"before.budget", "before", "Set a budget with daily spending alerts; GPU spend grows faster than any other line.", nil},
	{"before.residency", "before", "Decide where every copy of the data will live and check each against the residency rule.", nil},
	{"before.shutdown", "before", "Switch on automatic shutdown for idle instances and notebooks.", nil},
	{"before.identity", "before", "Give jobs a workload identity instead of long-lived keys kept in code or images.", nil},

	{"data.versioned", "data", "Keep data sets in versioned object storage, with lifecycle rules that expire old versions.", nil},
	{"data.same-region", "data", "Keep the data in the compute's region: reads across regions are slow and billed.", nil},
	{"data.local-cache", "data", "Stage the data on local NVMe for the run rather than reading object storage on every epoch.", tuning},
	{"data.version-with-results", "data", "Record which data-set version produced each result; without it no result can be reproduced.", nil},
	{"data.personal", "data", "Remove or anonymise personal data unless a documented basis allows its use.", nil},
	{"data.lineage", "data", "Track lineage: where each data set came from and which licence covers it.", nil},

	{"environment.container", "environment", "Build one container image with the framework, CUDA and driver versions pinned.", nil},
	{"environment.lockfile", "environment", "Pin every dependency in a lockfile.", nil},
	{"environment.seed", "environment", "Record the random seed, accepting that bit-exact results on GPUs are often out of reach.", tuning},
	{"environment.code-config", "environment", "Version the code together with the configuration that produced each run.", nil},
	{"environment.checkpoint-provenance", "environment", "Store checkpoints in object storage with the commit and configuration that made them.", tuning},
	{"environment.tracker", "environment", "Log hyperparameters and metrics to an experiment tracker, not a spreadsheet.", tuning},

	{"training.checkpoint", "training", "Checkpoint often, to durable storage, so an interruption costs minutes rather than hours.", tuning},
	{"training.resume", "training", "Make a run resume from its last checkpoint with no manual step.", tuning},
	{"training.profile-data", "training", "Profile the data pipeline before adding GPUs: starved GPUs are the usual waste.", tuning},
	{"training.early-stop", "training", "Stop a run early once it stops improving, so it stops billing too.", tuning},
	{"training.wall-clock", "training", "Set a maximum wall-clock time for every run as a safety net.", tuning},
	{"training.logs", "training", "Send logs to a persistent store, not only to the instance.", tuning},

	{"serving.separate", "serving", "Keep the serving environment entirely apart from the training environment.", inference},
	{"serving.runtime", "serving", "Serve with an optimised inference runtime rather than the training framework.", inference},
	{"serving.limits", "serving", "Set concurrency and rate limits so a traffic spike cannot turn into an unbounded bill.", live},
	{"serving.cache", "serving", "Put a cache in front of the model for repeated inputs.", live},
	{"serving.monitor", "serving", "Watch latency percentiles, error rate and cost per request.", live},
	{"serving.rollback", "serving", "Keep the previous model version deployable so that rolling back is one step.", inference},
	{"serving.versions", "serving", "Give every model artefact an explicit version: \"the current model\" is not one.", inference},

	{"governance.basis", "governance", "Write down which data may be used, for training or as model input, and on what basis.", nil},
	{"governance.output-logs", "governance", "Decide whether outputs are logged and whether those logs hold personal data.", nil},
	{"governance.approval", "governance", "Name who approves a model for production use.", nil},
	{"governance.degradation", "governance", "Decide how the model's quality is watched for degradation over time.", nil},
	{"governance.fallback", "governance", "Agree the fallback for when the model or its serving stack is down.", inference},
	{"governance.third-parties", "governance", "List the third-party services that see the data, and on what terms.", nil},
}

// ItemByID returns the checklist item with the given id.
func ItemByID(id string) (Item, bool) {
	for _, it := range Items {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// ItemState is the recorded state of one item.
type ItemState struct {
	Status Status `json:"status"`
	Owner  string `json:"owner,omitempty"`
}

// ChecklistState is a scenario's checklist state: item id → state. Items
// not in the map are open with no owner. It encodes as a JSON object (keys
// sorted), the form the store keeps.
type ChecklistState map[string]ItemState

// DecodeChecklist reads a stored state; empty input is the empty state.
// Every status must be one of Statuses; ids the checklist no longer has
// are kept (and ignored when shown) so that nothing stored is lost.
func DecodeChecklist(b []byte) (ChecklistState, error) {
	st := ChecklistState{}
	if len(strings.TrimSpace(string(b))) == 0 {
		return st, nil
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("checklist state: %w", err)
	}
	if st == nil { // JSON null
		st = ChecklistState{}
	}
	for _, id := range st.ids() {
		if !slices.Contains(Statuses, st[id].Status) {
			return nil, fmt.Errorf("checklist state: %s: status %q is not known (allowed: %s)", id, st[id].Status, statusList())
		}
	}
	return st, nil
}

// Encode returns the state as indented JSON.
func (c ChecklistState) Encode() ([]byte, error) {
	return json.MarshalIndent(c, "", "  ")
}

func (c ChecklistState) ids() []string {
	ids := make([]string, 0, len(c))
	for id := range c {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func statusList() string {
	s := make([]string, len(Statuses))
	for i, x := range Statuses {
		s[i] = string(x)
	}
	return strings.Join(s, ", ")
}

// Set records an item's status and owner. The item must exist and apply
// to the shape; an empty owner keeps the one recorded before.
func (c ChecklistState) Set(shape, id string, status Status, owner string) error {
	it, ok := ItemByID(id)
	if !ok {
		return fmt.Errorf("checklist item %q is not known (allowed: %s)", id, strings.Join(ItemIDs(shape), ", "))
	}
	if !it.AppliesTo(shape) {
		return fmt.Errorf("checklist item %q does not apply to shape %s (allowed: %s)", id, shape, strings.Join(ItemIDs(shape), ", "))
	}
	if !slices.Contains(Statuses, status) {
		return fmt.Errorf("checklist item %q: status %q is not known (allowed: %s)", id, status, statusList())
	}
	if owner == "" {
		owner = c[id].Owner
	}
	c[id] = ItemState{Status: status, Owner: owner}
	return nil
}

// ItemIDs lists the ids of the items that apply to a shape.
func ItemIDs(shape string) []string {
	var out []string
	for _, it := range Items {
		if it.AppliesTo(shape) {
			out = append(out, it.ID)
		}
	}
	return out
}

// Entry is one applicable item with its state.
type Entry struct {
	Item
	Status Status `json:"status"`
	Owner  string `json:"owner"`
}

// Checklist returns the items that apply to a shape, in order, each with
// its recorded state (open and unowned when none is recorded).
func Checklist(shape string, st ChecklistState) []Entry {
	var out []Entry
	for _, it := range Items {
		if !it.AppliesTo(shape) {
			continue
		}
		e := Entry{Item: it, Status: StatusOpen}
		if s, ok := st[it.ID]; ok {
			e.Status, e.Owner = s.Status, s.Owner
		}
		out = append(out, e)
	}
	return out
}

// GroupTitle returns a group's heading.
func GroupTitle(id string) string {
	for _, g := range Groups {
		if g.ID == id {
			return g.Title
		}
	}
	return id
}

// checklist writes the readiness checklist: how many items apply and are
// settled, then a section per group, an item with its box, id, status and
// owner a line.
func (w *writer) checklist() {
	shape := w.s.Workload.Shape
	entries := Checklist(shape, w.st)
	done := 0
	for _, e := range entries {
		if e.Status != StatusOpen {
			done++
		}
	}
	w.section(2, "Readiness checklist")
	w.para(txt(plain(fmt.Sprintf("%d items apply to %s; %d are settled (done or not applicable). Set them with ", len(entries), present.Lower(present.ShapeTitle(shape)), done)),
		code(fmt.Sprintf("hostplan checklist %s --set ITEM=STATUS[:OWNER]", w.s.ID)), plain(".")))
	for _, g := range Groups {
		var items []document.ListItem
		for _, e := range entries {
			if e.Group != g.ID {
				continue
			}
			it := item(plain(e.Text+" ("), code(e.ID),
				plain(fmt.Sprintf(", %s, owner: %s)", StatusWords(string(e.Status)), orDash(inline(e.Owner)))))
			it.Box = boxOf(e.Status)
			items = append(items, it)
		}
		if len(items) > 0 {
			w.section(3, g.Title)
			w.list(items...)
		}
	}
}

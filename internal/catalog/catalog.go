// Package catalog holds the hardware, model and price facts hostplan reasons
// with: GPU specifications, model presets, cloud offers, on-premises nodes,
// HPC partitions, managed services, data prices and the exchange rates
// that convert prices into a scenario's currency (currency.go: prices are
// in USD, an HPC partition's in its own currency). Every entry carries the
// date it was true (as_of) and where it came from (source). The default
// catalog is embedded from assets/catalog; the user's overrides (a CSV of
// one field per row, see Overrides) are applied on top of it with Apply.
package catalog

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"hostplan/assets"
	"hostplan/internal/scenario"
)

// Entry is the provenance every catalog item carries.
type Entry struct {
	AsOf   string `json:"as_of"`  // YYYY-MM-DD
	Source string `json:"source"` // where the figure was published
	Note   string `json:"note,omitempty"`
	// Overridden marks an entry that the user's overrides changed or added
	// (see Apply); it is never set in the embedded files.
	Overridden bool `json:"overridden,omitempty"`
	// FromCurrency is the currency the entry's prices were published in
	// when InCurrency converted them ("" when they were not converted).
	FromCurrency string `json:"-"`
}

// GPU is one accelerator type; throughput figures are dense (no sparsity).
type GPU struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	BF16TFLOPs   float64 `json:"bf16_tflops"`
	FP8TFLOPs    float64 `json:"fp8_tflops"` // 0 when the GPU has no FP8 tensor path
	MemoryGB     float64 `json:"memory_gb"`
	BandwidthGBs float64 `json:"bandwidth_gbs"` // memory bandwidth, GB/s
	PowerW       float64 `json:"power_w"`
	// AllReduceBusGBs is the all-reduce bus bandwidth measured among 8 of
	// these GPUs in one server (nccl-tests busbw), GB/s: what collectives
	// inside a node achieve, well below the link's bidirectional figure.
	// 0 when none is published (the model then takes half the link).
	AllReduceBusGBs float64 `json:"allreduce_bus_gbs,omitempty"`
	// Stack is how work is programmed for the accelerator: "" for the GPUs
	// PyTorch and its CUDA or ROCm kernels run on, StackXLA for Google's
	// TPUs (JAX, or PyTorch through XLA). A cloud offer of an XLA
	// accelerator is a platform change, taken only when a scenario names
	// it.
	Stack string `json:"stack,omitempty"`
	Entry
}

// StackXLA is the Stack of accelerators programmed through XLA (TPUs).
const StackXLA = "xla"

// PeakTFLOPs returns the dense peak for a working precision: FP8 and 8/4-bit
// integer formats use the FP8 path where the GPU has one, everything else
// the 16-bit path (FP32 work is assumed to run on TF32/BF16 tensor cores).
func (g GPU) PeakTFLOPs(precision string) float64 {
	switch precision {
	case "fp8", "int8", "int4":
		if g.FP8TFLOPs > 0 {
			return g.FP8TFLOPs
		}
	}
	return g.BF16TFLOPs
}

// Model is an architecture preset. Parameter counts are in billions.
type Model struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	ParamsB       float64 `json:"params_b"`
	ActiveParamsB float64 `json:"active_params_b"` // differs from ParamsB for mixture-of-experts
	Layers        int     `json:"layers"`
	HiddenSize    int     `json:"hidden_size"`
	Heads         int     `json:"heads"` // attention heads
	KVHeads       int     `json:"kv_heads"`
	HeadDim       int     `json:"head_dim"`
	// KVLatentDim is the values cached per token and layer by compressed
	// (multi-head latent) attention, 0 for a plain or grouped-query cache
	// (scenario.Model.KVLatentDim).
	KVLatentDim int `json:"kv_latent_dim,omitempty"`
	// SlidingWindow and WindowLayers: the tokens a windowed (local,
	// sliding-window or chunked) attention layer attends over and caches,
	// and how many of the layers are windowed; the others attend over the
	// whole context (0, 0: every layer does; scenario.Model's).
	SlidingWindow int `json:"sliding_window,omitempty"`
	WindowLayers  int `json:"window_layers,omitempty"`
	// Experts and ExpertsPerToken: a mixture of experts' routed experts
	// per MoE layer and how many each token uses (0: a dense model);
	// MoELayers how many layers have experts (0: every layer;
	// scenario.Model's).
	Experts         int `json:"experts,omitempty"`
	ExpertsPerToken int `json:"experts_per_token,omitempty"`
	MoELayers       int `json:"moe_layers,omitempty"`
	Entry
}

// CloudOffer is one rentable GPU instance type; prices are per GPU-hour.
// A zero price means the catalog has no published figure for that mode.
type CloudOffer struct {
	ID           string `json:"id"`
	Provider     string `json:"provider"`
	Name         string `json:"name"`
	Region       string `json:"region"`
	Jurisdiction string `json:"jurisdiction"` // where the data is processed: US, EU, …
	// ProviderHome is the legal home of the provider's parent company
	// (ISO 3166-1 alpha-2: US, FR, DE, NL, …), whose laws reach the
	// data wherever its regions are; "" unknown.
	ProviderHome     string  `json:"provider_home"`
	GPU              string  `json:"gpu"`
	GPUsPerNode      int     `json:"gpus_per_node"`
	OnDemand         float64 `json:"on_demand"`
	Commit1Y         float64 `json:"commit_1y"`
	Commit3Y         float64 `json:"commit_3y"`
	Spot             float64 `json:"spot"`
	NetworkGBsPerGPU float64 `json:"network_gbs_per_gpu"` // inter-node bandwidth per GPU, GB/s
	IntraNodeGBs     float64 `json:"intra_node_gbs"`      // NVLink or PCIe bandwidth per GPU, GB/s
	MaxGPUs          int     `json:"max_gpus"`            // 0: no stated limit
	StorageGBs       float64 `json:"storage_gbs"`         // read throughput from the data store to the job, GB/s (estimate)
	Entry
}

// Price returns the per-GPU-hour price for a pricing mode, and whether the
// catalog has one.
func (o CloudOffer) Price(mode string) (float64, bool) {
	var p float64
	switch mode {
	case "", scenario.PricingOnDemand:
		p = o.OnDemand
	case scenario.PricingCommit1Y:
		p = o.Commit1Y
	case scenario.PricingCommit3Y:
		p = o.Commit3Y
	case scenario.PricingSpot:
		p = o.Spot
	case scenario.PricingMixed1Y, scenario.PricingMixed3Y:
		// A commitment for the base load and on-demand for the rest:
		// both rates must exist; the committed one is returned.
		p, _ = o.Price("commit_" + mode[len("mixed_"):])
		if o.OnDemand <= 0 {
			p = 0
		}
	}
	return p, p > 0
}

// Modes lists the pricing modes this offer has a price for.
func (o CloudOffer) Modes() []string {
	var out []string
	for _, m := range scenario.PricingModes {
		if _, ok := o.Price(m); ok {
			out = append(out, m)
		}
	}
	return out
}

// DataPrice is a provider's object storage and internet egress price.
type DataPrice struct {
	Provider          string  `json:"provider"`
	StoragePerGBMonth float64 `json:"storage_per_gb_month"`
	EgressPerGB       float64 `json:"egress_per_gb"`
	Entry
}

// Node is an on-premises server option.
type Node struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	GPU            string  `json:"gpu"`
	GPUs           int     `json:"gpus"`
	Price          float64 `json:"price"`
	PowerKWMax     float64 `json:"power_kw_max"`
	PowerKWTypical float64 `json:"power_kw_typical"`
	LeadTimeWeeks  float64 `json:"lead_time_weeks"`
	IntraNodeGBs   float64 `json:"intra_node_gbs"`      // NVLink bandwidth per GPU, GB/s
	NetworkGBs     float64 `json:"network_gbs_per_gpu"` // inter-node bandwidth per GPU, GB/s
	StorageGBs     float64 `json:"storage_gbs"`         // local storage read throughput, GB/s (estimate)
	Entry
}

// Site holds the defaults for running owned hardware.
type Site struct {
	ElectricityPerKWh  float64 `json:"electricity_per_kwh"`
	PUE                float64 `json:"pue"`
	ColoPerKWMonth     float64 `json:"colo_per_kw_month"`
	LifeYears          float64 `json:"life_years"`
	MaintenancePerYear float64 `json:"maintenance_per_year"` // fraction of purchase price
	StaffCostPerFTE    float64 `json:"staff_cost_per_fte_year"`
	IdlePowerFraction  float64 `json:"idle_power_fraction"` // draw when idle, fraction of typical
	// Operations staff for owned hardware: FTE per node, and the least a
	// site needs however few nodes it runs.
	StaffFTEPerNode float64 `json:"staff_fte_per_node"`
	StaffFTEMin     float64 `json:"staff_fte_min"`
	// InfrastructureShare is what the cluster fabric, storage and
	// installation add to the nodes' price, as a share of it.
	InfrastructureShare float64 `json:"infrastructure_share"`
	CostOfCapital       float64 `json:"cost_of_capital"` // a yearly rate
	RackKW              float64 `json:"rack_kw"`         // most power one rack takes, kW
	// FiguresAsOf dates the figures whose source is older than the
	// entry's as_of (JSON field name → YYYY-MM-DD): the entry is dated by
	// its newest figures, and a figure listed here keeps its own date, so
	// a price check names it. An override that changes a figure dates it
	// by the override (Apply).
	FiguresAsOf map[string]string `json:"figures_as_of,omitempty"`
	Entry
}

// FigureAsOf is the date of the site's figure field (its JSON name): its
// own date in FiguresAsOf, else the entry's.
func (s Site) FigureAsOf(field string) string {
	if d, ok := s.FiguresAsOf[field]; ok {
		return d
	}
	return s.AsOf
}

// Figure is the site's entry as its figure field speaks for it: the
// entry's source and note with the figure's date.
func (s Site) Figure(field string) Entry {
	e := s.Entry
	e.AsOf = s.FigureAsOf(field)
	return e
}

// Partition is a shared-HPC GPU partition.
type Partition struct {
	ID          string `json:"id"`
	Centre      string `json:"centre"`
	GPU         string `json:"gpu"`
	GPUsPerNode int    `json:"gpus_per_node"`
	// MaxGPUs is the partition's capacity: the GPUs every project shares
	// (and so the most one job could ask for).
	MaxGPUs int `json:"max_gpus"`
	// PricePerGPUHour is the rate the centre's own members pay (0: an
	// allocation, no charge); ExternalPricePerGPUHour the rate for users
	// from outside (0: the centre publishes none, so only members and
	// allocation holders run there).
	PricePerGPUHour         float64 `json:"price_per_gpu_hour"`
	ExternalPricePerGPUHour float64 `json:"external_price_per_gpu_hour"`
	// FairShare is the largest share of the partition one project may
	// hold: of its GPUs at once, and of its GPU-hours over time.
	FairShare      float64    `json:"fair_share"`
	Currency       string     `json:"currency"`
	Jurisdiction   string     `json:"jurisdiction"`
	WalltimeHours  float64    `json:"walltime_hours"`
	QueueWaitHours [3]float64 `json:"queue_wait_hours"` // low, likely, high (an estimate)
	IntraNodeGBs   float64    `json:"intra_node_gbs"`
	NetworkGBs     float64    `json:"network_gbs_per_gpu"`
	StorageGBs     float64    `json:"storage_gbs"` // parallel file system throughput available to one job, GB/s
	Entry
}

// ManagedOffer is a provider-operated service priced per token, or
// (kind dedicated) a dedicated deployment the provider operates on GPUs
// rented to one customer by the GPU-hour: ReferenceGPU is the GPU it
// rents, ReferenceGPUs the most one replica may hold, GPUHourPrice the
// price of one of them for an hour while the deployment runs.
type ManagedOffer struct {
	ID              string  `json:"id"`
	Provider        string  `json:"provider"`
	Name            string  `json:"name"`
	Kind            string  `json:"kind"` // inference, fine_tuning or dedicated
	MaxParamsB      float64 `json:"max_params_b"`
	PriceInPerM     float64 `json:"price_in_per_m"`
	PriceOutPerM    float64 `json:"price_out_per_m"`
	TrainPerMTokens float64 `json:"train_per_m_tokens"`
	GPUHourPrice    float64 `json:"gpu_hour_price"` // dedicated: per GPU-hour
	ReturnsWeights  bool    `json:"returns_weights"`
	Region          string  `json:"region"`
	Jurisdiction    string  `json:"jurisdiction"`
	ProviderHome    string  `json:"provider_home"` // legal home of the provider's parent company, as CloudOffer's
	// ReferenceGPUs × ReferenceGPU is the hardware a run's elapsed time is
	// estimated on, at the scenario's MFU: providers publish no times.
	ReferenceGPU  string `json:"reference_gpu"` // a GPU id of the catalog
	ReferenceGPUs int    `json:"reference_gpus"`
	// Model is the catalog model the offer serves, when it is priced for
	// one model (a provider's price for DeepSeek-V3, say); "" for a price
	// by size class, which serves any model of up to MaxParamsB.
	Model string `json:"model,omitempty"`
	Entry
}

// Rate is one euro foreign-exchange reference rate: how many units of
// Currency one euro buys. Cross rates between two other currencies go
// through the euro (see InCurrency).
type Rate struct {
	Currency string  `json:"currency"` // ISO 4217 code
	PerEUR   float64 `json:"per_eur"`  // units of Currency per euro
	Entry
}

// Catalog is the full set of facts.
type Catalog struct {
	GPUs    []GPU
	Models  []Model
	Cloud   []CloudOffer
	Data    []DataPrice
	Nodes   []Node
	Site    Site
	HPC     []Partition
	Managed []ManagedOffer
	Grids   []Grid // carbon intensity of grids (energy.json)
	PUEs    []PUE  // operators' PUE (energy.json)
	Rates   []Rate
}

// Default returns the catalog embedded in the binary.
func Default() (*Catalog, error) {
	sub, err := fs.Sub(assets.Catalog, "catalog")
	if err != nil {
		return nil, err
	}
	return Load(sub)
}

// Load reads the catalog files from fsys and checks them.
func Load(fsys fs.FS) (*Catalog, error) {
	c := &Catalog{}
	var onprem struct {
		Nodes []Node `json:"nodes"`
		Site  Site   `json:"site"`
	}
	var energy struct {
		Grids []Grid `json:"grid"`
		PUEs  []PUE  `json:"pue"`
	}
	for _, f := range []struct {
		name string
		into any
	}{
		{"gpus.json", &c.GPUs}, {"models.json", &c.Models}, {"cloud.json", &c.Cloud},
		{"data.json", &c.Data}, {"onprem.json", &onprem}, {"hpc.json", &c.HPC}, {"managed.json", &c.Managed},
		{"energy.json", &energy},
		{"rates.json", &c.Rates},
	} {
		b, err := fs.ReadFile(fsys, f.name)
		if err != nil {
			return nil, fmt.Errorf("catalog: %w", err)
		}
		if err := json.Unmarshal(b, f.into); err != nil {
			return nil, fmt.Errorf("catalog %s: %w", f.name, err)
		}
	}
	c.Nodes, c.Site = onprem.Nodes, onprem.Site
	c.Grids, c.PUEs = energy.Grids, energy.PUEs
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Catalog) check() error {
	ps := c.problems()
	if len(ps) == 0 {
		return nil
	}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = p.msg
	}
	sort.Strings(msgs)
	return fmt.Errorf("catalog: %s", strings.Join(msgs, "; "))
}

// problem is one thing check finds wrong, with the entry it belongs to
// ("cloud/aws-p5-h100", "site") so that Apply can name the override row
// that caused it.
type problem struct{ key, msg string }

func (c *Catalog) problems() []problem {
	var ps []problem
	bad := func(kind, id, format string, a ...any) {
		key := kind
		if kind != "site" {
			key += "/" + id
		}
		ps = append(ps, problem{key, fmt.Sprintf(format, a...)})
	}
	date := func(kind, id string, e Entry) {
		what := strings.TrimSpace(kind + " " + id)
		if _, err := time.Parse(time.DateOnly, e.AsOf); err != nil {
			bad(kind, id, "%s: as_of %q is not a YYYY-MM-DD date", what, e.AsOf)
		}
		if strings.TrimSpace(e.Source) == "" {
			bad(kind, id, "%s: source is empty", what)
		}
	}
	ids := map[string]bool{}
	unique := func(kind, id string) {
		if id == "" {
			bad(kind, id, "%s: an entry has no id", kind)
		}
		if ids[kind+"/"+id] {
			bad(kind, id, "%s %q: id appears twice", kind, id)
		}
		ids[kind+"/"+id] = true
	}
	for _, k := range kinds {
		for _, v := range c.entries(k) {
			for _, f := range k.fields {
				if msg := f.outOfRange(k, v.FieldByIndex(f.index)); msg != "" {
					bad(string(k.name), k.id(v), "%s: %s", strings.TrimSpace(string(k.name)+" "+k.id(v)), msg)
				}
			}
		}
	}
	for _, g := range c.GPUs {
		unique("gpu", g.ID)
		date("gpu", g.ID, g.Entry)
		if g.Stack != "" && g.Stack != StackXLA {
			bad("gpu", g.ID, "gpu %s: stack %q is not known (allowed: empty for CUDA or ROCm GPUs, %s)", g.ID, g.Stack, StackXLA)
		}
	}
	gpu := func(kind, id, gpuID string) {
		if _, ok := c.GPU(gpuID); !ok {
			bad(kind, id, "%s %s: unknown gpu %q", kind, id, gpuID)
		}
	}
	for _, m := range c.Models {
		unique("model", m.ID)
		date("model", m.ID, m.Entry)
		if m.ActiveParamsB > m.ParamsB {
			bad("model", m.ID, "model %s: active_params_b %s is larger than params_b %s (allowed: active parameters ≤ total parameters)", m.ID, scenario.Num(m.ActiveParamsB), scenario.Num(m.ParamsB))
		}
	}
	for _, o := range c.Cloud {
		unique("cloud", o.ID)
		date("cloud", o.ID, o.Entry)
		gpu("cloud", o.ID, o.GPU)
	}
	for _, d := range c.Data {
		unique("data", d.Provider)
		date("data", d.Provider, d.Entry)
	}
	for _, n := range c.Nodes {
		unique("node", n.ID)
		date("node", n.ID, n.Entry)
		gpu("node", n.ID, n.GPU)
	}
	date("site", "", c.Site.Entry)
	for _, f := range slices.Sorted(maps.Keys(c.Site.FiguresAsOf)) {
		if _, ok := kindNamed("site").field(f); !ok {
			bad("site", "", "site: figures_as_of names %q, which is not a site figure (allowed: %s)", f, strings.Join(kindNamed("site").fieldNames(), ", "))
		} else if _, err := time.Parse(time.DateOnly, c.Site.FiguresAsOf[f]); err != nil {
			bad("site", "", "site: figures_as_of of %s %q is not a YYYY-MM-DD date", f, c.Site.FiguresAsOf[f])
		}
	}
	for _, p := range c.HPC {
		unique("hpc", p.ID)
		date("hpc", p.ID, p.Entry)
		gpu("hpc", p.ID, p.GPU)
		if q := p.QueueWaitHours; !(q[0] <= q[1] && q[1] <= q[2]) {
			bad("hpc", p.ID, "hpc %s: queue_wait_hours is out of order (allowed: low ≤ likely ≤ high)", p.ID)
		}
	}
	for _, m := range c.Managed {
		unique("managed", m.ID)
		date("managed", m.ID, m.Entry)
		if m.Kind != "inference" && m.Kind != "fine_tuning" && m.Kind != "dedicated" {
			bad("managed", m.ID, "managed %s: kind %q (allowed: inference, fine_tuning, dedicated)", m.ID, m.Kind)
		}
		if m.Kind == "dedicated" && !(m.GPUHourPrice > 0) {
			bad("managed", m.ID, "managed %s: a dedicated offer needs gpu_hour_price > 0", m.ID)
		}
		if _, ok := c.Model(m.Model); m.Model != "" && !ok {
			bad("managed", m.ID, "managed %s: unknown model %q", m.ID, m.Model)
		}
		if _, ok := c.GPU(m.ReferenceGPU); !ok {
			bad("managed", m.ID, "managed %s: unknown reference_gpu %q", m.ID, m.ReferenceGPU)
		}
		if m.ReferenceGPUs < 1 {
			bad("managed", m.ID, "managed %s: reference_gpus must be ≥ 1", m.ID)
		}
	}
	for _, g := range c.Grids {
		unique("grid", g.ID)
		date("grid", g.ID, g.Entry)
	}
	for _, p := range c.PUEs {
		unique("pue", p.ID)
		date("pue", p.ID, p.Entry)
	}
	for _, x := range c.Rates {
		unique("rate", x.Currency)
		date("rate", x.Currency, x.Entry)
		if !currencyCode(x.Currency) {
			bad("rate", x.Currency, "rate %q: the currency is not a three-letter ISO 4217 code such as USD", x.Currency)
		}
		if x.Currency == BaseCurrency && x.PerEUR != 1 {
			bad("rate", x.Currency, "rate EUR: per_eur %s (allowed: exactly 1, the euro is the base of the rates)", scenario.Num(x.PerEUR))
		}
	}
	return ps
}

// find returns the entry whose id is want. It compares in place and copies
// only the match: the model looks entries up in every Monte Carlo draw.
func find[T any](xs []T, id func(*T) string, want string) (T, bool) {
	for i := range xs {
		if id(&xs[i]) == want {
			return xs[i], true
		}
	}
	var zero T
	return zero, false
}

// GPU returns the GPU with the given id.
func (c *Catalog) GPU(id string) (GPU, bool) {
	return find(c.GPUs, func(g *GPU) string { return g.ID }, id)
}

// Model returns the model preset with the given id.
func (c *Catalog) Model(id string) (Model, bool) {
	return find(c.Models, func(m *Model) string { return m.ID }, id)
}

// CloudOffer returns the cloud offer with the given id.
func (c *Catalog) CloudOffer(id string) (CloudOffer, bool) {
	return find(c.Cloud, func(o *CloudOffer) string { return o.ID }, id)
}

// DataPrice returns the data prices of a provider.
func (c *Catalog) DataPrice(provider string) (DataPrice, bool) {
	return find(c.Data, func(d *DataPrice) string { return d.Provider }, provider)
}

// Node returns the on-premises node with the given id.
func (c *Catalog) Node(id string) (Node, bool) {
	return find(c.Nodes, func(n *Node) string { return n.ID }, id)
}

// Partition returns the HPC partition with the given id.
func (c *Catalog) Partition(id string) (Partition, bool) {
	return find(c.HPC, func(p *Partition) string { return p.ID }, id)
}

// ManagedOffer returns the managed offer with the given id.
func (c *Catalog) ManagedOffer(id string) (ManagedOffer, bool) {
	return find(c.Managed, func(m *ManagedOffer) string { return m.ID }, id)
}

// IDs lists the ids of the entries of one kind in catalog order: the
// provider for data prices, the currency for rates, SiteID for the site.
// It panics on a kind Kinds does not list.
func (c *Catalog) IDs(kind Kind) []string {
	k := kindNamed(kind)
	if k == nil {
		panic(fmt.Sprintf("catalog: IDs of unknown kind %q", kind))
	}
	var out []string
	for _, v := range c.entries(k) {
		out = append(out, k.id(v))
	}
	return out
}

// OldestAsOf returns the earliest as_of among the given entries.
func OldestAsOf(entries ...Entry) string {
	oldest := ""
	for _, e := range entries {
		oldest = OlderAsOf(oldest, e.AsOf)
	}
	return oldest
}

// OlderAsOf is the earlier of two as_of dates, an empty one not counting
// (YYYY-MM-DD sorts as text).
func OlderAsOf(a, b string) string {
	if b != "" && (a == "" || b < a) {
		return b
	}
	return a
}

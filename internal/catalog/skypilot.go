package catalog

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"hostplan/internal/bom"
)

// The community price catalog of SkyPilot (github.com/skypilot-org/
// skypilot-catalog, catalogs/v8/<cloud>/vms.csv), which its fetchers
// refresh from the providers' price APIs: one row per instance type and
// region with the instance's on-demand and spot price per hour. Its GPU
// rows become cloud offers priced per GPU-hour.

// skyPilotColumns are the columns of a SkyPilot vms.csv hostplan reads;
// the file has these among others (vCPUs, MemoryGiB, GpuInfo).
var skyPilotColumns = []string{"InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "Region"}

// IsSkyPilotHeader reports whether a CSV header is a SkyPilot vms.csv's.
func IsSkyPilotHeader(header []string) bool {
	for _, c := range skyPilotColumns {
		if !slices.Contains(header, c) {
			return false
		}
	}
	return true
}

// SkyPilotImport is what a SkyPilot vms.csv gives: the cloud offers of
// its usable GPU rows, and every row it could not use with the reason.
type SkyPilotImport struct {
	Offers  []CloudOffer
	Skipped []SkippedRow
	// Unknown counts the rows of each accelerator the catalog has no GPU
	// for (listed, not guessed).
	Unknown map[string]int
	// NoJurisdiction counts the offers whose region's jurisdiction is not
	// known: imported with none, so that no residency but "any" takes
	// them.
	NoJurisdiction int
	Rows           int // data rows read
}

// SkippedRow is a row of a SkyPilot file that gave no offer.
type SkippedRow struct {
	File   string
	Line   int
	Reason string
}

// Reasons a SkyPilot row gives no offer; the first words of
// SkippedRow.Reason, by which the import counts them.
const (
	SkipNoGPU      = "no GPU"
	SkipUnknownGPU = "accelerator not in the catalog"
	SkipFraction   = "a fraction of a GPU"
	SkipBadNumber  = "not a number"
	SkipNoPrice    = "no on-demand price"
	SkipDuplicate  = "same instance and region as line"
	SkipBadField   = "field out of range"
)

// skyPilotGPUs maps SkyPilot's accelerator names to catalog GPUs. An
// A100 or V100 without a size is the smaller card unless GpuInfo says 80
// or 32 GB; names not here are reported, not guessed.
var skyPilotGPUs = map[string]string{
	"A100-80GB": "a100-80gb", "A100-80GB-SXM": "a100-80gb",
	"H100": "h100-sxm", "H100-SXM": "h100-sxm", "H100-MEGA": "h100-sxm", "H100-80GB": "h100-sxm",
	"H200": "h200-sxm", "H200-SXM": "h200-sxm",
	"L40S": "l40s", "MI300X": "mi300x", "V100-32GB": "v100-32gb",
	"B200": "b200", "GB200": "gb200", "B300": "b300", "H100-PCIE": "h100-pcie", "L4": "l4",
	"MI325X": "mi325x", "MI355X": "mi355x", "GAUDI3": "gaudi3", "GAUDI-3": "gaudi3",
}

// skyPilotHomes is the legal home of each SkyPilot cloud's provider
// (ISO 3166-1 alpha-2), from their corporate filings and imprints; a
// cloud not listed is imported with an unknown home ("").
var skyPilotHomes = map[string]string{
	"aws": "US", "gcp": "US", "azure": "US", "oci": "US", "lambda": "US", "runpod": "US", "vast": "US",
	"fluidstack": "GB", "cudo": "GB", "hyperstack": "GB", "nebius": "NL", "seeweb": "IT", "verda": "FI",
	"paperspace": "US", "shadeform": "US", "coreweave": "US", "together": "US", "primeintellect": "US",
	"hyperbolic": "US", "jarvislabs": "IN", "yotta": "IN", "scaleway": "FR", "ovhcloud": "FR",
}

// regionJurisdictions are regions whose country is known, by provider.
var regionJurisdictions = map[string]map[string]string{
	"aws": {"eu-west-1": "IE", "eu-west-2": "GB", "eu-west-3": "FR", "eu-central-1": "DE", "eu-central-2": "CH",
		"eu-north-1": "SE", "eu-south-1": "IT", "eu-south-2": "ES", "ap-northeast-1": "JP", "ap-northeast-2": "KR",
		"ap-northeast-3": "JP", "ap-south-1": "IN", "ap-south-2": "IN", "ap-southeast-1": "SG", "ap-southeast-2": "AU",
		"ap-southeast-3": "ID", "ap-southeast-4": "AU", "ap-southeast-5": "MY", "ap-east-1": "HK", "sa-east-1": "BR",
		"me-south-1": "BH", "me-central-1": "AE", "af-south-1": "ZA", "il-central-1": "IL", "ca-central-1": "CA",
		"ca-west-1": "CA", "mx-central-1": "MX"},
	"gcp": {"europe-west1": "BE", "europe-west2": "GB", "europe-west3": "DE", "europe-west4": "NL", "europe-west6": "CH",
		"europe-west8": "IT", "europe-west9": "FR", "europe-west10": "DE", "europe-west12": "IT", "europe-central2": "PL",
		"europe-north1": "FI", "europe-north2": "SE", "europe-southwest1": "ES", "asia-east1": "TW", "asia-east2": "HK",
		"asia-northeast1": "JP", "asia-northeast2": "JP", "asia-northeast3": "KR", "asia-south1": "IN", "asia-south2": "IN",
		"asia-southeast1": "SG", "asia-southeast2": "ID", "australia-southeast1": "AU", "australia-southeast2": "AU",
		"southamerica-east1": "BR", "southamerica-west1": "CL", "me-west1": "IL", "me-central1": "QA", "me-central2": "SA",
		"africa-south1": "ZA", "northamerica-northeast1": "CA", "northamerica-northeast2": "CA", "northamerica-south1": "MX"},
	"azure": {"westeurope": "NL", "northeurope": "IE", "francecentral": "FR", "francesouth": "FR", "germanywestcentral": "DE",
		"germanynorth": "DE", "swedencentral": "SE", "norwayeast": "NO", "switzerlandnorth": "CH", "uksouth": "GB",
		"ukwest": "GB", "italynorth": "IT", "polandcentral": "PL", "spaincentral": "ES", "japaneast": "JP",
		"japanwest": "JP", "koreacentral": "KR", "australiaeast": "AU", "australiasoutheast": "AU", "canadacentral": "CA",
		"canadaeast": "CA", "centralindia": "IN", "southindia": "IN", "southeastasia": "SG", "eastasia": "HK",
		"brazilsouth": "BR", "uaenorth": "AE", "qatarcentral": "QA", "southafricanorth": "ZA"},
	"lambda": {"europe-central-1": "DE", "asia-south-1": "IN", "asia-northeast-1": "JP", "asia-northeast-2": "KR",
		"me-west-1": "IL", "australia-east-1": "AU"},
}

// usRegion matches the regions every provider names for the United
// States: us-east-1, us-central1, eastus2, westus3, southcentralus, US-TX-3.
var usRegion = regexp.MustCompile(`(?i)^(us[-_]|(east|west|central|northcentral|southcentral|westcentral)us\d*$)`)

// RegionJurisdiction is the country (ISO 3166-1 alpha-2) that a provider's
// region lies in, or "" when hostplan does not know it.
func RegionJurisdiction(provider, region string) string {
	if j, ok := regionJurisdictions[provider][region]; ok {
		return j
	}
	if usRegion.MatchString(region) {
		return "US"
	}
	return ""
}

// SkyPilotOptions say where the file came from.
type SkyPilotOptions struct {
	Cloud  string // the provider: the vms.csv's folder name (aws, gcp, lambda, …)
	File   string // for messages and the source
	AsOf   string // YYYY-MM-DD: the file's date, asked for or from its metadata
	Source string // the source every offer carries
}

// ReadSkyPilot reads a SkyPilot vms.csv into cloud offers of base's GPUs:
// one offer per GPU instance type and region, priced per GPU-hour (the
// instance's price ÷ its GPUs, spot likewise; no commitment prices, which
// the file lacks); links and storage copied from a catalog offer of the
// same provider and GPU, else estimated and said so. A row it cannot use
// is listed with its reason; nothing is half read.
func ReadSkyPilot(r io.Reader, base *Catalog, o SkyPilotOptions) (*SkyPilotImport, error) {
	cr := csv.NewReader(bom.Reader(r))
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s: no header: %v", o.File, err)
	}
	if !IsSkyPilotHeader(header) {
		return nil, fmt.Errorf("%s: not a SkyPilot vms.csv (header needs %s)", o.File, strings.Join(skyPilotColumns, ", "))
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	imp := &SkyPilotImport{Unknown: map[string]int{}}
	seen := map[string]int{}            // offer id → line of its first row
	index := map[string]int{}           // offer id → index in imp.Offers
	zones := map[string]int{}           // offer id → availability zones merged
	_, zoned := col["AvailabilityZone"] // AWS lists each zone of a region
	skip := func(line int, format string, a ...any) {
		imp.Skipped = append(imp.Skipped, SkippedRow{File: o.File, Line: line, Reason: fmt.Sprintf(format, a...)})
	}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: line %d: %v", o.File, line, err)
		}
		imp.Rows++
		acc := get(rec, "AcceleratorName")
		if acc == "" {
			skip(line, "%s (a CPU instance)", SkipNoGPU)
			continue
		}
		instance := get(rec, "InstanceType")
		tpu, chips, isTPU := skyPilotTPU(acc)
		gpu := skyPilotGPU(acc, get(rec, "GpuInfo"), instance)
		if isTPU {
			// A TPU slice is a row of its own, priced whole: the
			// instance is the slice.
			gpu, instance = tpu, acc
		}
		if strings.Contains(strings.ToLower(instance), "pcie") && gpu != "" && !strings.Contains(gpu, "pcie") {
			acc, gpu = acc+" PCIe", "" // an SXM figure would be wrong for the PCIe card
		}
		if gpu == "" {
			imp.Unknown[acc]++
			skip(line, "%s: %s", SkipUnknownGPU, acc)
			continue
		}
		g, ok := base.GPU(gpu)
		if !ok {
			imp.Unknown[acc]++
			skip(line, "%s: %s", SkipUnknownGPU, acc)
			continue
		}
		count, err := strconv.ParseFloat(get(rec, "AcceleratorCount"), 64)
		if err != nil || math.IsNaN(count) || math.IsInf(count, 0) {
			skip(line, "AcceleratorCount %q is %s", get(rec, "AcceleratorCount"), SkipBadNumber)
			continue
		}
		if isTPU {
			count = float64(chips) // the row counts one slice of so many chips
		}
		if count < 1 || count != math.Trunc(count) {
			skip(line, "%s: %g × %s", SkipFraction, count, acc)
			continue
		}
		price, err := strconv.ParseFloat(get(rec, "Price"), 64)
		if get(rec, "Price") == "" || err == nil && !(price > 0) {
			skip(line, "%s for %s in %s", SkipNoPrice, get(rec, "InstanceType"), get(rec, "Region"))
			continue
		}
		if err != nil || math.IsInf(price, 0) {
			skip(line, "Price %q is %s", get(rec, "Price"), SkipBadNumber)
			continue
		}
		spot := 0.0
		if s := get(rec, "SpotPrice"); s != "" {
			if spot, err = strconv.ParseFloat(s, 64); err != nil || math.IsNaN(spot) || math.IsInf(spot, 0) || spot < 0 {
				skip(line, "SpotPrice %q is %s", s, SkipBadNumber)
				continue
			}
		}
		region := get(rec, "Region")
		id := skyPilotID(o.Cloud, instance, region)
		if first, dup := seen[id]; dup {
			if !zoned {
				skip(line, "%s %d (%s in %s)", SkipDuplicate, first, instance, region)
				continue
			}
			// Another availability zone of the same region: one offer,
			// the lowest prices of its zones (what a scheduler that picks
			// the zone pays).
			of := &imp.Offers[index[id]]
			of.OnDemand = math.Min(of.OnDemand, price/count)
			if sp := spot / count; sp > 0 && (of.Spot == 0 || sp < of.Spot) {
				of.Spot = sp
			}
			zones[id]++
			continue
		}
		seen[id] = line
		n := int(count)
		offer := CloudOffer{ID: id, Provider: o.Cloud, Name: fmt.Sprintf("%s %s (%d×%s), %s", providerTitle(o.Cloud), instance, n, g.Name, region),
			Region: region, Jurisdiction: RegionJurisdiction(o.Cloud, region), ProviderHome: skyPilotHomes[o.Cloud],
			GPU: gpu, GPUsPerNode: n, OnDemand: price / count, Spot: spot / count,
			Entry: Entry{AsOf: o.AsOf, Source: o.Source}}
		offer.NetworkGBsPerGPU, offer.IntraNodeGBs, offer.StorageGBs, offer.Note = linksFor(base, o.Cloud, gpu, n)
		if offer.Jurisdiction == "" {
			imp.NoJurisdiction++
			offer.Note += fmt.Sprintf("; the jurisdiction of region %s is not known: set it (a catalog override of jurisdiction) for a residency to take the offer", region)
		}
		if offer.ProviderHome == "" {
			offer.Note += fmt.Sprintf("; the legal home of provider %s is not known", o.Cloud)
		}
		if msg := offerOutOfRange(offer); msg != "" {
			skip(line, "%s: %s", SkipBadField, msg)
			continue
		}
		index[id] = len(imp.Offers)
		zones[id] = 1
		imp.Offers = append(imp.Offers, offer)
	}
	for id, n := range zones {
		if n > 1 {
			of := &imp.Offers[index[id]]
			of.Note = fmt.Sprintf("the lowest on-demand and spot prices of %d availability zones; ", n) + of.Note
		}
	}
	return imp, nil
}

// skyPilotTPUs maps the version in SkyPilot's TPU accelerator names
// (tpu-VERSION-N, GCP's accelerator types) to catalog TPUs, with how many
// of the N a chip is: v5e (v5litepod) and v6e count chips, v5p TensorCores,
// two a chip. The row's price is the slice's: N ÷ per × the chip's price,
// as SkyPilot's GCP fetcher (fetch_gcp.py, get_tpu_df) writes it.
var skyPilotTPUs = map[string]struct {
	gpu string
	per int
}{
	"v5litepod": {"tpu-v5e", 1}, "v6e": {"tpu-v6e", 1}, "v5p": {"tpu-v5p", 2},
}

// skyPilotTPU is the catalog TPU and the chips of a SkyPilot TPU
// accelerator name (tpu-v5litepod-8, tpu-v5p-8, tpu-v6e-16); false for a
// name that is not one of them (older TPUs are reported as unknown).
func skyPilotTPU(name string) (gpu string, chips int, ok bool) {
	rest, found := strings.CutPrefix(strings.ToLower(name), "tpu-")
	if !found {
		return "", 0, false
	}
	version, size, found := strings.Cut(rest, "-")
	t, known := skyPilotTPUs[version]
	n, err := strconv.Atoi(size)
	if !found || !known || err != nil || n < t.per || n%t.per != 0 {
		return "", 0, false
	}
	return t.gpu, n / t.per, true
}

// skyPilotGPU is the catalog GPU of a SkyPilot accelerator name, "" when
// none: A100 and V100 by their memory in GpuInfo, a PCIe card (named in
// the instance type) only as its own catalog GPU.
func skyPilotGPU(name, info, instance string) string {
	if strings.Contains(strings.ToLower(instance), "pcie") {
		if g, ok := skyPilotGPUs[strings.ToUpper(name)+"-PCIE"]; ok {
			return g
		}
	}
	if g, ok := skyPilotGPUs[strings.ToUpper(name)]; ok {
		return g
	}
	switch strings.ToUpper(name) {
	case "A100":
		if strings.Contains(info, "81920") {
			return "a100-80gb"
		}
	case "V100":
		if strings.Contains(info, "32768") {
			return "v100-32gb"
		}
	}
	return ""
}

var idUnsafe = regexp.MustCompile(`[^a-z0-9]+`)

// skyPilotID is the offer id of an instance type in a region:
// sky-aws-p5-48xlarge-us-east-1.
func skyPilotID(cloud, instance, region string) string {
	part := func(s string) string { return strings.Trim(idUnsafe.ReplaceAllString(strings.ToLower(s), "-"), "-") }
	return "sky-" + part(cloud) + "-" + part(instance) + "-" + part(region)
}

// providerTitle names a SkyPilot cloud as people write it.
func providerTitle(cloud string) string {
	t := map[string]string{"aws": "AWS", "gcp": "Google Cloud", "azure": "Azure", "oci": "OCI", "lambda": "Lambda",
		"runpod": "RunPod", "nebius": "Nebius", "vast": "Vast.ai", "fluidstack": "Fluidstack", "cudo": "Cudo"}[cloud]
	if t == "" {
		return cloud
	}
	return t
}

// linksFor are the inter-node and intra-node bandwidth per GPU and the
// storage throughput of an imported offer: a catalog offer's of the same
// provider and GPU (its instance family), else the best catalog offer's
// of the GPU for NVLink, 12.5 GB/s of network (one 100 Gb/s port per GPU)
// and 1 GB/s of storage, each said to be an estimate in the note.
func linksFor(base *Catalog, provider, gpu string, n int) (net, intra, storage float64, note string) {
	for _, c := range base.Cloud {
		if c.Provider == provider && c.GPU == gpu && !strings.HasPrefix(c.ID, "sky-") {
			return c.NetworkGBsPerGPU, c.IntraNodeGBs, c.StorageGBs,
				fmt.Sprintf("network, NVLink and storage figures from catalog offer %s (same provider and GPU)", c.ID)
		}
	}
	net, storage = 12.5, 1
	for _, c := range base.Cloud {
		if c.GPU == gpu && c.IntraNodeGBs > intra {
			intra = c.IntraNodeGBs
		}
	}
	if intra == 0 || n == 1 {
		intra = 64 // a PCIe 5.0 x16 link each way
	}
	return net, intra, storage, fmt.Sprintf("network 12.5 GB/s per GPU, intra-node %s GB/s and storage 1 GB/s are estimates (the SkyPilot catalog has no link figures)", formatNumber(intra))
}

// offerOutOfRange checks an imported offer's numbers against the catalog
// bounds ("" when all are within).
func offerOutOfRange(o CloudOffer) string {
	k := kindNamed(KindCloud)
	for _, f := range k.fields {
		v := reflect.ValueOf(o).FieldByIndex(f.index)
		if msg := f.outOfRange(k, v); msg != "" {
			return msg
		}
	}
	return ""
}

// Overrides are the override rows that add the import's offers, as the
// store keeps them (every field, with the offer's as_of and source).
func (imp *SkyPilotImport) Overrides() Overrides {
	return Overrides{Rows: (&Catalog{Cloud: imp.Offers}).Rows(KindCloud)}
}

// SkippedByReason counts the skipped rows by the reason's first words
// (the Skip… constants), for a summary.
func (imp *SkyPilotImport) SkippedByReason() map[string]int {
	out := map[string]int{}
	for _, s := range imp.Skipped {
		reason := s.Reason
		for _, r := range []string{SkipNoGPU, SkipUnknownGPU, SkipFraction, SkipNoPrice, SkipDuplicate, SkipBadField} {
			if strings.HasPrefix(reason, r) {
				reason = r
				break
			}
		}
		if strings.Contains(reason, SkipBadNumber) {
			reason = SkipBadNumber
		}
		out[reason]++
	}
	return out
}

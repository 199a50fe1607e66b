package cli

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/catalog"
)

// maxSkyPilotBytes is the largest SkyPilot vms.csv hostplan reads (64 MiB;
// AWS's, the largest, is about 4 MB).
const maxSkyPilotBytes = 64 << 20

// skyPilotPath reports whether path is a SkyPilot catalog: a folder (of
// <cloud>/vms.csv files) or a CSV file whose header is a vms.csv's.
func skyPilotPath(path string) (bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return false, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	if fi.IsDir() {
		return true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, 64<<10)).ReadString('\n')
	if err != nil && err != io.EOF {
		return false, nil
	}
	header, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(line, "\uFEFF"))).Read()
	return err == nil && catalog.IsSkyPilotHeader(header), nil
}

// skyPilotFiles are the vms.csv files of path: itself, or every
// <cloud>/vms.csv under a folder, each with its cloud.
func skyPilotFiles(path, cloud string) ([][2]string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	if !fi.IsDir() {
		if cloud == "" {
			cloud = filepath.Base(filepath.Dir(path))
		}
		return [][2]string{{path, cloud}}, nil
	}
	if cloud != "" {
		return nil, usagef("catalog import: --cloud names the cloud of one file; a folder's files are named by their folders")
	}
	var out [][2]string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() == "vms.csv" {
			out = append(out, [2]string{p, filepath.Base(filepath.Dir(p))})
		}
		return nil
	})
	if err != nil {
		return nil, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	if len(out) == 0 {
		return nil, usagef("%s: no <cloud>/vms.csv in the folder (allowed: a SkyPilot catalog such as catalogs/v8)", path)
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out, nil
}

// importSkyPilot imports a SkyPilot catalog (a vms.csv or a folder of
// them) as cloud offers: every file is read and checked first, then all
// offers are imported together or none; then the stored scenarios are
// repriced against the catalog before the import.
func importSkyPilot(e *env, path, asOf, commit, cloud string) error {
	if asOf == "" {
		return usagef("catalog import: %s is a SkyPilot catalog, whose files carry no date: give --as-of YYYY-MM-DD, the day its prices were fetched (a skypilot-catalog commit's date)", path)
	}
	if d, err := time.Parse(time.DateOnly, asOf); err != nil {
		return usagef("catalog import: --as-of %q is not a date (allowed: YYYY-MM-DD)", asOf)
	} else if d.After(time.Now().AddDate(0, 0, 1)) {
		return usagef("catalog import: --as-of %s is in the future (allowed: the day the prices were fetched)", asOf)
	}
	files, err := skyPilotFiles(path, cloud)
	if err != nil {
		return err
	}
	base, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	var (
		all      catalog.Overrides
		offers   int
		skipped  = map[string]int{}
		unknown  = map[string]int{}
		details  []catalog.SkippedRow
		noJur    int
		perCloud []string
	)
	for _, fc := range files {
		b, err := readLimited(fc[0], maxSkyPilotBytes, "a SkyPilot vms.csv")
		if err != nil {
			return err
		}
		src := "SkyPilot catalog (github.com/skypilot-org/skypilot-catalog) " + filepath.ToSlash(filepath.Join(fc[1], "vms.csv"))
		if commit != "" {
			src += " at commit " + commit
		}
		imp, err := catalog.ReadSkyPilot(bytes.NewReader(b), base, catalog.SkyPilotOptions{Cloud: fc[1], File: fc[0], AsOf: asOf, Source: src})
		if err != nil {
			return usagef("%v", err)
		}
		all.Rows = append(all.Rows, imp.Overrides().Rows...)
		offers += len(imp.Offers)
		noJur += imp.NoJurisdiction
		for r, n := range imp.SkippedByReason() {
			skipped[r] += n
		}
		for a, n := range imp.Unknown {
			unknown[a] += n
		}
		for _, s := range imp.Skipped {
			if !strings.HasPrefix(s.Reason, catalog.SkipNoGPU) {
				details = append(details, s)
			}
		}
		perCloud = append(perCloud, fmt.Sprintf("%s %d", fc[1], len(imp.Offers)))
	}
	if offers == 0 {
		return usagef("catalog import: %s gives no offer hostplan can use (%s); nothing imported", path, skippedWords(skipped))
	}
	im, err := e.plan.ImportOverrides(all)
	if err != nil {
		return refused(e, path, err)
	}
	w, done := e.safeOut()
	fmt.Fprintf(w, "%s: imported %s as of %s (%s); the store keeps %s\n", path, nouns(offers, "cloud offer", "cloud offers"), asOf,
		strings.Join(perCloud, ", "), nouns(len(im.Kept.Rows), "override row", "override rows"))
	if len(skipped) > 0 {
		fmt.Fprintf(w, "Not imported: %s\n", skippedWords(skipped))
	}
	if len(unknown) > 0 {
		names := make([]string, 0, len(unknown))
		for a := range unknown {
			names = append(names, a)
		}
		slices.Sort(names)
		for i, a := range names {
			names[i] = fmt.Sprintf("%s (%s)", a, nouns(unknown[a], "row", "rows"))
		}
		fmt.Fprintf(w, "Accelerators the catalog has no GPU for: %s\n", strings.Join(names, ", "))
	}
	if noJur > 0 {
		fmt.Fprintf(w, "%s in a region whose country hostplan does not know: imported with no jurisdiction, which only a residency of \"any\" takes\n", nouns(noJur, "offer is", "offers are"))
	}
	const maxDetails = 20
	for i, s := range details {
		if i == maxDetails {
			fmt.Fprintf(w, "  … and %d more\n", len(details)-maxDetails)
			break
		}
		fmt.Fprintf(w, "  %s:%d: %s\n", s.File, s.Line, s.Reason)
	}
	if err := done(); err != nil {
		return err
	}
	return repriceAfterImport(e, im.Before)
}

// skippedWords counts rows not imported by reason: "12 rows: no GPU, …".
func skippedWords(by map[string]int) string {
	reasons := make([]string, 0, len(by))
	for r := range by {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	for i, r := range reasons {
		reasons[i] = fmt.Sprintf("%s %s", nouns(by[r], "row", "rows"), r)
	}
	return strings.Join(reasons, "; ")
}

// repriceAfterImport lists the stored scenarios whose cost the import
// moved, against the catalog before it.
func repriceAfterImport(e *env, before *catalog.Catalog) error {
	if before == nil {
		return nil
	}
	rp, err := e.plan.Reprice(e.ctx, before, app.DefaultRepriceThreshold)
	if err != nil {
		return err
	}
	w, done := e.safeOut()
	printRepricing(w, rp, "the catalog before the import")
	return done()
}

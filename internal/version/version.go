// Package version tells which build of hostplan is running: its release
// version, the commit it was built from (and whether the work tree had
// changes not yet committed), when it was built and with which Go.
//
// The Makefile stamps every build with link flags (go build -ldflags
// "-X hostplan/internal/version.version=… -X …commit=… -X …date=…
// -X …modified=true"), the version coming from FyneApp.toml. A build
// without them (go build, go run, go install) falls back to what the Go
// toolchain records in the binary (runtime/debug.ReadBuildInfo): the
// module's version and the vcs.revision, vcs.time and vcs.modified
// settings, which it records unless -buildvcs=false. What neither gives
// stays empty and is shown as unknown.
//
// Current returns the running build's Info; its String is the one line
// that "hostplan version", the window's About dialog, the brief and the
// workbook's Lineage sheet show. The package is pure: no GUI, no storage.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Set by the linker (-X); empty in a build without link flags.
var (
	version  string // the release version, e.g. 0.1.0
	commit   string // the full commit hash
	date     string // the build time, RFC 3339 in UTC
	modified string // "true" when the work tree had uncommitted changes
)

// Info describes one build of hostplan.
type Info struct {
	// Version is the release version (FyneApp.toml's Version), or
	// "(devel)" for a build from a checkout without link flags.
	Version string
	// Commit is the full hash of the commit built from; empty when unknown.
	Commit string
	// Modified reports uncommitted changes in the work tree at build time.
	Modified bool
	// Date is when the binary was built (link flag), or without one the
	// time of its commit (vcs.time); RFC 3339, empty when unknown.
	Date string
	// GoVersion is the Go toolchain that built the binary, e.g. go1.26.8.
	GoVersion string
	// Platform is the system the binary runs on, as GOOS/GOARCH.
	Platform string
}

// Current returns the running binary's build information.
func Current() Info {
	bi, _ := debug.ReadBuildInfo()
	return fromBuild(link{version, commit, date, modified}, bi)
}

// link holds the values of the link flags.
type link struct{ version, commit, date, modified string }

// fromBuild merges the link flags with the toolchain's build information
// (nil when the binary has none): a link flag, when set, wins.
func fromBuild(l link, bi *debug.BuildInfo) Info {
	i := Info{GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	vcsModified := ""
	if bi != nil {
		if bi.GoVersion != "" {
			i.GoVersion = bi.GoVersion
		}
		if v := bi.Main.Version; v != "" {
			i.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				i.Commit = s.Value
			case "vcs.time":
				i.Date = s.Value
			case "vcs.modified":
				vcsModified = s.Value
			}
		}
	}
	i.Modified = vcsModified == "true"
	if l.version != "" {
		i.Version = l.version
	}
	if l.commit != "" {
		// The link flags describe the work tree as a whole: the toolchain's
		// vcs.modified belongs to whatever commit it saw, not to this one.
		i.Commit, i.Modified = l.commit, l.modified == "true"
	}
	if l.date != "" {
		i.Date = l.date
	}
	if i.Version == "" {
		i.Version = "(devel)"
	}
	return i
}

// ShortCommit is the commit's first 12 hex digits, with "+dirty" when the
// work tree had uncommitted changes; "unknown" when there is no commit.
func (i Info) ShortCommit() string {
	if i.Commit == "" {
		return "unknown"
	}
	c := i.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	if i.Modified {
		c += "+dirty"
	}
	return c
}

// DateOrUnknown is Date, or "unknown" when it is empty.
func (i Info) DateOrUnknown() string {
	if strings.TrimSpace(i.Date) == "" {
		return "unknown"
	}
	return i.Date
}

// String is the build on one line:
// "hostplan 0.1.0 (commit 94eb97d1a2b3, built 2026-12-01T02:00:00Z, go1.26.8 linux/amd64)".
func (i Info) String() string {
	return "hostplan " + i.Version + " (commit " + i.ShortCommit() + ", built " + i.DateOrUnknown() + ", " +
		strings.TrimSpace(i.GoVersion+" "+i.Platform) + ")"
}

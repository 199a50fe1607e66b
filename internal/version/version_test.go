package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func buildInfo(main string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "hostplan", Version: main}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

const platform = runtime.GOOS + "/" + runtime.GOARCH

const rev = "94eb97d1a2b3c4d5e6f708192a3b4c5d6e7f8091"

// Without link flags the toolchain's VCS settings give the commit, its
// time and "+dirty".
func TestFromBuildInfo(t *testing.T) {
	i := fromBuild(link{}, buildInfo("(devel)", "vcs", "git", "vcs.revision", rev,
		"vcs.time", "2026-11-30T10:00:00Z", "vcs.modified", "true"))
	want := Info{Version: "(devel)", Commit: rev, Modified: true, Date: "2026-11-30T10:00:00Z", GoVersion: "go1.26.8", Platform: platform}
	if i != want {
		t.Fatalf("got %+v\nwant %+v", i, want)
	}
	if got := i.String(); got != "hostplan (devel) (commit 94eb97d1a2b3+dirty, built 2026-11-30T10:00:00Z, go1.26.8 "+platform+")" {
		t.Errorf("String: %q", got)
	}
	clean := fromBuild(link{}, buildInfo("v0.2.0", "vcs.revision", rev, "vcs.modified", "false"))
	if clean.Modified || clean.ShortCommit() != "94eb97d1a2b3" || clean.Version != "v0.2.0" {
		t.Errorf("clean build: %+v (%s)", clean, clean.ShortCommit())
	}
}

// Link flags win over the toolchain's settings, the modified flag with
// the commit it belongs to.
func TestLinkFlagsWin(t *testing.T) {
	bi := buildInfo("(devel)", "vcs.revision", "0000000000000000000000000000000000000000",
		"vcs.time", "2020-01-01T00:00:00Z", "vcs.modified", "true")
	i := fromBuild(link{version: "0.1.0", commit: rev, date: "2026-12-01T02:00:00Z"}, bi)
	want := Info{Version: "0.1.0", Commit: rev, Date: "2026-12-01T02:00:00Z", GoVersion: "go1.26.8", Platform: platform}
	if i != want {
		t.Fatalf("got %+v\nwant %+v", i, want)
	}
	i = fromBuild(link{commit: rev, modified: "true"}, nil)
	if !i.Modified || i.Version != "(devel)" || i.GoVersion != runtime.Version() || i.ShortCommit() != "94eb97d1a2b3+dirty" {
		t.Errorf("link commit, no build info: %+v", i)
	}
}

// A build that knows nothing says so rather than printing blanks.
func TestUnknown(t *testing.T) {
	i := fromBuild(link{}, nil)
	if got, want := i.String(), "hostplan (devel) (commit unknown, built unknown, "+runtime.Version()+" "+platform+")"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The test binary itself has build information; Current reads it.
func TestCurrent(t *testing.T) {
	i := Current()
	if i.GoVersion == "" || i.Version == "" || i.Platform != platform {
		t.Errorf("Current() = %+v", i)
	}
}

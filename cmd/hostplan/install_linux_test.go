package main

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/testtool"
)

// make install, from the archive make package writes, puts hostplan, its
// menu entry and its icon under PREFIX (here one with a space, in a
// temporary directory); the entry validates and starts the installed
// executable, which shows the commit it was built from; make uninstall
// leaves nothing behind.
func TestInstallFromPackage(t *testing.T) {
	testtool.Need(t, "make", "make release-check")
	testtool.Need(t, "tar", "make release-check")
	st := currentStamp(t)
	dist := t.TempDir()
	prefix := filepath.Join(t.TempDir(), "home dir", ".local")
	runMake(t, "install", "DIST="+dist, "PREFIX="+prefix)

	// The archive: the executable, the entry, the icon and fyne's Makefile.
	list, err := exec.Command("tar", "-tJf", filepath.Join(dist, "hostplan.tar.xz")).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/bin/hostplan", "/share/applications/io.hostplan.app.desktop", "/share/pixmaps/io.hostplan.app.png", "hostplan/Makefile"} {
		if !strings.Contains(string(list), want+"\n") {
			t.Errorf("the archive lacks %s:\n%s", want, list)
		}
	}

	exe := filepath.Join(prefix, "bin", "hostplan")
	desktop := filepath.Join(prefix, "share", "applications", "io.hostplan.app.desktop")
	icon := filepath.Join(prefix, "share", "icons", "hicolor", "256x256", "apps", "io.hostplan.app.png")
	if got := installed(t, prefix); !slices.Equal(got, []string{exe, desktop, icon}) {
		t.Fatalf("installed %q, want %q", got, []string{exe, desktop, icon})
	}
	if fi, err := os.Stat(exe); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("%s is not executable: %v", exe, err)
	}
	want, err := os.ReadFile(filepath.Join(repoRoot(t), "assets", "icon.png"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(icon); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the installed icon is not assets/icon.png: %v", err)
	}

	entry, err := os.ReadFile(desktop)
	if err != nil {
		t.Fatal(err)
	}
	// The entry's words are FyneApp.toml's ([LinuxAndBSD]).
	for _, line := range []string{"[Desktop Entry]", "Type=Application", "Name=hostplan",
		`Exec="` + exe + `"`, "Icon=" + icon, "Categories=Office;Finance;",
		"GenericName=AI hosting planner", "Comment=Where an AI workload should run, and what it will cost"} {
		if !slices.Contains(strings.Split(string(entry), "\n"), line) {
			t.Errorf("the entry lacks the line %s:\n%s", line, entry)
		}
	}
	if v, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(v, desktop).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
	} else {
		t.Log("desktop-file-validate is not installed (scripts/deps.sh test installs desktop-file-utils): the entry is checked by line only")
	}

	out, err := exec.Command(exe, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", exe, err)
	}
	checkVersion(t, string(out), st, "linux/amd64")

	runMake(t, "uninstall", "PREFIX="+prefix)
	var left []string
	filepath.WalkDir(prefix, func(path string, d fs.DirEntry, err error) error {
		if path != prefix {
			left = append(left, path)
		}
		return err
	})
	if len(left) > 0 {
		t.Errorf("uninstall left %q", left)
	}
}

// installed lists the files under dir, sorted.
func installed(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}

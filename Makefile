# hostplan — the one entry point for building, running and testing.
SHELL := /bin/bash
GO ?= go
# Fyne cannot parse the locale "C.UTF-8" and logs an error at start-up;
# LANGUAGE (read first by its locale lookup) keeps the logs quiet.
export LANG := C.UTF-8
export LC_ALL := C.UTF-8
export LANGUAGE := en

STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
FYNE_TOOL   := fyne.io/tools/cmd/fyne@v1.7.4
# Writes the Windows resource (icon, version information, manifest).
WINRES      := github.com/tc-hib/go-winres@v0.3.3
BIN         := hostplan
# Where make windows, package and release write (a test passes its own).
DIST        ?= dist
# make install and uninstall: the user's own tree, no root needed.
PREFIX      ?= $(HOME)/.local

# Version stamping. The release version lives in one place, FyneApp.toml
# ([Details] Version, and Build for Windows' four-part file version); the
# commit and whether the work tree has uncommitted changes come from git,
# the build date from the clock (or SOURCE_DATE_EPOCH, for a reproducible
# build). Every build passes them to package internal/version as link
# flags; "hostplan version", the About dialog, the brief and the workbook
# show them.
VERSION    := $(shell sed -n 's/^Version *= *"\(.*\)"/\1/p' FyneApp.toml)
BUILDNUM   := $(shell sed -n 's/^Build *= *\([0-9]*\)/\1/p' FyneApp.toml)
COMMIT     := $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED   := $(shell [ -n "$$(git status --porcelain 2>/dev/null)" ] && echo true)
BUILD_DATE := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
VPKG       := hostplan/internal/version
# As -X=name=value words, so that they also pass through GOFLAGS, which is
# how fyne package takes link flags.
XFLAGS     := -X=$(VPKG).version=$(VERSION) -X=$(VPKG).date=$(BUILD_DATE) \
              $(if $(COMMIT),-X=$(VPKG).commit=$(COMMIT)) $(if $(MODIFIED),-X=$(VPKG).modified=true)
# The window uses Fyne's fyne.Do threading model (FyneApp.toml, [Migrations]
# fyneDo). Fyne reads FyneApp.toml at run time only beside the executable,
# so every build and test states the opt-in as this build tag, as
# "fyne build" does when it reads FyneApp.toml.
TAGS        := migrated_fynedo
# Packages that build and test without a display or cgo (make bench).
PURE := ./internal/scenario/... ./internal/catalog/... ./internal/model/... ./internal/app/... \
        ./internal/store/... ./internal/export/... ./internal/cli/... ./internal/decide/... \
        ./internal/brief/... ./internal/present/... ./internal/atomicfile/... ./internal/chart/... ./internal/celltext/... ./internal/version/... ./assets/... ./scenarios/...
# The fuzz targets (Go native fuzzing), as package:target. Their seed
# corpora (f.Add and testdata/fuzz/<target>) run in make test as ordinary
# tests; make fuzz runs each target for FUZZTIME, one after the other, and
# fails at the end if any found a failing input (kept in testdata/fuzz).
# FUZZFLAGS adds go test flags, e.g. FUZZFLAGS=-parallel=1 on a shared
# machine. Minimising a new input stops after 50 runs: the stores and
# catalogs the fuzzer mutates are large, and a time limit on minimising
# makes the fuzzing engine restart its workers.
FUZZTIME  ?= 10m
FUZZFLAGS ?=
FUZZ_TARGETS := ./internal/app:FuzzScenarioPipeline ./internal/model:FuzzScenarioNumbers \
        ./internal/model:FuzzTrialCSV ./internal/catalog:FuzzOverridesCSV \
        ./internal/scenario:FuzzDiffJSON ./internal/store:FuzzOpenStore \
        ./internal/bom:FuzzReader ./internal/scenario:FuzzTextFields

.PHONY: all deps deps-windows deps-test deps-workbook deps-release build run generate \
        test test-race test-workbook release-check ci bench bench-ui fuzz lint \
        package windows darwin release install uninstall clean

all: build

deps:
	@scripts/deps.sh build

deps-windows:
	@scripts/deps.sh windows

deps-test:
	@scripts/deps.sh test

deps-workbook:
	@scripts/deps.sh workbook

deps-release:
	@scripts/deps.sh release

build: deps
	$(GO) build -tags $(TAGS) -ldflags "$(XFLAGS)" -o $(BIN) ./cmd/hostplan

run: build
	./$(BIN)

# Every generated file comes from go generate: the cost identity's Go code
# (internal/costid/cost_gen.go; a test fails while it is stale). Golden
# files and generated documentation are test output, rewritten with one
# flag everywhere: go test ./internal/PKG -update.
generate:
	$(GO) generate ./...

# The test suites. Each says what it needs; a test that runs an outside
# program asks for it through internal/testtool, which skips it in -short
# mode and fails it when HOSTPLAN_REQUIRE names the program and it is
# missing, so a suite meant to run LibreOffice or Wine never passes without
# them. Times are on this project's two-core machine with a warm Go build
# cache (README, "Tests").
XVFB := xvfb-run -a -s "-screen 0 1280x1024x24"
# The tests that start LibreOffice, Gnumeric, Wine or make's release
# targets: make test-workbook, make test and make release-check run them,
# make test-race skips them.
HEAVY := ^Test(LibreOffice.*|GnumericFollowsDrivers|WindowsExecutableUnderWine|InstallFromPackage)$$

# The test command: gofmt and go vet, then every test in -short mode (no
# LibreOffice, Wine or MinGW), the window's under a virtual X server; then
# the workbook's driver sweep recalculated by Gnumeric (about half a
# minute), which fails rather than skips when ssconvert is missing.
# Minutes.
test: deps-test
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -tags $(TAGS) ./...
	$(XVFB) $(GO) test -short -count=1 -tags $(TAGS) ./...
	HOSTPLAN_REQUIRE=ssconvert $(GO) test -count=1 -tags $(TAGS) -run '^TestGnumeric' ./internal/export/

# Every test but the heavy ones, in full (not -short), with the race detector.
test-race: deps-test
	$(XVFB) $(GO) test -race -count=1 -timeout 60m -tags $(TAGS) -skip '$(HEAVY)' ./...

# The workbook as finance opens it: LibreOffice recalculates exported
# workbooks (every driver of every example changed in turn); fails when
# soffice is missing.
test-workbook: deps-workbook
	HOSTPLAN_REQUIRE=soffice $(GO) test -count=1 -timeout 40m -tags $(TAGS) -run '^TestLibreOffice' \
	  ./internal/export/ ./internal/cli/

# The release as a user gets it: make windows cross-builds the executable
# and Wine runs it against this build; make package's archive is installed
# with make install into a temporary prefix. Fails when a tool is missing.
release-check: deps-release
	HOSTPLAN_REQUIRE=make,tar,wine,x86_64-w64-mingw32-gcc $(XVFB) $(GO) test -count=1 -timeout 60m \
	  -tags $(TAGS) -run '^Test(WindowsExecutableUnderWine|InstallFromPackage)$$' ./cmd/hostplan/

# What .ci/run calls: the README's test command first, then every other suite.
ci: test test-race test-workbook release-check
	@echo "make ci: make test, test-race, test-workbook and release-check passed"

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PURE)

# The window's benchmarks (an edit to its report, a slider move to the new
# ranking, start with 10,000 scenarios) need a display.
bench-ui: deps-test
	xvfb-run -a -s "-screen 0 1280x1024x24" $(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./internal/ui/

# The window's main views — a scenario's report, the form, three scenarios
# compared and in review mode (two at 1024 × 768) — at 1920 × 1080,
# 1280 × 800 and 1024 × 768, drawn by
# Fyne's test driver through the real model into docs/screenshots (the
# README shows some of them).
.PHONY: screenshots
screenshots: deps-test
	HOSTPLAN_SCREENSHOTS=$(CURDIR)/docs/screenshots xvfb-run -a -s "-screen 0 1920x1080x24" \
		$(GO) test -tags $(TAGS) -count=1 -run '^TestScreenshots$$' ./internal/ui/

fuzz:
	@failed=; for t in $(FUZZ_TARGETS); do \
		echo "== $${t#*:} in $${t%%:*} for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$${t#*:}\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 50x $(FUZZFLAGS) $${t%%:*} || failed="$$failed $${t#*:}"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzzing found inputs that fail:$$failed (see testdata/fuzz)"; exit 1; fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) run $(STATICCHECK) -tags $(TAGS) ./...

# The Linux archive, $(DIST)/hostplan.tar.xz: the executable, the desktop
# entry io.hostplan.app.desktop and the icon, and a Makefile of fyne's for
# a system-wide install. fyne package reads FyneApp.toml (version, the
# entry's name, comment, categories and keywords) only beside the main
# package, so a copy stands there while it runs. It builds with -trimpath,
# -s -w and the release tag; it takes link flags only through GOFLAGS (the
# machine's own GOFLAGS are kept), and the tool itself is built without them.
FYNE_PACKAGE = GOFLAGS="$$($(GO) env GOFLAGS) $(addprefix -ldflags=,$(XFLAGS))" \
	  $(GO) run -ldflags= $(FYNE_TOOL) package -tags $(TAGS) -icon $(CURDIR)/assets/icon.png \
	  -name hostplan --app-id io.hostplan.app --source-dir ./cmd/hostplan --release
package: deps
	@trap 'rm -f cmd/hostplan/FyneApp.toml' EXIT; set -e; cp FyneApp.toml cmd/hostplan/; \
	echo "fyne package -os linux"; $(FYNE_PACKAGE) -os linux
	@mkdir -p $(DIST) && mv -f hostplan.tar.xz $(DIST)/

# The Windows executable, $(DIST)/hostplan.exe, for windows/amd64:
# cross-built with the MinGW-w64 C compiler (Fyne's GLFW and OpenGL parts
# are C), with the icon, version information and manifest (DPI aware,
# common controls 6) embedded as a resource that go-winres writes beside
# main.go for the build and that is removed after it.
#
# It is a console program, unlike fyne package's (-H windowsgui): hostplan
# is a command-line tool as much as a window, and only a console program
# has its output shown in cmd.exe and PowerShell, which also wait for it
# to finish. Started without a subcommand from Explorer or a shortcut,
# Windows opens a console for it; the window then lets go of that console
# (cmd/hostplan/console_windows.go), which closes after a brief flash.
WINSYSO := cmd/hostplan/rsrc_windows_amd64.syso
windows: deps-windows
	@mkdir -p $(DIST)
	@trap 'rm -f $(WINSYSO)' EXIT; set -e; \
	$(GO) run $(WINRES) simply --arch amd64 --out cmd/hostplan/rsrc --manifest gui \
	  --icon assets/icon.png --product-name hostplan --original-filename hostplan.exe \
	  --file-description "hostplan: where an AI workload should run and what it will cost" \
	  --product-version $(VERSION).$(BUILDNUM) --file-version $(VERSION).$(BUILDNUM); \
	echo "GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc $(GO) build -o $(DIST)/hostplan.exe"; \
	GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc \
	  $(GO) build -tags $(TAGS) -trimpath -ldflags "$(XFLAGS) -s -w" -o $(DIST)/hostplan.exe ./cmd/hostplan

# A Mac build needs Apple's SDK, so it runs on a Mac only (README, macOS).
darwin:
	@if [ "$$(uname -s)" != Darwin ]; then \
	  echo "make darwin runs on a Mac with the Xcode command line tools (see README, macOS)"; exit 2; fi
	@trap 'rm -f cmd/hostplan/FyneApp.toml' EXIT; set -e; cp FyneApp.toml cmd/hostplan/; \
	echo "fyne package -os darwin"; $(FYNE_PACKAGE) -os darwin
	@mkdir -p $(DIST) && rm -rf $(DIST)/hostplan.app && mv hostplan.app $(DIST)/

# The release: the Linux archive, the Windows executable and their
# SHA-256 sums (sha256sum -c SHA256SUMS checks them).
release: package windows
	cd $(DIST) && sha256sum hostplan.tar.xz hostplan.exe > SHA256SUMS
	@cat $(DIST)/SHA256SUMS

# Into the user's application menu, without root: $(PREFIX)/bin/hostplan,
# the desktop entry and the icon (scripts/install.sh).
install: package
	scripts/install.sh install $(DIST)/hostplan.tar.xz "$(PREFIX)"

uninstall:
	scripts/install.sh uninstall "$(PREFIX)"

clean:
	rm -f $(BIN) $(WINSYSO)
	rm -rf dist

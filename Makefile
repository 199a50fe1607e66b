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
BIN         := hostplan
# The window uses Fyne's fyne.Do threading model (FyneApp.toml, [Migrations]
# fyneDo). Fyne reads FyneApp.toml at run time only beside the executable,
# so every build and test states the opt-in as this build tag, as
# "fyne build" does when it reads FyneApp.toml.
TAGS        := migrated_fynedo
# Packages that build and test without a display or cgo.
PURE := ./internal/scenario/... ./internal/catalog/... ./internal/model/... ./internal/app/... \
        ./internal/store/... ./internal/export/... ./internal/cli/... ./internal/decide/... \
        ./internal/brief/... ./internal/present/... ./internal/atomicfile/... ./internal/chart/... ./internal/celltext/... ./assets/... ./scenarios/...
# Every other package: the window and the command, built with cgo and
# tested under a virtual X server.
DISPLAYED = $(filter-out $(shell $(GO) list $(PURE)),$(shell $(GO) list ./...))

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
        ./internal/scenario:FuzzDiffJSON ./internal/store:FuzzOpenStore

.PHONY: all deps deps-test build run test test-pure test-ui bench bench-ui fuzz lint package clean

all: build

deps:
	@scripts/deps.sh build

deps-test:
	@scripts/deps.sh test

build: deps
	$(GO) build -tags $(TAGS) -o $(BIN) ./cmd/hostplan

run: build
	./$(BIN)

# go vet, then every package with the race detector: the pure ones, and
# the rest (the Fyne display tests) under a virtual X server.
test: deps-test
	$(GO) vet -tags $(TAGS) ./...
	$(GO) test -race -count=1 $(PURE)
	xvfb-run -a -s "-screen 0 1280x1024x24" $(GO) test -race -tags $(TAGS) -count=1 $(DISPLAYED)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PURE)

# The window's benchmarks (an edit to its report, a slider move to the new
# ranking, start with 10,000 scenarios) need a display.
bench-ui: deps-test
	xvfb-run -a -s "-screen 0 1280x1024x24" $(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem ./internal/ui/

# The window's main views — a scenario's report, the form, three scenarios
# compared and in review mode — at 1920 × 1080 and 1280 × 800, drawn by
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

package: deps
	$(GO) run $(FYNE_TOOL) package -os linux -tags $(TAGS) -icon $(CURDIR)/assets/icon.png -name hostplan --app-id io.hostplan.app --source-dir ./cmd/hostplan --release
	@mkdir -p dist && mv -f hostplan.tar.xz dist/ 2>/dev/null || true

clean:
	rm -f $(BIN)
	rm -rf dist

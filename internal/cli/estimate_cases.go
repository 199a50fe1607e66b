package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/model"
)

// serveCaseKeys are the keys of one line of estimate serve --cases: the
// command's flags, with underscores.
var serveCaseKeys = []string{"model", "gpu", "precision", "tokens_in", "tokens_out", "context", "latency_ms", "gpus", "batch", "kv_precision", "mfu"}

// serveCase is one line's answer: the estimate, or why there is none.
type serveCase struct {
	Line     int                  `json:"line"`
	Estimate *model.ServeEstimate `json:"estimate,omitempty"`
	Error    string               `json:"error,omitempty"`
}

// serveCases runs estimate serve once per line of path ("-": standard
// input), each line a JSON object of serveCaseKeys, and prints one JSON
// object per line: many cases for one process start. Blank lines and
// lines starting with # are skipped. A bad line is answered with its
// error and the others still run; the command then exits 2.
func serveCases(e *env, cmd string, cat *catalog.Catalog, path string) error {
	var r io.Reader = os.Stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return usagef("%s: --cases: %v", cmd, err)
		}
		defer f.Close()
		r = f
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	enc := json.NewEncoder(e.stdout)
	bad, n := 0, 0
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		n++
		out := serveCase{Line: line}
		in, err := serveCaseInput(text)
		if err == nil {
			var res estimate.ServeResult
			if res, err = estimate.Serve(cat, in); err == nil {
				out.Estimate = &res.ServeEstimate
			}
		}
		if err != nil {
			var b *estimate.BadInput
			if errors.As(err, &b) {
				out.Error = b.Say(func(f string) string { return strings.ReplaceAll(f, "-", "_") })
			} else {
				out.Error = err.Error()
			}
			bad++
		}
		if err := enc.Encode(out); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return usagef("%s: --cases: %v", cmd, err)
	}
	if bad > 0 {
		return usagef("%s: %d of %d cases could not be estimated (see their \"error\")", cmd, bad, n)
	}
	return nil
}

// serveCaseInput reads one line of --cases: every value a number or a
// string, every key one of serveCaseKeys.
func serveCaseInput(text string) (estimate.ServeInput, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&raw); err != nil {
		return estimate.ServeInput{}, fmt.Errorf("not a JSON object: %v", err)
	}
	vals := map[string]estimate.Input{}
	for k, v := range raw {
		if !slices.Contains(serveCaseKeys, k) {
			return estimate.ServeInput{}, fmt.Errorf("unknown key %q (allowed: %s)", k, strings.Join(serveCaseKeys, ", "))
		}
		var s string
		if bytes.HasPrefix(bytes.TrimSpace(v), []byte(`"`)) {
			if err := json.Unmarshal(v, &s); err != nil {
				return estimate.ServeInput{}, fmt.Errorf("%s: %v", k, err)
			}
		} else {
			var f json.Number
			if err := json.Unmarshal(v, &f); err != nil {
				return estimate.ServeInput{}, fmt.Errorf("%s: %s is neither a number nor a string", k, v)
			}
			s = f.String()
		}
		vals[k] = estimate.Given(s)
	}
	str := func(k string) string { return vals[k].Text }
	return estimate.ServeInput{Model: str("model"), GPU: str("gpu"), Bits: vals["precision"], TokensIn: vals["tokens_in"],
		TokensOut: vals["tokens_out"], Context: vals["context"], LatencyMS: vals["latency_ms"], GPUs: vals["gpus"],
		Batch: vals["batch"], KVBits: vals["kv_precision"], MFU: vals["mfu"]}, nil
}

// Package modeltest holds the checks that tests and fuzz targets run on what
// the model and the decision return: every number in a report or a decision
// is finite, every cost, price, time, count and rate in a report is
// non-negative, and an error is a plain message, not a panic's text. It is
// imported only by tests.
package modeltest

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hostplan/internal/model"
)

// Report checks r: every float64 is finite, and every number (float or
// integer) is non-negative. Every number in a report is a cost, a price,
// a time, a count, a size, a share, a rate or a month, none of which can be
// below zero. The error names the first offending field by its Go path,
// e.g. Report.Directions[1].CostHorizon.
func Report(r *model.Report) error {
	if r == nil {
		return errors.New("modeltest: nil report")
	}
	return walk(reflect.ValueOf(r).Elem(), "Report", true)
}

// Finite checks that every float64 reachable from v (through pointers,
// structs, slices, arrays and maps) is finite: for values other than
// reports, such as a decision, whose scores may be negative.
func Finite(v any) error {
	return walk(reflect.ValueOf(v), reflect.TypeOf(v).String(), false)
}

func walk(v reflect.Value, path string, nonNeg bool) error {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return walk(v.Elem(), path, nonNeg)
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			p := path + "." + f.Name
			if err := walk(v.Field(i), p, nonNeg); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if err := walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), nonNeg); err != nil {
				return err
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if err := walk(it.Value(), fmt.Sprintf("%s[%v]", path, it.Key()), nonNeg); err != nil {
				return err
			}
		}
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("%s is %v", path, x)
		}
		if nonNeg && x < 0 {
			return fmt.Errorf("%s is negative: %v", path, x)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if nonNeg && v.Int() < 0 {
			return fmt.Errorf("%s is negative: %d", path, v.Int())
		}
	}
	return nil
}

// CleanError reports what is wrong with err as an error for a user: it
// must have a message, in valid UTF-8, that is not a panic's or a
// runtime error's text (no stack, no "runtime error:", no "goroutine").
// A nil err is clean.
func CleanError(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	switch {
	case strings.TrimSpace(msg) == "":
		return fmt.Errorf("an error with an empty message (%T)", err)
	case !utf8.ValidString(msg):
		return fmt.Errorf("an error whose message is not valid UTF-8: %q", msg)
	}
	for _, bad := range []string{"runtime error", "goroutine ", "panic:", "[recovered]", "nil pointer", "index out of range"} {
		if strings.Contains(msg, bad) {
			return fmt.Errorf("an error that reads like a crash (%q): %s", bad, msg)
		}
	}
	return nil
}

// Within runs check and fails t with its error, or if it has not returned
// after d: a fuzz target's way to find an input that hangs. check runs in
// a goroutine of its own, so it must report through its error, not through
// t; after a timeout it goes on running (nothing can stop it) while the
// fuzzer records the input.
func Within(t testing.TB, d time.Duration, check func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- check() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("still running after %v; the goroutines:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
}

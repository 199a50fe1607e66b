package export

import (
	"fmt"
	"os"
	"path/filepath"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// WriteWorkbook writes the workbook of s and r to path:
// WriteWorkbookWith(path, s, r, nil).
func WriteWorkbook(path string, s *scenario.Scenario, r *model.Report) error {
	return WriteWorkbookWith(path, s, r, nil)
}

// WriteWorkbookWith writes the workbook of s, r and the extras x to path.
// It writes a temporary file in the same directory and renames it over
// path, so path holds either its old content or the whole new workbook,
// never a part.
func WriteWorkbookWith(path string, s *scenario.Scenario, r *model.Report, x *Extras) (err error) {
	f, err := WorkbookWith(s, r, x)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("export: write %s: %w", path, cerr)
		}
	}()

	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("export: write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			os.Remove(tmp.Name())
		}
	}()
	werr := f.Write(tmp)
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		// CreateTemp makes the file private (0600); a workbook is a document.
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		return fmt.Errorf("export: write %s: %w", path, werr)
	}
	done = true
	return nil
}

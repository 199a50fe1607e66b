package export

import (
	"fmt"
	"io"

	"hostplan/internal/atomicfile"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// WriteWorkbook writes the workbook of s and r to path:
// WriteWorkbookWith(path, s, r, nil).
func WriteWorkbook(path string, s *scenario.Scenario, r *model.Report) error {
	return WriteWorkbookWith(path, s, r, nil)
}

// WriteWorkbookWith writes the workbook of s, r and the extras x to path
// through atomicfile: path holds either its old content or the whole new
// workbook, never a part, and a workbook is a document (mode 0644 less the
// umask).
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
	if err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return f.Write(w) }); err != nil {
		return fmt.Errorf("export: %w", err) // err names path
	}
	return nil
}

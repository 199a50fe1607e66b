package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// Writing a file from the window (the workbook, the brief), or files into
// a folder (the charts), starts with a dialog that holds the path to
// write, which the user types or completes with "Choose folder…", and ends
// with a dialog that names the file or folder written. Fyne's file-save dialog is not used: it creates the file
// itself, empty, before the program can write it through atomicfile, so a
// failed export would leave an empty file in place of an old one.

// saveTarget is one file the window offers to write.
type saveTarget struct {
	title  string // the dialog's title: "Export workbook"
	done   string // the confirmation's title: "Workbook written"
	what   string // what is written, for the messages: "the workbook of “Claims”"
	action string // the button: "Export"
	name   string // the file name proposed: "claims.xlsx"
	// ext is the extension the path must end in: ".xlsx"; "" when the
	// path is a folder to write files into, made if it is not there yet
	// (its parent must be).
	ext string
	// replaces lists the files that writing at path would replace; nil
	// means the path itself, when it exists.
	replaces func(path string) []string
	// write writes the file at path off the UI goroutine and returns the
	// error, if any.
	write func(path string) error
}

// saveFileDialog is the dialog that asks where to write a saveTarget.
type saveFileDialog struct {
	d       dialog.Dialog
	path    *escEntry
	problem *widget.Label
	save    *widget.Button
	folder  *widget.Button
}

// askSavePath opens the dialog for t. The folder proposed is the one last
// written to in this session, or the user's Documents folder.
func (p *planner) askSavePath(t saveTarget) *saveFileDialog {
	sd := &saveFileDialog{}
	sd.path = newEscEntry(func() { sd.d.Hide() })
	sd.path.SetText(filepath.Join(p.saveFolder(), t.name))
	sd.problem = widget.NewLabel("")
	sd.problem.Importance = widget.DangerImportance
	sd.problem.Wrapping = fyne.TextWrapWord
	sd.problem.Hide()
	cancel := widget.NewButton("Cancel", func() { sd.d.Hide() })
	sd.save = widget.NewButtonWithIcon(t.action, theme.DocumentSaveIcon(), func() { p.saveTo(sd, t) })
	sd.save.Importance = widget.HighImportance
	sd.folder = widget.NewButtonWithIcon("Choose folder…", theme.FolderOpenIcon(), func() { p.chooseSaveFolder(sd) })
	check := func(text string) {
		if msg := savePathProblem(text, t.ext); msg != "" {
			sd.problem.SetText(msg)
			sd.problem.Show()
			sd.save.Disable()
			return
		}
		sd.problem.Hide()
		sd.save.Enable()
	}
	sd.path.OnChanged = check
	sd.path.OnSubmitted = func(string) {
		if !sd.save.Disabled() {
			p.saveTo(sd, t)
		}
	}
	check(sd.path.Text)

	where := "to this file"
	if t.ext == "" {
		where = "into this folder (made if it is not there yet)"
	}
	intro := widget.NewLabel(fmt.Sprintf("Write %s %s:", t.what, where))
	intro.Wrapping = fyne.TextWrapWord
	buttons := container.NewHBox(layout.NewSpacer(), cancel, sd.save)
	body := container.NewVBox(intro, container.NewBorder(nil, nil, nil, sd.folder, sd.path), sd.problem, buttons)
	width := min(720, max(480, p.window.Canvas().Size().Width*0.6))
	sd.d = dialog.NewCustomWithoutButtons(t.title, container.New(&widgets.MinWidth{Width: width}, body), p.window)
	p.dialogs.showDialog(sd.d)
	p.window.Canvas().Focus(sd.path)
	return sd
}

// savePathProblem says what is wrong with a path to write, "" when
// nothing is; ext "" asks for a folder.
func savePathProblem(path, ext string) string {
	path = strings.TrimSpace(path)
	if ext == "" {
		return folderProblem(path)
	}
	switch {
	case path == "":
		return "Give the path of the file to write."
	case !strings.EqualFold(filepath.Ext(path), ext):
		return fmt.Sprintf("The file name must end in %s.", ext)
	}
	fi, err := os.Stat(filepath.Dir(path))
	switch {
	case err != nil:
		return fmt.Sprintf("The folder %s does not exist.", filepath.Dir(path))
	case !fi.IsDir():
		return fmt.Sprintf("%s is not a folder.", filepath.Dir(path))
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return path + " is a folder."
	}
	return ""
}

// folderProblem says what is wrong with a folder to write files into, ""
// when nothing is: it is a folder, or it can be made in one.
func folderProblem(path string) string {
	if path == "" {
		return "Give the folder to write into."
	}
	if fi, err := os.Stat(path); err == nil {
		if !fi.IsDir() {
			return path + " is a file, not a folder."
		}
		return ""
	}
	fi, err := os.Stat(filepath.Dir(path))
	switch {
	case err != nil:
		return fmt.Sprintf("The folder %s does not exist.", filepath.Dir(path))
	case !fi.IsDir():
		return fmt.Sprintf("%s is not a folder.", filepath.Dir(path))
	}
	return ""
}

// chooseSaveFolder lets the user pick the folder in Fyne's folder dialog
// and keeps the file name.
func (p *planner) chooseSaveFolder(sd *saveFileDialog) {
	name := filepath.Base(strings.TrimSpace(sd.path.Text))
	d := dialog.NewFolderOpen(func(dir fyne.ListableURI, err error) {
		if err != nil || dir == nil {
			return
		}
		sd.path.SetText(filepath.Join(dir.Path(), name))
	}, p.window)
	d.Resize(fileDialogSize(p.window))
	p.dialogs.show(d, d.Dismiss)
}

// saveTo writes t at the dialog's path, after asking before it replaces a
// file, and then says where it went.
func (p *planner) saveTo(sd *saveFileDialog, t saveTarget) {
	path := strings.TrimSpace(sd.path.Text)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	write := func() {
		sd.save.Disable()
		sd.folder.Disable()
		sd.save.SetText("Writing…")
		inBackground(func() func() {
			err := safeWrite(t.write, path)
			return func() {
				sd.save.SetText(t.action)
				sd.save.Enable()
				sd.folder.Enable()
				if err != nil {
					sd.problem.SetText(fmt.Sprintf("Could not write %s: %v", t.what, err))
					sd.problem.Show()
					return
				}
				p.lastFolder = filepath.Dir(path)
				sd.d.Hide()
				p.showWritten(t, path)
			}
		})
	}
	var existing []string
	if t.replaces != nil {
		existing = t.replaces(path)
	} else if _, err := os.Lstat(path); err == nil {
		existing = []string{path}
	}
	if len(existing) > 0 {
		title, text := "Replace the file?", fmt.Sprintf("%s exists. Replace it with %s?", path, t.what)
		if t.replaces != nil {
			title = "Replace the files?"
			verb := "are"
			if len(existing) == 1 {
				verb = "is"
			}
			text = fmt.Sprintf("%s to write %s already in %s. Replace with %s?", present.Count(len(existing), "file"), verb, path, t.what)
		}
		confirm := dialog.NewConfirm(title, text,
			func(ok bool) {
				if ok {
					write()
				}
			}, p.window)
		confirm.SetConfirmText("Replace")
		p.dialogs.showDialog(confirm)
		return
	}
	write()
}

// safeWrite runs write with a panic turned into an error.
func safeWrite(write func(string) error, path string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	if write == nil {
		return errors.New("nothing to write")
	}
	return write(path)
}

// showWritten confirms a written file with its whole path, which can be
// copied.
func (p *planner) showWritten(t saveTarget, path string) {
	intro := widget.NewLabel(fmt.Sprintf("Wrote %s to", t.what))
	intro.Wrapping = fyne.TextWrapWord
	where := widget.NewLabel(path)
	where.Wrapping = fyne.TextWrapBreak
	where.TextStyle.Monospace = true
	where.Selectable = true
	copyPath := widget.NewButtonWithIcon("Copy path", theme.ContentCopyIcon(), func() {
		fyne.CurrentApp().Clipboard().SetContent(path)
	})
	copyPath.Importance = widget.LowImportance
	body := container.NewVBox(intro, where, container.NewHBox(copyPath))
	width := min(720, max(480, p.window.Canvas().Size().Width*0.6))
	d := dialog.NewCustom(t.done, "Close", container.New(&widgets.MinWidth{Width: width}, body), p.window)
	p.dialogs.showDialog(d)
}

// saveFolder is the folder a save dialog proposes: the last one written
// to, the user's Documents folder, or the home folder.
func (p *planner) saveFolder() string {
	if p.lastFolder != "" {
		return p.lastFolder
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "."
	}
	docs := filepath.Join(home, "Documents")
	if fi, err := os.Stat(docs); err == nil && fi.IsDir() {
		return docs
	}
	return home
}

// fileNameOf is the file name proposed for a scenario's file: its id
// (lower-case letters, digits and "-") with suffix.
func fileNameOf(id, suffix string) string {
	if id == "" {
		id = "scenario"
	}
	return id + suffix
}

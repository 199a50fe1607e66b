package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Small helpers for the window's labels and the visibility of its parts.

// Stack puts a cell's parts one under another without extra space.
func Stack(objects ...fyne.CanvasObject) fyne.CanvasObject {
	return container.New(&TightVBox{}, objects...)
}

// WrappedLabel is a label whose text wraps at words.
func WrappedLabel(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// StrongLabel is a wrapping label in bold.
func StrongLabel(text string) *widget.Label {
	l := WrappedLabel(text)
	l.TextStyle.Bold = true
	return l
}

// Caption is a wrapping label in the caption size.
func Caption(text string) *widget.Label {
	l := WrappedLabel(text)
	l.SizeName = theme.SizeNameCaptionText
	return l
}

// SectionHeading is a bold subheading over a part of the tab.
func SectionHeading(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}

func ShowIf(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}

func ShowAll(objects []fyne.CanvasObject, show bool) {
	for _, o := range objects {
		ShowIf(o, show)
	}
}

// EnableIf enables or disables w.
func EnableIf(w fyne.Disableable, on bool) {
	if on {
		w.Enable()
	} else {
		w.Disable()
	}
}

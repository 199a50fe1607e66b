package export

import (
	"regexp"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/version"
)

// now is the clock of the export date the document properties carry;
// tests replace it.
var now = time.Now

// docProps sets the workbook's document properties: hostplan as the
// application and, unless the user names an author (Extras.Author), as
// the creator, the export date, and a title naming the scenario — never
// the library's defaults, nor the login name of whoever exported it.
func (b *book) docProps(title, author string) {
	t := now().UTC()
	creator := author
	if creator == "" {
		creator = "hostplan"
	}
	stamp := t.Format(time.RFC3339)
	b.fail(b.f.SetDocProps(&excelize.DocProperties{
		Title:          title,
		Subject:        "hosting and cost plan",
		Creator:        creator,
		LastModifiedBy: creator,
		Created:        stamp,
		Modified:       stamp,
		Description:    "Exported by hostplan " + version.Current().Version + " on " + t.Format(time.DateOnly) + ".",
		Keywords:       "hostplan",
		Language:       "en",
	}))
	b.fail(b.f.SetAppProps(&excelize.AppProperties{Application: "hostplan"}))
}

// absDir is the directory part of an absolute path in a text: /a/b/ of
// /a/b/x.json, C:\a\ of C:\a\x.json, ~/a/ of ~/a/x.json.
// It starts the text or follows a space or a bracket; a relative path
// (plans/x.json) is left as it is.
var absDir = regexp.MustCompile(`(^|[\s(])(?:[A-Za-z]:[\\/]|~[\\/]|/)(?:[^\s,;:"'\\/]+[\\/])*`)

// withoutDirs is text with the directories of every absolute path in it
// left out (the file's name stays): a workbook travels, and the folders
// of whoever exported it, their login name often among them, are nobody
// else's business.
func withoutDirs(text string) string {
	return absDir.ReplaceAllString(text, "$1")
}

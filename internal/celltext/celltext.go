// Package celltext keeps text that a spreadsheet would read as a formula
// as text. A cell of a CSV file or of a workbook that starts with =, +, -,
// @, a tab or a carriage return is taken by Excel and LibreOffice for a
// formula (or a number with a sign) when the file is opened or the cell is
// edited: a catalog source of =HYPERLINK("http://…") becomes a live link
// (OWASP, "CSV Injection"). Escape prefixes such text with an apostrophe,
// which both spreadsheets read as "this cell is text" and hide; Unescape
// undoes it, so a file the program wrote reads back exactly; FormulaLike
// tells the workbook which text cells need the quote-prefix style.
package celltext

import "strings"

// formulaStarts are the first characters that make a spreadsheet read a
// cell as a formula or a signed number.
const formulaStarts = "=+-@\t\r"

// FormulaLike reports whether a spreadsheet would read text as a formula
// (or a signed number) rather than as text.
func FormulaLike(text string) bool {
	return text != "" && strings.IndexByte(formulaStarts, text[0]) >= 0
}

// Escape returns text as a CSV cell that every spreadsheet reads as the
// same text: formula-like text gets a leading apostrophe. Text that
// already starts with an apostrophe gets one more, so that Unescape, which
// strips one, returns it unchanged. Any other text is returned as it is.
func Escape(text string) string {
	if FormulaLike(text) || strings.HasPrefix(text, "'") {
		return "'" + text
	}
	return text
}

// Unescape undoes Escape: a cell that starts with an apostrophe followed
// by a formula-like character or another apostrophe loses the first
// apostrophe. Any other cell is returned as it is, so a hand-written
// apostrophe before ordinary text is kept. Unescape(Escape(s)) == s for
// every s.
func Unescape(cell string) string {
	if rest, ok := strings.CutPrefix(cell, "'"); ok && (FormulaLike(rest) || strings.HasPrefix(rest, "'")) {
		return rest
	}
	return cell
}

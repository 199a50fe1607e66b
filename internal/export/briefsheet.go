package export

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"hostplan/internal/brief"
)

// briefCols is the number of columns of the Brief sheet. Prose spans all of
// them; a Markdown table puts one cell in each, its last cell spanning the
// rest. The widths suit the brief's three tables: the ranking (eight
// columns of short figures), the data lifecycle (six, two of them prose)
// and the bottlenecks (three, the last a question).
const briefCols = 8

var briefWidths = []float64{16, 22, 34, 22, 14, 14, 14, 14}

// writeBrief writes the Compute Readiness Brief one Markdown line a row:
// headings in bold, list items with a bullet and an indent, emphasis as
// rich text, tables across columns with their header row shaded. Without a
// brief (md nil) it lists the fields the scenario must fill first.
func writeBrief(b *book, md []byte, missing []string) {
	const sh = sheetBrief
	b.widths(sh, briefWidths...)
	if md == nil {
		writeBriefMissing(b, missing)
		return
	}
	lines := strings.Split(strings.ReplaceAll(string(md), "\r\n", "\n"), "\n")
	row := 1
	blank := true // no blank row at the top
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t")
		if strings.TrimSpace(line) == "" {
			if !blank {
				row++ // one blank row, however many blank lines
			}
			blank = true
			continue
		}
		blank = false
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case strings.HasPrefix(trimmed, "|"):
			cells := tableCells(trimmed)
			if isRule(cells) {
				continue
			}
			header := i+1 < len(lines) && isRule(tableCells(strings.TrimSpace(lines[i+1])))
			writeTableRow(b, row, cells, header)
		case headingRE.MatchString(trimmed):
			m := headingRE.FindStringSubmatch(trimmed)
			k := textStyle{bold: true}
			switch len(m[1]) {
			case 1:
				k.size = sizeTitle
			case 2:
				k.size = sizeHead
			}
			b.spanMarkdown(sh, row, 1, briefCols, m[2], k)
		case listRE.MatchString(line):
			m := listRE.FindStringSubmatch(line)
			level := len(m[1])/2 + 1
			bullet := "• "
			if level > 1 {
				bullet = "◦ "
			}
			b.spanMarkdown(sh, row, 1, briefCols, bullet+m[2], textStyle{indent: level})
		default:
			b.spanMarkdown(sh, row, 1, briefCols, trimmed, textStyle{})
		}
		row++
	}
}

var (
	headingRE = regexp.MustCompile(`^(#{1,6})\s+(.*)$`)
	listRE    = regexp.MustCompile(`^( *)[-*+]\s+(.*)$`)
	ruleRE    = regexp.MustCompile(`^:?-{3,}:?$`)
)

// tableCells splits a Markdown table row at its unescaped bars.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	if strings.HasSuffix(line, "|") && !strings.HasSuffix(line, `\|`) {
		line = line[:len(line)-1]
	}
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteString(`\|`) // inlineRuns turns it into a bar
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// isRule reports whether a table row is the rule under the header.
func isRule(cells []string) bool {
	if len(cells) == 0 {
		return false
	}
	for _, c := range cells {
		if !ruleRE.MatchString(c) {
			return false
		}
	}
	return true
}

// writeTableRow writes a table row one cell a column; the last cell spans
// to the last column, and cells past it join the last.
func writeTableRow(b *book, row int, cells []string, header bool) {
	if len(cells) > briefCols {
		cells = append(cells[:briefCols-1:briefCols-1], strings.Join(cells[briefCols-1:], " | "))
	}
	k := textStyle{header: header}
	for j, c := range cells {
		to := j + 1
		if j == len(cells)-1 {
			to = briefCols
		}
		if header {
			c = capitalise(c)
		} else if m := numeralRE.FindStringSubmatch(c); m != nil {
			// A figure as a number, so a spreadsheet neither flags it as
			// a number stored as text nor sorts it as text; its decimals
			// as the brief shows them.
			if x, err := strconv.ParseFloat(c, 64); err == nil {
				format := "0"
				if len(m[1]) > 1 {
					format += "." + strings.Repeat("0", len(m[1])-1)
				}
				b.numLeft(sheetBrief, j+1, row, x, format, fmt.Sprintf("brief row %d, column %d", row, j+1))
				if to > j+1 {
					b.fail(b.f.MergeCell(sheetBrief, cell(j+1, row), cell(to, row)))
				}
				continue
			}
		}
		b.spanMarkdown(sheetBrief, row, j+1, to, c, k)
	}
}

// numeralRE matches a plain figure such as 7, 0.84 or -1.5; m[1] is its
// decimal part with the point.
var numeralRE = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?$`)

// capitalise upper-cases the first letter of a table heading.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// writeBriefMissing explains a refused brief and lists what to fill.
func writeBriefMissing(b *book, missing []string) {
	const sh = sheetBrief
	b.spanText(sh, 1, 1, briefCols, "Compute Readiness Brief: not written yet", textStyle{bold: true, size: sizeTitle})
	filled := len(brief.Fields) - len(missing)
	b.spanText(sh, 2, 1, briefCols, fmt.Sprintf("hostplan writes the brief once at least %d of its %d fields are filled; this scenario fills %d. Fill these fields in the scenario and export again:",
		brief.MinFields, len(brief.Fields), max(0, filled)), textStyle{})
	row := 4
	for _, m := range missing {
		b.spanText(sh, row, 1, briefCols, "• "+m, textStyle{indent: 1})
		row++
	}
}

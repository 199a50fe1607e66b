package export

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Cached results. excelize writes a formula without its result, so a
// reader that does not recalculate (a file previewer, a script reading the
// file) would see blanks. Each formula's result, as the engine has it, is
// kept here and written into the file as the formula's cached value, and
// the charts' caches are filled from the cells their series read. Both are
// added as the file is written, through excelize's ZipWriter hook: the
// worksheets and charts pass through a filter that inserts the values.

// result is a formula's result: a number, a text or #N/A.
type result struct {
	kind byte // 'n' number, 's' text, 'e' #N/A
	num  float64
	text string
}

func numResult(x float64) result { return result{kind: 'n', num: x} }
func textResult(s string) result { return result{kind: 's', text: s} }
func notAvailable() result       { return result{kind: 'e', text: "#N/A"} }
func (v result) String() string {
	switch v.kind {
	case 'n':
		return strconv.FormatFloat(v.num, 'g', -1, 64)
	case 'e':
		return "#N/A"
	}
	return v.text
}

// cacheResult keeps v as the result of the formula in cell c of sheet.
func (b *book) cacheResult(sheet, c string, v result) {
	if v.kind == 'n' && (math.IsNaN(v.num) || math.IsInf(v.num, 0)) {
		b.fail(fmt.Errorf("export: %s!%s would cache %v, not a finite number", sheet, c, v.num))
		return
	}
	if b.results == nil {
		b.results = map[string]map[string]result{}
	}
	m := b.results[sheet]
	if m == nil {
		m = map[string]result{}
		b.results[sheet] = m
	}
	m[c] = v
}

// valueAt is what cell col, row of sheet shows at export: a formula's
// cached result, or the value written; ok is false for an empty cell.
func (b *book) valueAt(sheet string, col, row int) (result, bool) {
	if v, ok := b.results[sheet][cell(col, row)]; ok {
		return v, true
	}
	w, ok := b.written[sheet][row][col]
	if !ok {
		return result{}, false
	}
	if x, err := strconv.ParseFloat(w, 64); err == nil && !strings.ContainsAny(w, "nN") {
		return numResult(x), true
	}
	return textResult(w), true
}

// cachingZip is the workbook's zip writer: it writes every part as
// excelize gives it, worksheets with their formulas' results and charts
// with their caches.
type cachingZip struct {
	zw     *zip.Writer
	sheets map[string]map[string]result // by part name
	charts map[string][]result          // the cells of each range read
	part   string                       // being written
	buf    bytes.Buffer
}

// setCaching makes every write of the file insert the cached results.
func (b *book) setCaching() {
	sheets := map[string]map[string]result{}
	for id, name := range b.f.GetSheetMap() {
		if m := b.results[name]; m != nil {
			sheets["xl/worksheets/sheet"+strconv.Itoa(id)+".xml"] = m
		}
	}
	charts := map[string][]result{}
	for _, ref := range b.charts {
		if ref == "" {
			continue
		}
		if c, ok := b.rangeValues(ref); ok {
			charts[ref] = c
		}
	}
	b.f.SetZipWriter(func(w io.Writer) excelize.ZipWriter {
		return &cachingZip{zw: zip.NewWriter(w), sheets: sheets, charts: charts}
	})
}

func (z *cachingZip) Create(name string) (io.Writer, error) {
	if err := z.flush(); err != nil {
		return nil, err
	}
	if z.sheets[name] == nil && !strings.HasPrefix(name, "xl/charts/chart") {
		return z.zw.Create(name)
	}
	z.part = name
	return &z.buf, nil
}

func (z *cachingZip) AddFS(fsys fs.FS) error {
	if err := z.flush(); err != nil {
		return err
	}
	return z.zw.AddFS(fsys)
}

func (z *cachingZip) Close() error {
	if err := z.flush(); err != nil {
		return err
	}
	return z.zw.Close()
}

// flush writes the part held back, with its caches.
func (z *cachingZip) flush() error {
	if z.part == "" {
		return nil
	}
	name := z.part
	z.part = ""
	body := z.buf.Bytes()
	if cells := z.sheets[name]; cells != nil {
		body = cacheCells(body, cells)
	} else {
		body = cacheCharts(body, z.charts)
	}
	w, err := z.zw.Create(name)
	if err == nil {
		_, err = w.Write(body)
	}
	z.buf.Reset()
	return err
}

// cacheCells inserts each formula's result into a worksheet's XML: a
// formula cell is written <c r="A1" s="1" t="str"><f>…</f></c>; with a
// number it becomes <c r="A1" s="1"><f>…</f><v>12.5</v></c>, with a text
// it keeps t="str" and gains <v>text</v>, with #N/A it has t="e".
func cacheCells(x []byte, cells map[string]result) []byte {
	var out bytes.Buffer
	out.Grow(len(x) + 32*len(cells))
	for {
		i := bytes.Index(x, []byte(`<c r="`))
		if i < 0 {
			out.Write(x)
			return out.Bytes()
		}
		out.Write(x[:i])
		x = x[i:]
		end := bytes.IndexByte(x, '>')
		q := bytes.IndexByte(x[6:], '"')
		if end < 0 || q < 0 {
			out.Write(x)
			return out.Bytes()
		}
		start := x[:end+1]
		rest := x[end+1:]
		v, ok := cells[string(x[6:6+q])]
		// Only a formula with no result yet: <f>…</f></c>, within this cell.
		fEnd := bytes.Index(rest, []byte(`</f>`))
		cEnd := bytes.Index(rest, []byte(`</c>`))
		if !ok || !bytes.HasPrefix(rest, []byte(`<f>`)) || start[len(start)-2] == '/' || fEnd < 0 || cEnd != fEnd+len(`</f>`) {
			out.Write(start)
			x = rest
			continue
		}
		switch v.kind {
		case 'n':
			out.Write(bytes.Replace(start, []byte(` t="str"`), nil, 1))
		case 'e':
			out.Write(bytes.Replace(start, []byte(` t="str"`), []byte(` t="e"`), 1))
		default:
			out.Write(start)
		}
		out.Write(rest[:fEnd+len(`</f>`)])
		out.WriteString("<v>")
		xml.EscapeText(&out, []byte(v.String()))
		out.WriteString("</v></c>")
		x = rest[fEnd+len(`</f></c>`):]
	}
}

// cacheCharts fills the empty caches of a chart's references:
// <strRef><f>R</f></strRef> and <numRef><f>R</f><numCache>…</numCache>.
func cacheCharts(x []byte, ranges map[string][]result) []byte {
	// An XY chart's x values are numbers: excelize refers to them as text.
	x = bytes.ReplaceAll(x, []byte(`<xVal><strRef>`), []byte(`<xVal><numRef>`))
	x = bytes.ReplaceAll(x, []byte(`</strRef></xVal>`), []byte(`</numRef></xVal>`))
	var out bytes.Buffer
	for {
		i := bytes.Index(x, []byte(`<f>`))
		if i < 0 {
			out.Write(x)
			return out.Bytes()
		}
		j := bytes.Index(x[i:], []byte(`</f>`))
		if j < 0 {
			out.Write(x)
			return out.Bytes()
		}
		ref := unescape(x[i+3 : i+j])
		out.Write(x[:i+j+4])
		x = x[i+j+4:]
		vs, ok := ranges[ref]
		if !ok {
			continue
		}
		switch {
		case bytes.HasPrefix(x, []byte(`</strRef>`)):
			out.WriteString("<strCache>")
			points(&out, vs, false)
			out.WriteString("</strCache>")
		case bytes.HasPrefix(x, []byte(`<numCache>`)):
			k := bytes.Index(x, []byte(`</numCache>`))
			if k < 0 {
				continue
			}
			out.WriteString("<numCache><formatCode>General</formatCode>")
			points(&out, vs, true)
			out.WriteString("</numCache>")
			x = x[k+len(`</numCache>`):]
		case bytes.HasPrefix(x, []byte(`</numRef>`)):
			out.WriteString("<numCache><formatCode>General</formatCode>")
			points(&out, vs, true)
			out.WriteString("</numCache>")
		}
	}
}

// points writes a cache's count and points: every value of vs for a text
// cache, the numbers only for a number cache (a cell with no number is a
// gap).
func points(out *bytes.Buffer, vs []result, numbers bool) {
	fmt.Fprintf(out, `<ptCount val="%d"/>`, len(vs))
	for i, v := range vs {
		if v.kind == 'e' || v.kind == 0 || numbers && v.kind != 'n' || v.kind == 's' && v.text == "" {
			continue
		}
		fmt.Fprintf(out, `<pt idx="%d"><v>`, i)
		xml.EscapeText(out, []byte(v.String()))
		out.WriteString("</v></pt>")
	}
}

// unescape undoes the XML escaping of a chart reference.
func unescape(b []byte) string {
	s := string(b)
	if !strings.Contains(s, "&") {
		return s
	}
	var v string
	if err := xml.Unmarshal([]byte("<x>"+s+"</x>"), &v); err != nil {
		return s
	}
	return v
}

// rangeValues is what the cells of ref (Sheet!$A$1:$A$9, or one cell)
// show at export, in order; the zero result for an empty cell.
func (b *book) rangeValues(ref string) ([]result, bool) {
	sheet, rng, ok := strings.Cut(ref, "!")
	if !ok {
		return nil, false
	}
	sheet = strings.Trim(sheet, "'")
	from, to, _ := strings.Cut(strings.ReplaceAll(rng, "$", ""), ":")
	if to == "" {
		to = from
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(from)
	c2, r2, err2 := excelize.CellNameToCoordinates(to)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	var out []result
	for c := c1; c <= c2; c++ {
		for r := r1; r <= r2; r++ {
			v, _ := b.valueAt(sheet, c, r)
			out = append(out, v)
		}
	}
	return out, true
}

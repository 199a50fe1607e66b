package chart

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// analyzed is the report, with Monte Carlo and tornado, of the example
// scenario name (without .json); 200 draws keep the test quick.
func analyzed(t testing.TB, name string) *model.Report {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := fs.ReadFile(scenarios.FS, name+".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Analyze(context.Background(), s, cat, 200)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func examples(t testing.TB) []string {
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenarios (%v)", err)
	}
	for i, f := range files {
		files[i] = strings.TrimSuffix(path.Base(f), ".json")
	}
	return files
}

// dumpDir, when HOSTPLAN_CHART_DIR is set, is where the tests leave the
// charts they draw, to look at.
func dumpDir(t *testing.T) string {
	dir := os.Getenv("HOSTPLAN_CHART_DIR")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestWriteFilesEveryExample draws every chart of every example as PNG
// and SVG: each PNG decodes at the slide's 1920 × 1080 pixels, each SVG
// is well-formed XML, and the efficiency and tornado charts are there
// whenever the report has a scaling curve and a tornado.
func TestWriteFilesEveryExample(t *testing.T) {
	dir := dumpDir(t)
	for _, name := range examples(t) {
		t.Run(name, func(t *testing.T) {
			r := analyzed(t, name)
			cs, err := Charts(r)
			if err != nil {
				t.Fatal(err)
			}
			want := []string{NameCumulative}
			for _, d := range r.Directions {
				if len(d.Scaling) > 0 {
					want = append(want, NameEfficiency)
					break
				}
			}
			if r.Tornado != nil && len(r.Tornado.Bars) > 0 {
				want = append(want, NameTornado)
			}
			var got []string
			for _, c := range cs {
				got = append(got, c.Name)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Fatalf("charts %v, want %v", got, want)
			}
			paths, err := WriteFiles(dir, r.ScenarioID, cs, Slide)
			if err != nil {
				t.Fatal(err)
			}
			if len(paths) != 2*len(cs) {
				t.Fatalf("%d files for %d charts", len(paths), len(cs))
			}
			for _, p := range paths {
				f, err := os.Open(p)
				if err != nil {
					t.Fatal(err)
				}
				switch filepath.Ext(p) {
				case ".png":
					img, err := png.Decode(f)
					if err != nil {
						t.Errorf("%s: %v", p, err)
					} else if b := img.Bounds(); b.Dx() != 1920 || b.Dy() != 1080 {
						t.Errorf("%s is %d × %d pixels, want 1920 × 1080", p, b.Dx(), b.Dy())
					}
				case ".svg":
					if err := wellFormed(f); err != nil {
						t.Errorf("%s: %v", p, err)
					}
				}
				f.Close()
			}
		})
	}
}

func wellFormed(r io.Reader) error {
	d := xml.NewDecoder(r)
	root := ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		return errors.New("the root element is " + root + ", not svg")
	}
	return nil
}

func TestWriteFilesNeedsTheDirectory(t *testing.T) {
	r := analyzed(t, "qlora-legal-70b")
	cs, err := Charts(r)
	if err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	if _, err := WriteFiles(missing, "x", cs, Slide); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("WriteFiles into a missing directory: %v, want an error naming it", err)
	}
	var buf bytes.Buffer
	if err := cs[0].WritePNG(&buf, Size{Width: 400, Height: 300, DPI: 96}); err != nil || buf.Len() == 0 {
		t.Errorf("WritePNG: %v, %d bytes", err, buf.Len())
	}
}

// testCanvas is a slide-sized canvas to draw on.
func testCanvas() draw.Canvas {
	return draw.New(vgimg.New(Slide.Width, Slide.Height))
}

package icons

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCommittedIconsAreDrawn: web/static/icons holds exactly the icons this
// package draws, pixel for pixel (the PNG bytes may differ with the
// encoder's version). After changing the drawing: go generate ./web.
func TestCommittedIconsAreDrawn(t *testing.T) {
	dir := filepath.Join("..", "..", "web", "static", "icons")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	var want []string
	for _, i := range All {
		want = append(want, i.Name)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("web/static/icons has %v, the generator draws %v: run go generate ./web", names, want)
	}
	for _, i := range All {
		data, err := os.ReadFile(filepath.Join(dir, i.Name))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", i.Name, err)
		}
		if b := img.Bounds(); b.Dx() != i.Size || b.Dy() != i.Size {
			t.Fatalf("%s is %v, want %d×%d", i.Name, b, i.Size, i.Size)
		}
		got := image.NewNRGBA(img.Bounds())
		draw.Draw(got, got.Bounds(), img, img.Bounds().Min, draw.Src)
		if !bytes.Equal(got.Pix, i.Image().Pix) {
			t.Errorf("%s differs from what the generator draws: run go generate ./web", i.Name)
		}
	}
}

// TestShapes: the logo is where it should be — a maskable icon keeps the
// die inside the safe circle on an opaque background, the badge is
// one colour, and the any-purpose icon is transparent in its corners.
func TestShapes(t *testing.T) {
	for _, i := range All {
		img := i.Image()
		s := i.Size
		corner := img.NRGBAAt(0, 0)
		switch i.Purpose {
		case "maskable":
			for y := 0; y < s; y++ {
				for x := 0; x < s; x++ {
					dx, dy := float64(x)+0.5-float64(s)/2, float64(y)+0.5-float64(s)/2
					c := img.NRGBAAt(x, y)
					if c.A != 255 {
						t.Fatalf("%s: pixel %d,%d is not opaque", i.Name, x, y)
					}
					if dx*dx+dy*dy > 0.4*0.4*float64(s*s) && c != Paper {
						t.Fatalf("%s: pixel %d,%d outside the safe circle is %v", i.Name, x, y, c)
					}
				}
			}
		case "monochrome":
			for y := 0; y < s; y++ {
				for x := 0; x < s; x++ {
					if c := img.NRGBAAt(x, y); c.A > 0 && (c.R != 255 || c.G != 255 || c.B != 255) {
						t.Fatalf("%s: pixel %d,%d is %v", i.Name, x, y, c)
					}
				}
			}
		case "any":
			if corner.A != 0 {
				t.Errorf("%s: the corner is %v, want transparent", i.Name, corner)
			}
		}
		if mid := img.NRGBAAt(s/2, s/2); i.Purpose != "monochrome" && mid != Pip {
			t.Errorf("%s: the centre is %v, want the centre pip", i.Name, mid)
		}
	}
}

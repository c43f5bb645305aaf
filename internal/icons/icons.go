// Package icons draws dicehall's logo (a die showing five, in the accent
// colour of web/static/style.css) at the sizes the web app manifest, the
// pages and the notifications use. The PNGs are committed under
// web/static/icons/ (written by `go generate ./web`); a test checks they are
// what this package draws, so a change here shows up there.
//
// Shapes are tested with integer arithmetic on a supersampled grid, so the
// pixels are the same on every platform.
package icons

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
)

// The design tokens of web/static/style.css the logo is drawn in.
var (
	Accent     = color.NRGBA{0x1f, 0x6b, 0x74, 0xff} // --accent: the die's face
	AccentDeep = color.NRGBA{0x18, 0x59, 0x60, 0xff} // --accent-hover: its lower edge
	Paper      = color.NRGBA{0xf4, 0xf1, 0xea, 0xff} // --bg: behind the die where there is a background
	Pip        = color.NRGBA{0xff, 0xfd, 0xf8, 0xff} // --topbar: the pips
)

// An Icon is one file of web/static/icons.
type Icon struct {
	Name    string
	Size    int
	Purpose string // the manifest's "purpose": "any", "maskable" or "monochrome"; "" for files the manifest does not list
	draw    func(size int) *image.NRGBA
}

// All is every icon file, in the order the manifest lists them.
var All = []Icon{
	{Name: "icon-192.png", Size: 192, Purpose: "any", draw: func(s int) *image.NRGBA { return die(s, nil, 0.88) }},
	{Name: "icon-512.png", Size: 512, Purpose: "any", draw: func(s int) *image.NRGBA { return die(s, nil, 0.88) }},
	// Maskable: the platform cuts any shape within the centre circle of
	// 80% of the width, so the die stays inside it on a full background.
	{Name: "icon-maskable-192.png", Size: 192, Purpose: "maskable", draw: func(s int) *image.NRGBA { return die(s, &Paper, 0.54) }},
	{Name: "icon-maskable-512.png", Size: 512, Purpose: "maskable", draw: func(s int) *image.NRGBA { return die(s, &Paper, 0.54) }},
	// Notification badge: one colour with transparency (the system tints it).
	{Name: "badge-96.png", Size: 96, Purpose: "monochrome", draw: badge},
	// The pages' favicon and the icon iOS puts on the home screen (it
	// fills transparency with black, so it gets the paper background).
	{Name: "icon-32.png", Size: 32, draw: func(s int) *image.NRGBA { return die(s, nil, 0.94) }},
	{Name: "apple-touch-icon.png", Size: 180, draw: func(s int) *image.NRGBA { return die(s, &Paper, 0.74) }},
}

// Image draws the icon.
func (i Icon) Image() *image.NRGBA { return i.draw(i.Size) }

// PNG encodes the icon.
func (i Icon) PNG() ([]byte, error) {
	var b bytes.Buffer
	err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&b, i.Image())
	return b.Bytes(), err
}

// sub is the number of samples per pixel along each axis. Coordinates are
// in half-samples: pixel p covers [2*sub*p, 2*sub*(p+1)) and its samples
// sit at the odd coordinates in between.
const sub = 4

// grid turns a fraction of the icon's width into half-sample units.
func grid(size int, f float64) int64 {
	return int64(f*float64(2*sub*size) + 0.5)
}

// shape reports whether the half-sample point (x, y) is inside.
type shape func(x, y int64) bool

func roundRect(x0, y0, x1, y1, r int64) shape {
	return func(x, y int64) bool {
		if x < x0 || x > x1 || y < y0 || y > y1 {
			return false
		}
		cx := min(max(x, x0+r), x1-r)
		cy := min(max(y, y0+r), y1-r)
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r*r
	}
}

func circle(cx, cy, r int64) shape {
	return func(x, y int64) bool {
		dx, dy := x-cx, y-cy
		return dx*dx+dy*dy <= r*r
	}
}

// mask is the coverage of a shape: the share of each pixel's samples
// inside it.
func mask(size int, in shape) *image.Alpha {
	m := image.NewAlpha(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			n := 0
			for sy := 0; sy < sub; sy++ {
				for sx := 0; sx < sub; sx++ {
					x := int64(2*sub*px + 2*sx + 1)
					y := int64(2*sub*py + 2*sy + 1)
					if in(x, y) {
						n++
					}
				}
			}
			m.Pix[py*m.Stride+px] = uint8((n*255 + sub*sub/2) / (sub * sub))
		}
	}
	return m
}

// paint lays a colour over dst through the shape's coverage.
func paint(dst *image.NRGBA, c color.NRGBA, in shape) {
	draw.DrawMask(dst, dst.Bounds(), image.NewUniform(c), image.Point{}, mask(dst.Bounds().Dx(), in), image.Point{}, draw.Over)
}

// geometry is the die's outline and its five pips, for a die of width
// scale (a fraction of the icon's) centred in it.
type geometry struct {
	x0, y0, x1, y1, r int64 // the die, with its corner radius
	depth             int64 // how far its lower edge shows below the face
	pips              [5][2]int64
	pipR              int64
}

func dieGeometry(size int, scale float64) geometry {
	lo := (1 - scale) / 2
	g := func(f float64) int64 { return grid(size, f) }
	geo := geometry{
		x0: g(lo), x1: g(1 - lo), y0: g(lo - scale*0.02), y1: g(1 - lo - scale*0.02),
		r: g(scale * 0.2), depth: g(scale * 0.045), pipR: g(scale * 0.085),
	}
	at := func(fx, fy float64) [2]int64 { return [2]int64{g(lo + scale*fx), g(lo - scale*0.02 + scale*fy)} }
	geo.pips = [5][2]int64{at(0.28, 0.28), at(0.72, 0.28), at(0.5, 0.5), at(0.28, 0.72), at(0.72, 0.72)}
	return geo
}

// die draws the logo: a background (or none), the die's deeper lower edge,
// its face and five pips.
func die(size int, bg *color.NRGBA, scale float64) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	if bg != nil {
		draw.Draw(img, img.Bounds(), image.NewUniform(*bg), image.Point{}, draw.Src)
	}
	d := dieGeometry(size, scale)
	paint(img, AccentDeep, roundRect(d.x0, d.y0+d.depth, d.x1, d.y1+d.depth, d.r))
	paint(img, Accent, roundRect(d.x0, d.y0, d.x1, d.y1, d.r))
	for _, p := range d.pips {
		paint(img, Pip, circle(p[0], p[1], d.pipR))
	}
	return img
}

// badge is the die's silhouette with the pips cut out, in white.
func badge(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	d := dieGeometry(size, 0.9)
	face := roundRect(d.x0, d.y0, d.x1, d.y1, d.r)
	pips := make([]shape, len(d.pips))
	for i, p := range d.pips {
		pips[i] = circle(p[0], p[1], d.pipR)
	}
	paint(img, color.NRGBA{0xff, 0xff, 0xff, 0xff}, func(x, y int64) bool {
		if !face(x, y) {
			return false
		}
		for _, p := range pips {
			if p(x, y) {
				return false
			}
		}
		return true
	})
	return img
}

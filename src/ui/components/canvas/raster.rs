//! The bulk backend's rectangles, drawn into a bitmap here instead of one canvas call each: the
//! lanes, the window bands and their outlines, the lateness hatches, the side output's ticks and
//! the density bars. A 10,000-element sliding stream is about 30,000 of them; through the canvas
//! (`fillRect`, `strokeRect`) that was 35 ms of each redraw's 44 (a step of the playhead, the
//! install after a drag rests, a gesture's end), measured in Chromium at about 1.2 µs a call
//! whatever a rectangle's size. Here they are boxes of whole device pixels, painted a strip of
//! rows at a time (one `putImageData` each) into a buffer of a few MB, so that a canvas of
//! thousands of lanes does not need a bitmap of its full height in memory.
//!
//! The density bars' marks are small shapes rasterised here a row at a time ([`Boxes::shape`]).
//! The text, the timers' glyphs and the marbles drawn as discs go on top through the canvas
//! (`bulk::draw`): they are few, or shapes that need their antialiased edges.

use std::ops::Range;

use crate::ui::scene::glyph::Shape;

/// A colour, not premultiplied (as `ImageData` holds it).
pub type Rgba = [u8; 4];

/// `#rrggbb` or `rgba(r, g, b, a)` (the forms of `bulk`'s inks); anything else is transparent.
pub fn rgba(css: &str) -> Rgba {
    if let Some(hex) = css.strip_prefix('#').filter(|h| h.len() == 6) {
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        if let (Some(r), Some(g), Some(b)) = (byte(0), byte(2), byte(4)) {
            return [r, g, b, 255];
        }
    } else if let Some(args) = css.strip_prefix("rgba(").and_then(|a| a.strip_suffix(')')) {
        let parts: Vec<f64> = args.split(',').filter_map(|p| p.trim().parse().ok()).collect();
        if let [r, g, b, a] = parts[..] {
            let byte = |v: f64| v.round().clamp(0.0, 255.0) as u8;
            return [byte(r), byte(g), byte(b), byte(a * 255.0)];
        }
    }
    [0, 0, 0, 0]
}

/// Boxes in device pixels, `[x0, x1) × [y0, y1)`, in drawing order.
#[derive(Debug, Default)]
pub struct Boxes {
    /// Device pixels per canvas unit, and the canvas unit drawn at the bitmap's row 0.
    k: f64,
    top: f64,
    list: Vec<(i32, i32, i32, i32, Rgba)>,
}

impl Boxes {
    /// Boxes for a bitmap whose row 0 is the canvas's height `top`, at `k` device px per unit.
    pub fn new(k: f64, top: f64) -> Boxes {
        Boxes { k, top, list: Vec::new() }
    }

    /// The rectangle `(x, y, w, h)` in canvas units, filled with `ink`: its edges rounded to
    /// whole device pixels, and at least one pixel each way where it is not empty (a window a
    /// fraction of a pixel wide still shows).
    pub fn fill(&mut self, x: f64, y: f64, w: f64, h: f64, ink: Rgba) {
        if ink[3] == 0 || !(w > 0.0 && h > 0.0) || !(x.is_finite() && y.is_finite()) {
            return;
        }
        let edge = |v: f64| v.round().clamp(-1.0e9, 1.0e9) as i32;
        let (x0, y0) = (edge(x * self.k), edge((y - self.top) * self.k));
        let x1 = edge((x + w) * self.k).max(x0 + 1);
        let y1 = edge((y + h - self.top) * self.k).max(y0 + 1);
        self.list.push((x0, x1, y0, y1, ink));
    }

    /// The outline of `(x, y, w, h)` one unit thick, inside its edges (what the canvas's
    /// `strokeRect` of `(x + 0.5, y + 0.5, w - 1, h - 1)` inks with a line 1 unit wide: the
    /// windows' outlines; the lanes' edges were stroked on the edge itself, half outside).
    pub fn outline(&mut self, x: f64, y: f64, w: f64, h: f64, ink: Rgba) {
        let (t, l) = (1.0f64.min(h), 1.0f64.min(w));
        self.fill(x, y, w, t, ink);
        self.fill(x, y + h - t, w, t, ink);
        self.fill(x, y, l, h, ink);
        self.fill(x + w - l, y, l, h, ink);
    }

    /// [`Boxes::outline`] of `(x, y, w, h)` dashed: `on` units inked and `off` not, along each edge
    /// from its start (the SVG backend's `stroke-dasharray`, restarted at each corner); only the
    /// dashes within `seen`, the x range the canvas shows (a band zoomed in reaches far beyond it,
    /// and each dash is a box). A dash pattern or a rectangle that is not finite gets a plain
    /// outline.
    pub fn dashed_outline(
        &mut self,
        (x, y, w, h): (f64, f64, f64, f64),
        ink: Rgba,
        (on, off): (f64, f64),
        seen: (f64, f64),
    ) {
        let period = on + off;
        if !(on > 0.0 && period.is_finite() && w.is_finite() && h.is_finite()) {
            return self.outline(x, y, w, h, ink);
        }
        let (t, l) = (1.0f64.min(h), 1.0f64.min(w));
        // The first and last dash that reach into `seen`, in the edge's own phase.
        let mut at = ((seen.0 - x) / period).floor().max(0.0) * period;
        let end = w.min(seen.1 - x);
        while at < end {
            self.fill(x + at, y, on.min(w - at), t, ink);
            self.fill(x + at, y + h - t, on.min(w - at), t, ink);
            at += period;
        }
        let mut at = 0.0;
        while at < h {
            for side in [x, x + w - l] {
                if side + l >= seen.0 && side <= seen.1 {
                    self.fill(side, y + at, l, on.min(h - at), ink);
                }
            }
            at += period;
        }
    }

    /// `shape` of size `r` (`Shape::path`'s) around `(x, y)` in canvas units, filled with `ink`: a
    /// box a device row, as wide as the shape at the row's middle (no antialiasing, as every box).
    pub fn shape(&mut self, shape: Shape, x: f64, y: f64, r: f64, ink: Rgba) {
        let (above, below) = shape.rows(r);
        let device = |v: f64| v.round().clamp(-1.0e9, 1.0e9) as i32;
        let (y0, y1) = (device((y - above - self.top) * self.k), device((y + below - self.top) * self.k));
        for row in y0..y1 {
            let t = (f64::from(row) + 0.5) / self.k + self.top - y;
            if let Some(half) = shape.half_width(r, t) {
                let (x0, x1) = (device((x - half) * self.k), device((x + half) * self.k));
                if x1 > x0 {
                    self.list.push((x0, x1, row, row + 1, ink));
                }
            }
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The boxes so far, in drawing order.
    #[cfg(test)]
    pub fn list(&self) -> &[(i32, i32, i32, i32, Rgba)] {
        &self.list
    }

    /// Paints the boxes into the rows `span` of a bitmap `width` device px wide, `rows` at a
    /// time: `put(strip, y, rows)` gets each strip's RGBA bytes (`width × rows × 4`) and its
    /// first row. Strips no box reaches are not put (the canvas is clear there already).
    pub fn paint(&self, width: usize, span: Range<usize>, rows: usize, mut put: impl FnMut(&[u8], usize, usize)) {
        let rows = rows.max(1);
        // Pixels as `u32`s (their RGBA bytes in memory order): a fill is a slice's `fill`, and
        // a pixel's colour one comparison.
        let mut strip: Vec<u32> = Vec::new();
        let mut from = span.start;
        while from < span.end {
            let n = rows.min(span.end - from);
            let (top, bottom) = (from as i64, (from + n) as i64);
            let mut any = false;
            strip.clear();
            strip.resize(width * n, 0);
            for &(x0, x1, y0, y1, ink) in &self.list {
                let (y0, y1) = (i64::from(y0).max(top), i64::from(y1).min(bottom));
                let (x0, x1) = (i64::from(x0).max(0), i64::from(x1).min(width as i64));
                if y0 >= y1 || x0 >= x1 {
                    continue;
                }
                any = true;
                let (x0, x1) = (x0 as usize, x1 as usize);
                let row = |y: i64| (y - top) as usize * width;
                if ink[3] == 255 {
                    // The first row filled, the others copied from it.
                    let first = row(y0);
                    strip[first + x0..first + x1].fill(u32::from_ne_bytes(ink));
                    for y in y0 + 1..y1 {
                        strip.copy_within(first + x0..first + x1, row(y) + x0);
                    }
                } else {
                    // Most of a translucent box lies over one colour (its lane's, a band's): the
                    // last pixel's blend is reused while the colour under it stays the same.
                    let mut last: Option<(u32, u32)> = None;
                    for y in y0..y1 {
                        for p in &mut strip[row(y) + x0..row(y) + x1] {
                            match last {
                                Some((under, over)) if *p == under => *p = over,
                                _ => {
                                    let mut px = p.to_ne_bytes();
                                    blend(&mut px, ink);
                                    let over = u32::from_ne_bytes(px);
                                    last = Some((*p, over));
                                    *p = over;
                                }
                            }
                        }
                    }
                }
            }
            if any {
                put(bytemuck::cast_slice(&strip), from, n);
            }
            from += n;
        }
    }
}

/// `ink` drawn over `p` (source-over, neither premultiplied).
fn blend(p: &mut [u8], ink: Rgba) {
    let (sa, da) = (u32::from(ink[3]), u32::from(p[3]));
    if da == 255 {
        // Over an opaque pixel (the lanes are): the same values as below, with a division by a
        // constant instead of by `oa`.
        for c in 0..3 {
            p[c] = ((u32::from(ink[c]) * sa + u32::from(p[c]) * (255 - sa) + 127) / 255) as u8;
        }
        return;
    }
    // Out alpha, ×255: sa + da·(1 − sa).
    let oa = sa * 255 + da * (255 - sa);
    if oa == 0 {
        return;
    }
    for c in 0..3 {
        let v = (u32::from(ink[c]) * sa * 255 + u32::from(p[c]) * da * (255 - sa) + oa / 2) / oa;
        p[c] = v.min(255) as u8;
    }
    p[3] = ((oa + 127) / 255).min(255) as u8;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The whole bitmap, painted in strips of `rows`.
    fn bitmap(b: &Boxes, width: usize, height: usize, rows: usize) -> Vec<u8> {
        let mut out = vec![0u8; width * height * 4];
        b.paint(width, 0..height, rows, |strip, y, n| {
            assert_eq!(strip.len(), width * n * 4);
            out[y * width * 4..(y + n) * width * 4].copy_from_slice(strip);
        });
        out
    }

    fn at(bm: &[u8], width: usize, x: usize, y: usize) -> Rgba {
        let i = (y * width + x) * 4;
        [bm[i], bm[i + 1], bm[i + 2], bm[i + 3]]
    }

    #[test]
    fn inks_are_read_from_the_css_forms_used() {
        assert_eq!(rgba("#1f8a4c"), [0x1f, 0x8a, 0x4c, 255]);
        assert_eq!(rgba("rgba(213, 154, 46, 0.35)"), [213, 154, 46, 89]);
        assert_eq!(rgba("rgba(0,0,0,0)"), [0, 0, 0, 0]);
        assert_eq!(rgba("red"), [0, 0, 0, 0]);
        assert_eq!(rgba("#12345"), [0, 0, 0, 0]);
        assert_eq!(rgba("#zz0000"), [0, 0, 0, 0]);
    }

    /// Boxes are whole device pixels at the scale and the band's top, later ones over earlier
    /// ones, and the same in any strip height.
    #[test]
    fn boxes_land_on_whole_pixels_in_order_in_any_strips() {
        let (red, blue) = ([255, 0, 0, 255], [0, 0, 255, 255]);
        let mut b = Boxes::new(2.0, 10.0);
        b.fill(1.0, 11.0, 2.0, 1.0, red); // x 2..6, y 2..4
        b.fill(2.0, 11.5, 0.1, 3.0, blue); // x 4..5 (at least a pixel), y 3..9
        b.fill(0.0, 0.0, 100.0, 5.0, red); // above the band: nothing
        b.fill(5.0, 12.0, 0.0, 4.0, red); // empty: nothing
        b.fill(f64::NAN, 12.0, 1.0, 1.0, red);
        assert_eq!(b.len(), 3, "the one above the band is cut when painted");
        let (w, h) = (8, 10);
        let whole = bitmap(&b, w, h, 100);
        for rows in [1, 3, 4, 7] {
            assert_eq!(bitmap(&b, w, h, rows), whole, "strips of {rows}");
        }
        assert_eq!(at(&whole, w, 2, 2), red);
        assert_eq!(at(&whole, w, 5, 3), red);
        assert_eq!(at(&whole, w, 4, 3), blue, "the later box on top");
        assert_eq!(at(&whole, w, 4, 8), blue);
        assert_eq!(at(&whole, w, 4, 9), [0; 4]);
        assert_eq!(at(&whole, w, 6, 2), [0; 4]);
        assert_eq!(at(&whole, w, 1, 2), [0; 4]);
        let inked = whole.chunks_exact(4).filter(|p| p[3] > 0).count();
        assert_eq!(inked, 4 * 2 + 5, "red 4×2, blue 1×6 less the 1 it shares");
    }

    /// Strips no box reaches are not put; boxes past the edges are cut.
    #[test]
    fn empty_strips_are_skipped_and_boxes_cut_at_the_edges() {
        let mut b = Boxes::new(1.0, 0.0);
        b.fill(-5.0, 9.0, 20.0, 2.0, [9, 9, 9, 255]);
        let mut put = Vec::new();
        b.paint(10, 0..40, 8, |strip, y, n| {
            assert!(strip.chunks_exact(4).any(|p| p[3] == 255));
            put.push((y, n));
        });
        assert_eq!(put, vec![(8, 8)]);
        let bm = bitmap(&b, 10, 12, 5);
        assert_eq!(bm.chunks_exact(4).filter(|p| p[3] > 0).count(), 20, "10 wide × 2 rows");
    }

    /// A bitmap painted a span of rows at a time (the canvas's rows in view first, then the
    /// rest) is the bitmap painted whole, and each span's strips lie inside it.
    #[test]
    fn spans_painted_apart_make_the_whole_bitmap() {
        let mut b = Boxes::new(1.0, 0.0);
        b.fill(0.0, 0.0, 16.0, 40.0, [200, 200, 200, 255]);
        for i in 0..12 {
            let i = f64::from(i);
            b.fill(i, i * 3.0, 5.0, 9.0, rgba("rgba(213, 154, 46, 0.35)"));
            b.outline(i + 1.0, i * 2.5, 4.0, 7.0, [40, 40, 40, 255]);
        }
        let whole = bitmap(&b, 16, 40, 7);
        let mut parts = vec![0u8; whole.len()];
        for span in [13..29, 0..13, 29..40] {
            b.paint(16, span.clone(), 5, |strip, y, n| {
                assert!(span.start <= y && y + n <= span.end, "{y}+{n} in {span:?}");
                parts[y * 64..(y + n) * 64].copy_from_slice(strip);
            });
        }
        assert_eq!(parts, whole);
    }

    /// An outline is one unit inside the rectangle's edges; a translucent ink blends over what
    /// is there (source-over) and over nothing keeps its own colour.
    #[test]
    fn outlines_and_translucent_inks() {
        let mut b = Boxes::new(1.0, 0.0);
        let (grey, hatch) = ([100, 100, 100, 255], rgba("rgba(213, 154, 46, 0.35)"));
        b.outline(1.0, 1.0, 5.0, 4.0, grey);
        b.fill(0.0, 0.0, 1.0, 1.0, [255, 255, 255, 255]);
        b.fill(0.0, 0.0, 2.0, 1.0, hatch);
        let bm = bitmap(&b, 8, 8, 3);
        for (x, y) in [(1, 1), (5, 1), (1, 4), (5, 4), (3, 1), (3, 4), (1, 2), (5, 3)] {
            assert_eq!(at(&bm, 8, x, y), grey, "({x}, {y}) on the outline");
        }
        for (x, y) in [(2, 2), (4, 3), (6, 1), (1, 5)] {
            assert_eq!(at(&bm, 8, x, y)[3], 0, "({x}, {y}) not");
        }
        // Over white: 0.35 of the hatch's colour.
        let over = at(&bm, 8, 0, 0);
        assert_eq!(over[3], 255);
        for (c, (ink, white)) in over.iter().zip(hatch.iter().zip([255u8; 3])).take(3) {
            let want = (f64::from(*ink) * 89.0 + f64::from(white) * 166.0) / 255.0;
            assert!((f64::from(*c) - want).abs() <= 1.0, "{c} vs {want}");
        }
        assert_eq!(at(&bm, 8, 1, 0), hatch, "over nothing: its own colour and alpha");
    }

    /// Over an opaque pixel each channel is the nearest to ink·a + under·(1 − a), exactly, and
    /// a translucent box over runs of one colour and over varied colours (the reused blend)
    /// gives the same as blending each pixel.
    #[test]
    fn blends_over_opaque_pixels_are_rounded_to_nearest_and_reused_runs_are_exact() {
        for a in 0..=255u32 {
            for ink in [0u8, 1, 77, 128, 200, 254, 255] {
                for under in (0..=255u8).step_by(3) {
                    let mut p = [under, under, under, 255];
                    blend(&mut p, [ink, ink, ink, a as u8]);
                    let x = u32::from(ink) * a + u32::from(under) * (255 - a);
                    assert_eq!(u32::from(p[0]), (2 * x + 255) / 510, "ink {ink} alpha {a} over {under}");
                    assert_eq!(p[3], 255);
                }
            }
        }
        let hatch = rgba("rgba(213, 154, 46, 0.35)");
        let mut b = Boxes::new(1.0, 0.0);
        // Stripes of three colours, some translucent, then the hatch over them all.
        for (i, ink) in
            [[10, 200, 30, 255], [250, 250, 250, 255], [0, 0, 90, 128]].into_iter().cycle().take(9).enumerate()
        {
            b.fill(i as f64, 0.0, 1.0, 6.0, ink);
        }
        let under = bitmap(&b, 12, 6, 4);
        b.fill(0.0, 1.0, 12.0, 4.0, hatch);
        let bm = bitmap(&b, 12, 6, 4);
        for y in 0..6 {
            for x in 0..12 {
                let mut want = at(&under, 12, x, y);
                if (1..5).contains(&y) {
                    blend(&mut want, hatch);
                }
                assert_eq!(at(&bm, 12, x, y), want, "({x}, {y})");
            }
        }
    }
}

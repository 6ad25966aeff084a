//! Event time ↔ pixels, tick marks and snapping. Pure functions over a [`Viewport`]: no browser,
//! so they are tested natively.
//!
//! Event time is `i64` milliseconds in the engine; on screen it is `f64` pixels. The viewport is
//! kept in `f64` milliseconds so that zooming far in (a few milliseconds across the canvas) and
//! far out (years) both stay smooth; conversions back to the model round and saturate, so no
//! gesture can overflow a timestamp.

use crate::engine::Millis;
use crate::engine::time::format_millis;

/// The smallest visible span: a few milliseconds across the whole canvas.
pub const MIN_SPAN_MILLIS: f64 = 10.0;
/// The largest visible span: about the whole `i64` range.
pub const MAX_SPAN_MILLIS: f64 = 2.0e19;

/// The visible event-time range `[start, end)` drawn across `width_px` pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub start_millis: f64,
    pub end_millis: f64,
    pub width_px: f64,
}

impl Default for Viewport {
    fn default() -> Self {
        Viewport { start_millis: 0.0, end_millis: 60_000.0, width_px: 1000.0 }
    }
}

impl Viewport {
    /// A viewport over `[start, end)`; a degenerate or reversed span is widened to the minimum.
    pub fn new(start_millis: f64, end_millis: f64, width_px: f64) -> Viewport {
        let width_px = if width_px.is_finite() && width_px >= 1.0 { width_px } else { 1.0 };
        let (start, end) = if start_millis.is_finite() && end_millis.is_finite() {
            (start_millis, end_millis)
        } else {
            (0.0, 60_000.0)
        };
        let span = (end - start).clamp(MIN_SPAN_MILLIS, MAX_SPAN_MILLIS);
        let mid = (start + end) / 2.0;
        let start =
            if end - start >= MIN_SPAN_MILLIS && end - start <= MAX_SPAN_MILLIS { start } else { mid - span / 2.0 };
        Viewport { start_millis: start, end_millis: start + span, width_px }
    }

    pub fn span_millis(&self) -> f64 {
        self.end_millis - self.start_millis
    }

    pub fn millis_per_px(&self) -> f64 {
        self.span_millis() / self.width_px
    }

    /// The same time range over a new canvas width.
    pub fn with_width(&self, width_px: f64) -> Viewport {
        Viewport::new(self.start_millis, self.end_millis, width_px)
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the time under `px` fixed.
    pub fn zoom_at(&self, px: f64, factor: f64) -> Viewport {
        if !(factor.is_finite() && factor > 0.0) {
            return *self;
        }
        let anchor = millis_from_px_f64(self, px);
        let span = (self.span_millis() / factor).clamp(MIN_SPAN_MILLIS, MAX_SPAN_MILLIS);
        let frac = (px / self.width_px).clamp(0.0, 1.0);
        let start = anchor - frac * span;
        Viewport::new(start, start + span, self.width_px)
    }

    /// Moves the visible range by `dx_px` pixels (positive: the content moves right, so earlier
    /// times come into view).
    pub fn pan_px(&self, dx_px: f64) -> Viewport {
        if !dx_px.is_finite() {
            return *self;
        }
        let d = dx_px * self.millis_per_px();
        Viewport::new(self.start_millis - d, self.end_millis - d, self.width_px)
    }

    /// A viewport showing `[min, max]` with a margin on both sides.
    pub fn fit(min: Millis, max: Millis, width_px: f64) -> Viewport {
        let (lo, hi) = (min.min(max) as f64, min.max(max) as f64);
        let span = (hi - lo).max(1000.0);
        let pad = span * 0.06;
        Viewport::new(lo - pad, lo + span + pad, width_px)
    }
}

/// x coordinate (px from the canvas' left edge) of an event time.
pub fn px_from_millis(viewport: &Viewport, ts: Millis) -> f64 {
    px_from_millis_f64(viewport, ts as f64)
}

pub fn px_from_millis_f64(viewport: &Viewport, ts: f64) -> f64 {
    (ts - viewport.start_millis) / viewport.span_millis() * viewport.width_px
}

/// The event time under an x coordinate, rounded to whole milliseconds and saturated to `i64`.
pub fn millis_from_px(viewport: &Viewport, px: f64) -> Millis {
    saturate(millis_from_px_f64(viewport, px))
}

pub fn millis_from_px_f64(viewport: &Viewport, px: f64) -> f64 {
    viewport.start_millis + px / viewport.width_px * viewport.span_millis()
}

/// `f64` milliseconds to a timestamp: rounded; NaN becomes 0; beyond the range saturates
/// (Rust's `as` saturates, which is exactly what we want here).
pub fn saturate(ms: f64) -> Millis {
    if ms.is_nan() { 0 } else { ms.round() as Millis }
}

/// Clamps a pixel coordinate so SVG never sees a number it cannot draw.
pub fn clamp_px(px: f64) -> f64 {
    if px.is_nan() { 0.0 } else { px.clamp(-1.0e6, 1.0e6) }
}

/// The watermark line's x: `Long.MIN` (none yet) at the left edge, `Long.MAX` (end of input) at
/// the right, always inside the canvas.
pub fn watermark_x(viewport: &Viewport, wm: Millis) -> f64 {
    let x = match wm {
        crate::engine::time::LONG_MIN => 2.0,
        crate::engine::time::LONG_MAX => viewport.width_px - 2.0,
        w => clamp_px(px_from_millis(viewport, w)),
    };
    x.clamp(2.0, (viewport.width_px - 2.0).max(2.0))
}

/// Units a dropped element snaps to, and what ←/→ moves it by.
const SNAP_UNITS: [Millis; 14] = [
    1,
    10,
    100,
    1_000,
    10_000,
    60_000,
    600_000,
    3_600_000,
    86_400_000,
    864_000_000,
    8_640_000_000,
    86_400_000_000,
    864_000_000_000,
    8_640_000_000_000,
];

/// The "whole unit" of the current zoom: the smallest unit that is at least 4 pixels wide, so a
/// drop lands where the user let go, on a round value.
pub fn snap_unit_millis(viewport: &Viewport) -> Millis {
    let min = viewport.millis_per_px() * 4.0;
    SNAP_UNITS.iter().copied().find(|&u| u as f64 >= min).unwrap_or(SNAP_UNITS[SNAP_UNITS.len() - 1])
}

/// Rounds `ts` to the nearest multiple of `unit` (ties away from zero), saturating.
pub fn snap(ts: Millis, unit: Millis) -> Millis {
    if unit <= 1 {
        return ts;
    }
    let rem = ts.rem_euclid(unit);
    let down = ts - rem;
    if rem * 2 >= unit { down.saturating_add(unit) } else { down }
}

/// A tick mark on the event-time axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub millis: Millis,
    pub px: f64,
    pub label: String,
}

/// Tick steps: 1-2-5 below a second, clock-friendly steps up to a day, 1-2-5 beyond.
fn tick_steps() -> impl Iterator<Item = Millis> {
    const CLOCK: [Millis; 24] = [
        1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
        600_000, 900_000, 1_800_000, 3_600_000, 21_600_000, 86_400_000,
    ];
    let beyond = (9..18u32).flat_map(|e| [1, 2, 5].map(|m| m * 10i64.pow(e)));
    CLOCK.into_iter().chain(beyond.filter(|&s| s > 86_400_000))
}

/// Label of a tick: `HH:MM:SS.mmm` for wall-clock timestamps (`.000` dropped on whole-second
/// steps), raw milliseconds for small scenario numbers (the engine's `format_millis` rule).
pub fn tick_label(ts: Millis, step: Millis) -> String {
    let s = format_millis(ts);
    if step % 1000 == 0
        && let Some(stripped) = s.strip_suffix(".000")
    {
        return stripped.to_string();
    }
    s
}

/// Ticks across the viewport with labels at least `min_gap_px` apart.
pub fn ticks(viewport: &Viewport) -> Vec<Tick> {
    // Wall-clock labels are wider than small raw numbers.
    let mid = (viewport.start_millis + viewport.end_millis) / 2.0;
    let label_chars = format_millis(saturate(mid)).len().max(4) as f64;
    let min_gap_px = label_chars * 7.5 + 24.0;
    let mpp = viewport.millis_per_px();
    let step = tick_steps().find(|&s| s as f64 / mpp >= min_gap_px).unwrap_or(5_000_000_000_000_000_000);
    let first = saturate((viewport.start_millis / step as f64).ceil() * step as f64);
    let mut out = Vec::new();
    let mut t = first;
    while (t as f64) <= viewport.end_millis && out.len() < 200 {
        out.push(Tick { millis: t, px: px_from_millis(viewport, t), label: tick_label(t, step) });
        let Some(next) = t.checked_add(step) else { break };
        t = next;
    }
    out
}

/// Human duration for labels ("30 s", "1 min", "250 ms").
pub fn format_duration(ms: Millis) -> String {
    let a = ms.unsigned_abs();
    let sign = if ms < 0 { "-" } else { "" };
    if a >= 3_600_000 && a.is_multiple_of(3_600_000) {
        format!("{sign}{} h", a / 3_600_000)
    } else if a >= 60_000 && a.is_multiple_of(60_000) {
        format!("{sign}{} min", a / 60_000)
    } else if a >= 1000 && a.is_multiple_of(1000) {
        format!("{sign}{} s", a / 1000)
    } else if a >= 1000 {
        format!("{sign}{}.{:03} s", a / 1000, a % 1000)
    } else {
        format!("{sign}{a} ms")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vp() -> Viewport {
        Viewport::new(0.0, 60_000.0, 600.0)
    }

    /// px_from_millis and millis_from_px are inverse (up to rounding to whole milliseconds).
    #[test]
    fn conversions_round_trip() {
        let v = vp();
        assert_eq!(px_from_millis(&v, 30_000), 300.0);
        assert_eq!(millis_from_px(&v, 300.0), 30_000);
        for ts in [0, 1, 59_999, -5_000, 123_456] {
            assert_eq!(millis_from_px(&v, px_from_millis(&v, ts)), ts);
        }
        // Wall-clock timestamps keep millisecond precision in f64.
        let w = Viewport::new(1_767_261_600_000.0, 1_767_261_660_000.0, 1200.0);
        assert_eq!(millis_from_px(&w, px_from_millis(&w, 1_767_261_659_999)), 1_767_261_659_999);
    }

    /// Far-away pixels saturate instead of overflowing.
    #[test]
    fn conversions_saturate() {
        let v = Viewport::new(9.0e18, 9.2e18, 100.0);
        assert_eq!(millis_from_px(&v, 1.0e9), i64::MAX);
        assert_eq!(millis_from_px(&Viewport::new(-9.2e18, -9.0e18, 100.0), -1.0e9), i64::MIN);
        assert_eq!(saturate(f64::NAN), 0);
        assert_eq!(clamp_px(f64::INFINITY), 1.0e6);
    }

    /// Zooming keeps the time under the pointer where it is; panning shifts by pixels.
    #[test]
    fn zoom_keeps_anchor_and_pan_shifts() {
        let v = vp();
        let z = v.zoom_at(150.0, 2.0);
        assert_eq!(z.span_millis(), 30_000.0);
        assert!((millis_from_px_f64(&z, 150.0) - 15_000.0).abs() < 1e-6);
        let p = v.pan_px(100.0);
        assert_eq!(p.start_millis, -10_000.0);
        // Limits: never below the minimum span, NaN factors ignored.
        assert_eq!(v.zoom_at(0.0, 1e12).span_millis(), MIN_SPAN_MILLIS);
        assert_eq!(v.zoom_at(0.0, f64::NAN), v);
    }

    /// Fit shows the whole range with a margin, and a single point gets a sensible span.
    #[test]
    fn fit_covers_range() {
        let f = Viewport::fit(0, 60_000, 600.0);
        assert!(f.start_millis < 0.0 && f.end_millis > 60_000.0);
        let one = Viewport::fit(5_000, 5_000, 600.0);
        assert!(one.span_millis() >= 1000.0);
        assert!(one.start_millis < 5_000.0 && one.end_millis > 5_000.0);
    }

    /// Drops snap to whole units of the zoom; negative timestamps round the same way.
    #[test]
    fn snapping() {
        assert_eq!(snap_unit_millis(&vp()), 1_000); // 100 ms per px: 4 px = 400 ms -> 1 s
        assert_eq!(snap_unit_millis(&Viewport::new(0.0, 100.0, 1000.0)), 1);
        assert_eq!(snap(59_499, 1_000), 59_000);
        assert_eq!(snap(59_500, 1_000), 60_000);
        assert_eq!(snap(-1_400, 1_000), -1_000);
        assert_eq!(snap(-1_600, 1_000), -2_000);
        assert_eq!(snap(i64::MAX - 3, 1_000), i64::MAX);
        assert_eq!(snap(17, 1), 17);
    }

    /// Ticks are round, increasing, inside the viewport and readable.
    #[test]
    fn ticks_are_round_and_readable() {
        let t = ticks(&vp());
        assert!(t.len() >= 3);
        assert!(t.windows(2).all(|w| w[0].millis < w[1].millis));
        assert!(t.iter().all(|k| k.px >= 0.0 && k.px <= 600.0));
        assert_eq!(t[0].label, "0");
        let w = ticks(&Viewport::new(1_767_261_600_000.0, 1_767_261_720_000.0, 1400.0));
        assert!(w.iter().any(|k| k.label == "10:01:00"), "{w:?}");
        let fine = ticks(&Viewport::new(1_767_261_659_990.0, 1_767_261_660_010.0, 1400.0));
        assert!(fine.iter().any(|k| k.label == "10:00:59.999" || k.label == "10:01:00.000"), "{fine:?}");
    }

    #[test]
    fn durations() {
        assert_eq!(format_duration(30_000), "30 s");
        assert_eq!(format_duration(60_000), "1 min");
        assert_eq!(format_duration(1_500), "1.500 s");
        assert_eq!(format_duration(250), "250 ms");
        assert_eq!(format_duration(-5_000), "-5 s");
    }
}

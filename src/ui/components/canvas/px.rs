//! SVG attribute values.

use crate::ui::geometry::clamp_px;

/// A coordinate for an SVG attribute: one decimal, never a number SVG cannot draw.
pub fn px(v: f64) -> String {
    format!("{:.1}", clamp_px(v))
}

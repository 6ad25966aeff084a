//! Flink SQL's rules for a window TVF's sizes, shared by the loader and the SQL view's fields.

use super::{TvfSpec, limits};
use crate::engine::time::Millis;

/// Flink SQL's rules for a window TVF's sizes (and the page's limit on windows per row): the
/// field at fault (`size`, `slide`, `step`, `gap`) and why, or `None` when Flink accepts it.
pub fn tvf_rule(spec: TvfSpec) -> Option<(&'static str, &'static str)> {
    let positive = |field, x: Millis| (x <= 0).then_some((field, "must be greater than 0"));
    match spec {
        TvfSpec::Tumble { size } => positive("size", size),
        TvfSpec::Session { gap } => positive("gap", gap),
        TvfSpec::Hop { size, slide } => positive("size", size).or(positive("slide", slide)).or_else(|| {
            if size % slide != 0 {
                Some(("size", "HOP window size must be an integral multiple of the slide (Flink SQL's rule)"))
            } else if size / slide > limits::MAX_WINDOWS_PER_ELEMENT {
                Some(("slide", "puts every row into too many windows"))
            } else {
                None
            }
        }),
        TvfSpec::Cumulate { step, size } => positive("size", size).or(positive("step", step)).or_else(|| {
            if size % step != 0 {
                Some(("size", "CUMULATE max size must be an integral multiple of the step (Flink SQL's rule)"))
            } else if size / step > limits::MAX_WINDOWS_PER_ELEMENT {
                Some(("step", "puts every row into too many windows"))
            } else {
                None
            }
        }),
    }
}

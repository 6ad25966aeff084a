//! The SQL view's rows on the canvas: every row a window TVF emitted up to the playhead, as a ◆ at
//! its `window_time` (`window_end - 1`, the row's rowtime) on its window's band. Unlike a
//! DataStream window, a TVF row is final: one per window, never updated or retracted (append-only),
//! and there is no allowed lateness.

use std::rc::Rc;

use crate::engine::time::{TimeWindow, format_millis};
use crate::engine::{Output, Window};
use crate::ui::geometry::{clamp_px, px_from_millis};

use super::TvfRowItem;
use super::build::SceneInput;
use super::layout::dims;

/// Room a row's text needs per character (canvas units).
const CHAR_PX: f64 = 6.2;

impl SceneInput<'_> {
    /// The TVF rows up to the playhead; `keys`: the run's key names by key id.
    pub(super) fn tvf_rows(&self, keys: &[Rc<str>]) -> Rc<[TvfRowItem]> {
        let emitted = self.fold.view.outputs.min(self.run.outputs.len());
        self.run.outputs[..emitted]
            .iter()
            .filter_map(|o| match o {
                Output::Tvf(r) => Some(r),
                _ => None,
            })
            .filter_map(|r| {
                let key = r.firing.key;
                let lane = self.layout.lane_of_key(key)?;
                let window = Window::Time(TimeWindow { start: r.window_start, end: r.window_end });
                let band_y = lane.row_y(self.layout.row_of(key, &window));
                let x = clamp_px(px_from_millis(&self.viewport, r.window_time));
                let x0 = clamp_px(px_from_millis(&self.viewport, r.window_start));
                let key_name = keys.get(key as usize).cloned().unwrap_or_else(|| Rc::from(""));
                let text = format!("row: sum {} · count {}", r.firing.sum, r.firing.count);
                let room = x - x0 - 14.0;
                Some(TvfRowItem {
                    window_start: r.window_start,
                    window_end: r.window_end,
                    window_time: r.window_time,
                    sum: r.firing.sum,
                    count: r.firing.count,
                    x,
                    y: band_y + (dims::WINDOW_ROW - 4.0) / 2.0,
                    text: (room > text.chars().count() as f64 * CHAR_PX).then(|| Rc::from(text)),
                    title: Rc::from(format!(
                        "TVF row: key {key_name}, window_start {}, window_end {}, window_time {}, sum {}, count {} (final: a TVF row is never updated)",
                        format_millis(r.window_start),
                        format_millis(r.window_end),
                        format_millis(r.window_time),
                        r.firing.sum,
                        r.firing.count
                    )),
                    key_name,
                })
            })
            .collect()
    }
}

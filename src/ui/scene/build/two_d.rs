//! The 2-D view's items (event time across, processing time down: Streaming Systems' picture),
//! built by [`SceneInput::two_d_view`] beside the timeline's lanes in `build/mod.rs`.

use std::rc::Rc;

use crate::engine::Window;
use crate::engine::scenario::InputItem;
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::view::WindowState;
use crate::ui::action::ObjectId;
use crate::ui::geometry::clamp_px;

use super::super::layout::dims;
use super::super::{Column, MarbleItem, TwoD};
use super::{Names, SceneInput, x_of};

const TWO_D_ROW: f64 = 18.0;

/// The 2-D view's height for `steps` processing-time rows.
pub(super) fn height(steps: usize) -> f64 {
    dims::AXIS_HEIGHT + (steps as f64 + 1.0) * TWO_D_ROW + 20.0
}

impl SceneInput<'_> {
    /// Event time × processing time (Streaming Systems' picture): each element at (its timestamp,
    /// the step it arrived in), the watermark as a curve over the steps.
    pub(super) fn two_d_view(&self, entry: Option<ObjectId>, names: &Names) -> TwoD {
        let vp = &self.viewport;
        let view = &self.fold.view;
        let y_of = |step: usize| dims::AXIS_HEIGHT + (step as f64 + 0.5) * TWO_D_ROW;
        // Watermark curve: after step i (0-based item i) the watermark is watermark_after_step[i].
        let mut curve = String::new();
        let mut started = false;
        for (i, wm) in self.run.watermark_after_step.iter().enumerate() {
            if *wm == LONG_MIN || *wm == LONG_MAX {
                continue;
            }
            let x = x_of(vp, *wm);
            let (top, bottom) = (y_of(i) - TWO_D_ROW / 2.0, y_of(i) + TWO_D_ROW / 2.0);
            curve.push_str(&format!(
                "{} {:.1} {:.1} L {:.1} {:.1} ",
                if started { "L" } else { "M" },
                clamp_px(x),
                clamp_px(top),
                clamp_px(x),
                clamp_px(bottom)
            ));
            started = true;
        }
        let rows = (0..self.run.steps).map(|i| (y_of(i) + TWO_D_ROW / 2.0, i < view.step)).collect();
        let playhead_y = dims::AXIS_HEIGHT + view.step as f64 * TWO_D_ROW;
        // Each window as a column over its event-time span, from the step that created it to the
        // step that cleaned it up (or the playhead).
        let columns = view
            .windows
            .iter()
            .filter_map(|w| {
                let Window::Time(tw) = w.window else { return None };
                if matches!(w.state, WindowState::Merged { .. }) || tw.end < tw.start {
                    return None;
                }
                let (x0, x1) = (x_of(vp, tw.start), x_of(vp, tw.end));
                let top = y_of(w.created_step) - TWO_D_ROW / 2.0;
                let bottom = w.ended_step.map_or(playhead_y, |e| y_of(e) + TWO_D_ROW / 2.0);
                Some(Column {
                    node_key: Rc::from(format!("c{}:{}:{}", w.key, tw.start, tw.end)),
                    state: w.state.label(),
                    x: x0,
                    y: top,
                    width: (x1 - x0 - 1.0).max(1.0),
                    height: (bottom - top).max(1.0),
                })
            })
            .collect();
        let dots = self
            .scenario
            .input
            .iter()
            .enumerate()
            .filter_map(|(i, item)| {
                let InputItem::Element(e) = item else { return None };
                let ordinal = self.layout.elem_of_input.get(i).copied().flatten()? as usize;
                let lane = self.layout.lane_of_elem.get(ordinal).copied().unwrap_or(0);
                let id = ObjectId::Element(i);
                Some(MarbleItem {
                    id,
                    index: i,
                    elem_id: e.id,
                    key_name: names.lanes.get(lane).cloned().unwrap_or_else(|| Rc::from(e.key.as_str())),
                    ts: e.ts,
                    value: e.value,
                    values: self.values,
                    x: x_of(vp, e.ts),
                    y: y_of(i),
                    outcome: view.elements.get(ordinal).copied().flatten(),
                    fate: self.layout.fates.handle(ordinal, view.step),
                    selected: self.selection == Some(id),
                    anim: None,
                    crossing: None,
                    tab: self.tab(id, entry),
                    origin: false,
                    label: true,
                })
            })
            .collect();
        TwoD { rows, columns, curve, playhead_y, dots }
    }
}

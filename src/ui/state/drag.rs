//! Drags: a gesture becomes a model change in event-time space at once, then the scenario is
//! re-run (a new revision per move, one commit at the drop). Elements follow the pointer and snap
//! to a whole unit when dropped; the watermark handle moves the explicit watermark item behind the
//! line, or with bounded out-of-orderness the bound; the arrival strip reorders the input.

use crate::engine::Millis;
use crate::engine::scenario::{InputItem, WatermarkSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::ui::action::{Drag, DragAction, DragStart, ObjectId, WatermarkTarget};
use crate::ui::geometry::{saturate, snap};

use super::AppState;
use super::scenario::Refuse;

/// Sets the value of a watermark item (plain or with its partition); elements are untouched.
pub(super) fn set_watermark(item: &mut InputItem, wm: Millis) {
    match item {
        InputItem::Watermark(w) => *w = wm,
        InputItem::SourceWatermark(m) => m.wm = wm,
        InputItem::Element(_) | InputItem::Control(_) => {}
    }
}

/// A dropped watermark snaps to `unit - 1` below a boundary when it was let go just below one,
/// so that the classic `end - 1` is one drag away; otherwise to the nearest unit.
pub fn snap_watermark(wm: Millis, unit: Millis) -> Millis {
    if unit <= 1 {
        return wm;
    }
    let up = snap(wm, unit);
    if up > wm { up.saturating_sub(1) } else { up }
}

impl AppState {
    pub(super) fn reduce_drag(&mut self, action: DragAction) {
        match action {
            DragAction::Start { what, px, millis } => self.drag_start(what, px, millis),
            DragAction::Move { px, millis } => self.drag_move(px, millis),
            DragAction::Over(over) => {
                if let Some(Drag::Arrival { from, partition, .. }) = self.drag {
                    let last = self.doc.scenario.input.len().saturating_sub(1);
                    self.drag = Some(Drag::Arrival { from, over: over.min(last), partition });
                }
            }
            DragAction::OverPartition(p) => {
                if let Some(Drag::Arrival { from, over, .. }) = self.drag
                    && p < self.doc.scenario.partition_count()
                {
                    self.drag = Some(Drag::Arrival { from, over, partition: Some(p) });
                }
            }
            DragAction::End => self.drag_end(),
        }
    }

    fn drag_start(&mut self, what: DragStart, px: f64, millis: f64) {
        self.chrome.menu = None;
        self.play.playing = false;
        self.drag = match what {
            DragStart::Element(index) => {
                let Some(ts) = self.doc.element(index).map(|e| e.ts) else { return };
                self.select_and_focus(ObjectId::Element(index));
                self.prime = Some((self.doc.revision, self.doc.scenario.clone()));
                let arrival = self.view.on_processing_axis(&self.doc.layout);
                let from = if arrival { self.doc.layout.arrivals.get(index).copied().unwrap_or(0) } else { ts };
                Some(Drag::Element {
                    index,
                    grab_offset_millis: from as f64 - millis,
                    arrival,
                    pressed_at: self.doc.revision,
                })
            }
            DragStart::Watermark if self.view.on_processing_axis(&self.doc.layout) => {
                self.chrome
                    .banners
                    .push("The watermark is event time: switch the axis back to event time to drag it.".into());
                return;
            }
            DragStart::Watermark => {
                let target = match self.doc.scenario.watermarks {
                    WatermarkSpec::Explicit => {
                        let selected = self.selection.and_then(|s| match s {
                            ObjectId::WatermarkItem(i) => Some(i),
                            _ => None,
                        });
                        let index = match selected.or(self.fold.wm_item) {
                            Some(i) => i,
                            // No watermark yet: the drag creates one at the playhead.
                            None => {
                                let mut c = self.doc.candidate();
                                let i = self.insert_at_playhead(&mut c, InputItem::Watermark(saturate(millis)));
                                self.doc.scenario = std::rc::Rc::new(c);
                                let request = self.doc.touch();
                                self.request(request);
                                i
                            }
                        };
                        self.select_and_focus(ObjectId::WatermarkItem(index));
                        WatermarkTarget::Item(index)
                    }
                    WatermarkSpec::BoundedOutOfOrderness { .. } | WatermarkSpec::Monotonous => {
                        let Some(max_ts) = self.fold.view.max_timestamp else {
                            self.chrome.banners.push(
                                "The watermark follows the largest timestamp seen; step forward to an element first."
                                    .into(),
                            );
                            return;
                        };
                        self.select_and_focus(ObjectId::Watermark);
                        WatermarkTarget::Bound { max_ts }
                    }
                };
                Some(Drag::Watermark { target })
            }
            DragStart::Arrival(from) => {
                if from >= self.doc.scenario.input.len() {
                    return;
                }
                self.selection = Some(self.object_of_input(from));
                Some(Drag::Arrival { from, over: from, partition: None })
            }
            DragStart::Pan => {
                self.selection = None;
                self.view.gesture = true;
                Some(Drag::Pan { last_px: px })
            }
        };
    }

    fn drag_move(&mut self, px: f64, millis: f64) {
        match self.drag {
            Some(Drag::Element { index, grab_offset_millis, arrival: true, .. }) => {
                let at = saturate(millis + grab_offset_millis).max(0);
                if self.doc.element(index).is_some_and(|e| e.arrival != Some(at))
                    && let Some(e) = self.doc.element_mut(index)
                {
                    e.arrival = Some(at);
                    let request = self.doc.touch();
                    self.request(request);
                }
            }
            Some(Drag::Element { index, grab_offset_millis, arrival: false, .. }) => {
                let ts = saturate(millis + grab_offset_millis);
                if self.doc.element(index).is_some_and(|e| e.ts != ts)
                    && let Some(e) = self.doc.element_mut(index)
                {
                    e.ts = ts;
                    let mut request = self.doc.touch();
                    // A gesture: a worker holds its answer until the pointer rests, and meanwhile
                    // the marble follows the pointer alone (`AppState::refresh`).
                    request.gesture = self.ts_drag_is_gesture();
                    self.request(request);
                }
            }
            Some(Drag::Watermark { target: WatermarkTarget::Item(index) }) => {
                let wm = saturate(millis);
                if self.doc.scenario.input.get(index).and_then(InputItem::watermark).is_some_and(|old| old != wm)
                    && let Some(item) = self.doc.scenario_mut().input.get_mut(index)
                {
                    set_watermark(item, wm);
                    let request = self.doc.touch();
                    self.request(request);
                }
            }
            Some(Drag::Watermark { target: WatermarkTarget::Bound { max_ts } }) => {
                self.set_bound(max_ts.saturating_sub(1).saturating_sub(saturate(millis)).max(0));
            }
            Some(Drag::Pan { last_px }) => {
                self.view.viewport = self.view.viewport.pan_px(px - last_px);
                self.view.gesture = true;
                self.drag = Some(Drag::Pan { last_px: px });
            }
            Some(Drag::Arrival { .. }) | None => {}
        }
    }

    /// Whether the moves of an element dragged along event time are gestures (`RunRequest::gesture`),
    /// and so its release goes where they went (`RunRequest::release`). Not in the 2-D view or
    /// compare mode, which build every move in full.
    fn ts_drag_is_gesture(&self) -> bool {
        !self.chrome.two_d && self.compare.is_none()
    }

    /// The bound follows the pointer (a live edit, like an element's timestamp).
    fn set_bound(&mut self, bound: Millis) {
        let spec = WatermarkSpec::BoundedOutOfOrderness { bound };
        if self.doc.scenario.watermarks != spec {
            self.doc.scenario_mut().watermarks = spec;
            let request = self.doc.touch();
            self.request(request);
        }
    }

    fn drag_end(&mut self) {
        let unit = self.view.snap_unit();
        let Some(drag) = self.drag.take() else { return };
        if let Drag::Element { pressed_at, .. } = drag
            && pressed_at == self.doc.revision
        {
            // A click: no move changed the element (each does, `drag_move`), so nothing is
            // snapped; a release that snapped it moved an element clicked for "why?" by up to half
            // a snap unit (5 s zoomed out at 1,500 elements) and made an undo step of it.
            return;
        }
        let mut c = self.doc.candidate();
        // The release of a drag whose moves were gestures goes where they went.
        let release = matches!(drag, Drag::Element { arrival: false, .. }) && self.ts_drag_is_gesture();
        match drag {
            Drag::Element { index, arrival, .. } => {
                if let Some(InputItem::Element(e)) = c.input.get_mut(index) {
                    if arrival {
                        e.arrival = e.arrival.map(|a| snap(a, unit).max(0));
                    } else {
                        e.ts = snap(e.ts, unit);
                    }
                }
            }
            Drag::Watermark { target: WatermarkTarget::Item(index) } => {
                if let Some(item) = c.input.get_mut(index)
                    && let Some(wm) = item.watermark()
                    && wm != LONG_MAX
                    && wm != LONG_MIN
                {
                    // Snap so that end-1 stays reachable: round to the unit, minus one when the
                    // pointer was just left of a unit boundary.
                    set_watermark(item, snap_watermark(wm, unit));
                }
            }
            Drag::Watermark { target: WatermarkTarget::Bound { .. } } => {
                if let WatermarkSpec::BoundedOutOfOrderness { bound } = c.watermarks {
                    c.watermarks = WatermarkSpec::BoundedOutOfOrderness { bound: snap(bound, unit).max(0) };
                }
            }
            Drag::Arrival { from, over, partition } => {
                self.move_arrival(from, over, partition);
                return;
            }
            Drag::Pan { .. } => {
                self.view.gesture = false;
                return;
            }
        }
        let mut request = self.doc.commit(c, Refuse::Never);
        request.release = release;
        self.request(request);
    }
}

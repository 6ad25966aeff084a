//! The visible event-time range and the canvas's size: zoom, pan, fit, and the scale that lets
//! marbles and labels grow on a projector instead of leaving it empty.

use crate::engine::Millis;
use crate::ui::action::ViewAction;
use crate::ui::geometry::{Viewport, snap_unit_millis};
use crate::ui::scene::layout::RunLayout;

#[derive(Clone, Debug, PartialEq)]
pub struct ViewState {
    pub viewport: Viewport,
    /// The canvas box in CSS px (width, height).
    pub box_px: (f64, f64),
    /// CSS px per canvas unit: above 1 when there is room (a projector), so marbles and labels
    /// grow with the screen instead of leaving it empty.
    pub scale: f64,
    /// Lecture mode: marbles, labels and glyphs grow further, for the back row of a hall.
    pub lecture: bool,
    /// Processing time along the axis, asked for (processing-time windows always use it).
    pub processing_axis: bool,
    /// Compare mode: two canvases share the box's height, so a small embed may shrink further.
    pub comparing: bool,
    /// A wheel, pinch or pan gesture is under way (from its first step until it rests or ends:
    /// `ViewAction::Settle`, the pan's release): a large scene is then shown moved instead of
    /// built anew at each step (`AppState::view_preview`).
    pub gesture: bool,
}

impl ViewState {
    pub fn new(width_px: f64) -> ViewState {
        ViewState {
            viewport: Viewport::fit(0, 60_000, width_px),
            box_px: (width_px, 0.0),
            scale: 1.0,
            lecture: false,
            processing_axis: false,
            comparing: false,
            gesture: false,
        }
    }

    /// Whether the axis is processing time: asked for, or the windows are processing-time ones
    /// (their bounds are arrivals, so their elements are drawn at their arrivals too).
    pub fn on_processing_axis(&self, layout: &RunLayout) -> bool {
        self.processing_axis || layout.processing_windows
    }

    pub fn reduce(&mut self, action: ViewAction, layout: &RunLayout) {
        let vp = self.viewport;
        // Only the wheel and a pinch send these (the buttons and keys zoom by steps, each built).
        self.gesture = matches!(action, ViewAction::ZoomAt { .. } | ViewAction::PanBy { .. });
        self.viewport = match action {
            ViewAction::ZoomAt { px, factor } => vp.zoom_at(px, factor),
            ViewAction::PanBy { dx_px } => vp.pan_px(dx_px),
            ViewAction::ZoomIn => vp.zoom_at(vp.width_px / 2.0, 1.5),
            ViewAction::ZoomOut => vp.zoom_at(vp.width_px / 2.0, 1.0 / 1.5),
            ViewAction::Fit => fit_viewport(layout, vp.width_px, self.on_processing_axis(layout)),
            ViewAction::Settle => vp,
            ViewAction::ToggleProcessingAxis => {
                self.processing_axis = !self.processing_axis;
                fit_viewport(layout, vp.width_px, self.on_processing_axis(layout))
            }
        };
    }

    /// The canvas box changed size (CSS px).
    pub fn resize(&mut self, width_px: f64, height_px: f64, layout: &RunLayout) {
        if width_px.is_finite() && height_px.is_finite() && width_px >= 50.0 {
            self.box_px = (width_px, height_px.max(0.0));
            self.rescale(layout);
        }
    }

    /// Shows the whole scenario.
    pub fn fit(&mut self, layout: &RunLayout) {
        self.viewport = fit_viewport(layout, self.viewport.width_px, self.on_processing_axis(layout));
    }

    /// Fits the canvas scale to the box: up to 2× (3× in lecture mode) when the lanes leave room
    /// and the axis keeps at least 800 units of width (600 in lecture mode), down to 0.8× when
    /// they do not fit (0.6× in compare mode, where A and B each have half the height: at 700×450
    /// the key lanes were cut off below the partition tracks); the viewport keeps its time range.
    pub fn rescale(&mut self, layout: &RunLayout) {
        let (w, h) = self.box_px;
        let (units, most) = if self.lecture { (600.0, 3.0) } else { (800.0, 2.0) };
        let by_height = if h > 0.0 { h / layout.natural_height.max(1.0) } else { 1.0 };
        // Shrink a little (to 0.8, 0.6 comparing) when the lanes do not fit a small embed; grow
        // when there is room.
        let floor = if self.comparing { 0.6 } else { 0.8 };
        let scale = if by_height < 1.0 { by_height.max(floor) } else { by_height.min(w / units).clamp(1.0, most) };
        self.scale = (scale * 20.0).floor() / 20.0;
        self.viewport = self.viewport.with_width(w / self.scale);
    }

    /// The "whole unit" drops snap to and ←/→ move by, at this zoom.
    pub fn snap_unit(&self) -> Millis {
        snap_unit_millis(&self.viewport)
    }
}

pub fn fit_viewport(layout: &RunLayout, width_px: f64, processing: bool) -> Viewport {
    let range = if processing { layout.processing_range } else { layout.time_range };
    match range {
        Some((lo, hi)) => Viewport::fit(lo, hi, width_px),
        None => Viewport::fit(0, 60_000, width_px),
    }
}

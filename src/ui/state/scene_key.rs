//! What a scene is built from besides the fold (A's scene, and compare mode's B at A's view).

use crate::engine::Millis;
use crate::teach::ValueFormat;
use crate::ui::action::{Drag, ObjectId};
use crate::ui::geometry::Viewport;
use crate::ui::scene::SceneInput;
use crate::ui::scene::fold::StepFold;

use super::scenario::Doc;

/// Everything a scene depends on besides the fold.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct SceneKey {
    pub(super) fold: (u64, usize),
    pub(super) revision: u64,
    pub(super) viewport: Viewport,
    pub(super) scale: f64,
    pub(super) two_d: bool,
    pub(super) processing_axis: bool,
    pub(super) drag: Option<Drag>,
    pub(super) selection: Option<ObjectId>,
    pub(super) animate: bool,
    pub(super) anim_seq: u64,
    pub(super) speed: f64,
    pub(super) values: ValueFormat,
    /// The lanes' stretch (`RunLayout::fit_height`).
    pub(super) stretch: f64,
}

impl SceneKey {
    /// The scene input of `doc` folded as `fold`, drawn as this key says.
    pub(super) fn input<'a>(&self, doc: &'a Doc, fold: &'a StepFold, snap_unit: Millis) -> SceneInput<'a> {
        SceneInput {
            scenario: &doc.scenario,
            shown: &doc.shown_scenario,
            run: &doc.run,
            layout: &doc.layout,
            fold,
            viewport: self.viewport,
            scale: self.scale,
            two_d: self.two_d,
            processing_axis: self.processing_axis,
            drag: self.drag,
            selection: self.selection,
            animate: self.animate,
            anim_seq: self.anim_seq,
            speed: self.speed,
            snap_unit,
            values: self.values,
        }
    }
}

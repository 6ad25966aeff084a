//! Selection and keyboard focus on the canvas are one thing (TIMELINE_CONTRACT.md §4): the
//! canvas is one Tab stop; on it the keys move the focus between objects (`scene::nav`); W
//! explains the focused object; Escape leaves. The DOM focus itself is moved by the canvas
//! component when [`super::CanvasFocus`]'s counters change.

use crate::engine::scenario::{InputItem, WatermarkSpec};
use crate::engine::view::ElementOutcome;
use crate::ui::action::{Action, CanvasAction, Nav, ObjectId, ViewAction, WhyPopover, WhyTarget};
use crate::ui::scene::nav::{self, Focusable};

use super::AppState;
use super::keys::KeyContext;

impl AppState {
    pub(super) fn select(&mut self, selection: Option<ObjectId>) {
        self.selection = selection;
        self.chrome.menu = None;
    }

    /// Selects `id` and asks for the DOM focus on it (a click or a key on the canvas).
    pub(super) fn select_and_focus(&mut self, id: ObjectId) {
        self.selection = Some(id);
        if let Some(lane) = self.lane_of(&id) {
            self.focus.lane = lane;
        }
        self.focus.seq += 1;
    }

    /// A focus report that would change nothing: the DOM focus came back to the object that is
    /// already the selection and the canvas already had it (its node was made anew by a render),
    /// or the canvas lost a focus it did not have.
    /// `hooks::use_app` keeps the state as it is for these, so the page is not rendered again
    /// (at 2,000 elements a render of the whole page was the drag's long task).
    pub fn changes_nothing(&self, action: &Action) -> bool {
        match action {
            Action::Canvas(CanvasAction::Focused(id)) => {
                self.focus.inside
                    && self.selection == Some(*id)
                    && self.lane_of(id).is_none_or(|lane| lane == self.focus.lane)
            }
            Action::Canvas(CanvasAction::Blurred) => !self.focus.inside,
            // The rest of a gesture that is over (a pan's release ended it), or that shows
            // nothing moved (a small scene, compare mode, the 2-D view: built at every step).
            Action::View(ViewAction::Settle) => !self.view.gesture || self.view_preview().is_none(),
            // The stage of an answer no longer staged (a newer request dropped it).
            Action::InstallStage { revision } => self.staging() != Some(*revision),
            // A step shown already (another action showed it with itself).
            Action::ShowStep => !self.step_waiting(),
            _ => false,
        }
    }

    pub(super) fn canvas_action(&mut self, action: CanvasAction) {
        match action {
            CanvasAction::Focused(id) => {
                if self.exists(&id) {
                    self.selection = Some(id);
                    if let Some(lane) = self.lane_of(&id) {
                        self.focus.lane = lane;
                    }
                }
                self.focus.inside = true;
            }
            CanvasAction::Blurred => self.focus.inside = false,
            CanvasAction::Enter(nav) => {
                let target = self.selection.or_else(|| self.first_element(nav == Nav::Next));
                if let Some(id) = target {
                    self.select_and_focus(id);
                }
            }
            CanvasAction::Move(nav) => {
                let objects = self.focusables();
                if let Some(to) = nav::go(&objects, self.selection, self.focus.lane, nav) {
                    self.focus.lane = to.lane;
                    self.selection = Some(to.id);
                    self.focus.seq += 1;
                }
            }
            CanvasAction::Explain { x_px, y_px } => {
                self.teach.why = self.why_target().map(|target| WhyPopover { target, x_px, y_px });
            }
            CanvasAction::Leave => {
                self.focus.inside = false;
                self.focus.leave_seq += 1;
            }
        }
    }

    /// The first (or last) element in event time (ties: input order).
    fn first_element(&self, first: bool) -> Option<ObjectId> {
        let elements = self.doc.scenario.input.iter().enumerate().filter_map(|(i, item)| match item {
            InputItem::Element(e) => Some((e.ts, i)),
            _ => None,
        });
        let pick = if first { elements.min() } else { elements.max() };
        pick.map(|(_, i)| ObjectId::Element(i))
    }

    /// The objects the keyboard can focus, with their lanes and x (the scene's).
    pub fn focusables(&self) -> Vec<Focusable> {
        self.scene.focusables()
    }

    fn lane_of(&self, id: &ObjectId) -> Option<usize> {
        match id {
            ObjectId::Watermark | ObjectId::WatermarkItem(_) => None,
            _ => self.scene.lane_of(id),
        }
    }

    /// Whether `id` is still there (after an edit, a step, a load).
    pub(super) fn exists(&self, id: &ObjectId) -> bool {
        let input = &self.doc.scenario.input;
        let view = &self.fold.view;
        match *id {
            ObjectId::Element(i) => matches!(input.get(i), Some(InputItem::Element(_))),
            ObjectId::Late(i) => {
                let ordinal = self.doc.layout.elem_of_input.get(i).copied().flatten();
                ordinal.is_some_and(|o| view.elements.get(o as usize) == Some(&Some(ElementOutcome::SideOutput)))
            }
            ObjectId::WatermarkItem(i) => input.get(i).and_then(InputItem::watermark).is_some(),
            ObjectId::Watermark => true,
            ObjectId::Window { key, window } => view.windows.iter().any(|w| w.key == key && w.window == window),
            ObjectId::Timer { key, time } => view.timers.iter().any(|t| t.key == key && t.time == time),
            ObjectId::Partition(p) => self.scene.partitions.iter().any(|i| i.partition == p && i.drawn),
        }
    }

    /// The explicit watermark item the watermark handle stands for.
    fn watermark_item(&self) -> Option<usize> {
        (self.doc.scenario.watermarks == WatermarkSpec::Explicit).then_some(self.fold.wm_item).flatten()
    }

    /// What the keys can do to the selection.
    pub(super) fn key_context(&self) -> KeyContext {
        let (movable, item) = match self.selection {
            Some(ObjectId::Element(i) | ObjectId::WatermarkItem(i)) => (true, Some(i)),
            Some(ObjectId::Late(i)) => (false, Some(i)),
            Some(ObjectId::Watermark) => match self.doc.scenario.watermarks {
                WatermarkSpec::Explicit => (self.watermark_item().is_some(), self.watermark_item()),
                WatermarkSpec::BoundedOutOfOrderness { .. } => (true, None),
                WatermarkSpec::Monotonous => (false, None),
            },
            Some(ObjectId::Window { .. } | ObjectId::Timer { .. } | ObjectId::Partition(_)) | None => (false, None),
        };
        KeyContext {
            editor_open: self.chrome.editor.is_some(),
            menu_open: self.chrome.menu.is_some(),
            help_open: self.chrome.help_open,
            why_open: self.teach.why.is_some(),
            blackout: self.teach.blackout,
            lecture: self.teach.mode == crate::ui::action::Mode::Lecture,
            quiz_waiting: self.teach.quiz.as_ref().is_some_and(|q| q.waiting()),
            movable,
            editable: item,
            deletable: item,
        }
    }

    /// What "why?" explains for the selection.
    pub fn why_target(&self) -> Option<WhyTarget> {
        match self.selection? {
            ObjectId::Element(i) | ObjectId::Late(i) => {
                self.doc.layout.elem_of_input.get(i).copied().flatten().map(WhyTarget::Element)
            }
            ObjectId::Window { key, window } => Some(WhyTarget::Window { key, window }),
            ObjectId::Timer { key, time } => {
                let t = self.fold.view.timers.iter().find(|t| t.key == key && t.time == time)?;
                Some(WhyTarget::Timer { key, window: t.window, time })
            }
            ObjectId::Partition(p) => Some(WhyTarget::Partition(p)),
            ObjectId::Watermark | ObjectId::WatermarkItem(_) => None,
        }
    }
}

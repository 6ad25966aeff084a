//! Edits of the document: adding, deleting, reordering and nudging input items, the item editor,
//! the configuration panel. Each builds a candidate scenario and hands it to [`AppState::commit`],
//! the one way an edit enters the document (`Doc::commit`: a revision, a commit, a run; the
//! panel's candidates are refused when their job newly fails).

use crate::engine::Scenario;
use crate::engine::scenario::{Element, InputItem, Marker, WatermarkSpec, limits};
use crate::ui::action::{ConfigEdit, EditAction, EditorAction, Menu, MenuTarget, ObjectId};
use crate::ui::geometry::{saturate, snap};

use super::AppState;
use super::chrome::Editor;
use super::config::parse_millis;
use super::drag::set_watermark;
use super::scenario::Refuse;

/// What ←/→ move.
enum NudgeTarget {
    Input(usize),
    Bound(i64),
}

impl AppState {
    /// Every edit ends here.
    pub(super) fn commit(&mut self, candidate: Scenario, refuse: Refuse) {
        let request = self.doc.commit(candidate, refuse);
        self.request(request);
    }

    /// The object an input item is on the canvas.
    pub(super) fn object_of_input(&self, index: usize) -> ObjectId {
        match self.doc.scenario.input.get(index) {
            Some(InputItem::Element(_)) => ObjectId::Element(index),
            _ => ObjectId::WatermarkItem(index),
        }
    }

    /// Where a new input item goes in `c`: at the playhead, so the next step processes it. The
    /// playhead keeps what was shown, plus the new item: after it at the end, processed otherwise.
    pub(super) fn insert_at_playhead(&mut self, c: &mut Scenario, item: InputItem) -> usize {
        let len = c.input.len();
        let at_end = self.play.step > len;
        let index = self.play.step.min(len);
        c.input.insert(index, item);
        let step = if at_end { len + 2 } else { self.play.step + 1 };
        self.play.place(step, len + 2);
        index
    }

    /// An edit of the input (Delete, a nudge, a reorder: keys or the menu) waits until a pointer drag
    /// ends, as undo does: the drag holds an item's index, which an insert or a delete would move
    /// onto another item.
    pub(super) fn reduce_edit(&mut self, action: EditAction) {
        if self.drag.is_some() {
            return;
        }
        match action {
            EditAction::AddElement { key, ts } => self.add_element(key, ts),
            EditAction::InsertWatermark { wm } => {
                let wm = wm.or(self.fold.view.max_timestamp).unwrap_or_else(|| {
                    saturate((self.view.viewport.start_millis + self.view.viewport.end_millis) / 2.0)
                });
                let mut c = self.doc.candidate();
                let index = self.insert_at_playhead(&mut c, InputItem::Watermark(wm));
                self.selection = Some(ObjectId::WatermarkItem(index));
                self.chrome.menu = None;
                self.commit(c, Refuse::Never);
            }
            EditAction::Delete(index) => self.delete(index),
            EditAction::MoveInput { from, to } => self.move_input(from, to),
            EditAction::SetPartition { index, partition } => self.move_arrival(index, index, Some(partition)),
            EditAction::Nudge { direction, fine } => self.nudge(direction, fine),
        }
    }

    fn add_element(&mut self, key: Option<String>, ts: Option<crate::engine::Millis>) {
        let selected = self.selection.and_then(|s| s.input()).and_then(|i| self.doc.element(i));
        let key = key
            .or_else(|| selected.map(|e| e.key.to_string()))
            .or_else(|| self.doc.layout.lanes.first().map(|l| l.key.clone()))
            .unwrap_or_else(|| "A".into());
        let vp = &self.view.viewport;
        let ts = ts.unwrap_or_else(|| snap(saturate((vp.start_millis + vp.end_millis) / 2.0), self.view.snap_unit()));
        let id = self.doc.scenario.elements().map(|e| e.id).max().map_or(1, |m| m.saturating_add(1));
        let mut c = self.doc.candidate();
        let element = InputItem::Element(Element { id, key: key.into(), ts, value: 1, ..Element::default() });
        let index = self.insert_at_playhead(&mut c, element);
        self.selection = Some(ObjectId::Element(index));
        self.chrome.menu = None;
        self.commit(c, Refuse::Never);
    }

    fn delete(&mut self, index: usize) {
        let len = self.doc.scenario.input.len();
        if index >= len {
            return;
        }
        let at_end = self.play.step > len;
        let mut c = self.doc.candidate();
        c.input.remove(index);
        let step = if at_end {
            len
        } else if index < self.play.step {
            self.play.step - 1
        } else {
            self.play.step
        };
        self.play.place(step, len);
        self.selection = None;
        self.chrome.menu = None;
        self.chrome.editor = None;
        self.commit(c, Refuse::Never);
    }

    pub(super) fn move_input(&mut self, from: usize, to: usize) {
        self.move_arrival(from, to, None);
    }

    /// The arrival strip's drop (or its keys): the item at `from` moves to `to` in processing
    /// order and, with `partition`, is read from that source partition. When the scenario gives
    /// arrivals, the moved item's arrival is kept between its new neighbours' (so the others
    /// keep theirs); a partition beyond the scenario's is refused with the rule.
    pub(super) fn move_arrival(&mut self, from: usize, to: usize, partition: Option<u32>) {
        let len = self.doc.scenario.input.len();
        let repartition = partition.filter(|p| partition_of(self.doc.scenario.input.get(from)) != Some(*p));
        if from >= len || to >= len || (from == to && repartition.is_none()) {
            return;
        }
        let mut c = self.doc.candidate();
        if let Some(p) = repartition {
            let limit = c.partition_count();
            if p >= limit {
                self.chrome.banners.push(format!(
                    "Partition must be from 0 to {} (the scenario has {limit}; add partitions under Configure)",
                    limit - 1
                ));
                return;
            }
            match c.input.get_mut(from) {
                Some(InputItem::Element(e)) => e.partition = p,
                Some(InputItem::SourceWatermark(m)) => m.partition = p,
                _ => {
                    self.chrome.banners.push("Only elements and per-partition watermarks have a partition.".into());
                    return;
                }
            }
        }
        if from != to {
            let mut arrivals = c.arrivals();
            let explicit = c.input.iter().any(|i| match i {
                InputItem::Element(e) => e.arrival.is_some(),
                InputItem::SourceWatermark(m) => m.arrival.is_some(),
                InputItem::Control(k) => k.arrival.is_some(),
                InputItem::Watermark(_) => false,
            });
            let mut item = c.input.remove(from);
            let own = arrivals.remove(from);
            if explicit {
                let low = to.checked_sub(1).and_then(|i| arrivals.get(i)).copied().unwrap_or(0);
                let high = arrivals.get(to).copied().unwrap_or(crate::engine::Millis::MAX).max(low);
                set_arrival(&mut item, own.clamp(low, high));
            }
            c.input.insert(to, item);
        }
        self.commit(c, Refuse::Never);
        self.selection = Some(self.object_of_input(to));
    }

    fn nudge_target(&self) -> Option<NudgeTarget> {
        match self.selection? {
            ObjectId::Element(i) | ObjectId::WatermarkItem(i) => Some(NudgeTarget::Input(i)),
            ObjectId::Watermark => match self.doc.scenario.watermarks {
                WatermarkSpec::Explicit => self.fold.wm_item.map(NudgeTarget::Input),
                WatermarkSpec::BoundedOutOfOrderness { bound } => Some(NudgeTarget::Bound(bound)),
                WatermarkSpec::Monotonous => None,
            },
            ObjectId::Late(_) | ObjectId::Window { .. } | ObjectId::Timer { .. } | ObjectId::Partition(_) => None,
        }
    }

    /// ←/→ on the selection: one snap unit, or 1 ms when `fine`. The watermark handle moves its
    /// explicit item, or with bounded out-of-orderness the bound (right: a smaller bound).
    fn nudge(&mut self, direction: i64, fine: bool) {
        let Some(target) = self.nudge_target() else { return };
        let unit = if fine { 1 } else { self.view.snap_unit() };
        let shift = |t: i64| {
            let moved = t.saturating_add(direction.signum().saturating_mul(unit));
            if fine { moved } else { snap(moved, unit) }
        };
        let mut c = self.doc.candidate();
        let on_arrivals = self.view.on_processing_axis(&self.doc.layout);
        let arrival = |i: usize| self.doc.layout.arrivals.get(i).copied().unwrap_or(0);
        match target {
            NudgeTarget::Input(index) => match c.input.get_mut(index) {
                // On the processing-time axis ←/→ move what the axis shows: the arrival.
                Some(InputItem::Element(e)) if on_arrivals => e.arrival = Some(shift(arrival(index)).max(0)),
                Some(InputItem::Element(e)) => e.ts = shift(e.ts),
                Some(item) => {
                    let wm = item.watermark().unwrap_or(0);
                    set_watermark(item, shift(wm));
                }
                None => return,
            },
            NudgeTarget::Bound(bound) => {
                let moved = bound.saturating_sub(direction.signum().saturating_mul(unit));
                let bound = if fine { moved } else { snap(moved, unit) };
                c.watermarks = WatermarkSpec::BoundedOutOfOrderness { bound: bound.max(0) };
            }
        }
        self.commit(c, Refuse::Never);
    }

    pub(super) fn reduce_editor(&mut self, action: EditorAction) {
        match action {
            EditorAction::Open(index) => {
                self.chrome.menu = None;
                self.chrome.editor = self.doc.scenario.input.get(index).map(|item| Editor::of(index, item));
                if self.chrome.editor.is_some() {
                    self.selection = Some(self.object_of_input(index));
                }
            }
            EditorAction::Input(field, text) => {
                if let Some(ed) = &mut self.chrome.editor {
                    ed.input(field, text);
                }
            }
            EditorAction::Commit => self.editor_commit(),
            EditorAction::Cancel => self.chrome.editor = None,
        }
    }

    fn editor_commit(&mut self) {
        let Some(ed) = self.chrome.editor.clone() else { return };
        match self.edited(&ed) {
            Ok(c) => {
                self.chrome.editor = None;
                self.commit(c, Refuse::Never);
            }
            Err(e) => {
                if let Some(open) = &mut self.chrome.editor {
                    open.error = Some(e);
                }
            }
        }
    }

    /// The scenario with the editor's values, or why not.
    fn edited(&self, ed: &Editor) -> Result<Scenario, String> {
        let what = if ed.is_watermark { "Watermark" } else { "Timestamp" };
        let ts = parse_millis(&ed.ts).map_err(|e| format!("{what} {e}"))?;
        let mut c = self.doc.candidate();
        let (partition, arrival) = source_fields(ed, &c)?;
        if ed.is_watermark {
            if let Some(item) = c.input.get_mut(ed.index) {
                set_watermark(item, ts);
                // A marker read from another partition, or at its own time, is the format's
                // `{"wm", "partition", "arrival"}` item.
                if let (InputItem::Watermark(wm), true) = (&*item, partition != 0 || arrival.is_some()) {
                    *item = InputItem::SourceWatermark(Marker { wm: *wm, partition, arrival });
                } else if let InputItem::SourceWatermark(m) = item {
                    m.partition = partition;
                    m.arrival = arrival;
                }
            }
            return Ok(c);
        }
        let key = ed.key.trim().to_string();
        if key.is_empty() {
            return Err("Key must not be empty".into());
        }
        if key.chars().count() > limits::MAX_KEY_CHARS {
            return Err(format!("Key is longer than {} characters", limits::MAX_KEY_CHARS));
        }
        let new_key = !self.doc.layout.lanes.iter().any(|l| l.key == key);
        if new_key && self.doc.layout.lanes.len() >= limits::MAX_KEYS {
            return Err("Too many distinct keys".into());
        }
        let Ok(value) = ed.value.trim().parse::<i64>() else {
            return Err(format!("Value \"{}\" is not a whole number", ed.value.chars().take(20).collect::<String>()));
        };
        if let Some(InputItem::Element(e)) = c.input.get_mut(ed.index) {
            e.key = key.into();
            e.value = value;
            e.ts = ts;
            e.partition = partition;
            e.arrival = arrival;
        }
        Ok(c)
    }

    pub(super) fn open_menu(&mut self, m: Menu) {
        if let MenuTarget::Element(i) = m.target {
            self.selection = Some(ObjectId::Element(i));
        }
        self.chrome.menu = Some(m);
    }

    /// An edit in the configuration panel: a candidate, refused when its job newly fails.
    pub(super) fn config_edit(&mut self, edit: ConfigEdit) {
        if let Some(candidate) = self.config.edit(&edit, &self.doc.scenario) {
            self.commit(candidate, Refuse::IfNewlyFails(edit.field()));
        }
    }
}

/// The editor's partition and arrival, by the loader's rules: a partition below the declared
/// count (or below 64 when none is declared), an arrival in whole milliseconds or empty.
fn source_fields(ed: &Editor, c: &Scenario) -> Result<(u32, Option<crate::engine::Millis>), String> {
    let limit = c.source.partitions.unwrap_or(limits::MAX_PARTITIONS);
    let partition = match ed.partition.trim().parse::<u32>() {
        Ok(p) if p < limit => p,
        _ if c.source.partitions.is_some() => {
            return Err(format!(
                "Partition must be from 0 to {} (the scenario declares {limit} partitions; change it under Configure)",
                limit - 1
            ));
        }
        _ => return Err(format!("Partition must be a whole number from 0 to {}", limit - 1)),
    };
    let arrival = match ed.arrival.trim() {
        "" => None,
        text => Some(parse_millis(text).map_err(|e| format!("Arrival {e}"))?),
    };
    Ok((partition, arrival))
}

/// The source partition an item is read from (elements and per-partition watermarks).
fn partition_of(item: Option<&InputItem>) -> Option<u32> {
    match item? {
        InputItem::Element(e) => Some(e.partition),
        InputItem::SourceWatermark(m) => Some(m.partition),
        InputItem::Watermark(_) | InputItem::Control(_) => None,
    }
}

/// Sets an item's arrival (a plain watermark item has none: it is on every partition at once).
fn set_arrival(item: &mut InputItem, at: crate::engine::Millis) {
    match item {
        InputItem::Element(e) => e.arrival = Some(at),
        InputItem::SourceWatermark(m) => m.arrival = Some(at),
        InputItem::Control(k) => k.arrival = Some(at),
        InputItem::Watermark(_) => {}
    }
}

//! The text for one playhead: a one-sentence headline for the step that led to it, and the
//! step's events, one sentence each, long runs of alike events summed up.

use crate::engine::scenario::WatermarkSpec;
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::{ElemIdx, FiringKind, KeyId, TimerPurpose, TraceKind};
use crate::engine::view::{StepView, at_step};
use crate::engine::{Firing, Window};

use super::{StepNarration, firing_kind, sorted};
use crate::teach::Context;
use crate::teach::facts::{Fate, StepFacts, timer_acted};
use crate::teach::format::{capitalize, list, lower_first, plural, time, window as win};

/// Alike events beyond this many in one step are summed up in one sentence.
const MAX_ALIKE: usize = 3;

impl Context<'_> {
    /// One sentence describing the configuration: what the playhead 0 narration says.
    pub fn describe_setup(&self) -> String {
        let lateness = if self.scenario.allowed_lateness.is_none() {
            "no allowed lateness".to_string()
        } else {
            format!("allowed lateness {}", self.lateness_text())
        };
        let late = if self.scenario.side_output {
            "elements too late for every window go to the late side output"
        } else {
            "elements too late for every window are dropped (no side output)"
        };
        let evictor = self.evictor_name().map(|e| format!(", {e}")).unwrap_or_default();
        format!(
            "{}, {}{evictor}, {lateness}, {}; {late}.",
            self.assigner_description(),
            self.trigger_name(),
            self.watermark_description()
        )
    }

    /// The narration at `playhead`: playhead 0 describes the setup; playhead `p > 0` narrates
    /// input step `p - 1`, the step that led to it.
    pub fn narrate_step(&self, playhead: usize) -> StepNarration {
        let playhead = playhead.min(self.run.steps);
        self.narrate_step_after(playhead, None)
    }

    /// [`Context::narrate_step`] with the settled view at `playhead` folded already (the page
    /// keeps it: `StepFold::view`), so that it is not folded again from the first step (75 ms a
    /// step at 100,000 elements). `view` is asked for only past playhead 0.
    pub fn narrate_step_with(&self, playhead: usize, view: &StepView) -> StepNarration {
        debug_assert_eq!(view.step, playhead.min(self.run.steps), "the view at the playhead");
        self.narrate_step_after(playhead.min(self.run.steps), Some(view))
    }

    /// The narration at `playhead`, with the view after it (folded here when `None`).
    fn narrate_step_after(&self, playhead: usize, view: Option<&StepView>) -> StepNarration {
        if playhead == 0 {
            let items = self.scenario.input.len();
            return StepNarration {
                playhead,
                headline: format!(
                    "Nothing has arrived yet: {} input {} and then the end of input.",
                    items,
                    if items == 1 { "item" } else { "items" }
                ),
                details: vec![self.describe_setup()],
            };
        }
        let step = playhead - 1;
        let facts = self.facts(step);
        let folded;
        let after = match view {
            Some(view) => view,
            None => {
                folded = at_step(self.run, playhead);
                &folded
            }
        };
        let headline = self.recovery_headline(step).unwrap_or_else(|| self.headline(&facts, after));
        StepNarration { playhead, headline, details: self.details(step) }
    }

    /// The step's events as sentences, alike events folded together.
    pub fn details(&self, step: usize) -> Vec<String> {
        let events = self.events(step);
        let count = |pred: &dyn Fn(&TraceKind) -> bool| events.iter().filter(|e| pred(&e.kind)).count();
        let added = count(&|k| matches!(k, TraceKind::ElementAdded { .. }));
        let registered = count(&|k| matches!(k, TraceKind::TimerRegistered { .. }));
        let fired = count(&|k| matches!(k, TraceKind::Fired { .. }));
        let cleaned = count(&|k| matches!(k, TraceKind::CleanedUp { .. }));
        let late = count(&|k| matches!(k, TraceKind::WindowLate { .. }));
        let mut out: Vec<String> = Vec::new();
        let mut summarised: Vec<&'static str> = Vec::new();
        let mut once = |tag: &'static str, out: &mut Vec<String>, make: &dyn Fn() -> String| {
            if !summarised.contains(&tag) {
                summarised.push(tag);
                out.push(make());
            }
        };
        for (i, ev) in events.iter().enumerate() {
            let next = events.get(i + 1).map(|e| &e.kind);
            match &ev.kind {
                // Folded into the sentence of the element that created it.
                TraceKind::WindowCreated { .. } => {}
                TraceKind::ElementAdded { id, key, window, state_window, .. } if added <= MAX_ALIKE => {
                    let created = i > 0
                        && matches!(&events[i - 1].kind, TraceKind::WindowCreated { key: k, window: w } if k == key && w == window);
                    if created {
                        let merged = if state_window != window {
                            format!(" (its contents live in the state window {})", win(state_window))
                        } else {
                            String::new()
                        };
                        out.push(format!(
                            "Element {id} is the first element of {}, so the window is created{merged}: a window is created as soon as the first element that belongs to it arrives.",
                            self.window_label(*key, window)
                        ));
                    } else {
                        out.push(self.narrate(ev));
                    }
                }
                TraceKind::ElementAdded { id, .. } => {
                    once("added", &mut out, &|| self.added_summary(step, *id));
                }
                TraceKind::TimerRegistered { .. } if registered > MAX_ALIKE => {
                    once("registered", &mut out, &|| self.registered_summary(step));
                }
                TraceKind::TimerRegistered { key, window, time: t, purpose, .. }
                    if purpose.trigger
                        && matches!(next, Some(TraceKind::TimerRegistered { key: k2, window: w2, purpose: p2, .. })
                            if k2 == key && w2 == window && p2.cleanup && !p2.trigger) =>
                {
                    // Trigger timer and cleanup timer of one window: one sentence.
                    let cleanup = self.cleanup_time(window);
                    out.push(format!(
                        "{} registers an event-time timer at {} for {}, its max timestamp, and the operator a cleanup timer at {} = max timestamp + allowed lateness {}.",
                        self.trigger_name(),
                        time(*t),
                        self.window_label(*key, window),
                        time(cleanup),
                        self.lateness_text()
                    ));
                }
                TraceKind::TimerRegistered { purpose, .. }
                    if purpose.cleanup
                        && !purpose.trigger
                        && i > 0
                        && matches!(&events[i - 1].kind, TraceKind::TimerRegistered { purpose: p0, key: k0, window: w0, .. }
                            if p0.trigger && Some((k0, w0)) == Self::key_window(&ev.kind)) => {}
                TraceKind::TimerFired { key, window, stale: false, .. } if timer_acted(events, i, *key, window) => {}
                TraceKind::TimerFired { .. } if fired + cleaned > MAX_ALIKE => {}
                // The crash item a replay passes: its `crash_passed` sentence says it.
                TraceKind::Replayed { .. } if matches!(next, Some(TraceKind::CrashPassed { .. })) => {}
                TraceKind::Fired { .. } if fired > MAX_ALIKE => {
                    once("fired", &mut out, &|| self.fired_summary(step));
                }
                TraceKind::CleanedUp { .. } if cleaned > MAX_ALIKE => {
                    once("cleaned", &mut out, &|| self.cleaned_summary(step));
                }
                TraceKind::WindowLate { .. } if late > MAX_ALIKE => {
                    once("late", &mut out, &|| self.late_summary(step));
                }
                _ => out.push(self.narrate(ev)),
            }
        }
        out
    }

    fn key_window(kind: &TraceKind) -> Option<(&KeyId, &Window)> {
        match kind {
            TraceKind::TimerRegistered { key, window, .. } => Some((key, window)),
            _ => None,
        }
    }

    fn added_summary(&self, step: usize, id: i64) -> String {
        let facts = self.facts(step);
        let first = facts.added.first().map(|(_, w, _)| win(w)).unwrap_or_default();
        let last = facts.added.last().map(|(_, w, _)| win(w)).unwrap_or_default();
        let of_key = match facts.element {
            Some((_, e)) if self.run.keys.len() > 1 => format!(" of key {}", self.key_name(e.key)),
            _ => String::new(),
        };
        let new = facts.added.iter().filter(|(_, _, c)| *c).count();
        let created = match new {
            0 => "all of them existed already".to_string(),
            n if n == facts.added.len() => "each is created by this element".to_string(),
            n => format!("{n} of them are created by this element"),
        };
        format!("Element {id} is added to {} windows{of_key}, from {first} to {last}; {created}.", facts.added.len())
    }

    fn registered_summary(&self, step: usize) -> String {
        let times: Vec<(Millis, TimerPurpose)> = self
            .events(step)
            .iter()
            .filter_map(|e| match &e.kind {
                TraceKind::TimerRegistered { time: t, purpose, .. } => Some((*t, *purpose)),
                _ => None,
            })
            .collect();
        let trigger = times.iter().filter(|(_, p)| p.trigger).count();
        let cleanup = times.len() - trigger;
        let (lo, hi) = times.iter().fold((LONG_MAX, LONG_MIN), |(lo, hi), (t, _)| (lo.min(*t), hi.max(*t)));
        let what = match (trigger, cleanup) {
            (_, 0) if self.lateness() == 0 => format!(
                "{trigger} at the windows' max timestamps (with allowed lateness 0 each is also the cleanup time)"
            ),
            (_, 0) => format!("{trigger} by {} at the windows' max timestamps", self.trigger_name()),
            (0, _) => format!("{cleanup} cleanup timers at max timestamp + allowed lateness {}", self.lateness_text()),
            _ => format!(
                "{trigger} by {} at the windows' max timestamps and {cleanup} cleanup timers at max timestamp + allowed lateness {}",
                self.trigger_name(),
                self.lateness_text()
            ),
        };
        format!("{} event-time timers are registered, from {} to {}: {what}.", times.len(), time(lo), time(hi))
    }

    fn fired_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let all: Vec<&Firing> = facts.element_firings.iter().chain(&facts.timer_firings).copied().collect();
        let first = all.first().map(|f| self.window_label(f.key, &f.window)).unwrap_or_default();
        let last = all.last().map(|f| self.window_label(f.key, &f.window)).unwrap_or_default();
        let kinds = self.kind_counts(&all);
        let (lo, hi) = all.iter().fold((i64::MAX, i64::MIN), |(lo, hi), f| (lo.min(f.sum), hi.max(f.sum)));
        let sums = if lo == hi {
            format!("each with sum = {}", self.val(lo))
        } else {
            format!("sums from {} to {}", self.val(lo), self.val(hi))
        };
        let wm = self.watermark_at(step + 1);
        format!(
            "{} firings, in timer order from {first} to {last}: watermark {} has passed each window's max timestamp, so {} fires each ({kinds}), {sums}.",
            all.len(),
            self.wm(wm),
            self.trigger_name()
        )
    }

    /// `3 main firings and 1 late firing`.
    fn kind_counts(&self, firings: &[&Firing]) -> String {
        let mut parts = Vec::new();
        for (kind, one, many) in [
            (FiringKind::Early, "early firing", "early firings"),
            (FiringKind::Main, "main firing", "main firings"),
            (FiringKind::Late, "late firing", "late firings"),
        ] {
            let n = firings.iter().filter(|f| f.kind == kind).count();
            if n > 0 {
                parts.push(plural(n, one, many));
            }
        }
        list(&parts)
    }

    fn cleaned_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let first = facts.cleanups.first().map(|c| self.window_label(c.key, &c.window)).unwrap_or_default();
        let last = facts.cleanups.last().map(|c| self.window_label(c.key, &c.window)).unwrap_or_default();
        let unfired: usize = facts.cleanups.iter().map(|c| c.unfired.len()).sum();
        let lost = if unfired == 0 {
            String::new()
        } else {
            format!("; {} never emitted are discarded", plural(unfired, "element", "elements"))
        };
        format!(
            "{} windows reach their cleanup time (max timestamp + allowed lateness {}) and are completely removed, from {first} to {last}, emitting nothing{lost}.",
            facts.cleanups.len(),
            self.lateness_text()
        )
    }

    fn late_summary(&self, step: usize) -> String {
        let facts = self.facts(step);
        let first = facts.late_windows.first().map(|(w, _, _)| win(w)).unwrap_or_default();
        let last = facts.late_windows.last().map(|(w, _, _)| win(w)).unwrap_or_default();
        let wm = self.watermark_before(step);
        format!(
            "{} of the element's windows, from {first} to {last}, are late: each one's cleanup time (max timestamp + allowed lateness {}) ≤ watermark {}, so the element is not added to them.",
            facts.late_windows.len(),
            self.lateness_text(),
            self.wm(wm)
        )
    }

    /// The one-sentence summary of a step.
    /// `after`: what is alive after the step (for "nothing fires: the next timer is ...").
    pub(crate) fn headline(&self, f: &StepFacts<'_>, after: &StepView) -> String {
        let mut parts: Vec<String> = Vec::new();
        if let Some((elem, _)) = f.element {
            parts.push(self.element_clause(f, elem));
        }
        if let Some((phase, class, message)) = &f.error {
            let when = if phase == "build" { "while building the job" } else { "while running the job" };
            parts.push(format!("Flink fails {when}: {class}: {message}"));
            return capitalize(&parts.join("; ")) + ".";
        }
        if let Some(clause) = self.watermark_clause(f, after) {
            parts.push(clause);
        }
        if parts.is_empty() {
            parts.push("nothing happens".into());
        }
        capitalize(&parts.join("; ")) + "."
    }

    fn element_clause(&self, f: &StepFacts<'_>, elem: ElemIdx) -> String {
        let intro = self.element_intro(elem);
        let windows =
            |ws: Vec<String>| -> String { if ws.len() > 3 { format!("{} windows", ws.len()) } else { list(&ws) } };
        match f.fate() {
            Some(Fate::AddedAndFires) => {
                let Some(firing) = f.element_firings.first() else { return format!("{intro} is added") };
                let w = self.window_label(firing.key, &firing.window);
                let result = self.result_phrase(&firing.elems, firing.sum, firing.count);
                let more = if f.element_firings.len() > 1 {
                    format!(" (and {} more windows fire)", f.element_firings.len() - 1)
                } else {
                    String::new()
                };
                if self.is_count_trigger() {
                    format!(
                        "{intro} is added to {w}, and {} fires: {}, {result}{more}",
                        self.trigger_name(),
                        firing_kind(firing.kind)
                    )
                } else {
                    let again = if firing.n > 0 { "fires again at once" } else { "fires at once" };
                    let lands = match f.merges.last() {
                        Some(m) => {
                            let absorbed: Vec<String> =
                                sorted(&m.merged).iter().map(|w| win(&Window::Time(*w))).collect();
                            format!(
                                "gets the session window {}, which bridges {} into {w}",
                                win(&Window::Time(m.new_window)),
                                list(&absorbed)
                            )
                        }
                        None => format!("lands in {w}"),
                    };
                    format!(
                        "{intro} {lands}, whose max timestamp {} ≤ watermark {}, so it {again}: {}, {result}{more}",
                        time(firing.window.max_timestamp()),
                        self.wm(firing.watermark),
                        firing_kind(firing.kind)
                    )
                }
            }
            Some(Fate::Added) => {
                if let Some(m) = f.merges.last() {
                    let absorbed: Vec<String> = sorted(&m.merged).iter().map(|w| win(&Window::Time(*w))).collect();
                    return format!(
                        "{intro} gets the session window {}, which merges with {} into {}",
                        win(&Window::Time(m.new_window)),
                        list(&absorbed),
                        win(&Window::Time(m.into))
                    );
                }
                let new: Vec<String> =
                    f.added.iter().filter(|(_, _, c)| *c).map(|(k, w, _)| self.window_label(*k, w)).collect();
                let old: Vec<String> =
                    f.added.iter().filter(|(_, _, c)| !*c).map(|(k, w, _)| self.window_label(*k, w)).collect();
                match (new.is_empty(), old.is_empty()) {
                    (false, true) if new.len() == 1 => format!("{intro} opens the new window {}", new[0]),
                    (false, true) => format!("{intro} is added to {}, all new", windows(new)),
                    (true, false) => format!("{intro} is added to {}", windows(old)),
                    _ => format!("{intro} is added to {} and opens {}", windows(old), windows(new)),
                }
            }
            Some(Fate::SideOutput) => {
                let wm = self.watermark_before(f.step);
                format!(
                    "{intro} goes to the late side output: {}, and {}",
                    self.late_windows_reason(f),
                    self.element_late_inequality(f.element.map_or(0, |(_, e)| e.ts), wm)
                )
            }
            Some(Fate::Dropped { counted: true }) => format!(
                "{intro} is dropped, with numLateRecordsDropped + 1: {}, and there is no side output",
                self.late_windows_reason(f)
            ),
            Some(Fate::Dropped { counted: false }) => {
                if f.assigned.is_empty() {
                    format!("{intro} falls in no window and is dropped silently")
                } else {
                    format!(
                        "{intro} is dropped silently: {}, yet the element itself is not late",
                        self.late_windows_reason(f)
                    )
                }
            }
            None => format!("{intro} arrives"),
        }
    }

    /// `its window [10:00, 10:01) was removed at its cleanup time 10:02:59.999`.
    fn late_windows_reason(&self, f: &StepFacts<'_>) -> String {
        match f.late_windows.as_slice() {
            [] => "it belongs to no window".into(),
            [(w, cleanup, _)] => format!("its window {} is past its cleanup time {}", win(w), time(*cleanup)),
            ws => format!("all {} of its windows are past their cleanup times", ws.len()),
        }
    }

    fn watermark_clause(&self, f: &StepFacts<'_>, after: &StepView) -> Option<String> {
        let end = f.end_of_input;
        let lead = if let Some(max) = end {
            if !max {
                let live = after.live_windows().count();
                return Some(format!(
                    "the input pauses without a Long.MAX watermark, so {} alive",
                    plural(live, "window stays", "windows stay")
                ));
            }
            "the input ends and the watermark jumps to Long.MAX".to_string()
        } else if let Some((proposed, current)) = f.watermark_ignored {
            return Some(format!(
                "watermark {} is ignored: it is not above the current watermark {}",
                time(proposed),
                self.wm(current)
            ));
        } else if let Some((_, to)) = f.watermark_advanced {
            if f.explicit_watermark.is_some() {
                format!("watermark {} arrives", time(to))
            } else {
                format!("the watermark moves to {}", time(to))
            }
        } else {
            if f.element.is_some() && !matches!(self.scenario.watermarks, WatermarkSpec::Explicit) {
                return Some(format!(
                    "the watermark stays at {}, as the largest timestamp did not grow",
                    self.wm(self.watermark_before(f.step))
                ));
            }
            return None;
        };
        let mut parts = vec![lead.clone()];
        match f.timer_firings.as_slice() {
            [] => {}
            [one] if end.is_some() => {
                let sentence = self.firing_sentence(one);
                let tail = sentence.split_once(", so ").map(|(_, rest)| rest.to_string()).unwrap_or(sentence.clone());
                let fires = tail.split_once(" fires: ").map(|(_, rest)| rest.to_string()).unwrap_or(tail);
                parts = vec![format!("{lead}, so {} fires: {fires}", self.window_label(one.key, &one.window))];
            }
            [one] => {
                let sentence = self.firing_sentence(one);
                // "Watermark X ≥ T, the last millisecond of W, so ... fires: ..." reads as
                // the continuation of the lead.
                let tail = sentence
                    .strip_prefix(&format!("Watermark {} ", self.wm(one.watermark)))
                    .map(|s| format!("{lead} {s}"))
                    .unwrap_or_else(|| format!("{lead}: {}", lower_first(&sentence)));
                parts = vec![tail];
            }
            many => {
                let mut windows: Vec<(KeyId, Window)> = many.iter().map(|f| (f.key, f.window)).collect();
                crate::teach::sort::stable(&mut windows);
                windows.dedup();
                let kinds = self.kind_counts(many);
                parts.push(match windows.as_slice() {
                    [(k, w)] => format!(
                        "{} fires {} ({kinds}, the same window each time)",
                        self.window_label(*k, w),
                        match many.len() {
                            2 => "twice".to_string(),
                            n => format!("{n} times"),
                        }
                    ),
                    ws if ws.len() == many.len() => format!("{} windows fire ({kinds})", ws.len()),
                    ws => format!("{} windows fire {} times ({kinds})", ws.len(), many.len()),
                });
            }
        }
        match f.cleanups.as_slice() {
            [] => {}
            [c] => parts.push(format!(
                "{} is removed at its cleanup time {}{}",
                self.window_label(c.key, &c.window),
                time(c.time),
                if c.unfired.is_empty() {
                    String::new()
                } else {
                    format!(", discarding {} that never fired", plural(c.unfired.len(), "element", "elements"))
                }
            )),
            cs => {
                let unfired: usize = cs.iter().map(|c| c.unfired.len()).sum();
                parts.push(format!(
                    "{} windows are removed at their cleanup times{}",
                    cs.len(),
                    if unfired == 0 {
                        String::new()
                    } else {
                        format!(", discarding {} that never fired", plural(unfired, "element", "elements"))
                    }
                ))
            }
        }
        if f.timer_firings.is_empty() && f.cleanups.is_empty() {
            let watermark = self.watermark_at(f.step + 1);
            let passed: Vec<String> = after
                .live_windows()
                .filter(|w| w.window.max_timestamp() <= watermark && w.firings == 0)
                .map(|w| self.window_label(w.key, &w.window))
                .collect();
            // The next timer that would make a window fire (not a cleanup timer), in time order.
            let next = after
                .pending_timers()
                .filter(|t| t.time != self.cleanup_time(&t.window))
                .map(|t| (t.time, t.key, t.window))
                .min();
            if self.is_count_trigger() && end.is_none() {
                if passed.is_empty() {
                    parts.push(format!("{} fires only by count, so nothing fires", self.trigger_name()));
                } else {
                    parts.push(format!(
                        "it passes the end of {}, but {} fires only by count, so nothing fires",
                        list(&passed),
                        self.trigger_name()
                    ));
                }
            } else {
                match next {
                    Some((t, k, w)) if end.is_none() => parts.push(format!(
                        "that is before the next trigger timer, {} of {}, so nothing fires",
                        time(t),
                        self.window_label(k, &w)
                    )),
                    _ => parts.push("nothing fires".into()),
                }
            }
        }
        Some(join_clauses(&parts))
    }
}

/// `a, b and c` for clauses.
fn join_clauses(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

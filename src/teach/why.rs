//! "Why?" explanations: the state of an element, a window or a timer at a playhead, explained
//! with the rule that decided it and the numbers (timestamps, watermark, allowed lateness,
//! max timestamp, cleanup time), all read from the run's trace and the scenario.
//!
//! The rules, as Flink's `WindowOperator` applies them:
//! - an element is *late* when `timestamp ≤ watermark`; it is *too late* (`isElementLate`) when
//!   `timestamp + allowed lateness ≤ watermark`;
//! - a window is gone (`isWindowLate`) when `cleanup time = max timestamp + allowed lateness ≤
//!   watermark`; a late element is added to every window of its that is not gone;
//! - only an element that no window took *and* that is too late goes to the side output (or is
//!   dropped and counted in `numLateRecordsDropped` without one).

use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::{ElemIdx, FiringKind, KeyId, TraceEvent, TraceKind};
use crate::engine::view::{ElementOutcome, TimerStatus, WindowState, at_step};
use crate::engine::{Firing, Run, Scenario, Window};

use super::Context;
use super::facts::Fate;
use super::format::{capitalize, duration, list, lower_first, plural, time, window as win};
use super::narrate::firing_kind;

/// An answer to "why?": one sentence for the state, then the rule checks behind it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The state and its main reason, in one sentence.
    pub summary: String,
    /// One sentence per rule check, with the numbers.
    pub reasons: Vec<String>,
}

/// Why element `elem` (an index into `run.elements`) is where it is at `playhead`.
pub fn why_element(scenario: &Scenario, run: &Run, elem: ElemIdx, playhead: usize) -> Explanation {
    Context::new(scenario, run).why_element(elem, playhead)
}

/// Why `window` of `key` is in its state at `playhead` (or does not exist).
pub fn why_window(scenario: &Scenario, run: &Run, key: KeyId, window: Window, playhead: usize) -> Explanation {
    Context::new(scenario, run).why_window(key, window, playhead)
}

/// Why the timer at `time` for `window` of `key` is registered, fired or deleted at `playhead`.
pub fn why_timer(
    scenario: &Scenario,
    run: &Run,
    key: KeyId,
    window: Window,
    time: Millis,
    playhead: usize,
) -> Explanation {
    Context::new(scenario, run).why_timer(key, window, time, playhead)
}

impl<'a> Context<'a> {
    /// The trace up to playhead `playhead` (the steps before it).
    fn trace_until(&self, playhead: usize) -> &'a [TraceEvent] {
        let trace: &'a [TraceEvent] = &self.run.trace;
        let end = trace.partition_point(|e| e.step < playhead);
        trace.get(..end).unwrap_or(&[])
    }

    /// `10:02:59.999 (max timestamp 10:00:59.999 + allowed lateness 2 min)`.
    fn cleanup_text(&self, window: &Window) -> String {
        let cleanup = self.cleanup_time(window);
        if cleanup == LONG_MAX {
            return "Long.MAX (never: max timestamp + allowed lateness does not fit in a long)".into();
        }
        format!(
            "{} (max timestamp {} + allowed lateness {})",
            time(cleanup),
            time(window.max_timestamp()),
            duration(self.lateness())
        )
    }

    /// The firings of (key, window) before `playhead`: (step, firing kind, sum, elems, n).
    fn firings_of(&self, key: KeyId, window: &Window, playhead: usize) -> Vec<(usize, FiringKind, i64, u64)> {
        self.firings_until(playhead)
            .filter(|(_, f)| f.key == key && f.window == *window)
            .map(|(step, f)| (step, f.kind, f.sum, f.n))
            .collect()
    }

    /// The firings before `playhead`, with the step of each, in trace order.
    fn firings_until(&self, playhead: usize) -> impl Iterator<Item = (usize, &'a Firing)> {
        let run = self.run;
        self.trace_until(playhead).iter().filter_map(move |e| match &e.kind {
            TraceKind::Fired { output, .. } => run.firing(*output).map(|f| (e.step, f)),
            _ => None,
        })
    }

    fn firing_list(&self, firings: &[(usize, FiringKind, i64, u64)]) -> String {
        let items: Vec<String> = firings
            .iter()
            .map(|(step, kind, sum, _)| {
                format!("{} firing at step {} (sum = {})", kind.label(), step + 1, self.values.value(*sum))
            })
            .collect();
        list(&items)
    }

    /// The lateness rule for an element, at its arrival: late or not (`timestamp ≤ watermark`),
    /// and for a late one whether it is within the allowed lateness (`isElementLate`). Cheap:
    /// reads only the element and the watermark before its step.
    pub(crate) fn lateness_reasons(&self, info: &crate::engine::ElementInfo) -> Vec<String> {
        let id = info.id;
        let ts = info.ts;
        let wm = self.watermark_before(info.step);
        let late = wm != LONG_MIN && ts <= wm;
        let too_late = self.is_element_late(ts, wm);
        // 1. Late or not: against the watermark at arrival, never against wall-clock time.
        let mut reasons = Vec::new();
        reasons.push(if wm == LONG_MIN {
            format!(
                "When element {id} arrived (step {}), no watermark had arrived yet (Long.MIN), so it could not be late.",
                info.step + 1
            )
        } else if late {
            format!(
                "When element {id} arrived (step {}), the watermark was {}: its timestamp {} ≤ {}, so it is late (a watermark t says the stream is complete up to t).",
                info.step + 1,
                time(wm),
                time(ts),
                time(wm)
            )
        } else {
            format!(
                "When element {id} arrived (step {}), the watermark was {}: its timestamp {} > {}, so it is not late.",
                info.step + 1,
                time(wm),
                time(ts),
                time(wm)
            )
        });
        // 2. Too late (isElementLate): only matters if no window takes it.
        if late {
            reasons.push(if too_late {
                format!(
                    "It is too late for the allowed lateness as well: {}; if no window takes it, it cannot be kept.",
                    self.element_late_inequality(ts, wm)
                )
            } else {
                format!(
                    "It is within the allowed lateness: {}, so it can still be added to a window that is not yet removed.",
                    self.element_late_inequality(ts, wm)
                )
            });
        }
        reasons
    }

    /// Why element `elem` is where it is at `playhead`.
    pub fn why_element(&self, elem: ElemIdx, playhead: usize) -> Explanation {
        let Some(info) = self.element(elem) else {
            return Explanation { summary: format!("There is no element number {elem} in this run."), reasons: vec![] };
        };
        let id = info.id;
        if info.step >= playhead {
            return Explanation {
                summary: format!(
                    "Element {id} has not arrived yet: it is input item {}, and the playhead is after step {playhead}.",
                    info.step + 1
                ),
                reasons: vec![],
            };
        }
        let facts = self.facts(info.step);
        let wm = self.watermark_before(info.step);
        let ts = info.ts;
        let late = wm != LONG_MIN && ts <= wm;
        // 1-2. Late or not, and within the allowed lateness or not.
        let mut reasons = self.lateness_reasons(info);
        // 3. Each window: alive (added) or gone (isWindowLate).
        let mut window_reasons = Vec::new();
        for (key, w, created) in &facts.added {
            let cleanup = self.cleanup_time(w);
            let label = capitalize(&self.window_label(*key, w));
            let mut s = match (wm == LONG_MIN, created) {
                (true, true) => format!("{label} was created by it"),
                (true, false) => format!("It was added to {}", self.window_label(*key, w)),
                (false, created) => format!(
                    "{label} was {}: its cleanup time {} > watermark {}, so the element was added",
                    if *created { "created by it" } else { "alive" },
                    time(cleanup),
                    time(wm)
                ),
            };
            if let Some(f) = facts.element_firings.iter().find(|f| f.key == *key && f.window == *w) {
                s.push_str(&format!("; {}", lower_first(&self.firing_sentence(f))));
            } else if self.fires_at_window_end() && w.max_timestamp() > wm {
                s.push_str(&format!(
                    "; its max timestamp {} was after the watermark, so {} registered a timer and waited for the watermark",
                    time(w.max_timestamp()),
                    self.trigger_name()
                ));
            }
            window_reasons.push(s + ".");
        }
        for (w, cleanup, wm_at) in &facts.late_windows {
            window_reasons.push(format!(
                "{} was already past its cleanup time: {} ≤ watermark {} (isWindowLate), so it could not take the element.",
                capitalize(&win(w)),
                time(*cleanup),
                self.wm(*wm_at)
            ));
        }
        if window_reasons.len() > 4 {
            let total = window_reasons.len();
            window_reasons.truncate(3);
            window_reasons.push(format!("… and {} more windows alike.", total - 3));
        }
        if facts.assigned.is_empty() {
            reasons.push(format!(
                "{} assigned it to no window: the slide is larger than the size.",
                self.scenario.assigner.flink_name()
            ));
        }
        reasons.extend(window_reasons);
        if let Some(m) = facts.merges.last() {
            let absorbed: Vec<String> =
                super::narrate::sorted(&m.merged).iter().map(|w| win(&Window::Time(*w))).collect();
            reasons.push(format!(
                "Its session window {} overlapped {}, so they merged into {}.",
                win(&Window::Time(m.new_window)),
                list(&absorbed),
                win(&Window::Time(m.into))
            ));
        }

        // 4. Side output rather than added, or dropped.
        let fate = facts.fate();
        match fate {
            Some(Fate::SideOutput) => reasons.push(
                "Why the side output rather than added: no window took it and the element itself is too late; with sideOutputLateData configured, Flink emits such an element to the late side output instead of dropping it.".into(),
            ),
            Some(Fate::Dropped { counted: true }) => reasons.push(
                "No window took it and it is too late; there is no side output, so Flink drops it and counts it in numLateRecordsDropped.".into(),
            ),
            Some(Fate::Dropped { counted: false }) => reasons.push(
                "No window took it, but the element is not too late itself, so it is neither sent to the side output nor counted: it is dropped silently.".into(),
            ),
            _ => {}
        }

        // 5. Where it is now.
        let view = at_step(self.run, playhead);
        let outcome = view.elements.get(elem as usize).copied().flatten();
        let first_firing = self
            .firings_until(playhead)
            .find(|(_, f)| f.elems.contains(&elem))
            .map(|(step, f)| (step, f.key, f.window, f.kind, f.sum));
        let lateness_part = if late {
            format!("late ({} ≤ watermark {})", time(ts), time(wm))
        } else if wm == LONG_MIN {
            "on time (no watermark yet)".to_string()
        } else {
            format!("on time ({} > watermark {})", time(ts), time(wm))
        };
        let summary = match outcome {
            Some(ElementOutcome::Pending) => {
                let holders: Vec<String> = view
                    .live_windows()
                    .filter(|w| w.contents.contains(&elem))
                    .map(|w| self.window_label(w.key, &w.window))
                    .collect();
                let wait = if self.is_count_trigger() {
                    format!("until {} fires", self.trigger_name())
                } else if let Some(w) = view.live_windows().find(|w| w.contents.contains(&elem)) {
                    if view.watermark == LONG_MIN {
                        format!("until the watermark reaches {} (none has arrived yet)", time(w.window.max_timestamp()))
                    } else {
                        format!(
                            "until the watermark (now {}) reaches {}",
                            time(view.watermark),
                            time(w.window.max_timestamp())
                        )
                    }
                } else {
                    "until its window fires".into()
                };
                let holders = if holders.len() > 3 { format!("{} windows", holders.len()) } else { list(&holders) };
                format!("Element {id} arrived {lateness_part} and waits in {holders} {wait}.")
            }
            Some(ElementOutcome::OnTime) => match first_firing {
                Some((step, key, w, kind, sum)) => format!(
                    "Element {id} arrived {lateness_part} and was emitted by the {} firing of {} at step {} (sum = {}).",
                    kind.label(),
                    self.window_label(key, &w),
                    step + 1,
                    self.values.value(sum)
                ),
                None => format!("Element {id} arrived {lateness_part} and was emitted by a firing."),
            },
            Some(ElementOutcome::InLateFiring) => match first_firing {
                Some((step, key, w, _, sum)) => format!(
                    "Element {id} arrived late but within the allowed lateness ({}), so it was added to {} and emitted by a late firing at step {} (sum = {}).",
                    self.element_late_inequality(ts, wm),
                    self.window_label(key, &w),
                    step + 1,
                    self.values.value(sum)
                ),
                None => format!("Element {id} was emitted by a late firing."),
            },
            Some(ElementOutcome::SideOutput) => format!(
                "Element {id} went to the late side output: {} and {}.",
                self.gone_windows_text(&facts.late_windows),
                self.element_late_inequality(ts, wm)
            ),
            Some(ElementOutcome::Dropped { counted: true }) => format!(
                "Element {id} was dropped and counted in numLateRecordsDropped: {} and {}, and there is no side output.",
                self.gone_windows_text(&facts.late_windows),
                self.element_late_inequality(ts, wm)
            ),
            Some(ElementOutcome::Dropped { counted: false }) => format!(
                "Element {id} was dropped silently: {}, yet the element itself is not too late ({}).",
                self.gone_windows_text(&facts.late_windows),
                self.element_late_inequality(ts, wm)
            ),
            Some(ElementOutcome::Discarded) => {
                let cleaned = self.trace_until(playhead).iter().find_map(|e| match &e.kind {
                    TraceKind::CleanedUp { key, window, time: t, unfired, .. } if unfired.contains(&elem) => {
                        Some((e.step, *key, *window, *t))
                    }
                    _ => None,
                });
                match cleaned {
                    Some((step, key, w, t)) => format!(
                        "Element {id} was never emitted: {} reached its cleanup time {} at step {} before any firing included it, and its state was removed.",
                        self.window_label(key, &w),
                        time(t),
                        step + 1
                    ),
                    None => format!("Element {id} was never emitted: the evictor removed it before any firing."),
                }
            }
            None => format!("Element {id} has not arrived yet."),
        };
        Explanation { summary, reasons }
    }

    /// `its window [10:00, 10:01) was already past its cleanup time (10:02:59.999 ≤ watermark 10:03:00.999)`
    fn gone_windows_text(&self, late: &[(Window, Millis, Millis)]) -> String {
        match late {
            [] => "it belongs to no window".into(),
            [(w, cleanup, wm)] => format!(
                "its window {} was already past its cleanup time ({} ≤ watermark {})",
                win(w),
                time(*cleanup),
                self.wm(*wm)
            ),
            ws => format!("all {} of its windows were already past their cleanup times (each ≤ watermark)", ws.len()),
        }
    }

    /// Why `window` of `key` is in its state at `playhead`.
    pub fn why_window(&self, key: KeyId, window: Window, playhead: usize) -> Explanation {
        let view = at_step(self.run, playhead);
        let label = self.window_label(key, &window);
        let wm = view.watermark;
        let max_ts = window.max_timestamp();
        let Some(wv) = view.windows.iter().find(|w| w.key == key && w.window == window) else {
            return Explanation {
                summary: format!(
                    "{} does not exist at this point: a window is created as soon as the first element that belongs to it arrives, and none has.",
                    capitalize(&label)
                ),
                reasons: vec![],
            };
        };
        let mut reasons = Vec::new();
        let origin = self.trace_until(playhead).iter().find_map(|e| match &e.kind {
            TraceKind::SessionsMerged { key: k, merged, into, .. } if *k == key && Window::Time(*into) == window => {
                let absorbed: Vec<String> =
                    super::narrate::sorted(merged).iter().map(|w| win(&Window::Time(*w))).collect();
                Some(format!(
                    "It was formed at step {} by merging the new session window with {}.",
                    e.step + 1,
                    list(&absorbed)
                ))
            }
            TraceKind::ElementAdded { id, key: k, window: w, .. } if *k == key && *w == window => {
                Some(format!("It was created at step {} by element {id}, its first element.", e.step + 1))
            }
            _ => None,
        });
        reasons.extend(origin);
        let firings = self.firings_of(key, &window, playhead);
        if !firings.is_empty() {
            let times = match firings.len() {
                1 => "once".to_string(),
                2 => "twice".to_string(),
                n => format!("{n} times"),
            };
            reasons.push(format!("It fired {times}: {}.", self.firing_list(&firings)));
        }
        let cleanup = self.cleanup_time(&window);
        let summary = match wv.state {
            WindowState::CleanedUp => {
                let step = wv.ended_step.unwrap_or(0);
                reasons.push(
                    "A window is completely removed when the watermark passes its end plus the allowed lateness; later elements for it are late for a window that no longer exists.".into(),
                );
                format!(
                    "{} no longer exists: at step {} the watermark {} reached its cleanup time {}, and Flink removed its state.",
                    capitalize(&label),
                    step + 1,
                    self.wm(self.watermark_at(step + 1)),
                    self.cleanup_text(&window)
                )
            }
            WindowState::Merged { into } => {
                let step = wv.ended_step.unwrap_or(0);
                format!(
                    "{} no longer exists on its own: at step {} an overlapping session window merged it into {}.",
                    capitalize(&label),
                    step + 1,
                    win(&Window::Time(into))
                )
            }
            state => {
                let contents = if wv.contents.is_empty() {
                    "It holds no elements now.".to_string()
                } else {
                    let ids: Vec<String> =
                        wv.contents.iter().filter_map(|e| self.element(*e)).map(|e| e.id.to_string()).collect();
                    let sum: i64 = wv.contents.iter().filter_map(|e| self.element(*e)).map(|e| e.value).sum();
                    format!(
                        "It holds {} ({}), sum = {}.",
                        plural(ids.len(), "element", "elements"),
                        list(&ids),
                        self.values.value(sum)
                    )
                };
                reasons.push(contents);
                let lives = if cleanup == LONG_MAX {
                    "its cleanup time is Long.MAX, so it is never removed".to_string()
                } else {
                    format!("its cleanup time {} is after the watermark {}", self.cleanup_text(&window), self.wm(wm))
                };
                let fire_rule = if self.is_count_trigger() {
                    format!("{} fires it by count, never by time", self.trigger_name())
                } else if self.fires_at_window_end() && max_ts > wm {
                    format!(
                        "{} fires it when the watermark reaches its max timestamp {}, the last millisecond of the window",
                        self.trigger_name(),
                        time(max_ts)
                    )
                } else if self.fires_at_window_end() {
                    format!(
                        "the watermark has passed its max timestamp {}, so a late element added now makes it fire again at once",
                        time(max_ts)
                    )
                } else {
                    format!("{} decides when it fires", self.trigger_name())
                };
                reasons.push(capitalize(&fire_rule) + ".");
                match state {
                    WindowState::Open => {
                        reasons.push(format!("It lives on until the watermark passes its cleanup time: {lives}."));
                        let not_yet = if self.fires_at_window_end() && max_ts > wm {
                            format!(": its max timestamp {} is after the watermark {}", time(max_ts), self.wm(wm))
                        } else {
                            String::new()
                        };
                        format!("{} exists and has not fired yet{not_yet}.", capitalize(&label))
                    }
                    WindowState::Purged => format!(
                        "{} exists with its contents purged by the trigger: {lives}; a purge clears the contents, not the window.",
                        capitalize(&label)
                    ),
                    _ => format!(
                        "{} still exists although it fired: {lives}; a window does not vanish when it fires, and until then a late element can change its result.",
                        capitalize(&label)
                    ),
                }
            }
        };
        Explanation { summary, reasons }
    }

    /// Why the timer at `t` for `window` of `key` is in its state at `playhead`.
    pub fn why_timer(&self, key: KeyId, window: Window, t: Millis, playhead: usize) -> Explanation {
        let view = at_step(self.run, playhead);
        let label = self.window_label(key, &window);
        let Some(tv) = view.timers.iter().find(|x| x.key == key && x.window == window && x.time == t) else {
            return Explanation {
                summary: format!("There is no timer at {} for {} at this point.", time(t), label),
                reasons: vec![],
            };
        };
        let max_ts = window.max_timestamp();
        let cleanup = self.cleanup_time(&window);
        let is_trigger = tv.purpose.trigger || (t == max_ts && self.fires_at_window_end());
        let is_cleanup = tv.purpose.cleanup || (t == cleanup && window != Window::Global);
        let mut reasons = Vec::new();
        if is_trigger && t == max_ts {
            reasons.push(format!(
                "{} registered it at the window's max timestamp {} = end − 1 ms: when it fires, the window fires.",
                self.trigger_name(),
                time(t)
            ));
        } else if is_trigger {
            reasons.push(format!(
                "{} registered it as its next fire time {}: when it fires, the window fires early with what it holds.",
                self.trigger_name(),
                time(t)
            ));
        }
        if is_cleanup {
            reasons.push(format!(
                "It is the window's cleanup timer at {}: when it fires, Flink removes the window's state.",
                self.cleanup_text(&window)
            ));
        }
        if is_trigger && is_cleanup {
            reasons.push(
                "Flink's timer service keeps at most one timer per key, window and timestamp, so the trigger's timer and the cleanup timer are one timer here.".into(),
            );
        }
        let registered = self.trace_until(playhead).iter().rev().find_map(|e| match &e.kind {
            TraceKind::TimerRegistered { key: k, window: w, time: tt, .. } if *k == key && *w == window && *tt == t => {
                Some(e.step)
            }
            _ => None,
        });
        if let Some(step) = registered {
            reasons.push(format!("It was registered at step {}.", step + 1));
        }
        let summary = match tv.status {
            TimerStatus::Registered => format!(
                "The timer at {} for {} is waiting: event-time timers fire when the watermark reaches their time, and the watermark is {}.",
                time(t),
                label,
                self.wm(view.watermark)
            ),
            TimerStatus::Fired => {
                let trace = self.trace_until(playhead);
                let pos = trace.iter().position(|e| {
                    matches!(&e.kind, TraceKind::TimerFired { key: k, window: w, time: tt, .. }
                        if *k == key && *w == window && *tt == t)
                });
                let (step, stale) = pos
                    .and_then(|p| trace.get(p))
                    .map(|e| (e.step, matches!(e.kind, TraceKind::TimerFired { stale: true, .. })))
                    .unwrap_or((0, false));
                let after: Vec<&TraceEvent> = pos
                    .map(|p| {
                        trace
                            .iter()
                            .skip(p + 1)
                            .take_while(|e| !matches!(e.kind, TraceKind::TimerFired { .. }) && e.step == step)
                            .collect()
                    })
                    .unwrap_or_default();
                let mut effects = Vec::new();
                for e in after {
                    match &e.kind {
                        TraceKind::Fired { output, .. } => {
                            if let Some(f) = self.run.firing(*output) {
                                effects.push(format!(
                                    "the window fired ({}, sum = {})",
                                    firing_kind(f.kind),
                                    self.values.value(f.sum)
                                ))
                            }
                        }
                        TraceKind::CleanedUp { .. } => effects.push("the window's state was removed".into()),
                        TraceKind::Purged { .. } => effects.push("its contents were purged".into()),
                        _ => {}
                    }
                }
                let effect = if stale {
                    "; the window no longer existed (merged away), so nothing happened".to_string()
                } else if effects.is_empty() {
                    "; the window had nothing to emit, so nothing was output".to_string()
                } else {
                    format!(": {}", list(&effects))
                };
                format!(
                    "The timer at {} for {} fired at step {}, when the watermark advanced to {} ≥ {}{effect}.",
                    time(t),
                    label,
                    step + 1,
                    self.wm(self.watermark_at(step + 1)),
                    time(t)
                )
            }
            TimerStatus::Deleted => {
                let step = self.trace_until(playhead).iter().rev().find_map(|e| match &e.kind {
                    TraceKind::TimerDeleted { key: k, window: w, time: tt, .. }
                        if *k == key && *w == window && *tt == t =>
                    {
                        Some(e.step)
                    }
                    _ => None,
                });
                let merged_into = view.windows.iter().find_map(|w| match w.state {
                    WindowState::Merged { into } if w.key == key && w.window == window => Some(into),
                    _ => None,
                });
                let reason = match merged_into {
                    Some(into) => format!(
                        "its window was merged into {}, and a merge deletes the absorbed windows' timers (the merged window gets its own)",
                        win(&Window::Time(into))
                    ),
                    None => format!("{} cleared its timer (Trigger.clear)", self.trigger_name()),
                };
                format!(
                    "The timer at {} for {} was deleted{}: {reason}, so it will never fire.",
                    time(t),
                    label,
                    step.map(|s| format!(" at step {}", s + 1)).unwrap_or_default()
                )
            }
        };
        Explanation { summary, reasons }
    }
}

//! The headlines of the recovery steps (issue 17): a checkpoint item, and the crash item's step,
//! which holds the crash, the restore from the latest checkpoint and the replay of every item
//! after it (`engine::recovery`). A crash step's headline says what happened in that order, with
//! the numbers: the checkpoint and what it was taken after, the replayed elements, the results
//! the replay emits again (recovery duplicates) or anew, and what the append sink and the upsert
//! sink keyed by (key, window end) make of them. Items are named by their element, or by their
//! step (the arrival strip's `step N`, 1-based).

use crate::engine::Firing;
use crate::engine::aggregate::{AggregateResult, CourseAggregate};
use crate::engine::output::Output;
use crate::engine::recovery::duplicate_of;
use crate::engine::scenario::{InputItem, WindowFunctionSpec};
use crate::engine::time::{LONG_MIN, Millis};
use crate::engine::trace::{TraceEvent, TraceKind};

use crate::teach::Context;
use crate::teach::format::{capitalize, list, plural};

impl Context<'_> {
    /// The id of the element at input item `item`, if it is one.
    pub(crate) fn element_id_at(&self, item: usize) -> Option<i64> {
        match self.scenario.input.get(item) {
            Some(InputItem::Element(e)) => Some(e.id),
            _ => None,
        }
    }

    /// `after element 2` (the last element before input item `item`), or `before any element`.
    pub(crate) fn after_element(&self, item: usize) -> String {
        let last = self.scenario.input.get(..item).unwrap_or(&[]).iter().rev().find_map(|i| match i {
            InputItem::Element(e) => Some(e.id),
            _ => None,
        });
        last.map_or_else(|| "before any element".to_string(), |id| format!("after element {id}"))
    }

    /// `element 3 at step 4`, `step 6` for input item `item`.
    pub(crate) fn item_name(&self, item: usize) -> String {
        match self.element_id_at(item) {
            Some(id) => format!("element {id} at step {}", item + 1),
            None => format!("step {}", item + 1),
        }
    }

    /// The watermark an event in a step sees: the step's last advance before it, `Long.MIN`
    /// after a restore in the step (a restarted job's watermark starts again), else the
    /// watermark the step began with.
    pub(crate) fn watermark_seen_by(&self, ev: &TraceEvent) -> Millis {
        let before = self.events(ev.step).iter().take_while(|e| e.seq < ev.seq);
        let mut wm = self.watermark_before(ev.step);
        for e in before {
            match &e.kind {
                TraceKind::WatermarkAdvanced { to, .. } => wm = *to,
                TraceKind::Restored { .. } => wm = LONG_MIN,
                _ => {}
            }
        }
        wm
    }

    /// The headline of a checkpoint step or a crash step; `None` for any other step.
    pub(crate) fn recovery_headline(&self, step: usize) -> Option<String> {
        let events = self.events(step);
        let crashed = events.iter().find_map(|e| match e.kind {
            TraceKind::Crashed { item } => Some(item),
            _ => None,
        });
        if let Some(item) = crashed {
            return Some(self.crash_headline(step, item, events));
        }
        events.iter().find_map(|e| match e.kind {
            TraceKind::CheckpointTaken { checkpoint, item } => Some(format!(
                "Checkpoint {checkpoint} completes {}: it saves the windows' state, the trigger state, all timers and the source's position (a restore replays from {}), not the watermark; nothing is emitted.",
                self.after_element(item),
                self.item_name(item + 1)
            )),
            _ => None,
        })
    }

    fn crash_headline(&self, step: usize, item: usize, events: &[TraceEvent]) -> String {
        let mut parts = vec![format!("The TaskManager dies {}", self.after_element(item))];
        let replayed: Vec<i64> = events
            .iter()
            .filter_map(|e| match e.kind {
                TraceKind::Replayed { item } => self.element_id_at(item),
                _ => None,
            })
            .collect();
        let replays = match replayed.as_slice() {
            [] => "finds nothing to replay".to_string(),
            [one] => format!("replays element {one}"),
            ids if ids.len() <= 4 => {
                format!("replays elements {}", list(&ids.iter().map(i64::to_string).collect::<Vec<_>>()))
            }
            ids => format!("replays {} elements, {} to {}", ids.len(), ids[0], ids[ids.len() - 1]),
        };
        for e in events {
            match e.kind {
                TraceKind::Restored { checkpoint: Some(n), .. } => {
                    let taken = self.checkpoint_item(n).map(|i| format!(" (taken {})", self.after_element(i)));
                    parts.push(format!("Flink restores checkpoint {n}{} and {replays}", taken.unwrap_or_default()));
                }
                TraceKind::Restored { checkpoint: None, .. } => {
                    parts
                        .push(format!("no checkpoint had completed, so Flink restarts with empty state and {replays}"));
                }
                _ => {}
            }
        }
        let headline = format!("{}: {}.", parts.join("; "), self.replay_results(step));
        capitalize(&headline)
    }

    /// The input item checkpoint `n` was taken at.
    fn checkpoint_item(&self, n: u32) -> Option<usize> {
        self.run.trace.iter().find_map(|e| match e.kind {
            TraceKind::CheckpointTaken { checkpoint, item } if checkpoint == n => Some(item),
            _ => None,
        })
    }

    /// What the replay in `step` emits, and what each sink makes of it.
    fn replay_results(&self, step: usize) -> String {
        let outputs = &self.run.outputs;
        let fired: Vec<(&Firing, bool)> = outputs
            .iter()
            .enumerate()
            .filter_map(|(i, o)| match o {
                Output::Fire(f) if f.step == step => Some((f, duplicate_of(outputs, i).is_some())),
                _ => None,
            })
            .collect();
        let records = outputs.iter().filter(|o| matches!(o, Output::Process(r) if r.step == step)).count();
        let (before, after) = (self.watermark_before(step), self.watermark_at(step + 1));
        let wm = if after == LONG_MIN && before > LONG_MIN {
            format!("the watermark is back at Long.MIN, no watermark yet (it was {})", self.wm(before))
        } else if after == LONG_MIN {
            "there is no watermark yet".to_string()
        } else if after < before {
            format!("the watermark, restarted at Long.MIN, is only at {} (it was {})", self.wm(after), self.wm(before))
        } else {
            format!("the watermark, restarted at Long.MIN, is back at {}", self.wm(after))
        };
        if fired.is_empty() {
            let what = if records > 0 {
                format!("the replay emits {}", plural(records, "record", "records"))
            } else {
                "the replay emits nothing".to_string()
            };
            return format!("{what}, and {wm}");
        }
        let phrase = |f: &Firing| self.result_value(f);
        let dups: Vec<&Firing> = fired.iter().filter(|(_, d)| *d).map(|(f, _)| *f).collect();
        let fresh: Vec<&Firing> = fired.iter().filter(|(_, d)| !*d).map(|(f, _)| *f).collect();
        let mut windows: Vec<_> = fired.iter().map(|(f, _)| (f.key, f.window)).collect();
        windows.dedup();
        let mut out = Vec::new();
        match windows.as_slice() {
            [(k, w)] => out.push(format!(
                "{} fires again, {}",
                self.window_label(*k, w),
                fired.iter().map(|(f, _)| phrase(f)).collect::<Vec<_>>().join(" then ")
            )),
            ws => out.push(format!("{} windows fire again ({} results)", ws.len(), fired.len())),
        }
        if !dups.is_empty() {
            let same =
                if fresh.is_empty() { "all the same as before the crash" } else { "the same as before the crash" };
            out.push(format!("{}, {same}", plural(dups.len(), "recovery duplicate", "recovery duplicates")));
        }
        if !fresh.is_empty() {
            out.push(format!("{} the first attempt did not emit", plural(fresh.len(), "result", "results"),));
        }
        let upsert = match windows.as_slice() {
            [(k, w)] => {
                let last = fired.iter().rev().map(|(f, _)| *f).find(|f| f.key == *k && f.window == *w);
                let before = self.last_before(step, *k, w);
                match (last, before) {
                    (Some(l), Some(b)) if l.result == b.result && l.ids == b.ids => {
                        format!("ends at {} as before", phrase(l))
                    }
                    (Some(l), Some(b)) => format!("goes from {} to {}", phrase(b), phrase(l)),
                    (Some(l), None) => format!("gets {}", phrase(l)),
                    _ => String::new(),
                }
            }
            _ => "overwrites each window's row".to_string(),
        };
        let append = match windows.as_slice() {
            [(k, w)] => {
                let rows: Vec<&Firing> = outputs
                    .iter()
                    .filter_map(|o| match o {
                        Output::Fire(f) if f.step <= step && f.key == *k && f.window == *w => Some(f),
                        _ => None,
                    })
                    .collect();
                let total = self.amount_total(&rows).map(|t| format!(", adding up to {t}")).unwrap_or_default();
                format!(" ({} for the window{total})", rows.len())
            }
            _ => String::new(),
        };
        let wm = if after < before { format!("; {wm}") } else { String::new() };
        format!(
            "{}: the append sink gets {} more{append}, the upsert sink keyed by (key, window end) {upsert}{wm}",
            out.join(", "),
            plural(fired.len(), "row", "rows")
        )
    }

    /// A firing's result without the function's name: `usd $4.10 · requests 2`, `sum = $4.10`.
    fn result_value(&self, f: &Firing) -> String {
        let phrase = self.result_phrase(&f.elems, f.sum, f.count);
        match self.scenario.function {
            WindowFunctionSpec::Aggregate(agg) => {
                phrase.strip_prefix(&format!("{} returns ", agg.class_name())).map_or(phrase.clone(), str::to_string)
            }
            _ => phrase,
        }
    }

    /// What an append sink's rows add up to, where a result is an amount: TenantCost's usd,
    /// a sum.
    fn amount_total(&self, rows: &[&Firing]) -> Option<String> {
        let total: i64 = match self.scenario.function {
            WindowFunctionSpec::Aggregate(CourseAggregate::TenantCost) => rows
                .iter()
                .map(|f| match f.result {
                    Some(AggregateResult::TenantCost { usd, .. }) => usd,
                    _ => 0,
                })
                .fold(0, i64::saturating_add),
            WindowFunctionSpec::Process | WindowFunctionSpec::Sum => {
                rows.iter().map(|f| f.sum).fold(0, i64::saturating_add)
            }
            _ => return None,
        };
        Some(self.val(total))
    }

    /// The last firing of (key, window) emitted before `step`.
    fn last_before(
        &self,
        step: usize,
        key: crate::engine::trace::KeyId,
        window: &crate::engine::Window,
    ) -> Option<&Firing> {
        self.run.outputs.iter().rev().find_map(|o| match o {
            Output::Fire(f) if f.step < step && f.key == key && f.window == *window => Some(f),
            _ => None,
        })
    }
}

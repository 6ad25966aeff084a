//! [`StepFold`], once per (run, step): the engine's view fold at the playhead ([`StepView`]) plus
//! what the drawing and the panels need on top of it: each window's last result, the events of
//! the step just taken (for the animations), the explicit watermark item behind the watermark.
//! Pure and cached in the state, so a render never folds the trace.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use rustc_hash::FxHashMap;

use crate::engine::scenario::WatermarkSpec;
use crate::engine::time::LONG_MIN;
use crate::engine::trace::ElemIdx;
use crate::engine::view::{FoldCache, StepView, at_step};
use crate::engine::{KeyId, Millis, Output, Run, Scenario, TimeWindow, TraceKind, Window};
use crate::teach::ValueFormat;

use crate::teach::source::SourceView;

/// One thing that happened in the step just taken, in trace order (drives the animations).
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Arrived {
        elem: ElemIdx,
    },
    /// The element flies into a window.
    Added {
        elem: ElemIdx,
        key: KeyId,
        window: Window,
    },
    WindowCreated {
        key: KeyId,
        window: Window,
    },
    TimerRegistered {
        key: KeyId,
        time: Millis,
    },
    TimerFired {
        key: KeyId,
        time: Millis,
    },
    Fired {
        key: KeyId,
        window: Window,
        output: usize,
        late: bool,
    },
    CleanedUp {
        key: KeyId,
        window: Window,
    },
    Merged {
        key: KeyId,
        merged: Vec<TimeWindow>,
        into: TimeWindow,
    },
    SideOutput {
        elem: ElemIdx,
    },
    Dropped {
        elem: ElemIdx,
    },
    Watermark {
        to: Millis,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct StepFold {
    pub view: StepView,
    /// Per `view.windows`: index in `run.outputs` of its last firing up to the playhead.
    pub last_fire: Vec<Option<usize>>,
    /// The events of the step just taken (step - 1), in trace order.
    pub effects: Vec<Effect>,
    /// Explicit watermarks: the input index of the watermark item that set the current watermark.
    pub wm_item: Option<usize>,
    /// The watermark the input produced (before the end of input's `Long.MAX`).
    pub input_watermark: Millis,
    /// The source's partitions at the playhead.
    pub source: SourceView,
}

/// The step views of the run on show, folded through saved fold states
/// ([`FoldCache`]: a step back or forward costs a few thousand steps of folding at most, at any
/// size). Shared by the state's clones; made again for another run (the run's allocation is
/// its identity: the `Weak` keeps it from being reused).
#[derive(Clone, Debug, Default)]
pub struct FoldViews(Rc<RefCell<Option<CachedFold>>>);

/// The run a [`FoldCache`] was made for, and the cache.
type CachedFold = (Weak<Run>, Option<FoldCache>);

impl FoldViews {
    /// `run`'s first view was made elsewhere (`state::staged`): the next is made as after
    /// [`FoldViews::at`]'s first (with saved fold states).
    pub fn made_first(&self, run: &Rc<Run>) {
        let mut cache = self.0.borrow_mut();
        if !cache.as_ref().is_some_and(|(of, _)| Weak::ptr_eq(of, &Rc::downgrade(run))) {
            *cache = Some((Rc::downgrade(run), None));
        }
    }

    /// The settled view after `step` steps of `run`. The first view of a run is folded from zero
    /// (a drag makes a new run per pointer move and shows one step of it: saving fold states
    /// there would only cost); the saved states are made when the playhead moves on the same run.
    pub fn at(&self, run: &Rc<Run>, step: usize) -> StepView {
        let mut cache = self.0.borrow_mut();
        match cache.as_mut() {
            Some((of, folds)) if Weak::ptr_eq(of, &Rc::downgrade(run)) => {
                folds.get_or_insert_with(|| FoldCache::new(run)).at(run, step)
            }
            _ => {
                *cache = Some((Rc::downgrade(run), None));
                at_step(run, step)
            }
        }
    }
}

impl StepFold {
    pub fn new(scenario: &Scenario, run: &Run, step: usize) -> StepFold {
        StepFold::with_view(scenario, run, at_step(run, step))
    }

    /// The fold around a view already folded to its playhead (`view.step`).
    pub fn with_view(scenario: &Scenario, run: &Run, view: StepView) -> StepFold {
        let step = view.step;
        // A hash map (the fold's own type of map, so no new code): at 100,000 elements a BTreeMap
        // of the 65,000 windows' last firings took 25 ms of every step.
        let mut last_of: FxHashMap<(KeyId, Window), usize> = FxHashMap::default();
        for (i, o) in run.outputs.iter().enumerate().take(view.outputs) {
            if let Output::Fire(f) = o {
                last_of.insert((f.key, f.window), i);
            }
        }
        let last_fire = view.windows.iter().map(|w| last_of.get(&(w.key, w.window)).copied()).collect();

        let mut effects = Vec::new();
        if step > 0 {
            let from = run.trace.partition_point(|e| e.step < step - 1);
            let to = run.trace.partition_point(|e| e.step < step);
            for ev in run.trace.get(from..to).unwrap_or(&[]) {
                let effect = match &ev.kind {
                    TraceKind::ElementArrived { elem, .. } => Effect::Arrived { elem: *elem },
                    TraceKind::ElementAdded { elem, key, window, .. } => {
                        Effect::Added { elem: *elem, key: *key, window: *window }
                    }
                    TraceKind::WindowCreated { key, window } => Effect::WindowCreated { key: *key, window: *window },
                    TraceKind::TimerRegistered { key, time, .. } => Effect::TimerRegistered { key: *key, time: *time },
                    TraceKind::TimerFired { key, time, stale: false, .. } => {
                        Effect::TimerFired { key: *key, time: *time }
                    }
                    TraceKind::Fired { key, window, output } => {
                        let late = run.firing(*output).is_some_and(|f| f.n > 0);
                        Effect::Fired { key: *key, window: *window, output: *output, late }
                    }
                    TraceKind::CleanedUp { key, window, .. } => Effect::CleanedUp { key: *key, window: *window },
                    TraceKind::SessionsMerged { key, merged, into, .. } => {
                        Effect::Merged { key: *key, merged: merged.clone(), into: *into }
                    }
                    TraceKind::SideOutput { elem, .. } => Effect::SideOutput { elem: *elem },
                    TraceKind::Dropped { elem, .. } => Effect::Dropped { elem: *elem },
                    TraceKind::WatermarkAdvanced { to, .. } => Effect::Watermark { to: *to },
                    _ => continue,
                };
                if effects.len() < 400 {
                    effects.push(effect);
                }
            }
        }

        // The explicit watermark item behind the current watermark: the last advancing one.
        let mut wm_item = None;
        if scenario.watermarks == WatermarkSpec::Explicit {
            let mut best = LONG_MIN;
            for (i, item) in scenario.input.iter().enumerate().take(step.min(scenario.input.len())) {
                if let Some(wm) = item.watermark()
                    && (wm > best || wm_item.is_none())
                {
                    best = best.max(wm);
                    wm_item = Some(i);
                }
            }
        }
        let input_steps = step.min(scenario.input.len());
        let input_watermark = if input_steps == 0 {
            LONG_MIN
        } else {
            run.watermark_after_step.get(input_steps - 1).copied().unwrap_or(LONG_MIN)
        };
        let source = SourceView::new(scenario, run, step);
        StepFold { view, last_fire, effects, wm_item, input_watermark, source }
    }

    /// Position of the first effect matching `f` in the step's order (for animation delays).
    pub fn effect_order(&self, f: impl Fn(&Effect) -> bool) -> Option<usize> {
        self.effects.iter().position(f)
    }
}

/// Trace lines of the step that brought the playhead to `step` (the step log; computed only
/// when the log is shown).
pub fn step_log(run: &Run, step: usize) -> Vec<String> {
    if step == 0 {
        return Vec::new();
    }
    let from = run.trace.partition_point(|e| e.step < step - 1);
    let to = run.trace.partition_point(|e| e.step < step);
    let events = run.trace.get(from..to).unwrap_or(&[]);
    let mut lines: Vec<String> = events.iter().take(300).map(|ev| ev.display(run).to_string()).collect();
    if events.len() > 300 {
        lines.push(format!("… and {} more events", events.len() - 300));
    }
    lines
}

/// The window function's result for display: what the function returned last time.
pub fn result_text(scenario: &Scenario, run: &Run, output: Option<usize>, values: ValueFormat) -> String {
    use crate::engine::scenario::WindowFunctionSpec as F;
    let Some(Output::Fire(f)) = output.and_then(|i| run.outputs.get(i)) else { return "—".into() };
    let extreme = |max: bool| {
        let v = f.elems.iter().filter_map(|e| run.elements.get(*e as usize)).map(|e| e.value);
        let v = if max { v.max() } else { v.min() };
        v.map_or("—".into(), |v| values.value(v))
    };
    match scenario.function {
        F::Process | F::Sum => format!("sum {}", values.value(f.sum)),
        F::Count => format!("count {}", f.count),
        F::Avg if f.count == 0 => "avg —".into(),
        // An average of whole values in their unit when it is whole, else two decimals of the bare number.
        F::Avg if f.sum.checked_rem(f.count as i64) == Some(0) => {
            format!("avg {}", values.value(f.sum / f.count as i64))
        }
        F::Avg => format!("avg {:.2}", f.sum as f64 / f.count as f64),
        F::Max => format!("max {}", extreme(true)),
        F::Min => format!("min {}", extreme(false)),
        // TenantCost's usd in the preset's unit ($4.10); the percentiles say their own unit.
        F::Aggregate(_) => match f.result {
            Some(crate::engine::aggregate::AggregateResult::TenantCost { usd, requests }) => {
                format!("usd {} · requests {requests}", values.value(usd))
            }
            Some(r) => r.to_string(),
            None => "—".into(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run;

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The scene knows each window's last result and the events of the step just taken.
    #[test]
    fn scene_tracks_results_and_effects() {
        let s = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "allowed_lateness": 10000,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 59999}, {"id": 2, "key": "A", "ts": 2000, "value": 5}]}"#,
        );
        let r = run(&s);
        let sc = StepFold::new(&s, &r, 2);
        assert_eq!(sc.wm_item, Some(1));
        assert_eq!(sc.input_watermark, 59_999);
        assert_eq!(sc.last_fire, vec![Some(0)]);
        assert!(sc.effects.iter().any(|e| matches!(e, Effect::Fired { late: false, .. })));
        assert_eq!(result_text(&s, &r, sc.last_fire[0], ValueFormat::Plain), "sum 1");
        let sc = StepFold::new(&s, &r, 3);
        assert!(sc.effects.iter().any(|e| matches!(e, Effect::Fired { late: true, .. })));
        assert_eq!(result_text(&s, &r, sc.last_fire[0], ValueFormat::Plain), "sum 6");
        // In the scenario's unit, as the narration and the sinks write it.
        assert_eq!(result_text(&s, &r, sc.last_fire[0], ValueFormat::UsdCents), "sum $0.06");
        assert!(!step_log(&r, 3).is_empty());
        assert_eq!(StepFold::new(&s, &r, 0).effects, vec![]);
    }
}

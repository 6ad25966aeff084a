//! The source at a playhead: every partition's own watermark (the last one it emitted), whether
//! it is idle, and which partition holds the combined watermark back, folded from the trace's
//! source events (Flink's `WatermarkOutputMultiplexer`, as `engine::source` models it).
//!
//! ```text
//!  trace ──PartitionWatermark / PartitionIdle / PartitionActive──▶ per partition: wm, idle
//!        ──WatermarkAdvanced (one partition: it is that partition's own)──┘
//!  partitions ──min over the ones not idle──▶ the holder of the combined watermark
//! ```
//!
//! With one partition the engine reports no `PartitionWatermark` (the operator's watermark is
//! that partition's): its watermark is then every combined watermark before the end of input,
//! whose `Long.MAX` is the source task's own, not the partition's (as in Flink's output).

use crate::engine::time::{LONG_MAX, LONG_MIN, Millis, format_millis};
use crate::engine::{Run, Scenario, TraceKind};

use super::format::duration as format_duration;

/// One partition at the playhead.
#[derive(Clone, Debug, PartialEq)]
pub struct PartitionView {
    pub partition: u32,
    /// The last watermark this partition emitted (`Long.MIN` before its first).
    pub wm: Millis,
    pub idle: bool,
    /// The input step (0-based) in which its watermark last moved.
    pub moved_step: Option<usize>,
    /// The processing time of that step's arrival (0 before its first move): read from the whole
    /// input once, when the view is made, not for each narration or "why?" of it.
    pub moved_at: Millis,
    /// The processing time at which it went idle, while idle.
    pub idle_at: Option<Millis>,
}

/// The source at the playhead.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceView {
    pub partitions: Vec<PartitionView>,
    /// The partitions (not idle, at the smallest watermark) that hold the combined watermark back;
    /// empty with one partition, when all are idle, and after the end of input.
    pub holders: Vec<u32>,
    /// Processing time at the playhead: the arrival of the last item taken.
    pub now: Millis,
}

impl SourceView {
    /// The source after `step` steps of `run` (made from `scenario`).
    pub fn new(scenario: &Scenario, run: &Run, step: usize) -> SourceView {
        let count = scenario.partition_count() as usize;
        let single = count == 1;
        let mut partitions: Vec<PartitionView> = (0..count as u32)
            .map(|partition| PartitionView {
                partition,
                wm: LONG_MIN,
                idle: false,
                moved_step: None,
                moved_at: 0,
                idle_at: None,
            })
            .collect();
        let mut ended = false;
        let to = run.trace.partition_point(|e| e.step < step);
        for ev in run.trace.get(..to).unwrap_or(&[]) {
            match &ev.kind {
                TraceKind::PartitionWatermark { partition, watermark } => {
                    if let Some(p) = partitions.get_mut(*partition as usize) {
                        p.wm = *watermark;
                        p.moved_step = Some(ev.step);
                    }
                }
                TraceKind::WatermarkAdvanced { to, .. } if single && !ended => {
                    if let Some(p) = partitions.first_mut() {
                        p.wm = *to;
                        p.moved_step = Some(ev.step);
                    }
                }
                TraceKind::PartitionIdle { partition, at } => {
                    if let Some(p) = partitions.get_mut(*partition as usize) {
                        p.idle = true;
                        p.idle_at = Some(*at);
                    }
                }
                TraceKind::PartitionActive { partition, .. } => {
                    if let Some(p) = partitions.get_mut(*partition as usize) {
                        p.idle = false;
                        p.idle_at = None;
                    }
                }
                TraceKind::EndOfInput { .. } => ended = true,
                _ => {}
            }
        }
        let arrivals = scenario.arrivals();
        for p in &mut partitions {
            p.moved_at = p.moved_step.map_or(0, |s| arrivals.get(s).copied().unwrap_or(0));
        }
        let taken = step.min(arrivals.len());
        let now = if taken == 0 { 0 } else { arrivals.get(taken - 1).copied().unwrap_or(0) };
        let min = partitions.iter().filter(|p| !p.idle).map(|p| p.wm).min();
        let holders = match min {
            Some(m) if !single && !ended && m != LONG_MAX => {
                partitions.iter().filter(|p| !p.idle && p.wm == m).map(|p| p.partition).collect()
            }
            _ => Vec::new(),
        };
        SourceView { partitions, holders, now }
    }

    /// Whether the source is worth its own tracks: several partitions, idleness or periodic
    /// emission (one partition emitting per event is the operator's watermark itself).
    pub fn shows_tracks(scenario: &Scenario) -> bool {
        scenario.partition_count() > 1 || scenario.source.idleness.is_some() || scenario.source.periodic
    }

    /// The source in one sentence for the narration, when it has more than one partition or
    /// idleness: who holds the watermark and for how long, and which partitions are idle.
    pub fn narration(&self, scenario: &Scenario) -> Option<String> {
        // The view's own partitions (made from `scenario`): counting the scenario's again reads
        // its whole input, on every render of the narration (at 100,000 elements ≈ 1 ms a drag
        // move).
        if self.partitions.len() < 2 && scenario.source.idleness.is_none() {
            return None;
        }
        let idle: Vec<String> = self
            .partitions
            .iter()
            .filter(|p| p.idle)
            .map(|p| match p.idle_at {
                Some(at) => format!("partition {} is idle since {}", p.partition, format_millis(at)),
                None => format!("partition {} is idle", p.partition),
            })
            .collect();
        let mut parts: Vec<String> = self.holder_text().into_iter().collect();
        parts.extend(idle);
        (!parts.is_empty()).then(|| format!("Source: {}.", parts.join("; ")))
    }

    /// What holds the combined watermark back, and since when, for narration and "why?":
    /// `partition 1 holds the watermark at 1999: its own has not moved for 1.3 s of processing
    /// time (since the arrival at 100)`, or `None` when no partition holds it.
    pub fn holder_text(&self) -> Option<String> {
        let first = *self.holders.first()?;
        let p = self.partitions.get(first as usize)?;
        let since = p.moved_at;
        let who = match self.holders.len() {
            1 => format!("partition {first}"),
            _ => format!("partitions {}", self.holders.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(" and ")),
        };
        let own = if p.wm == LONG_MIN {
            format!("nothing emitted yet, for {} of processing time", format_duration(self.now))
        } else {
            match self.now.saturating_sub(since) {
                0 => format!("its own moved to it at this arrival ({})", format_millis(since)),
                held => format!(
                    "its own has not moved for {} of processing time (since the arrival at {})",
                    format_duration(held),
                    format_millis(since)
                ),
            }
        };
        Some(format!(
            "{who} {} the watermark at {}: {own}",
            if self.holders.len() == 1 { "holds" } else { "hold" },
            wm_text(p.wm)
        ))
    }
}

/// "Why?" for source partition `partition` at `playhead`: its own watermark, whether it is idle
/// and since when, and whether (and for how long) it holds the combined watermark back.
pub fn why_partition(scenario: &Scenario, run: &Run, partition: u32, playhead: usize) -> super::Explanation {
    let view = SourceView::new(scenario, run, playhead);
    let Some(p) = view.partitions.get(partition as usize) else {
        return super::Explanation { summary: format!("There is no partition {partition}."), reasons: Vec::new() };
    };
    let combined = match playhead.checked_sub(1) {
        Some(i) => run.watermark_after_step.get(i).copied().unwrap_or(LONG_MIN),
        None => LONG_MIN,
    };
    let summary = if p.idle {
        format!(
            "Partition {partition} is idle{}: it is left out of the combined watermark, which the other partitions set.",
            p.idle_at.map(|at| format!(" since processing time {}", format_millis(at))).unwrap_or_default()
        )
    } else if view.holders.contains(&partition) {
        view.holder_text().map_or_else(String::new, |t| format!("{}.", capitalise(&t)))
    } else {
        format!(
            "Partition {partition} is ahead: its own watermark {} is above the combined watermark {}.",
            wm_text(p.wm),
            wm_text(combined)
        )
    };
    let mut reasons = vec![format!(
        "The combined watermark the windows see is the smallest watermark of the partitions that are not idle (WatermarkOutputMultiplexer); it is {} now.",
        wm_text(combined)
    )];
    match scenario.source.idleness {
        Some(d) => reasons.push(format!(
            "withIdleness({}): a partition with no records for more than {} of processing time, checked at each periodic emission, is marked idle until its next record.",
            format_duration(d),
            format_duration(d)
        )),
        None => reasons.push(
            "No withIdleness: a partition that stops sending holds the combined watermark back for ever.".to_string(),
        ),
    }
    reasons.push(if scenario.source.periodic {
        format!(
            "Periodic emission: watermarks are emitted every {} of processing time (autoWatermarkInterval).",
            format_duration(scenario.source.interval)
        )
    } else {
        "Per-event emission: a watermark is emitted right after each record.".to_string()
    });
    super::Explanation { summary, reasons }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// A partition's watermark in words (`none yet` before its first).
pub fn wm_text(wm: Millis) -> String {
    match wm {
        LONG_MIN => "none yet".to_string(),
        w => format_millis(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::run;

    fn scenario(json: &str) -> Scenario {
        Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A quiet partition holds the combined watermark back until idleness releases it; each
    /// partition shows the last watermark it emitted, and the idle one says so.
    #[test]
    fn quiet_partition_holds_until_idle() {
        let s = scenario(
            r#"{"partitions": 2, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 0, "idleness": 1000},
                "input": [
                  {"id": 1, "key": "A", "ts": 1000, "partition": 0, "arrival": 0},
                  {"id": 2, "key": "A", "ts": 2000, "partition": 1, "arrival": 100},
                  {"id": 3, "key": "A", "ts": 10000, "partition": 0, "arrival": 500},
                  {"id": 4, "key": "A", "ts": 20000, "partition": 0, "arrival": 1500}]}"#,
        );
        let r = run(&s);
        let at = |step| SourceView::new(&s, &r, step);
        let v = at(3);
        assert_eq!(v.partitions.iter().map(|p| (p.wm, p.idle)).collect::<Vec<_>>(), vec![(9999, false), (1999, false)]);
        assert_eq!(v.holders, vec![1]);
        assert_eq!(v.now, 500);
        // Partition 1's watermark last moved with item 2 (step 1), which arrived at 100: the
        // narration counts the 400 ms it has held the watermark back from there.
        assert_eq!(
            v.partitions.iter().map(|p| (p.moved_step, p.moved_at)).collect::<Vec<_>>(),
            vec![(Some(2), 500), (Some(1), 100)]
        );
        assert_eq!(
            v.narration(&s).as_deref(),
            Some(
                "Source: partition 1 holds the watermark at 1999: its own has not moved for 400 ms of processing time (since the arrival at 100)."
            )
        );
        // The tick at 1400 (before the arrival at 1500) finds partition 1 idle: partition 0 alone.
        let v = at(4);
        assert_eq!(v.partitions[1].idle_at, Some(1400));
        assert!(v.partitions[1].idle);
        assert_eq!(v.holders, vec![0]);
        assert_eq!(v.partitions[0].wm, 19999);
        // The end of input: Long.MAX is the source task's, not a partition's; nobody holds it.
        let end = at(r.steps);
        assert_eq!(end.partitions[0].wm, 19999);
        assert!(end.holders.is_empty());
    }

    /// With one partition its watermark is the operator's, up to (not including) the end of
    /// input's Long.MAX.
    #[test]
    fn one_partition_is_the_operator_watermark() {
        let s = scenario(
            r#"{"assigner": {"kind": "tumbling", "size": 10000}, "watermarks": {"kind": "bounded_out_of_orderness", "bound": 0},
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "A", "ts": 5000}]}"#,
        );
        let r = run(&s);
        assert_eq!(SourceView::new(&s, &r, 2).partitions[0].wm, 4999);
        assert_eq!(SourceView::new(&s, &r, r.steps).partitions[0].wm, 4999);
        assert!(SourceView::new(&s, &r, 2).holders.is_empty());
        assert!(!SourceView::shows_tracks(&s));
        // One partition and no idleness: the narration has no source sentence.
        assert_eq!(SourceView::new(&s, &r, 2).narration(&s), None);
    }
}

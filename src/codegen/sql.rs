//! The Flink SQL program: a table over the scenario's elements (written by a batch `INSERT`, read
//! back in streaming mode with a watermark), and a window TVF query (`TUMBLE`, `HOP`, `SESSION`)
//! where the configuration can be expressed as one. What the TVF cannot express is listed in a
//! comment block above the query, never dropped silently.
//!
//! A scenario that runs a window TVF itself (`tvf`, CUMULATE included) gets its query; the error-rate
//! alert process function becomes the TUMBLE query it is equivalent to; RequestAssembler's
//! timers have no SQL form. (`CUMULATE` has no DataStream assigner, so a window scenario never
//! produces it.)

use super::{
    Dialect, ERROR_EVENTS, Job, Program, REQUEST_EVENTS, SQL_COMMENTS, Text, build_error, element_fields, has_events,
    has_watermark_items, human_duration, job, snake_name, source_caveats, time_comment, time_suffix, without_recovery,
};
use crate::engine::aggregate::CourseAggregate;
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, InputItem, ProcessFunctionSpec, Scenario, TvfSpec, WatermarkSpec,
    WindowFunctionSpec,
};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};

pub fn program(scenario: &Scenario) -> Program {
    let (job, recovery) = without_recovery(scenario);
    let mut g = Gen::new(&job);
    g.caveats.extend(recovery);
    let text = g.render();
    Program {
        dialect: Dialect::Sql,
        file_name: format!("{}.sql", snake_name(&scenario.name)),
        text,
        caveats: g.caveats,
    }
}

/// A SQL string literal: single quotes doubled. Control characters cannot be written in a
/// plain literal; Flink SQL's `U&'...'` form could, but a key with a line break is rare enough
/// to replace them with `?` and say so in [`Gen::new`].
pub(crate) fn string_lit(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("''"),
            c if c.is_control() => out.push('?'),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// `INTERVAL '1' MINUTE`, `INTERVAL '1.5' SECOND`, `INTERVAL '150' SECOND(3)`. The leading
/// field's default precision is 2 digits, so longer numbers name their precision.
pub(crate) fn interval(ms: Millis) -> String {
    let units: [(i64, &str); 4] = [(86_400_000, "DAY"), (3_600_000, "HOUR"), (60_000, "MINUTE"), (1_000, "SECOND")];
    let (text, unit) = match units.iter().find(|(u, _)| ms != 0 && ms % u == 0) {
        Some((u, name)) => ((ms / u).to_string(), *name),
        None => {
            // Fractional seconds: '1.5' SECOND, '0.001' SECOND.
            let secs = ms / 1000;
            let frac = (ms % 1000).unsigned_abs();
            let sign = if ms < 0 && secs == 0 { "-" } else { "" };
            (format!("{sign}{secs}.{frac:03}").trim_end_matches('0').trim_end_matches('.').to_string(), "SECOND")
        }
    };
    let digits = text.trim_start_matches('-').split('.').next().map_or(1, str::len);
    if digits > 2 {
        format!("INTERVAL '{text}' {unit}({})", digits.min(10))
    } else {
        format!("INTERVAL '{text}' {unit}")
    }
}

/// The aggregate columns of the window function.
fn aggregates(function: WindowFunctionSpec) -> Vec<&'static str> {
    match function {
        WindowFunctionSpec::Process => vec!["SUM(`value`) AS sum_value", "COUNT(*) AS cnt"],
        WindowFunctionSpec::Sum => vec!["SUM(`value`) AS sum_value"],
        WindowFunctionSpec::Count => vec!["COUNT(*) AS cnt"],
        // AVG of a BIGINT column is a BIGINT in Flink SQL (integer division): cast first.
        WindowFunctionSpec::Avg => vec!["AVG(CAST(`value` AS DOUBLE)) AS avg_value"],
        WindowFunctionSpec::Min => vec!["MIN(`value`) AS min_value"],
        WindowFunctionSpec::Max => vec!["MAX(`value`) AS max_value"],
        // TenantCost's (usd, requests) are a SUM and a COUNT(*).
        WindowFunctionSpec::Aggregate(CourseAggregate::TenantCost) => {
            vec!["SUM(`value`) AS usd", "COUNT(*) AS requests"]
        }
        // No built-in percentile aggregate in Flink SQL 2.3: the count, and a caveat.
        WindowFunctionSpec::Aggregate(CourseAggregate::LatencySketch { .. }) => vec!["COUNT(*) AS n"],
    }
}

/// `TUMBLE(TABLE events, DESCRIPTOR(time), size[, offset])`.
fn tumble(time: &str, size: Millis, offset: Millis) -> String {
    match offset {
        0 => format!("TUMBLE(TABLE events, DESCRIPTOR({time}), {})", interval(size)),
        _ => format!("TUMBLE(TABLE events, DESCRIPTOR({time}), {}, {})", interval(size), interval(offset)),
    }
}

/// `HOP(TABLE events, DESCRIPTOR(time), slide, size[, offset])`: HOP takes the slide first, then
/// the size.
fn hop(time: &str, size: Millis, slide: Millis, offset: Millis) -> String {
    match offset {
        0 => format!("HOP(TABLE events, DESCRIPTOR({time}), {}, {})", interval(slide), interval(size)),
        _ => format!(
            "HOP(TABLE events, DESCRIPTOR({time}), {}, {}, {})",
            interval(slide),
            interval(size),
            interval(offset)
        ),
    }
}

/// `SESSION(TABLE events PARTITION BY `key`, DESCRIPTOR(time), gap)`.
fn session(time: &str, gap: Millis) -> String {
    format!("SESSION(TABLE events PARTITION BY `key`, DESCRIPTOR({time}), {})", interval(gap))
}

/// The TVF call for a scenario's `tvf` over the time attribute `time`.
fn tvf_call(spec: TvfSpec, time: &str) -> String {
    match spec {
        TvfSpec::Tumble { size } => tumble(time, size, 0),
        TvfSpec::Hop { size, slide } => hop(time, size, slide, 0),
        // CUMULATE takes the step first, then the maximum size.
        TvfSpec::Cumulate { step, size } => {
            format!("CUMULATE(TABLE events, DESCRIPTOR({time}), {}, {})", interval(step), interval(size))
        }
        TvfSpec::Session { gap } => session(time, gap),
    }
}

/// The query of a scenario that runs a window TVF (`tvf`), as lines; `time` names the rowtime
/// column (`ts` in the SQL program, `rowtime` over a DataStream in the Java and Python ones).
pub(crate) fn tvf_query(s: &Scenario, spec: TvfSpec, time: &str) -> Vec<String> {
    vec![
        format!("SELECT `key`, window_start, window_end, window_time, {}", aggregates(s.function).join(", ")),
        "FROM TABLE(".to_string(),
        format!("  {})", tvf_call(spec, time)),
        "GROUP BY `key`, window_start, window_end, window_time".to_string(),
    ]
}

/// The SQL view's query of a scenario that runs a window TVF (the Code tab's, without the
/// program around it), over the rowtime column `ts`.
pub fn tvf_query_text(s: &Scenario) -> Option<String> {
    s.tvf.map(|spec| tvf_query(s, spec, "ts").join("\n"))
}

/// The error-rate alert as a query: a tumbling window with zero allowed lateness is exactly
/// what the hand-built PseudoWindow does.
fn alert_query(size: Millis, threshold_pct: i64) -> Vec<String> {
    let set = |names: &[&str]| names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ");
    let error = format!("LOWER(`event`) IN ({})", set(&ERROR_EVENTS));
    vec![
        "SELECT `key`, window_start, window_end,".to_string(),
        format!("  SUM(CASE WHEN {error} THEN 1 ELSE 0 END) AS errors,"),
        "  COUNT(*) AS requests,".to_string(),
        format!(
            "  CASE WHEN 100 * SUM(CASE WHEN {error} THEN 1 ELSE 0 END) > {threshold_pct} * COUNT(*) THEN 'alert' ELSE 'ok' END AS verdict"
        ),
        "FROM TABLE(".to_string(),
        format!("  {})", tumble("ts", size, 0)),
        format!("WHERE `event` IS NULL OR {error} OR LOWER(`event`) IN ({})", set(&REQUEST_EVENTS)),
        "GROUP BY `key`, window_start, window_end;".to_string(),
    ]
}

struct Gen<'a> {
    s: &'a Scenario,
    job: Job,
    /// The window TVF call of a DataStream window scenario, or `None` when it has none.
    tvf: Option<String>,
    /// The table needs a processing-time column.
    proctime: bool,
    /// What the query cannot express (also in `caveats`).
    caveats: Vec<String>,
}

impl<'a> Gen<'a> {
    fn new(s: &'a Scenario) -> Self {
        let job = job(s);
        let mut caveats = Vec::new();
        if let Some(e) = build_error(s) {
            caveats.push(format!("The DataStream job is rejected by Flink when it is built: {e}"));
        }
        let mut proctime = false;
        let tvf = match job {
            Job::Window => Self::window_tvf(s, &mut caveats, &mut proctime),
            Job::Tvf(_) => None,
            Job::Process(ProcessFunctionSpec::RequestAssembler { .. }) => {
                caveats.push(
                    "A KeyedProcessFunction with event-time timers (RequestAssembler) has no Flink SQL form: SQL has no timers to register or delete. The Java and PyFlink programs have it; this file only creates the table.".into(),
                );
                None
            }
            Job::Process(ProcessFunctionSpec::ErrorRateAlert { .. }) => {
                caveats.push(
                    "The hand-built error-rate alert is a tumbling window with zero allowed lateness: the TUMBLE query below gives the same per-minute verdicts (a late error is dropped either way).".into(),
                );
                None
            }
        };
        if job == Job::Window {
            Self::window_caveats(s, &mut caveats);
        }
        if s.watermarks == WatermarkSpec::Explicit && has_watermark_items(s) {
            caveats.push(
                "Scripted watermarks cannot be expressed: SQL derives the watermark from a column (WATERMARK FOR ts AS ...); this table uses ts - 1 ms (ascending timestamps).".into(),
            );
        } else if has_watermark_items(s) {
            caveats.push(
                "The scenario's scripted watermarks cannot be expressed: SQL derives the watermark from a column."
                    .into(),
            );
        }
        if let WatermarkSpec::BoundedOutOfOrderness { bound } = s.watermarks {
            caveats.push(format!(
                "The watermark is ts - {} here, 1 ms ahead of the DataStream strategy's (largest ts - bound - 1 ms); Flink SQL emits it as soon as it has moved more than pipeline.auto-watermark-interval ({}) of event time.",
                human_duration(bound),
                human_duration(s.source.interval)
            ));
        }
        caveats.extend(source_caveats(s));
        if !s.end_of_input {
            caveats.push(
                "The scenario pauses the input (end_of_input: false); the bounded filesystem source ends with a Long.MAX_VALUE watermark that fires every pending window.".into(),
            );
        }
        let timestamps: Vec<Millis> = s.elements().map(|e| e.ts).collect();
        if timestamps.iter().any(|t| *t == LONG_MIN || *t == LONG_MAX || t.unsigned_abs() > 253_402_300_799_999) {
            caveats
                .push("Timestamps beyond the year 9999 (or Long.MIN/MAX) are not valid TIMESTAMP_LTZ values.".into());
        }
        if s.elements().any(|e| e.key.chars().any(char::is_control)) {
            caveats.push("Control characters in keys are written as '?'.".into());
        }
        Gen { s, job, tvf, proctime, caveats }
    }

    /// The TVF of a DataStream window assigner: over the rowtime `ts`, or over `proc_time` for
    /// processing-time windows.
    fn window_tvf(s: &Scenario, caveats: &mut Vec<String>, proctime: &mut bool) -> Option<String> {
        *proctime = !s.assigner.is_event_time();
        let time = if *proctime { "proc_time" } else { "ts" };
        match &s.assigner {
            AssignerSpec::Tumbling { size, offset } | AssignerSpec::TumblingProcessing { size, offset } => {
                Some(tumble(time, *size, *offset))
            }
            AssignerSpec::Sliding { size, slide, offset } | AssignerSpec::SlidingProcessing { size, slide, offset } => {
                if *slide > 0 && size % slide != 0 {
                    caveats.push(format!(
                        "HOP requires the size ({}) to be a whole multiple of the slide ({}); Flink's planner rejects this query.",
                        human_duration(*size),
                        human_duration(*slide)
                    ));
                }
                Some(hop(time, *size, *slide, *offset))
            }
            AssignerSpec::Session { gap } => Some(session(time, *gap)),
            AssignerSpec::DynamicSession { default_gap, gaps } => {
                let list: Vec<String> = gaps.iter().map(|(k, g)| format!("{k}: {}", human_duration(*g))).collect();
                caveats.push(format!(
                    "A session gap per key (withDynamicGap: {}) has no TVF form: SESSION takes one gap, here the default {}.",
                    list.join(", "),
                    human_duration(*default_gap)
                ));
                Some(session(time, *default_gap))
            }
            AssignerSpec::Global | AssignerSpec::GlobalEos => {
                caveats.push(
                    "GlobalWindows has no window TVF. The nearest SQL is a plain GROUP BY `key`, an updating (not append-only) result per key, shown below.".into(),
                );
                None
            }
        }
    }

    /// What the TVF cannot express of a DataStream window's trigger, evictor, lateness, side
    /// output and function.
    fn window_caveats(s: &Scenario, caveats: &mut Vec<String>) {
        match s.trigger.base {
            BaseTrigger::Default | BaseTrigger::EventTime => {}
            BaseTrigger::Count { n } => caveats.push(format!(
                "CountTrigger.of({n}) cannot be expressed: a window TVF fires once, when the watermark passes the window end."
            )),
            BaseTrigger::ContinuousEventTime { interval } => caveats.push(format!(
                "ContinuousEventTimeTrigger ({}) cannot be expressed: a window TVF emits no early results.",
                human_duration(interval)
            )),
            BaseTrigger::EarlyCount { n } => caveats.push(format!(
                "The early trigger (every {n} elements, then at the watermark) cannot be expressed: a window TVF emits no early results."
            )),
            BaseTrigger::SessionMaxDuration { max_duration } => caveats.push(format!(
                "The session's maximum duration ({}) cannot be expressed: a SESSION TVF has no custom trigger.",
                human_duration(max_duration)
            )),
        }
        if s.trigger.purging {
            caveats.push(
                "PurgingTrigger cannot be expressed (a TVF clears the window state after its one result anyway)."
                    .into(),
            );
        }
        if let Some(e) = s.evictor {
            let what = match e.kind {
                EvictorKind::Count { n } => format!("CountEvictor.of({n})"),
                EvictorKind::Time { size } => format!("TimeEvictor.of({})", human_duration(size)),
                EvictorKind::Delta { threshold, delta } => {
                    format!("DeltaEvictor.of({:?}, {} delta)", threshold.0, delta.name())
                }
            };
            caveats.push(format!(
                "The evictor ({what}) cannot be expressed: the query aggregates every row of the window."
            ));
        }
        match s.allowed_lateness {
            Some(l) if l > 0 => caveats.push(format!(
                "Allowed lateness ({}) cannot be expressed: the TVF emits one final result per window and drops rows later than the watermark, so there are no late firings and no updated results.",
                human_duration(l)
            )),
            _ => {}
        }
        // Nothing is ever late for GlobalWindows (its cleanup time is Long.MAX_VALUE).
        if s.side_output && !s.assigner.is_global() {
            caveats.push("The late side output cannot be expressed: SQL drops late rows.".into());
        }
        if let WindowFunctionSpec::Aggregate(CourseAggregate::LatencySketch { .. }) = s.function {
            caveats.push(
                "LatencySketch's p50/p99 are not expressed: Flink SQL's PERCENTILE interpolates between the two nearest values, while the course takes the sample at int(q * (n - 1)) of a K = 1000 reservoir (that needs a user-defined AggregateFunction), so the query gives only n = COUNT(*).".into(),
            );
        }
        if s.function == WindowFunctionSpec::Process {
            caveats.push(
                "The ProcessWindowFunction's sum and count become SUM and COUNT(*): SQL aggregates incrementally, it never buffers the rows.".into(),
            );
        }
    }

    fn render(&self) -> String {
        let s = self.s;
        let events = has_events(s);
        let mut t = Text::default();
        let form = match self.job {
            Job::Window if self.tvf.is_some() => " with a window table-valued function",
            Job::Tvf(_) => " with a window table-valued function",
            _ => "",
        };
        let run = [
            "Run the statements in order in the SQL client (bin/sql-client.sh). The elements are".to_string(),
            "written to a CSV folder by a batch INSERT, then read back as a stream with a watermark.".to_string(),
        ];
        let title = format!("Tidemark scenario {}, as Flink SQL 2.3{form}.", string_lit(&s.name));
        SQL_COMMENTS.header(&mut t, &title, &s.description, &run, &[]);
        t.blank();
        t.line("SET 'parallelism.default' = '1';");
        t.line("SET 'table.dml-sync' = 'true';");
        if s.source.periodic && s.source.interval != 200 {
            t.line(format!("SET 'pipeline.auto-watermark-interval' = '{} ms';", s.source.interval));
        }
        if let Some(d) = s.source.idleness {
            t.line(format!("SET 'table.exec.source.idle-timeout' = '{d} ms';  -- withIdleness"));
        }
        t.blank();
        t.line("CREATE TABLE events (");
        t.line("  id BIGINT,");
        t.line("  `key` STRING,");
        t.line("  ts_millis BIGINT,");
        t.line("  `value` BIGINT,");
        if events {
            t.line("  `event` STRING,");
        }
        t.line("  ts AS TO_TIMESTAMP_LTZ(ts_millis, 3),");
        if self.proctime {
            t.line("  proc_time AS PROCTIME(),  -- processing time: the wall clock when a row is read");
        }
        let watermark = match s.watermarks {
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                format!(
                    "  WATERMARK FOR ts AS ts - {}  -- bounded out-of-orderness {}",
                    interval(bound),
                    human_duration(bound)
                )
            }
            WatermarkSpec::Monotonous => {
                "  WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND  -- ascending timestamps".into()
            }
            WatermarkSpec::Explicit if has_watermark_items(s) => {
                "  WATERMARK FOR ts AS ts - INTERVAL '0.001' SECOND  -- not the scripted watermarks: see below".into()
            }
            WatermarkSpec::Explicit => {
                "  WATERMARK FOR ts AS CAST(NULL AS TIMESTAMP_LTZ(3))  -- none: only the end of input fires".into()
            }
        };
        t.line(watermark);
        t.line(") WITH (");
        t.line("  'connector' = 'filesystem',");
        t.line(format!("  'path' = 'file:///tmp/tidemark/{}',", snake_name(&s.name)));
        t.line("  'format' = 'csv'");
        t.line(");");
        t.blank();
        t.line("-- The scenario's elements, in arrival order (one file, read back in this order).");
        t.line("SET 'execution.runtime-mode' = 'batch';");
        let elements: Vec<&InputItem> = s.input.iter().collect();
        let last_element = elements.iter().rposition(|i| matches!(i, InputItem::Element(_)));
        match last_element {
            None => t.line("-- (the scenario has no elements)"),
            Some(last) => {
                if events {
                    t.line("INSERT OVERWRITE events (id, `key`, ts_millis, `value`, `event`) VALUES");
                } else {
                    t.line("INSERT OVERWRITE events (id, `key`, ts_millis, `value`) VALUES");
                }
                for (i, item) in elements.iter().enumerate() {
                    match item {
                        InputItem::Element(e) => t.line(format!(
                            "  ({}){}{}",
                            element_fields(e, events, |n| n.to_string(), string_lit, "CAST(NULL AS STRING)"),
                            if i == last { ";" } else { "," },
                            time_suffix(" --", e.ts)
                        )),
                        InputItem::Watermark(_) | InputItem::SourceWatermark(_) => t.line(format!(
                            "  -- watermark {} (scripted; not expressible)",
                            time_comment(item.watermark().unwrap_or(i64::MIN))
                        )),
                        InputItem::Control(c) => t.line(format!("  -- {} (left out)", c.kind.name())),
                    }
                }
            }
        }
        t.line("SET 'execution.runtime-mode' = 'streaming';");
        t.blank();
        if !self.caveats.is_empty() {
            let title = match self.job {
                Job::Window => "What this query cannot express of the DataStream configuration:",
                _ => "What this query cannot express of the scenario:",
            };
            SQL_COMMENTS.list(&mut t, title, &self.caveats);
            t.blank();
        }
        let aggregates = aggregates(s.function).join(", ");
        match (self.job, &self.tvf) {
            (Job::Window, Some(tvf)) => {
                t.line(if self.proctime {
                    "-- One final result per window, when the wall clock passes the window end."
                } else {
                    "-- One final result per window, when the watermark passes the window end."
                });
                t.line(format!("SELECT `key`, window_start, window_end, {aggregates}"));
                t.line("FROM TABLE(");
                t.line(format!("  {tvf})"));
                t.line("GROUP BY `key`, window_start, window_end;");
            }
            (Job::Window, None) => {
                t.line("-- Not a window: an updating result per key (+I, then -U/+U on every change).");
                t.line(format!("SELECT `key`, {aggregates}"));
                t.line("FROM events");
                t.line("GROUP BY `key`;");
            }
            (Job::Tvf(spec), _) => {
                t.line("-- One final row per window when the watermark passes window_end - 1; no allowed lateness.");
                let mut query = tvf_query(s, spec, "ts");
                if let Some(last) = query.last_mut() {
                    last.push(';');
                }
                t.lines(query);
            }
            (Job::Process(ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct }), _) => {
                t.line("-- One verdict per key and minute, when the watermark passes the minute's end.");
                t.lines(alert_query(size, threshold_pct));
            }
            (Job::Process(ProcessFunctionSpec::RequestAssembler { .. }), _) => {
                t.line("-- (no query: see above)");
            }
        }
        t.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Interval literals: the largest exact unit, fractions of seconds, explicit precision.
    #[test]
    fn intervals() {
        assert_eq!(interval(60_000), "INTERVAL '1' MINUTE");
        assert_eq!(interval(20_000), "INTERVAL '20' SECOND");
        assert_eq!(interval(1_500), "INTERVAL '1.5' SECOND");
        assert_eq!(interval(1), "INTERVAL '0.001' SECOND");
        assert_eq!(interval(150_000), "INTERVAL '150' SECOND(3)");
        assert_eq!(interval(-15_000), "INTERVAL '-15' SECOND");
        assert_eq!(interval(-500), "INTERVAL '-0.5' SECOND");
        assert_eq!(string_lit("o'clock\n"), "'o''clock?'");
    }
}

//! The job's input as PyFlink: the scenario's elements from a collection, with the watermarks
//! Tidemark shows.
//!
//! PyFlink has no custom `WatermarkGenerator`, and its `WatermarkStrategy` emits periodically
//! (`pipeline.auto-watermark-interval`, 200 ms of processing time), which a small bounded input
//! outruns: event time would only advance at the end of input, with no late data and no late
//! firing. A Table API watermark expression does what Tidemark shows. The table's watermark
//! operator (`WatermarkAssignerOperator`) takes the expression's value for each row, keeps the
//! largest, and emits it right after the row when it has advanced by more than the interval;
//! with the interval set to 0 it emits every advance at once and never on a timer.
//! `to_data_stream` then hands the rows, their timestamps and these watermarks to the DataStream
//! job. Scripted watermarks become marker rows whose timestamp the expression takes as the
//! watermark; they are filtered out behind it, as the Java program filters its
//! `Event.watermark(ts)` items.
//!
//! Two settings of `main()` keep the order Tidemark shows, both seen to matter on PyFlink 2.3:
//! - `pipeline.auto-watermark-interval` 0. With the default 200 ms the operator emits a step of
//!   200 ms or less only on its processing-time timer, at no fixed place in the input: a 140 ms
//!   step was held back and an element Tidemark sends to the side output was added instead.
//! - `python.fn-execution.bundle.size` 1. A Python operator holds a watermark back until its
//!   bundle of elements is finished (100,000 elements or 1 s by default), so the elements behind
//!   the watermark overtake it: Lab 6.2's minute then fired once, with all four elements ($4.61 at
//!   watermark 10:03:00.999), instead of $4.10 and then $4.31.
//!
//! FLIP-296's `scan.watermark.emit.strategy` = `on-event` is no way here: it needs a source with
//! watermark push-down, and none reads a list of elements (the filesystem source leaves the
//! option unused behind a separate WatermarkAssigner; `datagen` rejects it).
//!
//! Checked on PyFlink 2.3 by `tests/codegen_flink`, which runs these programs.

use super::syntax::{duration, string_lit};
use crate::codegen::{Job, Text, element_fields, human_duration, sql, time_comment, time_suffix};
use crate::engine::scenario::{InputItem, Scenario, WatermarkSpec};
use crate::engine::time::{LONG_MIN, Millis};

/// Where the program's watermarks come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Watermarks {
    /// None scripted or generated: only the end of input's (`no_watermarks()`).
    EndOfInput,
    /// A DataStream `WatermarkStrategy`, periodic by Flink's rules: the scenario's own periodic
    /// emission (whose processing time Tidemark replays from the arrival times, a caveat says),
    /// or timestamps a watermark expression cannot read.
    Strategy,
    /// Right after every element (or marker row) that moves it, from a watermark expression.
    PerEvent,
}

impl Watermarks {
    pub(super) fn of(s: &Scenario, markers: bool) -> Watermarks {
        let generated = s.watermarks != WatermarkSpec::Explicit;
        if !generated && !markers {
            Watermarks::EndOfInput
        } else if generated && s.source.periodic {
            Watermarks::Strategy
        } else if timestamps_fit(s) {
            Watermarks::PerEvent
        } else {
            Watermarks::Strategy
        }
    }
}

/// The SQL watermark expression over `rowtime`: the strategy's watermark for an element, the
/// marker row's own timestamp for a scripted watermark.
fn expression(s: &Scenario, markers: bool) -> String {
    let generated = match s.watermarks {
        WatermarkSpec::Explicit => None,
        // Flink's BoundedOutOfOrdernessWatermarks: the largest timestamp seen - bound - 1 ms
        // (the operator keeps the largest value, so a row's own ts - bound - 1 ms is enough).
        WatermarkSpec::BoundedOutOfOrderness { bound: 0 } | WatermarkSpec::Monotonous => {
            Some("rowtime - INTERVAL '0.001' SECOND".to_string())
        }
        WatermarkSpec::BoundedOutOfOrderness { bound } => {
            Some(format!("rowtime - {} - INTERVAL '0.001' SECOND", sql::interval(bound)))
        }
    };
    match (generated, markers) {
        (Some(g), false) => g,
        (Some(g), true) => format!("CASE WHEN is_watermark THEN rowtime ELSE {g} END"),
        // NULL for an element: the operator ignores it.
        (None, _) => "CASE WHEN is_watermark THEN rowtime END".into(),
    }
}

/// What the program's watermarks cannot show of Tidemark's.
pub(super) fn caveats(s: &Scenario, markers: bool) -> Vec<String> {
    let mut out = Vec::new();
    match Watermarks::of(s, markers) {
        Watermarks::EndOfInput => {}
        Watermarks::Strategy => {
            if markers {
                out.push(
                    "The scenario's scripted watermarks (the comments in ELEMENTS) cannot be emitted: PyFlink has no custom WatermarkGenerator, and a DataStream strategy cannot take them beside its own.".into(),
                );
            }
            if !s.source.periodic {
                out.push(
                    "Some timestamps are not valid TIMESTAMP_LTZ values (years 0000 to 9999), so the watermark cannot come from a Table API expression after every element, as Tidemark shows it; PyFlink's strategy emits it periodically (every 200 ms), which this small input outruns: event time only advances at the end of input (no late data, no late firings). The Java program emits them as Tidemark does.".into(),
                );
            }
        }
        Watermarks::PerEvent => {
            // WatermarkAssignerOperator starts at 0 and emits a watermark only above the last
            // one, so nothing at or below 0 (1970-01-01) is ever emitted.
            let mut shown = s.input.iter().filter_map(|item| match item {
                InputItem::Element(e) => match s.watermarks {
                    WatermarkSpec::Explicit => None,
                    WatermarkSpec::BoundedOutOfOrderness { bound } => {
                        Some(e.ts.saturating_sub(bound).saturating_sub(1))
                    }
                    WatermarkSpec::Monotonous => Some(e.ts.saturating_sub(1)),
                },
                InputItem::Watermark(_) | InputItem::SourceWatermark(_) => item.watermark(),
                InputItem::Control(_) => None,
            });
            if shown.any(|wm| wm > LONG_MIN && wm <= 0) {
                out.push(
                    "The table's watermark operator starts at 0 and emits only watermarks above it: the watermarks at or below 0 that Tidemark shows are not emitted here (the job's watermark stays Long.MIN_VALUE until then), so a result or a lateness decision taken while the watermark is at or below 0 can differ.".into(),
                );
            }
        }
    }
    out
}

/// Valid as TIMESTAMP_LTZ(3) (years 0000 to 9999)?
fn in_timestamp_range(ts: Millis) -> bool {
    (-62_167_219_200_000..=253_402_300_799_999).contains(&ts)
}

/// Whether the watermark expression can read every timestamp of the input.
fn timestamps_fit(s: &Scenario) -> bool {
    s.input.iter().all(|item| match item {
        InputItem::Element(e) => in_timestamp_range(e.ts),
        InputItem::Watermark(_) | InputItem::SourceWatermark(_) => item.watermark().is_some_and(in_timestamp_range),
        InputItem::Control(_) => true,
    })
}

/// The `Event` row and its type (`is_watermark` with scripted watermarks as marker rows).
pub(super) fn event_type(t: &mut Text, events: bool, marker_rows: bool) {
    let mut fields = vec!["\"id\"", "\"key\"", "\"ts\"", "\"value\""];
    let mut field_types = vec!["Types.LONG()", "Types.STRING()", "Types.LONG()", "Types.LONG()"];
    if events {
        fields.push("\"event\"");
        field_types.push("Types.STRING()");
    }
    if marker_rows {
        fields.push("\"is_watermark\"");
        field_types.push("Types.BOOLEAN()");
    }
    t.line("# An input record: what the scenario's elements carry.");
    t.line(format!("Event = Row({})", fields.join(", ")));
    t.line("EVENT_TYPE = Types.ROW_NAMED(");
    t.line(format!("    [{}], [{}])", fields.join(", "), field_types.join(", ")));
}

/// The `watermark(ts)` marker (with scripted watermarks as marker rows) and `ELEMENTS`: the
/// scenario's input in arrival order.
pub(super) fn elements(t: &mut Text, s: &Scenario, events: bool, marker_rows: bool) {
    if marker_rows {
        t.line("def watermark(ts):");
        t.line("    \"\"\"A scripted watermark at `ts`: a marker row whose timestamp becomes the watermark.\"\"\"");
        t.line(format!("    return Event(0, \"\", ts, 0{}, True)", if events { ", None" } else { "" }));
        t.blank_lines(2);
    }
    t.line("# The scenario's input, in arrival order.");
    t.line("ELEMENTS = [");
    let flag = if marker_rows { ", False" } else { "" };
    for item in &s.input {
        match item {
            InputItem::Element(e) => t.line(format!(
                "    Event({}{flag}),{}",
                element_fields(e, events, |n| n.to_string(), string_lit, "None"),
                time_suffix(" #", e.ts)
            )),
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                let wm = item.watermark().unwrap_or(i64::MIN);
                if marker_rows {
                    t.line(format!("    watermark({wm}),{}", time_suffix(" #", wm)));
                } else {
                    t.line(format!("    # watermark {} (scripted; PyFlink cannot emit it)", time_comment(wm)));
                }
            }
            InputItem::Control(c) => {
                t.line(format!("    # {} (left out: this program runs without a failure)", c.kind.name()));
            }
        }
    }
    t.line("]");
}

/// The lines of `main()` that read the input with its timestamps and watermarks: `records` (a
/// DataStream) for a window or process function job, the view `events` for a window TVF.
pub(super) fn read_input(t: &mut Text, s: &Scenario, job: Job, markers: bool) {
    let watermarks = Watermarks::of(s, markers);
    if watermarks == Watermarks::PerEvent {
        return read_with_watermark_expression(t, s, job, markers);
    }
    let strategy = match s.watermarks {
        WatermarkSpec::Explicit if markers => {
            "WatermarkStrategy.for_monotonous_timestamps()  # not the scripted watermarks: see above".to_string()
        }
        WatermarkSpec::Explicit => "WatermarkStrategy.no_watermarks()  # only the end of input's watermark".into(),
        WatermarkSpec::BoundedOutOfOrderness { bound } => {
            format!("WatermarkStrategy.for_bounded_out_of_orderness({})", duration(bound))
        }
        WatermarkSpec::Monotonous => "WatermarkStrategy.for_monotonous_timestamps()".into(),
    };
    if s.source.periodic && s.source.interval != 200 {
        t.line(format!(
            "    env.get_config().set_auto_watermark_interval({})  # milliseconds of processing time",
            s.source.interval
        ));
    }
    t.line("    watermarks = (");
    t.line(format!("        {strategy}"));
    if let Some(d) = s.source.idleness {
        t.line(format!("        .with_idleness({})  # no events for this long (processing time): idle", duration(d)));
    }
    t.line("        .with_timestamp_assigner(EventTimestamps())");
    t.line("    )");
    t.line("    records = env.from_collection(ELEMENTS, type_info=EVENT_TYPE) \\");
    t.line("        .assign_timestamps_and_watermarks(watermarks)");
    if let Job::Tvf(_) = job {
        t.blank();
        t.line("    t_env = StreamTableEnvironment.create(env)");
        t.line("    t_env.get_config().set(\"table.local-time-zone\", \"UTC\")");
        t.line("    # The stream's timestamps and watermarks become the table's rowtime attribute.");
        t.line("    t_env.create_temporary_view(\"events\", records, Schema.new_builder()");
        t.line("                                .column_by_metadata(\"rowtime\", \"TIMESTAMP_LTZ(3)\")");
        t.line("                                .watermark(\"rowtime\", \"SOURCE_WATERMARK()\")");
        t.line("                                .build())");
    }
}

/// The per-event watermarks: the collection as a table with a watermark expression.
fn read_with_watermark_expression(t: &mut Text, s: &Scenario, job: Job, markers: bool) {
    t.line("    # The watermark as Tidemark shows it, right after the element that moves it. PyFlink's");
    t.line("    # WatermarkStrategy emits periodically (every 200 ms), which this small input outruns; a");
    t.line("    # Table API watermark expression is emitted as soon as it advances when the interval is 0.");
    t.line("    env.get_config().set_auto_watermark_interval(0)");
    t.line("    t_env = StreamTableEnvironment.create(env)");
    if let Job::Tvf(_) = job {
        t.line("    t_env.get_config().set(\"table.local-time-zone\", \"UTC\")");
    }
    match s.watermarks {
        WatermarkSpec::BoundedOutOfOrderness { bound } => {
            t.line(format!(
                "    # Bounded out-of-orderness: the largest timestamp seen - {} - 1 ms, as",
                human_duration(bound)
            ));
            t.line(format!("    # WatermarkStrategy.for_bounded_out_of_orderness({}) computes it.", duration(bound)));
        }
        WatermarkSpec::Monotonous => {
            t.line("    # Ascending timestamps: the largest timestamp seen - 1 ms, as");
            t.line("    # WatermarkStrategy.for_monotonous_timestamps() computes it.");
        }
        WatermarkSpec::Explicit => {}
    }
    if markers {
        t.line("    # A watermark(ts) row sets the watermark to its ts (the scenario's scripted watermarks).");
    }
    t.line("    table = t_env.from_data_stream(");
    t.line("        env.from_collection(ELEMENTS, type_info=EVENT_TYPE),");
    t.line("        Schema.new_builder()");
    t.line("        .column_by_expression(\"rowtime\", \"TO_TIMESTAMP_LTZ(ts, 3)\")");
    t.line(format!("        .watermark(\"rowtime\", \"{}\")", expression(s, markers)));
    t.line("        .build())");
    match (job, markers) {
        (Job::Tvf(_), false) => t.line("    t_env.create_temporary_view(\"events\", table)"),
        (Job::Tvf(_), true) => {
            t.line("    # The marker rows go, their watermarks stay.");
            t.line("    t_env.create_temporary_view(\"events\", table.where(col(\"is_watermark\") == lit(False)))");
        }
        (_, false) => t.line("    records = t_env.to_data_stream(table)"),
        (_, true) => {
            t.line("    records = t_env.to_data_stream(table) \\");
            t.line("        .filter(lambda r: not r.is_watermark)  # the marker rows go, their watermarks stay");
        }
    }
}

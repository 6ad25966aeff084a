//! The Flink program for a scenario, as text, in three dialects: Java DataStream (Flink 2.x,
//! `Duration`-based), PyFlink in the course's style, and Flink SQL with a window TVF.
//!
//! ```text
//!  Scenario ──▶ java::program    complete class with main(): fromData → timestamps and watermarks
//!     │                          → keyBy → window(assigner).trigger.evictor.allowedLateness
//!     │                          .sideOutputLateData → aggregate/reduce/process → print
//!     ├──────▶ pyflink::program  the same job in PyFlink, its watermarks after every element
//!     │                          from a Table API watermark expression (PyFlink has no custom
//!     │                          generator); what PyFlink lacks (evictors, ...) is said in a
//!     │                          comment, never dropped
//!     └──────▶ sql::program      DDL + INSERT of the elements + a TUMBLE/HOP/SESSION query, with
//!                                a comment block listing what the TVF cannot express
//! ```
//!
//! The rooms: `text.rs` builds the lines and writes the comment header and caveat lists every
//! dialect opens with; `java/` and `pyflink/` hold each dialect's generator with its syntax
//! (literals, imports) and the classes or functions of a window job beside it; `process_fn.rs` is
//! the course's keyed process functions in both; `sql.rs` is the SQL program.
//!
//! Every setting of the scenario either appears in the program or in a comment that says why it
//! does not (a [`Program::caveats`] entry too, for the UI). Generation is pure and never panics.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod java;
mod process_fn;
pub mod pyflink;
pub mod sql;
mod text;

use crate::engine::scenario::{Element, InputItem, ProcessFunctionSpec, Scenario, TvfSpec};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis, format_millis};
pub(crate) use text::{JAVA_COMMENTS, PYTHON_COMMENTS, SQL_COMMENTS, Text};

/// The three languages a scenario is shown in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    Java,
    PyFlink,
    Sql,
}

impl Dialect {
    pub const ALL: [Dialect; 3] = [Dialect::Java, Dialect::PyFlink, Dialect::Sql];

    /// The tab label.
    pub fn label(&self) -> &'static str {
        match self {
            Dialect::Java => "Java DataStream",
            Dialect::PyFlink => "PyFlink",
            Dialect::Sql => "Flink SQL",
        }
    }

    /// A short id (`data-dialect` attribute, URL fragment).
    pub fn id(&self) -> &'static str {
        match self {
            Dialect::Java => "java",
            Dialect::PyFlink => "pyflink",
            Dialect::Sql => "sql",
        }
    }
}

/// A generated program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub dialect: Dialect,
    /// The file to save it as (`CourseLab6TenantCostJob.java`, `course_lab_6_tenant_cost.py`, ...).
    pub file_name: String,
    pub text: String,
    /// What of the scenario this program cannot express, or expresses differently (one sentence
    /// each; the same sentences are comments in `text`).
    pub caveats: Vec<String>,
}

/// What the scenario's integer values stand for, as the programs show them. A scenario does not
/// say; its preset does (Lab 6's values are US cents, which the course writes as $4.10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ValueUnit {
    /// The bare number.
    #[default]
    Plain,
    /// US cents: the PyFlink program (the course's language) adds each amount in dollars, a
    /// `usd` DECIMAL beside the value (410 → 4.10). Java and SQL print the cents.
    UsdCents,
}

/// The program for `scenario` in `dialect`.
pub fn generate(scenario: &Scenario, dialect: Dialect) -> Program {
    generate_with(scenario, dialect, ValueUnit::Plain)
}

/// The program for `scenario` in `dialect`, its values shown as `unit`.
pub fn generate_with(scenario: &Scenario, dialect: Dialect, unit: ValueUnit) -> Program {
    match dialect {
        Dialect::Java => java::program(scenario),
        Dialect::PyFlink => pyflink::program_with(scenario, unit),
        Dialect::Sql => sql::program(scenario),
    }
}

/// All three programs, in [`Dialect::ALL`] order.
pub fn generate_all(scenario: &Scenario) -> Vec<Program> {
    Dialect::ALL.iter().map(|d| generate(scenario, *d)).collect()
}

// ------------------------------------------------------------------ shared helpers

/// A time unit for `Duration.ofX`, `Time.x`, `INTERVAL 'n' X`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unit {
    Days,
    Hours,
    Minutes,
    Seconds,
    Millis,
}

impl Unit {
    fn millis(&self) -> i64 {
        match self {
            Unit::Days => 86_400_000,
            Unit::Hours => 3_600_000,
            Unit::Minutes => 60_000,
            Unit::Seconds => 1_000,
            Unit::Millis => 1,
        }
    }
}

/// The largest unit that expresses `ms` exactly: `(120_000)` → `(2, Minutes)`. Zero and the
/// `Long` extremes stay in milliseconds.
pub(crate) fn split_duration(ms: Millis) -> (i64, Unit) {
    if ms == 0 || ms == LONG_MIN || ms == LONG_MAX {
        return (ms, Unit::Millis);
    }
    for unit in [Unit::Days, Unit::Hours, Unit::Minutes, Unit::Seconds] {
        if ms % unit.millis() == 0 {
            return (ms / unit.millis(), unit);
        }
    }
    (ms, Unit::Millis)
}

/// A duration for people: `2 min`, `20 s`, `1.5 s`, `250 ms`, `Long.MAX ms`.
pub(crate) fn human_duration(ms: Millis) -> String {
    match ms {
        LONG_MAX => "Long.MAX_VALUE ms".into(),
        LONG_MIN => "Long.MIN_VALUE ms".into(),
        _ => match split_duration(ms) {
            (n, Unit::Days) => format!("{n} d"),
            (n, Unit::Hours) => format!("{n} h"),
            (n, Unit::Minutes) => format!("{n} min"),
            (n, Unit::Seconds) => format!("{n} s"),
            (n, Unit::Millis) => format!("{n} ms"),
        },
    }
}

/// `CamelCase` + `Job` from a scenario name, a valid Java class name that cannot clash with the
/// classes the program imports or declares.
pub fn java_class_name(scenario_name: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    for c in scenario_name.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "Scenario");
    }
    out.push_str("Job");
    out
}

/// `snake_case` from a scenario name: a Python module name, a file name, a path segment.
pub fn snake_name(scenario_name: &str) -> String {
    let mut out = String::new();
    for c in scenario_name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('_') && !out.is_empty() {
            out.push('_');
        }
    }
    let mut out = out.trim_end_matches('_').to_string();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "scenario_");
    }
    out
}

/// An event time for people: `10:00:05.000` for wall-clock times, else the raw number.
pub(crate) fn time_comment(ts: Millis) -> String {
    format_millis(ts)
}

/// A trailing comment with the readable time, when it says more than the number itself:
/// `" // 10:00:05.000"` (with `marker` `"//"`), nothing for `59999`.
pub(crate) fn time_suffix(marker: &str, ts: Millis) -> String {
    match format_millis(ts) {
        t if t == ts.to_string() => String::new(),
        t => format!(" {marker} {t}"),
    }
}

/// `Class.of(arg, ..[, offset])` of a time-window assigner (`TumblingEventTimeWindows.of(size)`,
/// `SlidingEventTimeWindows.of(size, slide, offset)`, ...), `duration` writing each argument in
/// the dialect's syntax; the offset is written only when it is not 0.
pub(crate) fn assigner_of(class: &str, args: &[Millis], offset: Millis, duration: impl Fn(Millis) -> String) -> String {
    let mut args: Vec<String> = args.iter().map(|ms| duration(*ms)).collect();
    if offset != 0 {
        args.push(duration(offset));
    }
    format!("{class}.of({})", args.join(", "))
}

/// The escape Java and Python both write for `c` in a double-quoted string literal, if it has a
/// short one.
pub(crate) fn short_escape(c: char) -> Option<&'static str> {
    match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        _ => None,
    }
}

/// An element's fields as a dialect writes them in its input: `id, key, ts, value`, and the
/// event type when the elements carry one (`null_event` where an element has none).
pub(crate) fn element_fields(
    e: &Element,
    events: bool,
    int: impl Fn(i64) -> String,
    string: impl Fn(&str) -> String,
    null_event: &str,
) -> String {
    let event = match (&e.event, events) {
        (Some(ev), true) => format!(", {}", string(ev)),
        (None, true) => format!(", {null_event}"),
        _ => String::new(),
    };
    format!("{}, {}, {}, {}{event}", int(e.id), string(&e.key), int(e.ts), int(e.value))
}

/// Whether the input scripts any watermark.
pub(crate) fn has_watermark_items(scenario: &Scenario) -> bool {
    scenario.input.iter().any(|i| i.watermark().is_some())
}

/// What the scenario runs: a DataStream window (the oracle's job), a SQL window TVF, or one of
/// the course's keyed process functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Job {
    Window,
    Tvf(TvfSpec),
    Process(ProcessFunctionSpec),
}

pub(crate) fn job(s: &Scenario) -> Job {
    match (s.process_function, s.tvf) {
        (Some(p), _) => Job::Process(p),
        (None, Some(t)) => Job::Tvf(t),
        (None, None) => Job::Window,
    }
}

/// The `event` values the engine's process functions recognise (case-insensitive), as
/// `src/engine/process_fn.rs` reads them.
pub(crate) const STARTED_EVENTS: [&str; 3] = ["started", "requeststarted", "request_started"];
pub(crate) const COMPLETED_EVENTS: [&str; 3] = ["completed", "requestcompleted", "request_completed"];
pub(crate) const ERROR_EVENTS: [&str; 3] = ["error", "modelerror", "model_error"];
/// An element without `event` counts as a request too.
pub(crate) const REQUEST_EVENTS: [&str; 3] = ["request", "requestrecord", "ok"];

/// Whether the elements carry an `event` type (the process functions read it).
pub(crate) fn has_events(s: &Scenario) -> bool {
    matches!(job(s), Job::Process(_)) || s.elements().any(|e| e.event.is_some())
}

/// The scenario a program runs: checkpoint and crash items are not input a job reads, and a job
/// cannot put a checkpoint or a crash after a given element, so they are left out, with the
/// caveat that says so and what the program prints instead (each result once).
pub(crate) fn without_recovery(s: &Scenario) -> (std::borrow::Cow<'_, Scenario>, Option<String>) {
    if !s.has_recovery() {
        return (std::borrow::Cow::Borrowed(s), None);
    }
    let mut job = s.clone();
    job.input.retain(|i| !matches!(i, InputItem::Control(_)));
    let caveat = "The scenario's checkpoint and crash items are left out: this program does not reproduce the crash. It runs without a failure, so it prints each result once: the recovery duplicates that Tidemark shows after the restore are not printed. A job cannot place them itself: Flink takes checkpoints on a processing-time interval, not after a given element, and this bounded input is read before one is due. Tidemark checks its restore against real Flink with a harness (tests/oracle-ext) that stops the source at each item, then triggers the checkpoint or kills the TaskManager of a MiniCluster.".to_string();
    (std::borrow::Cow::Owned(job), Some(caveat))
}

/// What a real job on a bounded, single-stream source cannot reproduce of the scenario's
/// source: partitions, and everything that depends on processing time (Tidemark replays it
/// from the arrival times; a real job reads this input in milliseconds of wall-clock time).
pub(crate) fn source_caveats(s: &Scenario) -> Vec<String> {
    let mut out = Vec::new();
    let partitions = s.partition_count();
    if partitions > 1 {
        out.push(format!(
            "The scenario reads {partitions} source partitions, each with its own watermark generator (the job's watermark is their minimum); this program reads one stream with one watermark, so a slow or quiet partition holds nothing back here."
        ));
    }
    if s.input.iter().any(|i| matches!(i, InputItem::SourceWatermark(m) if m.partition > 0)) {
        out.push("Watermark items scripted for one partition are emitted into the one stream here.".into());
    }
    let mut clock = Vec::new();
    if s.source.periodic {
        clock.push(format!("periodic watermarks every {}", human_duration(s.source.interval)));
    }
    if let Some(d) = s.source.idleness {
        clock.push(format!("idleness after {}", human_duration(d)));
    }
    if !s.assigner.is_event_time() && job(s) == Job::Window {
        clock.push("processing-time windows".into());
    }
    if let Job::Process(ProcessFunctionSpec::RequestAssembler { ttl: Some(ttl), .. }) = job(s) {
        clock.push(format!("the state TTL of {}", human_duration(ttl)));
    }
    if !clock.is_empty() {
        out.push(format!(
            "Tidemark replays processing time from the scenario's arrival times ({}); a real job reads this bounded input in a few milliseconds of wall-clock time, so what depends on processing time happens differently here.",
            clock.join(", ")
        ));
    }
    out
}

/// Flink's own rejection of the job, if the configuration is one it refuses to build.
pub(crate) fn build_error(scenario: &Scenario) -> Option<String> {
    if job(scenario) != Job::Window {
        return None;
    }
    crate::engine::operator::validate(scenario).err().map(|e| e.to_string())
}

/// Programs longer than this many lines are shown in part ([`shown_lines`]).
const SHOWN_LINES_MAX: usize = 2_000;
/// The lines shown of such a program: its head (the imports, the job, the input's start)...
const HEAD_LINES: usize = 1_200;
/// ...and its tail (the input's end, the windows, the sinks).
const TAIL_LINES: usize = 300;
const _: () = assert!(HEAD_LINES + TAIL_LINES < SHOWN_LINES_MAX);

/// What the Code tab shows of a long program (`ui::components::code_panel`), and how many lines it
/// leaves out: the first and last lines, with a comment in the dialect between them saying how
/// many are left out and that Copy and Save give the whole program; `None` when it is shown
/// whole. At 100,000 elements the PyFlink and SQL programs write a line per input item (100,000
/// lines): laid out in the page, switching to them was a task of 1.7 and 1.1 s. (The Java program
/// writes its input as string constants of ≈ 30,000 characters, 262 lines at 100,000 elements:
/// shown whole.) Made by the extras module.
pub fn shown_lines(text: &str, dialect: Dialect) -> Option<(String, usize)> {
    let lines = text.lines().count();
    if lines <= SHOWN_LINES_MAX {
        return None;
    }
    let left_out = lines - HEAD_LINES - TAIL_LINES;
    let comment = match dialect {
        Dialect::Java => "//",
        Dialect::PyFlink => "#",
        Dialect::Sql => "--",
    };
    let fold = format!("{comment} … {left_out} more lines are not shown here: Copy and Save give the whole program.");
    let mut all = text.lines();
    let mut shown: Vec<&str> = all.by_ref().take(HEAD_LINES).collect();
    shown.extend(["", &fold, ""]);
    shown.extend(all.skip(left_out));
    Some((shown.join("\n"), left_out))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program of up to 2,000 lines is shown whole; a longer one as its first 1,200 and last 300
    /// lines around a comment in its dialect that says how many are left out: with them put back
    /// in its place, the whole program, in order.
    #[test]
    fn a_long_program_is_shown_in_part_and_says_how_much() {
        let program = |n: usize| (0..n).map(|i| format!("line {i}")).collect::<Vec<_>>().join("\n");
        assert_eq!(shown_lines(&program(2_000), Dialect::Java), None);
        for (n, dialect, comment) in
            [(2_001, Dialect::Java, "//"), (10_000, Dialect::PyFlink, "#"), (100_007, Dialect::Sql, "--")]
        {
            let text = program(n);
            let Some((shown, left_out)) = shown_lines(&text, dialect) else { panic!("{n} lines: in part") };
            assert_eq!(left_out, n - HEAD_LINES - TAIL_LINES);
            let lines: Vec<&str> = shown.lines().collect();
            assert_eq!(lines.len(), HEAD_LINES + 3 + TAIL_LINES);
            let fold = lines[HEAD_LINES + 1];
            assert!(fold.starts_with(&format!("{comment} … {left_out} more lines")), "{fold}");
            assert!(fold.ends_with("Copy and Save give the whole program."));
            let missing: Vec<String> = (HEAD_LINES..HEAD_LINES + left_out).map(|i| format!("line {i}")).collect();
            let whole = [
                &lines[..HEAD_LINES],
                &missing.iter().map(String::as_str).collect::<Vec<_>>(),
                &lines[HEAD_LINES + 3..],
            ]
            .concat();
            assert_eq!(whole.join("\n"), text, "{n} lines");
        }
    }

    /// Durations use the largest exact unit, as a person would write them.
    #[test]
    fn durations_pick_the_largest_exact_unit() {
        assert_eq!(split_duration(120_000), (2, Unit::Minutes));
        assert_eq!(split_duration(20_000), (20, Unit::Seconds));
        assert_eq!(split_duration(1_500), (1_500, Unit::Millis));
        assert_eq!(split_duration(-15_000), (-15, Unit::Seconds));
        assert_eq!(split_duration(86_400_000), (1, Unit::Days));
        assert_eq!(split_duration(0), (0, Unit::Millis));
        assert_eq!(human_duration(i64::MAX), "Long.MAX_VALUE ms");
        assert_eq!(human_duration(300_000), "5 min");
    }

    /// Names become valid identifiers whatever the scenario is called.
    #[test]
    fn names_are_identifiers() {
        assert_eq!(java_class_name("course_lab_6_tenant_cost"), "CourseLab6TenantCostJob");
        assert_eq!(java_class_name("6 weird-name!"), "Scenario6WeirdNameJob");
        assert_eq!(java_class_name("é"), "ScenarioJob");
        assert_eq!(snake_name("Course Lab-6"), "course_lab_6");
        assert_eq!(snake_name("42"), "scenario_42");
        assert_eq!(snake_name("--"), "scenario_");
    }
}

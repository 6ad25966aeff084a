//! The one registry of what the page can open by name:
//!
//! - course presets: the course texts' worked examples as scenarios, each with a title, a goal in
//!   the course's own numbers, where it comes from, how to write its values and the step to open
//!   at; one JSON file per preset in `assets/presets/`, compiled in with `include_str!`;
//! - examples: plain scenarios for the menu's "Examples" group (copies of engine test scenarios,
//!   in `assets/presets/examples/`: product code never reads `tests/`), the first of which is the
//!   scenario shown when a link names none ([`default_scenario`]).
//!
//! Every preset that a recorded real-Flink scenario backs names it in `golden` (a file in
//! `tests/flink/scenarios/` or `tests/flink-ext/scenarios/`); `golden_prefix: k` means the preset is that scenario's first `k`
//! input items with the input left running (`end_of_input: false`), so its outputs are a prefix
//! of the golden's. `tests/teach_presets.rs` checks both.
//!
//! File format:
//! ```json
//! {"id": "lab-6-2", "title": "...", "goal": "...", "source": "Windows and Timers, Lab 6.2",
//!  "value_format": "usd_cents", "default_step": 3,
//!  "golden": "course_lab_6_tenant_cost", "golden_prefix": 4,
//!  "course_rules": ["fires_at_end", "watermark_max_minus_d"],
//!  "scenario": { oracle-format scenario }}
//! ```
//!
//! `course_rules` (optional) names the simplified rules of the course text the preset
//! reproduces ([`CourseRule`]); the narration adds Flink's exact value where it meets one.

use std::fmt;

use serde_json::Value;

use super::course_rules::CourseRule;
use super::format::ValueFormat;
use crate::engine::Scenario;

/// A course preset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The URL name: `#preset=lab-6-2`.
    pub id: String,
    pub title: String,
    /// What to do and what to see, with the course's numbers.
    pub goal: String,
    /// The course text and section it reproduces.
    pub source: String,
    pub value_format: ValueFormat,
    /// The playhead to open at (after this many steps; see [`crate::engine::view::at_step`]).
    pub default_step: usize,
    /// The recorded real-Flink scenario behind it (`tests/flink/scenarios/<golden>.json`).
    pub golden: Option<String>,
    /// The preset is the golden scenario's first `k` input items, with the input left running.
    pub golden_prefix: Option<usize>,
    /// The course text's simplified rules that its narration names beside Flink's exact values.
    pub course_rules: Vec<CourseRule>,
    pub scenario: Scenario,
    /// Opens in compare mode with this second configuration (`"compare"`, a scenario; an empty
    /// input: the same input as `scenario`).
    pub compare: Option<Scenario>,
}

/// A preset file that does not load: `path` names the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PresetError {
    pub preset: String,
    pub path: String,
    pub message: String,
}

impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "preset {}: {}: {}", self.preset, self.path, self.message)
    }
}

impl std::error::Error for PresetError {}

/// The preset files, in the order a course reads them (the UI's menu order).
const FILES: [(&str, &str); 22] = [
    ("lab-6-1", include_str!("../../assets/presets/lab-6-1.json")),
    ("lab-6-2", include_str!("../../assets/presets/lab-6-2.json")),
    ("lab-6-2-recovery", include_str!("../../assets/presets/lab-6-2-recovery.json")),
    ("lab-6-3", include_str!("../../assets/presets/lab-6-3.json")),
    ("tenant-cost-aggregate", include_str!("../../assets/presets/tenant-cost-aggregate.json")),
    ("model-latency-sliding", include_str!("../../assets/presets/model-latency-sliding.json")),
    ("model-latency-p50-p99", include_str!("../../assets/presets/model-latency-p50-p99.json")),
    ("worked-timeline", include_str!("../../assets/presets/worked-timeline.json")),
    ("one-hour-sliding", include_str!("../../assets/presets/one-hour-sliding.json")),
    ("sliding-96-copies", include_str!("../../assets/presets/sliding-96-copies.json")),
    ("session-bridge", include_str!("../../assets/presets/session-bridge.json")),
    ("time-windows-events-1-7", include_str!("../../assets/presets/time-windows-events-1-7.json")),
    ("count-trigger", include_str!("../../assets/presets/count-trigger.json")),
    ("early-firing-duplicates", include_str!("../../assets/presets/early-firing-duplicates.json")),
    ("lab-6-4", include_str!("../../assets/presets/lab-6-4.json")),
    ("lab-6-4-no-ttl", include_str!("../../assets/presets/lab-6-4-no-ttl.json")),
    ("request-assembler-timers", include_str!("../../assets/presets/request-assembler-timers.json")),
    ("error-rate-alert", include_str!("../../assets/presets/error-rate-alert.json")),
    ("quiet-night-stall", include_str!("../../assets/presets/quiet-night-stall.json")),
    ("quiet-night-idleness", include_str!("../../assets/presets/quiet-night-idleness.json")),
    ("quiet-night-compare", include_str!("../../assets/presets/quiet-night-compare.json")),
    ("slowest-partition", include_str!("../../assets/presets/slowest-partition.json")),
];

/// The menu's examples: (id, menu title, scenario JSON), in menu order. The id is the scenario's
/// name; `tests/teach_presets.rs` checks that each file equals the engine test scenario it copies.
const EXAMPLES: [(&str, &str, &str); 8] = [
    (
        "course_worked_timeline_7",
        "Course: worked timeline (1 min, 5 s bound, 30 s lateness)",
        include_str!("../../assets/presets/examples/course_worked_timeline_7.json"),
    ),
    (
        "course_time_windows_events_1_7",
        "Course: events 1–7",
        include_str!("../../assets/presets/examples/course_time_windows_events_1_7.json"),
    ),
    (
        "tumbling_basic",
        "Tumbling, explicit watermarks",
        include_str!("../../assets/presets/examples/tumbling_basic.json"),
    ),
    ("late_side_output", "Late side output", include_str!("../../assets/presets/examples/late_side_output.json")),
    (
        "lateness_late_firings_and_cleanup_boundary",
        "Allowed lateness: late firings",
        include_str!("../../assets/presets/examples/lateness_late_firings_and_cleanup_boundary.json"),
    ),
    ("sliding_basic", "Sliding windows", include_str!("../../assets/presets/examples/sliding_basic.json")),
    ("session_basic", "Session windows", include_str!("../../assets/presets/examples/session_basic.json")),
    (
        "course_late_element_bridges_sessions",
        "Session merge (late bridge)",
        include_str!("../../assets/presets/examples/course_late_element_bridges_sessions.json"),
    ),
];

/// An example scenario of the menu.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    pub id: &'static str,
    pub title: &'static str,
    pub scenario: Scenario,
}

/// Every example that loads, in menu order (a broken file is left out; a test asserts none is).
pub fn examples() -> Vec<Example> {
    EXAMPLES.iter().filter_map(|(id, title, text)| example_of(id, title, text)).collect()
}

/// The example with this id.
pub fn example(id: &str) -> Option<Example> {
    EXAMPLES.iter().find(|(i, _, _)| *i == id).and_then(|(id, title, text)| example_of(id, title, text))
}

/// (id, menu title) of every example, without parsing.
pub fn example_titles() -> Vec<(&'static str, &'static str)> {
    EXAMPLES.iter().map(|(id, title, _)| (*id, *title)).collect()
}

fn example_of(id: &'static str, title: &'static str, text: &str) -> Option<Example> {
    Scenario::from_json_str(text).ok().map(|scenario| Example { id, title, scenario })
}

/// The scenario shown when a link names none: the course's worked one-key timeline.
pub fn default_scenario() -> Scenario {
    EXAMPLES.first().and_then(|(id, title, text)| example_of(id, title, text)).map(|e| e.scenario).unwrap_or_default()
}

/// The ids of all presets, in menu order (cheap: no parsing).
pub fn ids() -> Vec<&'static str> {
    FILES.iter().map(|(id, _)| *id).collect()
}

/// Every preset that loads, in menu order. A broken file is left out rather than panicking;
/// [`load_all`] reports it (and a test asserts there is none).
pub fn all() -> Vec<Preset> {
    load_all().into_iter().filter_map(Result::ok).collect()
}

/// Every preset file, loaded or with its error.
pub fn load_all() -> Vec<Result<Preset, PresetError>> {
    FILES.iter().map(|(id, text)| parse(id, text)).collect()
}

/// The preset with this id, if there is one and it loads.
pub fn by_id(id: &str) -> Option<Preset> {
    FILES.iter().find(|(i, _)| *i == id).and_then(|(i, text)| parse(i, text).ok())
}

fn err(preset: &str, path: &str, message: impl Into<String>) -> PresetError {
    PresetError { preset: preset.into(), path: path.into(), message: message.into() }
}

fn text_field(obj: &serde_json::Map<String, Value>, preset: &str, name: &str) -> Result<String, PresetError> {
    match obj.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(err(preset, name, "must be a string")),
        None => Err(err(preset, name, "is missing")),
    }
}

/// Parses one preset file; `name` is used in errors until the file's own id is known.
pub fn parse(name: &str, text: &str) -> Result<Preset, PresetError> {
    let value: Value = serde_json::from_str(text).map_err(|e| err(name, "", format!("not valid JSON: {e}")))?;
    let Some(obj) = value.as_object() else { return Err(err(name, "", "must be an object")) };
    let id = text_field(obj, name, "id")?;
    let title = text_field(obj, &id, "title")?;
    let goal = text_field(obj, &id, "goal")?;
    let source = text_field(obj, &id, "source")?;
    let format_name = text_field(obj, &id, "value_format")?;
    let Some(value_format) = ValueFormat::parse(&format_name) else {
        return Err(err(&id, "value_format", format!("unknown format {format_name:?} (usd_cents, count, ms, plain)")));
    };
    let default_step = match obj.get("default_step") {
        Some(v) => v.as_u64().ok_or_else(|| err(&id, "default_step", "must be a whole number"))? as usize,
        None => 0,
    };
    let golden = match obj.get("golden") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(err(&id, "golden", "must be a string")),
    };
    let golden_prefix = match obj.get("golden_prefix") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_u64().ok_or_else(|| err(&id, "golden_prefix", "must be a whole number"))? as usize),
    };
    let course_rules = match obj.get("course_rules") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().and_then(CourseRule::parse).ok_or_else(|| {
                    let known: Vec<&str> = CourseRule::ALL.iter().map(|r| r.id()).collect();
                    err(&id, &format!("course_rules[{i}]"), format!("must be one of {}", known.join(", ")))
                })
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(err(&id, "course_rules", "must be a list")),
    };
    let Some(scenario_value) = obj.get("scenario") else { return Err(err(&id, "scenario", "is missing")) };
    let scenario = Scenario::from_value(scenario_value).map_err(|e| {
        let path = if e.path.is_empty() { "scenario".to_string() } else { format!("scenario.{}", e.path) };
        err(&id, &path, e.message)
    })?;
    let compare = match obj.get("compare") {
        None | Some(Value::Null) => None,
        Some(v) => Some(Scenario::from_value(v).map_err(|e| {
            let path = if e.path.is_empty() { "compare".to_string() } else { format!("compare.{}", e.path) };
            err(&id, &path, e.message)
        })?),
    };
    let steps = scenario.input.len() + 1;
    if default_step > steps {
        return Err(err(&id, "default_step", format!("{default_step} is past the last step {steps}")));
    }
    Ok(Preset {
        id,
        title,
        goal,
        source,
        value_format,
        default_step,
        golden,
        golden_prefix,
        course_rules,
        scenario,
        compare,
    })
}

impl Preset {
    /// The number of playhead positions after 0: input items plus the end of input.
    pub fn steps(&self) -> usize {
        self.scenario.input.len() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every example loads, under its id (the scenario's name); the first is the default scenario.
    #[test]
    fn examples_load_and_the_first_is_the_default() {
        assert_eq!(examples().len(), EXAMPLES.len(), "an example file does not load");
        for e in examples() {
            assert_eq!(e.scenario.name, e.id);
            assert_eq!(example(e.id).map(|x| x.scenario), Some(e.scenario.clone()));
        }
        assert_eq!(default_scenario().name, "course_worked_timeline_7");
        assert_eq!(example("nope"), None);
        assert_eq!(example_titles().len(), EXAMPLES.len());
    }

    /// The examples are copies of engine test scenarios (product code never reads `tests/`): each
    /// file is the same JSON as the test fixture it copies, so the goldens that check the fixture
    /// check the example.
    #[test]
    fn examples_are_the_test_fixtures() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/flink/scenarios");
        for (id, _, text) in EXAMPLES {
            let fixture = std::fs::read_to_string(dir.join(format!("{id}.json")))
                .unwrap_or_else(|e| panic!("tests/flink/scenarios/{id}.json: {e}"));
            let parse = |t: &str| serde_json::from_str::<Value>(t).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(parse(text), parse(&fixture), "assets/presets/examples/{id}.json differs from its fixture");
        }
    }
}

//! Loading a scenario: the oracle's JSON (plus Tidemark's optional fields) into a [`Scenario`].
//! Every problem becomes a [`ScenarioError`] that names the field (`input[3].ts`) and the rule.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::Threshold;
use super::tvf_rule::tvf_rule;
use super::{
    AssignerSpec, BaseTrigger, Control, ControlKind, DeltaFn, Element, EvictorKind, EvictorSpec, InputItem, Key,
    Marker, ProcessFunctionSpec, Result, Scenario, ScenarioError, SourceSpec, TriggerSpec, TvfSpec, WatermarkSpec,
    WindowFunctionSpec, limits, limits::Limits,
};
use crate::engine::aggregate::{CourseAggregate, DEFAULT_K};
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis};
use crate::engine::trace::TimeDomain;

/// Shortens user text quoted in an error message, so a hostile 1 MB string cannot flood it.
fn quote(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 { format!("{}…", s.chars().take(40).collect::<String>()) } else { s }
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() { field.to_string() } else { format!("{path}.{field}") }
}

/// A 64-bit integer: a JSON integer, or the strings `"LONG_MAX"` / `"LONG_MIN"`.
fn parse_i64(v: &Value, path: &str) -> Result<i64> {
    match v {
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                Ok(i)
            } else if n.as_u64().is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0) {
                Err(ScenarioError::new(
                    path,
                    format!("{} is outside the 64-bit integer range (use \"LONG_MAX\" or \"LONG_MIN\")", quote(v)),
                ))
            } else {
                Err(ScenarioError::new(path, format!("must be a whole number of milliseconds, not {}", quote(v))))
            }
        }
        Value::String(s) if s == "LONG_MAX" => Ok(LONG_MAX),
        Value::String(s) if s == "LONG_MIN" => Ok(LONG_MIN),
        _ => {
            Err(ScenarioError::new(path, format!("must be an integer, \"LONG_MAX\" or \"LONG_MIN\", not {}", quote(v))))
        }
    }
}

fn field<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).filter(|v| !v.is_null())
}

fn req_i64(obj: &Map<String, Value>, name: &str, path: &str) -> Result<i64> {
    match field(obj, name) {
        Some(v) => parse_i64(v, &join(path, name)),
        None => Err(ScenarioError::new(join(path, name), "is missing")),
    }
}

fn opt_i64(obj: &Map<String, Value>, name: &str, path: &str, default: i64) -> Result<i64> {
    match field(obj, name) {
        Some(v) => parse_i64(v, &join(path, name)),
        None => Ok(default),
    }
}

fn opt_bool(obj: &Map<String, Value>, name: &str, path: &str, default: bool) -> Result<bool> {
    match field(obj, name) {
        None => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(v) => Err(ScenarioError::new(join(path, name), format!("must be true or false, not {}", quote(v)))),
    }
}

fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| ScenarioError::new(path, format!("must be an object, not {}", quote(v))))
}

fn kind_of<'a>(obj: &'a Map<String, Value>, path: &str) -> Result<&'a str> {
    match obj.get("kind") {
        Some(Value::String(s)) => Ok(s),
        Some(v) => Err(ScenarioError::new(join(path, "kind"), format!("must be a string, not {}", quote(v)))),
        None => Err(ScenarioError::new(join(path, "kind"), "is missing")),
    }
}

fn unknown_kind(path: &str, kind: &str, known: &[&str]) -> ScenarioError {
    ScenarioError::new(
        join(path, "kind"),
        format!("unknown kind {} (expected one of: {})", quote(&Value::String(kind.into())), known.join(", ")),
    )
}

fn parse_assigner(v: &Value) -> Result<AssignerSpec> {
    let path = "assigner";
    let obj = as_object(v, path)?;
    // Sizes, slides and gaps are checked against Flink's own rules when the operator is built
    // (`engine::operator::validate`), which reports Flink's exception as an `error` output; the
    // loader only checks types, so that the CLI mirrors the oracle on scenarios Flink rejects.
    Ok(match kind_of(obj, path)? {
        "tumbling" => {
            AssignerSpec::Tumbling { size: req_i64(obj, "size", path)?, offset: opt_i64(obj, "offset", path, 0)? }
        }
        "sliding" => AssignerSpec::Sliding {
            size: req_i64(obj, "size", path)?,
            slide: req_i64(obj, "slide", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        "session" => AssignerSpec::Session { gap: req_i64(obj, "gap", path)? },
        "dynamic_session" => {
            let default_gap = req_i64(obj, "default_gap", path)?;
            let mut gaps = BTreeMap::new();
            if let Some(g) = field(obj, "gaps") {
                let gpath = join(path, "gaps");
                for (k, v) in as_object(g, &gpath)? {
                    gaps.insert(k.clone(), parse_i64(v, &format!("{gpath}.{k}"))?);
                }
            }
            AssignerSpec::DynamicSession { default_gap, gaps }
        }
        "global" => AssignerSpec::Global,
        "global_eos" => AssignerSpec::GlobalEos,
        "tumbling_processing" => AssignerSpec::TumblingProcessing {
            size: req_i64(obj, "size", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        "sliding_processing" => AssignerSpec::SlidingProcessing {
            size: req_i64(obj, "size", path)?,
            slide: req_i64(obj, "slide", path)?,
            offset: opt_i64(obj, "offset", path, 0)?,
        },
        other => {
            return Err(unknown_kind(
                path,
                other,
                &[
                    "tumbling",
                    "sliding",
                    "session",
                    "dynamic_session",
                    "global",
                    "global_eos",
                    "tumbling_processing",
                    "sliding_processing",
                ],
            ));
        }
    })
}

fn parse_trigger(v: Option<&Value>) -> Result<TriggerSpec> {
    let path = "trigger";
    let Some(v) = v else { return Ok(TriggerSpec::DEFAULT) };
    let obj = as_object(v, path)?;
    let kind = match obj.get("kind") {
        None | Some(Value::Null) => "default",
        _ => kind_of(obj, path)?,
    };
    let (base, purging) = match kind {
        "default" => (BaseTrigger::Default, false),
        "event_time" => (BaseTrigger::EventTime, false),
        "purging_event_time" => (BaseTrigger::EventTime, true),
        "count" => (BaseTrigger::Count { n: req_i64(obj, "n", path)? }, false),
        "purging_count" => (BaseTrigger::Count { n: req_i64(obj, "n", path)? }, true),
        "continuous_event_time" => {
            (BaseTrigger::ContinuousEventTime { interval: req_i64(obj, "interval", path)? }, false)
        }
        "purging_continuous_event_time" => {
            (BaseTrigger::ContinuousEventTime { interval: req_i64(obj, "interval", path)? }, true)
        }
        "early_count_event_time" => (BaseTrigger::EarlyCount { n: req_i64(obj, "n", path)? }, false),
        "purging_early_count_event_time" => (BaseTrigger::EarlyCount { n: req_i64(obj, "n", path)? }, true),
        "session_max_duration" => {
            (BaseTrigger::SessionMaxDuration { max_duration: req_i64(obj, "max_duration", path)? }, false)
        }
        "purging_session_max_duration" => {
            (BaseTrigger::SessionMaxDuration { max_duration: req_i64(obj, "max_duration", path)? }, true)
        }
        other => {
            return Err(unknown_kind(
                path,
                other,
                &[
                    "default",
                    "event_time",
                    "purging_event_time",
                    "count",
                    "purging_count",
                    "continuous_event_time",
                    "purging_continuous_event_time",
                    "early_count_event_time",
                    "purging_early_count_event_time",
                    "session_max_duration",
                    "purging_session_max_duration",
                ],
            ));
        }
    };
    Ok(TriggerSpec { base, purging })
}

fn parse_evictor(v: Option<&Value>) -> Result<Option<EvictorSpec>> {
    let path = "evictor";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let kind = match kind_of(obj, path)? {
        "none" => return Ok(None),
        "count" => EvictorKind::Count { n: req_i64(obj, "n", path)? },
        "time" => EvictorKind::Time { size: req_i64(obj, "size", path)? },
        "delta" => {
            let threshold = match field(obj, "threshold") {
                Some(Value::Number(n)) => n.as_f64().filter(|f| f.is_finite()),
                _ => None,
            }
            .ok_or_else(|| ScenarioError::new(join(path, "threshold"), "must be a number (a Java double)"))?;
            let delta = match field(obj, "delta") {
                Some(Value::String(s)) if s == "value" => DeltaFn::Value,
                Some(Value::String(s)) if s == "ts" => DeltaFn::Ts,
                Some(v) => {
                    return Err(ScenarioError::new(
                        join(path, "delta"),
                        format!("must be \"value\" or \"ts\", not {}", quote(v)),
                    ));
                }
                None => return Err(ScenarioError::new(join(path, "delta"), "is missing (\"value\" or \"ts\")")),
            };
            EvictorKind::Delta { threshold: Threshold(threshold), delta }
        }
        other => return Err(unknown_kind(path, other, &["none", "count", "time", "delta"])),
    };
    Ok(Some(EvictorSpec { kind, do_evict_after: opt_bool(obj, "do_evict_after", path, false)? }))
}

fn parse_watermarks(v: Option<&Value>) -> Result<WatermarkSpec> {
    let path = "watermarks";
    let Some(v) = v else { return Ok(WatermarkSpec::Explicit) };
    let obj = as_object(v, path)?;
    Ok(match kind_of(obj, path)? {
        "explicit" => WatermarkSpec::Explicit,
        "bounded_out_of_orderness" => {
            let bound = req_i64(obj, "bound", path)?;
            if bound < 0 {
                // Flink: `checkArgument(!maxOutOfOrderness.isNegative(), "maxOutOfOrderness cannot be negative")`.
                return Err(ScenarioError::new(join(path, "bound"), "maxOutOfOrderness cannot be negative"));
            }
            WatermarkSpec::BoundedOutOfOrderness { bound }
        }
        "monotonous" => WatermarkSpec::Monotonous,
        other => return Err(unknown_kind(path, other, &["explicit", "bounded_out_of_orderness", "monotonous"])),
    })
}

fn parse_function(v: Option<&Value>) -> Result<WindowFunctionSpec> {
    let path = "function";
    let Some(v) = v else { return Ok(WindowFunctionSpec::Process) };
    let kind = match v {
        Value::String(s) => s.as_str(),
        Value::Object(obj) if kind_of(obj, path)? == "aggregate" => return parse_aggregate(obj),
        Value::Object(obj) => kind_of(obj, path)?,
        other => return Err(ScenarioError::new(path, format!("must be a string, not {}", quote(other)))),
    };
    WindowFunctionSpec::ALL.into_iter().find(|f| f.kind() == kind).ok_or_else(|| {
        ScenarioError::new(
            path,
            format!(
                "unknown window function {} (expected one of: process, sum, count, avg, min, max, aggregate)",
                quote(&Value::String(kind.into()))
            ),
        )
    })
}

/// `{"kind": "aggregate", "aggregate": "tenant_cost" | "latency_sketch", "k": 1000}`.
fn parse_aggregate(obj: &Map<String, Value>) -> Result<WindowFunctionSpec> {
    let path = "function";
    let aggregate = match field(obj, "aggregate") {
        Some(Value::String(s)) if s == "tenant_cost" => CourseAggregate::TenantCost,
        Some(Value::String(s)) if s == "latency_sketch" => {
            let k = opt_i64(obj, "k", path, i64::from(DEFAULT_K))?;
            let k = u32::try_from(k)
                .ok()
                .filter(|k| *k > 0)
                .ok_or_else(|| ScenarioError::new(join(path, "k"), format!("LatencySketch: K must be > 0, not {k}")))?;
            CourseAggregate::LatencySketch { k }
        }
        Some(v) => {
            return Err(ScenarioError::new(
                join(path, "aggregate"),
                format!("unknown aggregate {} (expected tenant_cost or latency_sketch)", quote(v)),
            ));
        }
        None => return Err(ScenarioError::new(join(path, "aggregate"), "is missing")),
    };
    Ok(WindowFunctionSpec::Aggregate(aggregate))
}

fn parse_key(v: &Value, path: &str) -> Result<String> {
    let key = match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => return Err(ScenarioError::new(path, format!("must be a string, not {}", quote(other)))),
    };
    if key.chars().count() > limits::MAX_KEY_CHARS {
        return Err(ScenarioError::new(path, format!("is longer than {} characters", limits::MAX_KEY_CHARS)));
    }
    Ok(key)
}

fn parse_item(v: &Value, path: &str, intern: &mut impl FnMut(&str) -> Key) -> Result<InputItem> {
    let obj = as_object(v, path)?;
    let partition = match field(obj, "partition") {
        None => 0,
        Some(v) => {
            let p = parse_i64(v, &join(path, "partition"))?;
            u32::try_from(p).ok().filter(|p| *p < limits::MAX_PARTITIONS).ok_or_else(|| {
                ScenarioError::new(
                    join(path, "partition"),
                    format!("must be between 0 and {}, not {p}", limits::MAX_PARTITIONS - 1),
                )
            })?
        }
    };
    let arrival = match field(obj, "arrival") {
        None => None,
        Some(v) => Some(parse_i64(v, &join(path, "arrival"))?),
    };
    for kind in [ControlKind::Checkpoint, ControlKind::Crash] {
        let Some(v) = obj.get(kind.name()) else { continue };
        if v != &Value::Bool(true) {
            return Err(ScenarioError::new(join(path, kind.name()), format!("must be true, not {}", quote(v))));
        }
        if let Some(other) = obj.keys().find(|k| *k != kind.name() && *k != "arrival") {
            return Err(ScenarioError::new(
                join(path, other),
                format!("a {} item has no other field than \"arrival\"", kind.name()),
            ));
        }
        return Ok(InputItem::Control(Control { kind, arrival }));
    }
    if let Some(wm) = obj.get("wm") {
        let wm = parse_i64(wm, &join(path, "wm"))?;
        if partition == 0 && arrival.is_none() {
            return Ok(InputItem::Watermark(wm));
        }
        return Ok(InputItem::SourceWatermark(Marker { wm, partition, arrival }));
    }
    let key = match obj.get("key") {
        Some(k) => intern(&parse_key(k, &join(path, "key"))?),
        None => {
            return Err(ScenarioError::new(
                join(path, "key"),
                "is missing (an item is an element {\"id\",\"key\",\"ts\"} or a watermark {\"wm\"})",
            ));
        }
    };
    let event = match field(obj, "event") {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(v) => return Err(ScenarioError::new(join(path, "event"), format!("must be a string, not {}", quote(v)))),
    };
    Ok(InputItem::Element(Element {
        id: req_i64(obj, "id", path)?,
        key,
        ts: req_i64(obj, "ts", path)?,
        value: opt_i64(obj, "value", path, 1)?,
        partition,
        arrival,
        event,
    }))
}

fn parse_source(watermarks: Option<&Value>, partitions: Option<&Value>) -> Result<SourceSpec> {
    let mut spec = SourceSpec::default();
    if let Some(Value::Object(obj)) = watermarks {
        spec.periodic = match field(obj, "emit") {
            None => false,
            Some(Value::String(s)) if s == "per_event" => false,
            Some(Value::String(s)) if s == "periodic" => true,
            Some(v) => {
                return Err(ScenarioError::new(
                    "watermarks.emit",
                    format!("must be \"per_event\" or \"periodic\", not {}", quote(v)),
                ));
            }
        };
        spec.interval = opt_i64(obj, "interval", "watermarks", 200)?;
        if spec.interval <= 0 {
            return Err(ScenarioError::new(
                "watermarks.interval",
                format!("autoWatermarkInterval must be greater than 0, not {}", spec.interval),
            ));
        }
        if let Some(v) = field(obj, "idleness") {
            let d = parse_i64(v, "watermarks.idleness")?;
            if d <= 0 {
                return Err(ScenarioError::new("watermarks.idleness", format!("must be greater than 0, not {d}")));
            }
            spec.idleness = Some(d);
        }
    }
    if let Some(v) = partitions {
        let n = parse_i64(v, "partitions")?;
        spec.partitions =
            Some(u32::try_from(n).ok().filter(|n| (1..=limits::MAX_PARTITIONS).contains(n)).ok_or_else(|| {
                ScenarioError::new("partitions", format!("must be between 1 and {}, not {n}", limits::MAX_PARTITIONS))
            })?);
    }
    Ok(spec)
}

fn parse_process_function(v: Option<&Value>) -> Result<Option<ProcessFunctionSpec>> {
    let path = "process_function";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let spec = match kind_of(obj, path)? {
        "request_assembler" => {
            let timeout = opt_i64(obj, "timeout", path, 300_000)?;
            let ttl = match field(obj, "ttl") {
                None => None,
                Some(v) => Some(parse_i64(v, &join(path, "ttl"))?),
            };
            if ttl.is_some_and(|t| t <= 0) {
                return Err(ScenarioError::new(join(path, "ttl"), "must be greater than 0"));
            }
            let timer = match field(obj, "timer") {
                None => TimeDomain::EventTime,
                Some(Value::String(s)) if s == "event_time" => TimeDomain::EventTime,
                Some(Value::String(s)) if s == "processing_time" => TimeDomain::ProcessingTime,
                Some(v) => {
                    return Err(ScenarioError::new(
                        join(path, "timer"),
                        format!("must be \"event_time\" or \"processing_time\", not {}", quote(v)),
                    ));
                }
            };
            ProcessFunctionSpec::RequestAssembler { timeout, ttl, timer }
        }
        "error_rate_alert" => {
            let size = opt_i64(obj, "size", path, 60_000)?;
            if size <= 0 {
                return Err(ScenarioError::new(join(path, "size"), format!("must be greater than 0, not {size}")));
            }
            ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct: opt_i64(obj, "threshold_pct", path, 5)? }
        }
        other => return Err(unknown_kind(path, other, &["request_assembler", "error_rate_alert"])),
    };
    Ok(Some(spec))
}

fn parse_tvf(v: Option<&Value>) -> Result<Option<TvfSpec>> {
    let path = "tvf";
    let Some(v) = v else { return Ok(None) };
    let obj = as_object(v, path)?;
    let positive = |name: &str| -> Result<Millis> {
        let x = req_i64(obj, name, path)?;
        if x > 0 {
            Ok(x)
        } else {
            Err(ScenarioError::new(join(path, name), format!("must be greater than 0, not {x}")))
        }
    };
    let spec = match kind_of(obj, path)? {
        "tumble" => TvfSpec::Tumble { size: positive("size")? },
        "hop" => TvfSpec::Hop { size: positive("size")?, slide: positive("slide")? },
        "cumulate" => TvfSpec::Cumulate { step: positive("step")?, size: positive("size")? },
        "session" => TvfSpec::Session { gap: positive("gap")? },
        other => return Err(unknown_kind(path, other, &["tumble", "hop", "cumulate", "session"])),
    };
    match tvf_rule(spec) {
        Some((field, message)) => Err(ScenarioError::new(format!("tvf.{field}"), message)),
        None => Ok(Some(spec)),
    }
}

impl Scenario {
    /// Loads a scenario from raw bytes (a file, a decoded URL fragment, an import), within the
    /// page's limits.
    pub fn from_json_bytes(bytes: &[u8]) -> Result<Scenario> {
        Self::from_json_bytes_within(bytes, &Limits::PAGE)
    }

    /// Loads a scenario from raw bytes within the given limits (the command line's are larger).
    pub fn from_json_bytes_within(bytes: &[u8], within: &Limits) -> Result<Scenario> {
        if bytes.len() > within.scenario_bytes {
            return Err(ScenarioError::new(
                "",
                format!(
                    "scenario is {} bytes; the limit of {} is {} bytes{}",
                    bytes.len(),
                    within.who,
                    within.scenario_bytes,
                    within.elsewhere()
                ),
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            ScenarioError::new("", format!("scenario is not UTF-8 text (invalid byte at offset {})", e.valid_up_to()))
        })?;
        // serde_json refuses nesting deeper than 128 levels with an error, so hostile input
        // cannot overflow the stack.
        let value: Value =
            serde_json::from_str(text).map_err(|e| ScenarioError::new("", format!("not valid JSON: {e}")))?;
        Self::from_value_within(&value, within)
    }

    pub fn from_json_str(text: &str) -> Result<Scenario> {
        Self::from_json_bytes_within(text.as_bytes(), &Limits { scenario_bytes: usize::MAX, ..Limits::PAGE })
    }

    /// Loads a parsed JSON value within the page's limits.
    pub fn from_value(value: &Value) -> Result<Scenario> {
        Self::from_value_within(value, &Limits::PAGE)
    }

    /// Loads a parsed JSON value within the given limits.
    pub fn from_value_within(value: &Value, within: &Limits) -> Result<Scenario> {
        let obj = as_object(value, "scenario")?;
        let name = match field(obj, "name") {
            None => "scenario".to_string(),
            Some(Value::String(s)) => s.clone(),
            Some(v) => return Err(ScenarioError::new("name", format!("must be a string, not {}", quote(v)))),
        };
        let description = match field(obj, "description") {
            Some(Value::String(s)) => s.clone(),
            _ => String::new(),
        };
        let assigner = match field(obj, "assigner") {
            Some(v) => parse_assigner(v)?,
            // A process-function or TVF scenario needs no DataStream window.
            None if field(obj, "process_function").is_some() || field(obj, "tvf").is_some() => {
                AssignerSpec::Tumbling { size: 60_000, offset: 0 }
            }
            // A source-only scenario (`tests/flink-ext`'s `src_*`: partitions, idleness, emission)
            // has no operator of its own; `GlobalWindows.create()` stands for it, as its
            // `NeverTrigger` emits nothing, so only the source's watermarks show.
            None if field(obj, "watermarks").is_some() || field(obj, "partitions").is_some() => AssignerSpec::Global,
            None => return Err(ScenarioError::new("assigner", "is missing")),
        };
        let allowed_lateness = match field(obj, "allowed_lateness") {
            Some(v) => Some(parse_i64(v, "allowed_lateness")?),
            None => None,
        };
        let trigger = parse_trigger(field(obj, "trigger"))?;
        let evictor = parse_evictor(field(obj, "evictor"))?;
        let watermarks = parse_watermarks(field(obj, "watermarks"))?;
        let side_output = opt_bool(obj, "side_output", "", true)?;
        let end_of_input = opt_bool(obj, "end_of_input", "", true)?;
        let function = parse_function(field(obj, "function"))?;
        let source = parse_source(field(obj, "watermarks"), field(obj, "partitions"))?;
        let process_function = parse_process_function(field(obj, "process_function"))?;
        let tvf = parse_tvf(field(obj, "tvf"))?;
        let items = match field(obj, "input") {
            Some(Value::Array(a)) => a,
            Some(v) => return Err(ScenarioError::new("input", format!("must be an array, not {}", quote(v)))),
            None => return Err(ScenarioError::new("input", "is missing")),
        };
        if items.len() > within.input_items {
            return Err(ScenarioError::new(
                "input",
                format!(
                    "has {} items; the limit of {} is {}{}",
                    items.len(),
                    within.who,
                    within.input_items,
                    within.elsewhere()
                ),
            ));
        }
        let mut input = Vec::with_capacity(items.len());
        // The distinct keys so far: every element of one key shares its text.
        let mut keys = std::collections::BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            let item = parse_item(item, &format!("input[{i}]"), &mut |text| Key::interned(&mut keys, text))?;
            // (Only an element's key is interned: the set grows past the limit with a new key.)
            if keys.len() > within.keys {
                return Err(new_key_beyond_limit(i, within));
            }
            input.push(item);
        }
        let scenario = Scenario {
            name,
            description,
            assigner,
            allowed_lateness,
            trigger,
            evictor,
            watermarks,
            side_output,
            end_of_input,
            function,
            source,
            process_function,
            tvf,
            input,
        };
        scenario.check_limits_within(within)?;
        Ok(scenario)
    }
}

/// Input item `i` brought a key beyond the limit of distinct keys (a whole read's words, and a
/// patch's).
fn new_key_beyond_limit(i: usize, within: &Limits) -> ScenarioError {
    ScenarioError::new(
        format!("input[{i}].key"),
        format!(
            "is a new key beyond the limit of {} distinct keys of {}{}",
            within.keys,
            within.who,
            within.elsewhere()
        ),
    )
}

impl Scenario {
    /// Replaces input items by an input patch ([`Scenario::input_patch_json`]'s text), each item
    /// read as the scenario reader reads one, then checks the page's limits as a load does.
    /// Nothing is replaced unless the whole patch reads.
    pub fn apply_input_patch(&mut self, text: &str) -> Result<()> {
        let value: Value = serde_json::from_str(text).map_err(|e| ScenarioError::new("patch", e.to_string()))?;
        let Value::Array(entries) = value else { return Err(ScenarioError::new("patch", "must be an array")) };
        let mut keys = std::collections::BTreeSet::new();
        let mut items = Vec::with_capacity(entries.len());
        for (n, entry) in entries.iter().enumerate() {
            let path = format!("patch[{n}]");
            let (index, item) = match entry.as_array().map(Vec::as_slice) {
                Some([index, item]) => (index, item),
                _ => return Err(ScenarioError::new(path, "must be [index, item]")),
            };
            let index = index
                .as_u64()
                .and_then(|i| usize::try_from(i).ok())
                .filter(|i| *i < self.input.len())
                .ok_or_else(|| ScenarioError::new(&path, format!("has no input item at {index}")))?;
            // Keys the base already holds keep its text (and its allocation).
            let mut same_key = |text: &str| match self.input.get(index) {
                Some(InputItem::Element(e)) if e.key == text => e.key.clone(),
                _ => Key::interned(&mut keys, text),
            };
            // Errors name the item as a whole read would (`input[i]…`).
            items.push((index, parse_item(item, &format!("input[{index}]"), &mut same_key)?));
        }
        let replaced: Vec<(usize, InputItem)> =
            items.into_iter().map(|(index, item)| (index, std::mem::replace(&mut self.input[index], item))).collect();
        let within = Limits { scenario_bytes: usize::MAX, ..Limits::PAGE };
        let checked = self.check_limits_within(&within).and_then(|()| self.check_patched_keys(&replaced, &within));
        if checked.is_err() {
            // Back as it was (in reverse: an index twice in the patch gets its first item back).
            for (index, item) in replaced.into_iter().rev() {
                self.input[index] = item;
            }
        }
        checked
    }

    /// The limit of distinct keys, as a whole read checks it: counted only when a patched element
    /// brought a key no other item has (a drag move keeps its key, and finds it at once).
    fn check_patched_keys(&self, replaced: &[(usize, InputItem)], within: &Limits) -> Result<()> {
        let key_elsewhere = |i: usize, key: &Key| {
            self.input
                .iter()
                .enumerate()
                .any(|(j, item)| j != i && matches!(item, InputItem::Element(o) if o.key == *key))
        };
        let new_key = replaced.iter().map(|(i, _)| *i).find(|&i| match self.input.get(i) {
            Some(InputItem::Element(e)) => !key_elsewhere(i, &e.key),
            _ => false,
        });
        let Some(i) = new_key else { return Ok(()) };
        let keys: std::collections::BTreeSet<&str> = self.elements().map(|e| e.key.as_str()).collect();
        if keys.len() > within.keys {
            return Err(new_key_beyond_limit(i, within));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{InputItem, Scenario};

    fn err(text: &str) -> String {
        match Scenario::from_json_str(text) {
            Ok(_) => panic!("expected an error for {text}"),
            Err(e) => e.to_string(),
        }
    }

    const BASE: &str = r#""assigner": {"kind": "tumbling", "size": 60000}"#;

    /// Errors name the field and the rule.
    #[test]
    fn errors_name_the_field() {
        assert_eq!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": "soon"}}]}}"#)),
            r#"input[0].ts: must be an integer, "LONG_MAX" or "LONG_MIN", not "soon""#
        );
        assert_eq!(err(r#"{"input": []}"#), "assigner: is missing");
        // A source-only scenario (partitions and watermarks, no operator) loads as a global
        // window, which never fires: only the source's watermarks show.
        let source_only =
            Scenario::from_json_str(r#"{"partitions": 2, "watermarks": {"kind": "monotonous"}, "input": []}"#);
        assert_eq!(source_only.map(|s| (s.partition_count(), s.assigner)), Ok((2, super::super::AssignerSpec::Global)));
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": 1e40}}]}}"#))
                .contains("is outside the 64-bit integer range")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": "A", "ts": 18446744073709551615}}]}}"#))
                .contains("outside the 64-bit integer range")
        );
        assert!(
            err(r#"{"assigner": {"kind": "hopping"}, "input": []}"#)
                .starts_with("assigner.kind: unknown kind \"hopping\"")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "ts": 5}}]}}"#)).starts_with("input[0].key: is missing")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "input": [{{"id": 1, "key": [1], "ts": 5}}]}}"#))
                .starts_with("input[0].key: must be a string")
        );
        assert!(
            err(&format!(r#"{{{BASE}, "side_output": "yes", "input": []}}"#))
                .starts_with("side_output: must be true or false")
        );
        assert!(err("{").starts_with("not valid JSON"));
    }

    /// Hostile input: deep nesting and non-UTF-8 bytes are refused, not crashed on.
    #[test]
    fn hostile_input_is_refused() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(err(&deep).starts_with("not valid JSON"));
        let e = Scenario::from_json_bytes(b"{\"name\": \"\xff\"}").err().map(|e| e.to_string());
        assert_eq!(e.as_deref(), Some("scenario is not UTF-8 text (invalid byte at offset 10)"));
    }

    /// `LONG_MAX`/`LONG_MIN` strings are accepted for any number, and round-trip.
    #[test]
    fn long_strings_round_trip() {
        let text = format!(
            r#"{{{BASE}, "allowed_lateness": "LONG_MAX", "input": [{{"id": 1, "key": "A", "ts": "LONG_MIN"}}, {{"wm": "LONG_MAX"}}]}}"#
        );
        let s = Scenario::from_json_str(&text).expect("valid");
        assert_eq!(s.allowed_lateness, Some(i64::MAX));
        assert_eq!(s.input[1], InputItem::Watermark(i64::MAX));
        let again = Scenario::from_value(&s.to_json()).expect("round trip");
        assert_eq!(again, s);
    }

    /// A 40-item scenario for input patches: elements of three keys, a watermark, a checkpoint.
    fn patch_base() -> Scenario {
        let mut items: Vec<String> = (0..38)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}, "value": {i}}}"#, i % 3, i * 500))
            .collect();
        items.insert(20, r#"{"wm": 9000}"#.to_string());
        items.push(r#"{"checkpoint": true}"#.to_string());
        let text = format!(r#"{{{BASE}, "allowed_lateness": 1000, "input": [{}]}}"#, items.join(","));
        Scenario::from_json_str(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    proptest::proptest! {
        /// Whatever input items change and however (a timestamp, a value, an arrival, a new key
        /// with characters JSON escapes, an element become a watermark or back), the input patch
        /// of the changed items turns the base into the edited scenario, and `input_edits` names
        /// exactly the items that differ.
        #[test]
        fn an_input_patch_makes_the_edited_scenario(
            edits in proptest::collection::vec((0usize..39, 0u8..6, -90_000i64..90_000), 0..8)
        ) {
            use super::super::{Element, InputItem};
            let base = patch_base();
            let mut edited = base.clone();
            for (i, how, v) in edits {
                let element = match &edited.input[i] {
                    InputItem::Element(e) => e.clone(),
                    _ => Element { id: v, key: "k0".into(), ts: v, value: 1, ..Element::default() },
                };
                edited.input[i] = match how {
                    0 => InputItem::Element(Element { ts: v, ..element }),
                    1 => InputItem::Element(Element { value: v, ..element }),
                    2 => InputItem::Element(Element { arrival: Some(v.abs()), ..element }),
                    3 => InputItem::Element(Element { key: format!("new \"{v}\"\\\n").into(), ..element }),
                    4 => InputItem::Watermark(v),
                    _ => InputItem::Element(element),
                };
            }
            let indices = edited.input_edits(&base, 64).unwrap_or_else(|| panic!("only items changed"));
            let differ: Vec<usize> = (0..base.input.len()).filter(|&i| base.input[i] != edited.input[i]).collect();
            proptest::prop_assert_eq!(&indices, &differ);
            let mut patched = base.clone();
            patched.apply_input_patch(&edited.input_patch_json(&indices)).unwrap_or_else(|e| panic!("{e}"));
            proptest::prop_assert_eq!(patched, edited);
        }
    }

    /// A patch that does not read, names an item the scenario lacks, holds a bad item or breaks a
    /// rule of a whole scenario (here: a second partition beside a checkpoint) is refused with
    /// the reason, and replaces nothing, not even its good items.
    #[test]
    fn a_bad_input_patch_is_refused_and_replaces_nothing() {
        let base = patch_base();
        let cases = [
            ("{}", "patch: must be an array"),
            ("[[1]]", "patch[0]: must be [index, item]"),
            (r#"[[40, {"wm": 1}]]"#, "patch[0]: has no input item at 40"),
            (r#"[[-1, {"wm": 1}]]"#, "patch[0]: has no input item at -1"),
            (r#"[[0, {"wm": 1}], [1, {"id": 1, "ts": 5}]]"#, "input[1].key: is missing"),
            (r#"[[0, {"wm": 1}], [1, {"id": 1, "key": "k1", "ts": 5, "partition": 1}]]"#, "checkpoint"),
            ("[[0, ", "patch: "),
        ];
        for (patch, reason) in cases {
            let mut s = base.clone();
            let e = s.apply_input_patch(patch).map(|()| "no error".to_string()).unwrap_or_else(|e| e.to_string());
            assert!(e.contains(reason), "{patch}: {e}");
            assert_eq!(s, base, "{patch} replaced nothing");
        }
        // A new key counts against the page's limit of distinct keys, as in a whole read.
        let limit = super::Limits::PAGE.keys;
        let items: Vec<String> = (0..limit).map(|i| format!(r#"{{"id": {i}, "key": "k{i}", "ts": {i}}}"#)).collect();
        let full = Scenario::from_json_str(&format!(r#"{{{BASE}, "input": [{}, {{"wm": 5}}]}}"#, items.join(",")))
            .unwrap_or_else(|e| panic!("{e}"));
        let mut s = full.clone();
        let e = s.apply_input_patch(&format!(r#"[[{limit}, {{"id": 1, "key": "one too many", "ts": 5}}]]"#));
        assert!(e.is_err_and(|e| {
            e.to_string()
                .starts_with(&format!("input[{limit}].key: is a new key beyond the limit of 10000 distinct keys"))
        }));
        assert_eq!(s, full, "replaced nothing");
        s.apply_input_patch(&format!(r#"[[{limit}, {{"id": 1, "key": "k7", "ts": 5}}]]"#))
            .unwrap_or_else(|e| panic!("a key it has: {e}"));
        // Another configuration, or another number of items, is not an input patch.
        let mut other = base.clone();
        other.allowed_lateness = Some(0);
        assert_eq!(other.input_edits(&base, 64), None);
        other = base.clone();
        other.input.pop();
        assert_eq!(other.input_edits(&base, 64), None);
        assert_eq!(base.input_edits(&base, 0), Some(vec![]));
    }
}

//! Writing a scenario back as the oracle's JSON (what share links, exports and the extras
//! module carry); `parse.rs` reads it back to the same [`Scenario`].

use serde_json::{Map, Value, json};

use super::{
    AssignerSpec, BaseTrigger, CourseAggregate, EvictorKind, EvictorSpec, InputItem, ProcessFunctionSpec, Scenario,
    SourceSpec, TvfSpec, WatermarkSpec, WindowFunctionSpec,
};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::trace::TimeDomain;

impl Scenario {
    /// The scenario in the oracle's JSON format (what share links and exports carry).
    pub fn to_json(&self) -> Value {
        let mut out = self.json_head();
        out.insert("input".into(), Value::Array(self.input.iter().map(item_value).collect()));
        Value::Object(out)
    }

    /// The text of `to_json().to_string()`, without building a `Value` for every input item: a
    /// run request to the engine's worker, a share link and the autosave write it on every change,
    /// and at 100,000 elements the tree cost about 60 MB and a quarter of a second in the page.
    pub fn to_json_string(&self) -> String {
        let mut out = String::with_capacity(self.json_len_guess());
        self.push_json(&mut out);
        out
    }

    /// Room for the text of [`Scenario::to_json_string`], a little more than it needs: the mean
    /// length of items sampled in runs evenly over the input (40-90 bytes each: ids and
    /// timestamps grow along it, arrivals, partitions and keys vary) times the items, plus an
    /// eighth. The first items alone were too short a sample (a stream's ids and timestamps have
    /// fewer digits there), and the text, grown by doubling past the guess, held two blocks at
    /// once and was copied (≈ 3 ms of the press's prime at 100,000 elements).
    pub fn json_len_guess(&self) -> usize {
        // Eight runs of eight items in a row, evenly spaced: single items at even steps could all
        // fall on the watermarks of an input that has one every few elements.
        const RUNS: usize = 8;
        const RUN: usize = 8;
        let n = self.input.len();
        let mut sample = String::new();
        let mut taken = 0;
        for r in 0..RUNS {
            for item in self.input.iter().skip(r * n / RUNS).take(RUN) {
                push_item(&mut sample, item);
                taken += 1;
            }
        }
        let per_item = sample.len() / taken.max(1) + 1;
        1024 + (per_item + per_item / 8) * n
    }

    /// Writes the text of [`Scenario::to_json_string`] at the end of `out`.
    pub fn push_json(&self, out: &mut String) {
        let mut head = self.json_head();
        head.insert("input".into(), Value::Null);
        out.push('{');
        for (i, (k, v)) in head.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            push_str(out, k);
            out.push(':');
            if k == "input" {
                out.push('[');
                for (j, item) in self.input.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    push_item(out, item);
                }
                out.push(']');
            } else {
                out.push_str(&v.to_string());
            }
        }
        out.push('}');
    }

    /// Everything but the input.
    fn json_head(&self) -> Map<String, Value> {
        let assigner = match &self.assigner {
            AssignerSpec::Tumbling { size, offset } => {
                json!({"kind": "tumbling", "size": num(*size), "offset": num(*offset)})
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                json!({"kind": "sliding", "size": num(*size), "slide": num(*slide), "offset": num(*offset)})
            }
            AssignerSpec::Session { gap } => json!({"kind": "session", "gap": num(*gap)}),
            AssignerSpec::DynamicSession { default_gap, gaps } => {
                let gaps: Map<String, Value> = gaps.iter().map(|(k, v)| (k.clone(), num(*v))).collect();
                json!({"kind": "dynamic_session", "default_gap": num(*default_gap), "gaps": gaps})
            }
            AssignerSpec::Global => json!({"kind": "global"}),
            AssignerSpec::GlobalEos => json!({"kind": "global_eos"}),
            AssignerSpec::TumblingProcessing { size, offset } => {
                json!({"kind": "tumbling_processing", "size": num(*size), "offset": num(*offset)})
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                json!({"kind": "sliding_processing", "size": num(*size), "slide": num(*slide), "offset": num(*offset)})
            }
        };
        let mut trigger = Map::new();
        trigger.insert("kind".into(), json!(self.trigger.kind()));
        match self.trigger.base {
            BaseTrigger::Count { n } => {
                trigger.insert("n".into(), num(n));
            }
            BaseTrigger::ContinuousEventTime { interval } => {
                trigger.insert("interval".into(), num(interval));
            }
            BaseTrigger::EarlyCount { n } => {
                trigger.insert("n".into(), num(n));
            }
            BaseTrigger::SessionMaxDuration { max_duration } => {
                trigger.insert("max_duration".into(), num(max_duration));
            }
            BaseTrigger::Default | BaseTrigger::EventTime => {}
        }
        let evictor = match self.evictor {
            None => Value::Null,
            Some(EvictorSpec { kind: EvictorKind::Count { n }, do_evict_after }) => {
                json!({"kind": "count", "n": num(n), "do_evict_after": do_evict_after})
            }
            Some(EvictorSpec { kind: EvictorKind::Time { size }, do_evict_after }) => {
                json!({"kind": "time", "size": num(size), "do_evict_after": do_evict_after})
            }
            Some(EvictorSpec { kind: EvictorKind::Delta { threshold, delta }, do_evict_after }) => {
                // A whole threshold is written as an integer, as the scenarios have it.
                let t = if threshold.0.fract() == 0.0 && threshold.0.abs() < 9.0e15 {
                    json!(threshold.0 as i64)
                } else {
                    json!(threshold.0)
                };
                json!({"kind": "delta", "threshold": t, "delta": delta.name(), "do_evict_after": do_evict_after})
            }
        };
        let mut watermarks = match self.watermarks {
            WatermarkSpec::Explicit => json!({"kind": "explicit"}),
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                json!({"kind": "bounded_out_of_orderness", "bound": num(bound)})
            }
            WatermarkSpec::Monotonous => json!({"kind": "monotonous"}),
        };
        if let Value::Object(w) = &mut watermarks {
            let defaults = SourceSpec::default();
            if self.source.periodic {
                w.insert("emit".into(), json!("periodic"));
            }
            if self.source.interval != defaults.interval {
                w.insert("interval".into(), num(self.source.interval));
            }
            if let Some(d) = self.source.idleness {
                w.insert("idleness".into(), num(d));
            }
        }
        let mut out = Map::new();
        out.insert("name".into(), json!(self.name));
        if !self.description.is_empty() {
            out.insert("description".into(), json!(self.description));
        }
        out.insert("assigner".into(), assigner);
        out.insert("allowed_lateness".into(), self.allowed_lateness.map_or(Value::Null, num));
        out.insert("trigger".into(), Value::Object(trigger));
        out.insert("evictor".into(), evictor);
        out.insert("watermarks".into(), watermarks);
        out.insert("side_output".into(), json!(self.side_output));
        out.insert("end_of_input".into(), json!(self.end_of_input));
        match self.function {
            WindowFunctionSpec::Process => {}
            WindowFunctionSpec::Aggregate(agg) => {
                let mut o = Map::new();
                o.insert("kind".into(), json!("aggregate"));
                o.insert("aggregate".into(), json!(agg.name()));
                if let CourseAggregate::LatencySketch { k } = agg {
                    o.insert("k".into(), json!(k));
                }
                out.insert("function".into(), Value::Object(o));
            }
            f => {
                out.insert("function".into(), json!(f.kind()));
            }
        }
        if let Some(p) = self.source.partitions {
            out.insert("partitions".into(), json!(p));
        }
        match self.process_function {
            None => {}
            Some(ProcessFunctionSpec::RequestAssembler { timeout, ttl, timer }) => {
                let mut o = Map::new();
                o.insert("kind".into(), json!("request_assembler"));
                o.insert("timeout".into(), num(timeout));
                if timer == TimeDomain::ProcessingTime {
                    o.insert("timer".into(), json!("processing_time"));
                }
                if let Some(t) = ttl {
                    o.insert("ttl".into(), num(t));
                }
                out.insert("process_function".into(), Value::Object(o));
            }
            Some(ProcessFunctionSpec::ErrorRateAlert { size, threshold_pct }) => {
                out.insert(
                    "process_function".into(),
                    json!({"kind": "error_rate_alert", "size": num(size), "threshold_pct": num(threshold_pct)}),
                );
            }
        }
        if let Some(tvf) = self.tvf {
            let v = match tvf {
                TvfSpec::Tumble { size } => json!({"kind": "tumble", "size": num(size)}),
                TvfSpec::Hop { size, slide } => json!({"kind": "hop", "size": num(size), "slide": num(slide)}),
                TvfSpec::Cumulate { step, size } => json!({"kind": "cumulate", "step": num(step), "size": num(size)}),
                TvfSpec::Session { gap } => json!({"kind": "session", "gap": num(gap)}),
            };
            out.insert("tvf".into(), v);
        }
        out
    }
}

/// A Java long as the oracle writes it: the extremes by name.
fn num(v: i64) -> Value {
    match v {
        LONG_MAX => json!("LONG_MAX"),
        LONG_MIN => json!("LONG_MIN"),
        v => json!(v),
    }
}

/// One input item as the oracle's JSON.
fn item_value(item: &InputItem) -> Value {
    match item {
        InputItem::Element(e) => {
            let mut o = Map::new();
            o.insert("id".into(), num(e.id));
            o.insert("key".into(), json!(e.key));
            o.insert("ts".into(), num(e.ts));
            o.insert("value".into(), num(e.value));
            if e.partition != 0 {
                o.insert("partition".into(), json!(e.partition));
            }
            if let Some(a) = e.arrival {
                o.insert("arrival".into(), num(a));
            }
            if let Some(ev) = &e.event {
                o.insert("event".into(), json!(ev));
            }
            Value::Object(o)
        }
        InputItem::Watermark(wm) => json!({"wm": num(*wm)}),
        InputItem::Control(c) => {
            let mut o = Map::new();
            o.insert(c.kind.name().into(), json!(true));
            if let Some(a) = c.arrival {
                o.insert("arrival".into(), num(a));
            }
            Value::Object(o)
        }
        InputItem::SourceWatermark(m) => {
            let mut o = Map::new();
            o.insert("wm".into(), num(m.wm));
            if m.partition != 0 {
                o.insert("partition".into(), json!(m.partition));
            }
            if let Some(a) = m.arrival {
                o.insert("arrival".into(), num(a));
            }
            Value::Object(o)
        }
    }
}

impl Scenario {
    /// The input items at `indices` as an input patch: `[[index, item], …]`, each item as the
    /// scenario's JSON writes it ([`Scenario::apply_input_patch`] reads it).
    pub fn input_patch_json(&self, indices: &[usize]) -> String {
        let mut out = String::from("[");
        for (n, &i) in indices.iter().filter(|&&i| i < self.input.len()).enumerate() {
            if n > 0 {
                out.push(',');
            }
            out.push('[');
            out.push_str(itoa::Buffer::new().format(i));
            out.push(',');
            push_item(&mut out, &self.input[i]);
            out.push(']');
        }
        out.push(']');
        out
    }
}

/// Appends `v` as [`num`] writes it.
fn push_num(out: &mut String, v: i64) {
    match v {
        LONG_MAX => out.push_str("\"LONG_MAX\""),
        LONG_MIN => out.push_str("\"LONG_MIN\""),
        v => out.push_str(itoa::Buffer::new().format(v)),
    }
}

/// Appends `text` as a JSON string (serde_json's escaping, as `Value::String` writes it).
fn push_str(out: &mut String, text: &str) {
    // serde_json escapes `"`, `\` and the control characters only: a text without them (every key
    // of a real stream) is written as it is, without a String of its own per element.
    if !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push('"');
        out.push_str(text);
        out.push('"');
    } else if let Ok(json) = serde_json::to_string(text) {
        // A `&str` always serialises.
        out.push_str(&json);
    }
}

/// Appends one input item: the text of `item_value(item).to_string()` (an object's keys in
/// serde_json's sorted order), an element written directly, without a `Value`.
fn push_item(out: &mut String, item: &InputItem) {
    let InputItem::Element(e) = item else { return out.push_str(&item_value(item).to_string()) };
    out.push('{');
    if let Some(a) = e.arrival {
        out.push_str("\"arrival\":");
        push_num(out, a);
        out.push(',');
    }
    if let Some(ev) = &e.event {
        out.push_str("\"event\":");
        push_str(out, ev);
        out.push(',');
    }
    out.push_str("\"id\":");
    push_num(out, e.id);
    out.push_str(",\"key\":");
    push_str(out, &e.key);
    if e.partition != 0 {
        out.push_str(",\"partition\":");
        out.push_str(itoa::Buffer::new().format(e.partition));
    }
    out.push_str(",\"ts\":");
    push_num(out, e.ts);
    out.push_str(",\"value\":");
    push_num(out, e.value);
    out.push('}');
}

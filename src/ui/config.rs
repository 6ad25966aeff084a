//! The configuration panel's draft: what the user typed, kept as text so that nothing entered is
//! lost, and the rule that turns it into a scenario. Invalid values are refused next to their
//! field with the reason: the engine's loader messages and Flink's own exceptions
//! (`engine::operator::validate`). Pure, so it is tested natively.

use std::collections::BTreeMap;

use crate::engine::operator::validate;
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, EvictorKind, EvictorSpec, TriggerSpec, WatermarkSpec, WindowFunctionSpec,
};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::{Millis, Scenario};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignerChoice {
    Tumbling,
    Sliding,
    Session,
    /// `withDynamicGap`: only loaded from a scenario; the panel edits its default gap.
    DynamicSession,
    Global,
    GlobalEos,
    /// Processing-time windows: only loaded from a scenario; edits keep them processing-time.
    TumblingProcessing,
    SlidingProcessing,
}

impl AssignerChoice {
    pub const MENU: [(AssignerChoice, &'static str); 5] = [
        (AssignerChoice::Tumbling, "tumbling"),
        (AssignerChoice::Sliding, "sliding"),
        (AssignerChoice::Session, "session"),
        (AssignerChoice::Global, "global"),
        (AssignerChoice::GlobalEos, "global + end-of-stream trigger"),
    ];

    pub fn value(&self) -> &'static str {
        match self {
            AssignerChoice::Tumbling => "tumbling",
            AssignerChoice::Sliding => "sliding",
            AssignerChoice::Session => "session",
            AssignerChoice::DynamicSession => "dynamic_session",
            AssignerChoice::Global => "global",
            AssignerChoice::GlobalEos => "global_eos",
            AssignerChoice::TumblingProcessing => "tumbling_processing",
            AssignerChoice::SlidingProcessing => "sliding_processing",
        }
    }

    /// Whether the assigner has a size (and an offset).
    pub fn is_sized(&self) -> bool {
        matches!(
            self,
            AssignerChoice::Tumbling
                | AssignerChoice::Sliding
                | AssignerChoice::TumblingProcessing
                | AssignerChoice::SlidingProcessing
        )
    }

    pub fn is_sliding(&self) -> bool {
        matches!(self, AssignerChoice::Sliding | AssignerChoice::SlidingProcessing)
    }

    pub fn from_value(v: &str) -> Option<AssignerChoice> {
        [
            AssignerChoice::Tumbling,
            AssignerChoice::Sliding,
            AssignerChoice::Session,
            AssignerChoice::DynamicSession,
            AssignerChoice::Global,
            AssignerChoice::GlobalEos,
            AssignerChoice::TumblingProcessing,
            AssignerChoice::SlidingProcessing,
        ]
        .into_iter()
        .find(|c| c.value() == v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatermarkChoice {
    Explicit,
    Bounded,
    Monotonous,
}

impl WatermarkChoice {
    pub const MENU: [(WatermarkChoice, &'static str); 3] = [
        (WatermarkChoice::Explicit, "explicit (watermark items)"),
        (WatermarkChoice::Bounded, "bounded out-of-orderness"),
        (WatermarkChoice::Monotonous, "monotonous timestamps"),
    ];

    pub fn value(&self) -> &'static str {
        match self {
            WatermarkChoice::Explicit => "explicit",
            WatermarkChoice::Bounded => "bounded_out_of_orderness",
            WatermarkChoice::Monotonous => "monotonous",
        }
    }

    pub fn from_value(v: &str) -> Option<WatermarkChoice> {
        Self::MENU.iter().map(|(c, _)| *c).find(|c| c.value() == v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TriggerChoice {
    Default,
    EventTime,
    Count,
    ContinuousEventTime,
}

impl TriggerChoice {
    pub const MENU: [(TriggerChoice, &'static str); 4] = [
        (TriggerChoice::Default, "assigner's default"),
        (TriggerChoice::EventTime, "EventTimeTrigger"),
        (TriggerChoice::Count, "CountTrigger"),
        (TriggerChoice::ContinuousEventTime, "ContinuousEventTimeTrigger"),
    ];

    pub fn value(&self) -> &'static str {
        match self {
            TriggerChoice::Default => "default",
            TriggerChoice::EventTime => "event_time",
            TriggerChoice::Count => "count",
            TriggerChoice::ContinuousEventTime => "continuous_event_time",
        }
    }

    pub fn from_value(v: &str) -> Option<TriggerChoice> {
        Self::MENU.iter().map(|(c, _)| *c).find(|c| c.value() == v)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvictorChoice {
    None,
    Count,
    Time,
}

impl EvictorChoice {
    pub const MENU: [(EvictorChoice, &'static str); 3] =
        [(EvictorChoice::None, "none"), (EvictorChoice::Count, "CountEvictor"), (EvictorChoice::Time, "TimeEvictor")];

    pub fn value(&self) -> &'static str {
        match self {
            EvictorChoice::None => "none",
            EvictorChoice::Count => "count",
            EvictorChoice::Time => "time",
        }
    }

    pub fn from_value(v: &str) -> Option<EvictorChoice> {
        Self::MENU.iter().map(|(c, _)| *c).find(|c| c.value() == v)
    }
}

/// A text field of the panel (errors are shown next to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Assigner,
    Size,
    Slide,
    Gap,
    Offset,
    Lateness,
    SideOutput,
    Watermarks,
    Bound,
    Trigger,
    TriggerN,
    TriggerInterval,
    Evictor,
    EvictorN,
    EvictorSize,
    Function,
}

/// One edit in the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigEdit {
    Assigner(AssignerChoice),
    Text(Field, String),
    SideOutput(bool),
    Watermarks(WatermarkChoice),
    Trigger(TriggerChoice),
    Purging(bool),
    Evictor(EvictorChoice),
    EvictAfter(bool),
    Function(WindowFunctionSpec),
}

impl ConfigEdit {
    pub fn field(&self) -> Field {
        match self {
            ConfigEdit::Assigner(_) => Field::Assigner,
            ConfigEdit::Text(f, _) => *f,
            ConfigEdit::SideOutput(_) => Field::SideOutput,
            ConfigEdit::Watermarks(_) => Field::Watermarks,
            ConfigEdit::Trigger(_) | ConfigEdit::Purging(_) => Field::Trigger,
            ConfigEdit::Evictor(_) | ConfigEdit::EvictAfter(_) => Field::Evictor,
            ConfigEdit::Function(_) => Field::Function,
        }
    }
}

/// The panel's content: choices and the text of every field, valid or not.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigDraft {
    pub assigner: AssignerChoice,
    pub size: String,
    pub slide: String,
    pub gap: String,
    pub offset: String,
    /// Empty: `allowedLateness` never called (behaves as 0).
    pub lateness: String,
    pub side_output: bool,
    pub watermarks: WatermarkChoice,
    pub bound: String,
    pub trigger: TriggerChoice,
    pub trigger_n: String,
    pub trigger_interval: String,
    pub purging: bool,
    pub evictor: EvictorChoice,
    pub evictor_n: String,
    pub evictor_size: String,
    pub evict_after: bool,
    pub function: WindowFunctionSpec,
    /// Per field: why the value was refused.
    pub errors: BTreeMap<Field, String>,
}

fn num(v: Millis) -> String {
    match v {
        LONG_MAX => "LONG_MAX".into(),
        LONG_MIN => "LONG_MIN".into(),
        v => v.to_string(),
    }
}

impl ConfigDraft {
    pub fn from_scenario(s: &Scenario) -> ConfigDraft {
        let mut d = ConfigDraft {
            assigner: AssignerChoice::Tumbling,
            size: "60000".into(),
            slide: "10000".into(),
            gap: "10000".into(),
            offset: "0".into(),
            lateness: s.allowed_lateness.map(num).unwrap_or_default(),
            side_output: s.side_output,
            watermarks: WatermarkChoice::Explicit,
            bound: "5000".into(),
            trigger: TriggerChoice::Default,
            trigger_n: "3".into(),
            trigger_interval: "10000".into(),
            purging: s.trigger.purging,
            evictor: EvictorChoice::None,
            evictor_n: "2".into(),
            evictor_size: "10000".into(),
            evict_after: false,
            function: s.function,
            errors: BTreeMap::new(),
        };
        match &s.assigner {
            AssignerSpec::Tumbling { size, offset } => {
                d.assigner = AssignerChoice::Tumbling;
                d.size = num(*size);
                d.offset = num(*offset);
            }
            AssignerSpec::Sliding { size, slide, offset } => {
                d.assigner = AssignerChoice::Sliding;
                d.size = num(*size);
                d.slide = num(*slide);
                d.offset = num(*offset);
            }
            AssignerSpec::Session { gap } => {
                d.assigner = AssignerChoice::Session;
                d.gap = num(*gap);
            }
            AssignerSpec::DynamicSession { default_gap, .. } => {
                d.assigner = AssignerChoice::DynamicSession;
                d.gap = num(*default_gap);
            }
            AssignerSpec::Global => d.assigner = AssignerChoice::Global,
            AssignerSpec::GlobalEos => d.assigner = AssignerChoice::GlobalEos,
            AssignerSpec::TumblingProcessing { size, offset } => {
                d.assigner = AssignerChoice::TumblingProcessing;
                d.size = num(*size);
                d.offset = num(*offset);
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                d.assigner = AssignerChoice::SlidingProcessing;
                d.size = num(*size);
                d.slide = num(*slide);
                d.offset = num(*offset);
            }
        }
        d.set_watermarks_from(s.watermarks);
        match s.trigger.base {
            BaseTrigger::Default => d.trigger = TriggerChoice::Default,
            BaseTrigger::EventTime => d.trigger = TriggerChoice::EventTime,
            BaseTrigger::Count { n } => {
                d.trigger = TriggerChoice::Count;
                d.trigger_n = num(n);
            }
            BaseTrigger::ContinuousEventTime { interval } => {
                d.trigger = TriggerChoice::ContinuousEventTime;
                d.trigger_interval = num(interval);
            }
        }
        if let Some(e) = s.evictor {
            d.evict_after = e.do_evict_after;
            match e.kind {
                EvictorKind::Count { n } => {
                    d.evictor = EvictorChoice::Count;
                    d.evictor_n = num(n);
                }
                EvictorKind::Time { size } => {
                    d.evictor = EvictorChoice::Time;
                    d.evictor_size = num(size);
                }
            }
        }
        d
    }

    /// Follows a watermark change made on the canvas (dragging the bound).
    pub fn set_watermarks_from(&mut self, w: WatermarkSpec) {
        match w {
            WatermarkSpec::Explicit => self.watermarks = WatermarkChoice::Explicit,
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                self.watermarks = WatermarkChoice::Bounded;
                self.bound = num(bound);
                self.errors.remove(&Field::Bound);
            }
            WatermarkSpec::Monotonous => self.watermarks = WatermarkChoice::Monotonous,
        }
    }

    pub fn text(&self, field: Field) -> &str {
        match field {
            Field::Size => &self.size,
            Field::Slide => &self.slide,
            Field::Gap => &self.gap,
            Field::Offset => &self.offset,
            Field::Lateness => &self.lateness,
            Field::Bound => &self.bound,
            Field::TriggerN => &self.trigger_n,
            Field::TriggerInterval => &self.trigger_interval,
            Field::EvictorN => &self.evictor_n,
            Field::EvictorSize => &self.evictor_size,
            _ => "",
        }
    }

    /// Applies an edit to the draft (never fails: the text is kept as typed).
    pub fn apply(&mut self, edit: &ConfigEdit) {
        match edit {
            ConfigEdit::Assigner(a) => self.assigner = *a,
            ConfigEdit::Text(f, text) => {
                let slot = match f {
                    Field::Size => &mut self.size,
                    Field::Slide => &mut self.slide,
                    Field::Gap => &mut self.gap,
                    Field::Offset => &mut self.offset,
                    Field::Lateness => &mut self.lateness,
                    Field::Bound => &mut self.bound,
                    Field::TriggerN => &mut self.trigger_n,
                    Field::TriggerInterval => &mut self.trigger_interval,
                    Field::EvictorN => &mut self.evictor_n,
                    Field::EvictorSize => &mut self.evictor_size,
                    _ => return,
                };
                // A pasted novel is not a number; keep the field bounded.
                *slot = text.chars().take(40).collect();
            }
            ConfigEdit::SideOutput(b) => self.side_output = *b,
            ConfigEdit::Watermarks(w) => self.watermarks = *w,
            ConfigEdit::Trigger(t) => self.trigger = *t,
            ConfigEdit::Purging(b) => self.purging = *b,
            ConfigEdit::Evictor(e) => self.evictor = *e,
            ConfigEdit::EvictAfter(b) => self.evict_after = *b,
            ConfigEdit::Function(f) => self.function = *f,
        }
    }

    /// The scenario this draft describes, on top of `base` (input, name, end of input), checked
    /// by the loader's rules and by Flink's build-time checks. On failure: every field whose
    /// text is not a number, or the field the Flink rule concerns (`edited` when the rule spans
    /// several fields), with the reason.
    pub fn to_scenario(&self, base: &Scenario, edited: Field) -> Result<Scenario, BTreeMap<Field, String>> {
        let mut errors = BTreeMap::new();
        let mut get = |f: Field| -> Millis {
            match parse_millis(self.text(f)) {
                Ok(v) => v,
                Err(e) => {
                    errors.insert(f, e);
                    0
                }
            }
        };
        let assigner = match self.assigner {
            AssignerChoice::Tumbling => AssignerSpec::Tumbling { size: get(Field::Size), offset: get(Field::Offset) },
            AssignerChoice::Sliding => {
                AssignerSpec::Sliding { size: get(Field::Size), slide: get(Field::Slide), offset: get(Field::Offset) }
            }
            AssignerChoice::Session => AssignerSpec::Session { gap: get(Field::Gap) },
            AssignerChoice::DynamicSession => {
                let gaps = match &base.assigner {
                    AssignerSpec::DynamicSession { gaps, .. } => gaps.clone(),
                    _ => BTreeMap::new(),
                };
                AssignerSpec::DynamicSession { default_gap: get(Field::Gap), gaps }
            }
            AssignerChoice::Global => AssignerSpec::Global,
            AssignerChoice::GlobalEos => AssignerSpec::GlobalEos,
            AssignerChoice::TumblingProcessing => {
                AssignerSpec::TumblingProcessing { size: get(Field::Size), offset: get(Field::Offset) }
            }
            AssignerChoice::SlidingProcessing => AssignerSpec::SlidingProcessing {
                size: get(Field::Size),
                slide: get(Field::Slide),
                offset: get(Field::Offset),
            },
        };
        let allowed_lateness = if self.lateness.trim().is_empty() { None } else { Some(get(Field::Lateness)) };
        let watermarks = match self.watermarks {
            WatermarkChoice::Explicit => WatermarkSpec::Explicit,
            WatermarkChoice::Bounded => WatermarkSpec::BoundedOutOfOrderness { bound: get(Field::Bound) },
            WatermarkChoice::Monotonous => WatermarkSpec::Monotonous,
        };
        let base_trigger = match self.trigger {
            TriggerChoice::Default => BaseTrigger::Default,
            TriggerChoice::EventTime => BaseTrigger::EventTime,
            TriggerChoice::Count => BaseTrigger::Count { n: get(Field::TriggerN) },
            TriggerChoice::ContinuousEventTime => {
                BaseTrigger::ContinuousEventTime { interval: get(Field::TriggerInterval) }
            }
        };
        let evictor = match self.evictor {
            EvictorChoice::None => None,
            EvictorChoice::Count => Some(EvictorSpec {
                kind: EvictorKind::Count { n: get(Field::EvictorN) },
                do_evict_after: self.evict_after,
            }),
            EvictorChoice::Time => Some(EvictorSpec {
                kind: EvictorKind::Time { size: get(Field::EvictorSize) },
                do_evict_after: self.evict_after,
            }),
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        let candidate = Scenario {
            assigner,
            allowed_lateness,
            // `PurgingTrigger.of(default)` is not expressible in the format; purging needs a
            // named trigger, so "purging" on the default becomes `EventTimeTrigger`.
            trigger: TriggerSpec {
                base: if self.purging && base_trigger == BaseTrigger::Default {
                    BaseTrigger::EventTime
                } else {
                    base_trigger
                },
                purging: self.purging,
            },
            evictor,
            watermarks,
            side_output: self.side_output,
            function: self.function,
            ..base.clone()
        };
        // The loader's rules (they name the field as a path), via the scenario's own JSON.
        if let Err(e) = Scenario::from_value(&candidate.to_json()) {
            errors.insert(field_of_path(&e.path).unwrap_or(edited), e.message);
            return Err(errors);
        }
        if let Err(e) = validate(&candidate) {
            let message = format!("Flink refuses it: {}", e.message);
            // A rule over several fields stays where it was first shown, else goes to the edit.
            let shown = self.errors.iter().find(|(_, m)| **m == message).map(|(f, _)| *f);
            let field = field_of_flink_message(&e.message).or(shown).unwrap_or(edited);
            errors.insert(field, message);
            return Err(errors);
        }
        Ok(candidate)
    }
}

fn field_of_path(path: &str) -> Option<Field> {
    Some(match path {
        "assigner.size" => Field::Size,
        "assigner.slide" => Field::Slide,
        "assigner.gap" | "assigner.default_gap" => Field::Gap,
        "assigner.offset" => Field::Offset,
        "allowed_lateness" => Field::Lateness,
        "watermarks.bound" => Field::Bound,
        "trigger.n" => Field::TriggerN,
        "trigger.interval" => Field::TriggerInterval,
        "evictor.n" => Field::EvictorN,
        "evictor.size" => Field::EvictorSize,
        _ => return None,
    })
}

fn field_of_flink_message(message: &str) -> Option<Field> {
    if message.contains("allowed lateness") {
        Some(Field::Lateness)
    } else if message.starts_with("EventTimeSessionWindows") {
        Some(Field::Gap)
    } else {
        // Tumbling/sliding rules relate several fields: shown at the one being edited.
        None
    }
}

/// Parses a duration field: whole milliseconds (`60000`, `-5000`), a number with a unit (`60s`,
/// `1 min`, `250ms`, `2h`, `1.5s`), or `LONG_MAX` / `LONG_MIN`.
pub fn parse_millis(text: &str) -> Result<Millis, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("is empty: enter milliseconds, e.g. 60000 or 60s".into());
    }
    match t {
        "LONG_MAX" | "Long.MAX" => return Ok(LONG_MAX),
        "LONG_MIN" | "Long.MIN" => return Ok(LONG_MIN),
        _ => {}
    }
    let split =
        t.find(|c: char| !(c.is_ascii_digit() || c == '-' || c == '+' || c == '.' || c == '_')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number = number.replace('_', "");
    let bad = || {
        format!(
            "\"{}\" is not a whole number of milliseconds (e.g. 60000 or 60s)",
            t.chars().take(20).collect::<String>()
        )
    };
    if number.is_empty() {
        return Err(bad());
    }
    let factor: i64 = match unit.trim() {
        "" | "ms" => 1,
        "s" | "sec" => 1_000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        "d" => 86_400_000,
        other => {
            return Err(format!(
                "unknown unit \"{}\": use ms, s, min, h or d",
                other.chars().take(10).collect::<String>()
            ));
        }
    };
    if let Ok(i) = number.parse::<i64>() {
        return i.checked_mul(factor).ok_or_else(|| "is outside the 64-bit range (use LONG_MAX)".to_string());
    }
    let f: f64 = number.parse().map_err(|_| bad())?;
    let ms = f * factor as f64;
    if !ms.is_finite() || ms.fract().abs() > 1e-9 {
        return Err(bad());
    }
    if ms.abs() > 9.0e18 {
        return Err("is outside the 64-bit range (use LONG_MAX)".into());
    }
    Ok(ms as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Scenario {
        Scenario::from_json_str(
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": 1000}]}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn edit(d: &mut ConfigDraft, e: ConfigEdit) -> Result<Scenario, BTreeMap<Field, String>> {
        let f = e.field();
        d.apply(&e);
        d.to_scenario(&base(), f)
    }

    #[test]
    fn parses_durations() {
        assert_eq!(parse_millis("60000"), Ok(60_000));
        assert_eq!(parse_millis(" 60s "), Ok(60_000));
        assert_eq!(parse_millis("1 min"), Ok(60_000));
        assert_eq!(parse_millis("1.5s"), Ok(1_500));
        assert_eq!(parse_millis("-5000"), Ok(-5_000));
        assert_eq!(parse_millis("LONG_MAX"), Ok(i64::MAX));
        assert!(parse_millis("").is_err());
        assert!(parse_millis("ten").is_err());
        assert!(parse_millis("1.5ms").is_err());
        assert!(parse_millis("5 weeks").unwrap_err().contains("unknown unit"));
        assert!(parse_millis("99999999999999999999").is_err());
    }

    /// A valid edit yields the scenario; the draft round-trips through it.
    #[test]
    fn valid_edits_apply() {
        let mut d = ConfigDraft::from_scenario(&base());
        let s = edit(&mut d, ConfigEdit::Assigner(AssignerChoice::Sliding)).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(s.assigner, AssignerSpec::Sliding { size: 60_000, slide: 10_000, offset: 0 });
        let s = edit(&mut d, ConfigEdit::Text(Field::Lateness, "30s".into())).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(s.allowed_lateness, Some(30_000));
        assert_eq!(ConfigDraft::from_scenario(&s).slide, "10000");
    }

    /// Flink's own rule refuses the value next to the edited field, and the text stays.
    #[test]
    fn invalid_values_are_refused_with_flinks_reason() {
        let mut d = ConfigDraft::from_scenario(&base());
        let e = edit(&mut d, ConfigEdit::Text(Field::Offset, "60000".into())).err().unwrap_or_default();
        assert_eq!(
            e.get(&Field::Offset).map(String::as_str),
            Some("Flink refuses it: TumblingEventTimeWindows parameters must satisfy abs(offset) < size")
        );
        assert_eq!(d.offset, "60000");
        // Editing another field keeps the multi-field rule where it was shown.
        d.errors = e;
        let e = edit(&mut d, ConfigEdit::Text(Field::Size, "50000".into())).err().unwrap_or_default();
        assert!(e.contains_key(&Field::Offset), "{e:?}");
        let mut d = ConfigDraft::from_scenario(&base());
        let e = edit(&mut d, ConfigEdit::Text(Field::Lateness, "-1".into())).err().unwrap_or_default();
        assert_eq!(
            e.get(&Field::Lateness).map(String::as_str),
            Some("Flink refuses it: The allowed lateness cannot be negative.")
        );
        let mut d = ConfigDraft::from_scenario(&base());
        d.apply(&ConfigEdit::Assigner(AssignerChoice::Session));
        let e = edit(&mut d, ConfigEdit::Text(Field::Gap, "0".into())).err().unwrap_or_default();
        assert_eq!(
            e.get(&Field::Gap).map(String::as_str),
            Some("Flink refuses it: EventTimeSessionWindows parameters must satisfy 0 < size")
        );
        let e = edit(&mut d, ConfigEdit::Text(Field::Gap, "soon".into())).err().unwrap_or_default();
        assert!(e.get(&Field::Gap).is_some_and(|m| m.contains("not a whole number")));
    }

    /// The loader's rules (named by path) land on their field.
    #[test]
    fn loader_rules_land_on_their_field() {
        let mut d = ConfigDraft::from_scenario(&base());
        d.apply(&ConfigEdit::Watermarks(WatermarkChoice::Bounded));
        let e = edit(&mut d, ConfigEdit::Text(Field::Bound, "-5".into())).err().unwrap_or_default();
        assert_eq!(e.get(&Field::Bound).map(String::as_str), Some("maxOutOfOrderness cannot be negative"));
        let mut d = ConfigDraft::from_scenario(&base());
        d.apply(&ConfigEdit::Assigner(AssignerChoice::Sliding));
        let e = edit(&mut d, ConfigEdit::Text(Field::Slide, "1".into())).err().unwrap_or_default();
        assert!(e.get(&Field::Slide).is_some_and(|m| m.contains("more than 10000 windows")));
    }
}

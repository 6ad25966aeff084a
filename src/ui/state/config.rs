//! The configuration panel. What it shows is derived from the scenario ([`ConfigView::of`]); the
//! form keeps only what the scenario cannot say: the text as typed (`30s` stays `30s`), and a
//! refused edit with its reasons. Validation is typed: each refusal names its [`Field`] and says
//! Flink's rule (the engine's own message), with no round trip through JSON and no reading of
//! the message's words.
//!
//! ```text
//!  ConfigEdit ──▶ ConfigView::of(scenario) + what is typed ──apply──▶ view ──to_scenario──▶ candidate
//!     text that is no number ─────────▶ that field        "is not a whole number of milliseconds"
//!     maxOutOfOrderness < 0 ──────────▶ Bound             Flink's checkArgument
//!     Scenario::check_limits (a path) ─▶ its field         Tidemark's limits
//!     engine::operator::validate ─────▶ the assigner's fields, or Lateness   "Flink refuses it: …"
//!  candidate ──Doc::commit(IfNewlyFails(field))──▶ run ──▶ accepted, or refused at `field`
//! ```

use std::collections::BTreeMap;

use crate::engine::operator::validate;
use crate::engine::scenario::limits::MAX_PARTITIONS;
use crate::engine::scenario::{
    AssignerSpec, BaseTrigger, DeltaFn, EvictorKind, EvictorSpec, SourceSpec, Threshold, TriggerSpec, WatermarkSpec,
    WindowFunctionSpec,
};
use crate::engine::time::{LONG_MAX, LONG_MIN};
use crate::engine::{Millis, Scenario};
use crate::ui::action::{
    AssignerChoice, ConfigEdit, EmissionChoice, EvictorChoice, Field, TriggerChoice, WatermarkChoice,
};

/// The panel's content: choices and the text of every field.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigView {
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
    /// `DeltaEvictor`'s threshold (a Java double, as typed) and delta function.
    pub evictor_threshold: String,
    pub evictor_delta: DeltaFn,
    pub trigger_max_duration: String,
    pub function: WindowFunctionSpec,
    /// The source: partitions, emission, `autoWatermarkInterval`, `withIdleness` (empty: none).
    pub partitions: String,
    pub emission: EmissionChoice,
    pub interval: String,
    pub idleness: String,
    /// A dynamic session's gap per key, as typed (empty: the default gap): the input's keys in
    /// order of appearance, then keys only the assigner names.
    pub key_gaps: Vec<(String, String)>,
}

/// The text fields, in panel order.
static TEXT_FIELDS: [Field; 15] = [
    Field::Size,
    Field::Slide,
    Field::Gap,
    Field::Offset,
    Field::Lateness,
    Field::Bound,
    Field::TriggerN,
    Field::TriggerInterval,
    Field::TriggerMaxDuration,
    Field::EvictorN,
    Field::EvictorSize,
    Field::EvictorThreshold,
    Field::Partitions,
    Field::Interval,
    Field::Idleness,
];

fn num(v: Millis) -> String {
    match v {
        LONG_MAX => "LONG_MAX".into(),
        LONG_MIN => "LONG_MIN".into(),
        v => v.to_string(),
    }
}

impl ConfigView {
    /// What the panel shows for a scenario; fields the scenario does not use show a default.
    pub fn of(s: &Scenario) -> ConfigView {
        let mut d = ConfigView {
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
            evictor_threshold: "10".into(),
            evictor_delta: DeltaFn::Value,
            trigger_max_duration: "60000".into(),
            function: s.function,
            partitions: s.partition_count().to_string(),
            emission: if s.source.periodic { EmissionChoice::Periodic } else { EmissionChoice::PerEvent },
            interval: num(s.source.interval),
            idleness: s.source.idleness.map(num).unwrap_or_default(),
            key_gaps: Vec::new(),
        };
        if let AssignerSpec::DynamicSession { gaps, .. } = &s.assigner {
            for key in s.elements().map(|e| e.key.as_str()).chain(gaps.keys().map(String::as_str)) {
                if !d.key_gaps.iter().any(|(k, _)| k == key) {
                    d.key_gaps.push((key.to_string(), gaps.get(key).copied().map(num).unwrap_or_default()));
                }
            }
        }
        let (assigner, size, slide, gap, offset) = match &s.assigner {
            AssignerSpec::Tumbling { size, offset } => (AssignerChoice::Tumbling, Some(size), None, None, Some(offset)),
            AssignerSpec::Sliding { size, slide, offset } => {
                (AssignerChoice::Sliding, Some(size), Some(slide), None, Some(offset))
            }
            AssignerSpec::Session { gap } => (AssignerChoice::Session, None, None, Some(gap), None),
            AssignerSpec::DynamicSession { default_gap, .. } => {
                (AssignerChoice::DynamicSession, None, None, Some(default_gap), None)
            }
            AssignerSpec::Global => (AssignerChoice::Global, None, None, None, None),
            AssignerSpec::GlobalEos => (AssignerChoice::GlobalEos, None, None, None, None),
            AssignerSpec::TumblingProcessing { size, offset } => {
                (AssignerChoice::TumblingProcessing, Some(size), None, None, Some(offset))
            }
            AssignerSpec::SlidingProcessing { size, slide, offset } => {
                (AssignerChoice::SlidingProcessing, Some(size), Some(slide), None, Some(offset))
            }
        };
        d.assigner = assigner;
        for (slot, v) in [(&mut d.size, size), (&mut d.slide, slide), (&mut d.gap, gap), (&mut d.offset, offset)] {
            if let Some(v) = v {
                *slot = num(*v);
            }
        }
        match s.watermarks {
            WatermarkSpec::Explicit => d.watermarks = WatermarkChoice::Explicit,
            WatermarkSpec::BoundedOutOfOrderness { bound } => {
                d.watermarks = WatermarkChoice::Bounded;
                d.bound = num(bound);
            }
            WatermarkSpec::Monotonous => d.watermarks = WatermarkChoice::Monotonous,
        }
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
            BaseTrigger::EarlyCount { n } => {
                d.trigger = TriggerChoice::EarlyCount;
                d.trigger_n = num(n);
            }
            BaseTrigger::SessionMaxDuration { max_duration } => {
                d.trigger = TriggerChoice::SessionMaxDuration;
                d.trigger_max_duration = num(max_duration);
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
                EvictorKind::Delta { threshold, delta } => {
                    d.evictor = EvictorChoice::Delta;
                    d.evictor_threshold = threshold.0.to_string();
                    d.evictor_delta = delta;
                }
            }
        }
        d
    }

    fn slot(&mut self, field: Field) -> Option<&mut String> {
        Some(match field {
            Field::Size => &mut self.size,
            Field::Slide => &mut self.slide,
            Field::Gap => &mut self.gap,
            Field::Offset => &mut self.offset,
            Field::Lateness => &mut self.lateness,
            Field::Bound => &mut self.bound,
            Field::TriggerN => &mut self.trigger_n,
            Field::TriggerInterval => &mut self.trigger_interval,
            Field::TriggerMaxDuration => &mut self.trigger_max_duration,
            Field::EvictorN => &mut self.evictor_n,
            Field::EvictorSize => &mut self.evictor_size,
            Field::EvictorThreshold => &mut self.evictor_threshold,
            Field::Partitions => &mut self.partitions,
            Field::Interval => &mut self.interval,
            Field::Idleness => &mut self.idleness,
            _ => return None,
        })
    }

    /// The text of a text field ("" for the others).
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
            Field::TriggerMaxDuration => &self.trigger_max_duration,
            Field::EvictorN => &self.evictor_n,
            Field::EvictorSize => &self.evictor_size,
            Field::EvictorThreshold => &self.evictor_threshold,
            Field::Partitions => &self.partitions,
            Field::Interval => &self.interval,
            Field::Idleness => &self.idleness,
            _ => "",
        }
    }

    /// Applies an edit (never fails: the text is kept as typed).
    pub fn apply(&mut self, edit: &ConfigEdit) {
        match edit {
            ConfigEdit::Assigner(a) => self.assigner = *a,
            ConfigEdit::Text(f, text) => {
                if let Some(slot) = self.slot(*f) {
                    // A pasted novel is not a number; keep the field bounded.
                    *slot = text.chars().take(40).collect();
                }
            }
            ConfigEdit::SideOutput(b) => self.side_output = *b,
            ConfigEdit::Watermarks(w) => self.watermarks = *w,
            ConfigEdit::Trigger(t) => self.trigger = *t,
            ConfigEdit::Purging(b) => self.purging = *b,
            ConfigEdit::Evictor(e) => self.evictor = *e,
            ConfigEdit::EvictAfter(b) => self.evict_after = *b,
            ConfigEdit::DeltaFn(f) => self.evictor_delta = *f,
            ConfigEdit::Function(f) => self.function = *f,
            ConfigEdit::Emission(e) => self.emission = *e,
            ConfigEdit::KeyGap(key, text) => {
                let text: String = text.chars().take(40).collect();
                match self.key_gaps.iter_mut().find(|(k, _)| k == key) {
                    Some((_, t)) => *t = text,
                    None => self.key_gaps.push((key.clone(), text)),
                }
            }
        }
    }

    /// The scenario this view describes, on top of `base` (input, name, end of input), checked by
    /// the loader's and Flink's rules. On failure: every field whose text is no number, or the
    /// field of the broken rule with the rule. A rule over several fields (tumbling's
    /// `abs(offset) < size`) stays where `shown` already shows it, else goes to `edited`.
    pub fn to_scenario(
        &self,
        base: &Scenario,
        edited: Field,
        shown: &BTreeMap<Field, String>,
    ) -> Result<Scenario, BTreeMap<Field, String>> {
        let mut errors = BTreeMap::new();
        let mut gap_errors = BTreeMap::new();
        let key_gaps = self.gaps(&mut gap_errors);
        let mut get = |f: Field| -> Millis {
            parse_millis(self.text(f)).unwrap_or_else(|e| {
                errors.insert(f, e);
                0
            })
        };
        let assigner = match self.assigner {
            AssignerChoice::Tumbling => AssignerSpec::Tumbling { size: get(Field::Size), offset: get(Field::Offset) },
            AssignerChoice::Sliding => {
                AssignerSpec::Sliding { size: get(Field::Size), slide: get(Field::Slide), offset: get(Field::Offset) }
            }
            AssignerChoice::Session => AssignerSpec::Session { gap: get(Field::Gap) },
            AssignerChoice::DynamicSession => {
                let default_gap = get(Field::Gap);
                AssignerSpec::DynamicSession { default_gap, gaps: key_gaps }
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
            TriggerChoice::EarlyCount => BaseTrigger::EarlyCount { n: get(Field::TriggerN) },
            TriggerChoice::SessionMaxDuration => {
                BaseTrigger::SessionMaxDuration { max_duration: get(Field::TriggerMaxDuration) }
            }
        };
        let evictor_kind = match self.evictor {
            EvictorChoice::None => None,
            EvictorChoice::Count => Some(EvictorKind::Count { n: get(Field::EvictorN) }),
            EvictorChoice::Time => Some(EvictorKind::Time { size: get(Field::EvictorSize) }),
            EvictorChoice::Delta => match parse_threshold(&self.evictor_threshold) {
                Ok(threshold) => {
                    Some(EvictorKind::Delta { threshold: Threshold(threshold), delta: self.evictor_delta })
                }
                Err(e) => {
                    errors.insert(Field::EvictorThreshold, e);
                    None
                }
            },
        };
        if self.assigner == AssignerChoice::DynamicSession {
            errors.extend(gap_errors);
        }
        let source = self.source(base, &mut errors);
        if !errors.is_empty() {
            return Err(errors);
        }
        let candidate = Scenario {
            source,
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
            evictor: evictor_kind.map(|kind| EvictorSpec { kind, do_evict_after: self.evict_after }),
            watermarks,
            side_output: self.side_output,
            function: self.function,
            ..base.clone()
        };
        match refusal(&candidate) {
            None => Ok(candidate),
            Some(Refusal { fields, message }) => {
                let field = match fields {
                    [only] => *only,
                    _ => shown.iter().find(|(_, m)| **m == message).map_or(edited, |(f, _)| *f),
                };
                let mut errors = BTreeMap::new();
                errors.insert(field, message);
                Err(errors)
            }
        }
    }
}

impl ConfigView {
    /// The dynamic session's gaps per key; a key's gap must be a positive duration
    /// (`DynamicEventTimeSessionWindows` refuses `gap <= 0` when an element of that key comes).
    fn gaps(&self, errors: &mut BTreeMap<Field, String>) -> BTreeMap<String, Millis> {
        let mut gaps = BTreeMap::new();
        for (key, text) in &self.key_gaps {
            if text.trim().is_empty() {
                continue;
            }
            match parse_millis(text) {
                Ok(ms) if ms > 0 => {
                    gaps.insert(key.clone(), ms);
                }
                Ok(ms) => {
                    errors.entry(Field::KeyGaps).or_insert_with(|| {
                        format!("key {key}: {ms} is not a gap: Flink requires 0 < gap (Dynamic session time gap must satisfy 0 < gap)")
                    });
                }
                Err(e) => {
                    errors.entry(Field::KeyGaps).or_insert_with(|| format!("key {key}: {e}"));
                }
            }
        }
        gaps
    }

    /// The source the panel describes, with the loader's rules (`parse_source`) as typed errors.
    /// The partition count stays undeclared when it is what the input already implies.
    fn source(&self, base: &Scenario, errors: &mut BTreeMap<Field, String>) -> SourceSpec {
        let mut source = base.source;
        match self.partitions.trim().parse::<u32>() {
            Ok(n) if (1..=MAX_PARTITIONS).contains(&n) => {
                if base.source.partitions.is_some() || n != base.partition_count() {
                    source.partitions = Some(n);
                }
            }
            _ => {
                errors.insert(
                    Field::Partitions,
                    format!("must be a whole number of partitions from 1 to {MAX_PARTITIONS}"),
                );
            }
        }
        source.periodic = self.emission == EmissionChoice::Periodic;
        match parse_millis(&self.interval) {
            Ok(ms) if ms > 0 => source.interval = ms,
            Ok(ms) => {
                errors.insert(Field::Interval, format!("autoWatermarkInterval must be greater than 0, not {ms}"));
            }
            Err(e) => {
                errors.insert(Field::Interval, e);
            }
        }
        source.idleness = if self.idleness.trim().is_empty() {
            None
        } else {
            match parse_millis(&self.idleness) {
                Ok(ms) if ms > 0 => Some(ms),
                Ok(ms) => {
                    errors.insert(Field::Idleness, format!("must be greater than 0, not {ms}"));
                    None
                }
                Err(e) => {
                    errors.insert(Field::Idleness, e);
                    None
                }
            }
        };
        source
    }
}

/// A rule the candidate breaks: the fields it reads and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub fields: &'static [Field],
    pub message: String,
}

/// The fields an assigner's constructor checks.
fn assigner_fields(a: &AssignerSpec) -> &'static [Field] {
    match a {
        AssignerSpec::Tumbling { .. } | AssignerSpec::TumblingProcessing { .. } => &[Field::Size, Field::Offset],
        AssignerSpec::Sliding { .. } | AssignerSpec::SlidingProcessing { .. } => {
            &[Field::Size, Field::Slide, Field::Offset]
        }
        AssignerSpec::Session { .. } | AssignerSpec::DynamicSession { .. } => &[Field::Gap],
        AssignerSpec::Global | AssignerSpec::GlobalEos => &[Field::Assigner],
    }
}

/// The field a loader path names (`Scenario::check_limits`).
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
        "partitions" => Field::Partitions,
        "watermarks.interval" => Field::Interval,
        "watermarks.idleness" => Field::Idleness,
        _ => return None,
    })
}

/// The first rule a candidate configuration breaks, typed by its fields.
pub fn refusal(c: &Scenario) -> Option<Refusal> {
    if let WatermarkSpec::BoundedOutOfOrderness { bound } = c.watermarks
        && bound < 0
    {
        // `WatermarkStrategy.forBoundedOutOfOrderness`: `checkArgument(!maxOutOfOrderness.isNegative(),
        // "maxOutOfOrderness cannot be negative")`, as the loader says it (a test keeps them equal).
        return Some(Refusal { fields: &[Field::Bound], message: "maxOutOfOrderness cannot be negative".into() });
    }
    if let Err(e) = c.check_limits() {
        // "input element 3: reads partition 2 but the scenario declares 2 partitions".
        let field = if e.path.starts_with("input element") {
            Field::Partitions
        } else {
            field_of_path(&e.path).unwrap_or(Field::Assigner)
        };
        let fields = TEXT_FIELDS.iter().find(|f| **f == field).map_or(&[Field::Assigner][..], std::slice::from_ref);
        return Some(Refusal { fields, message: e.message });
    }
    let e = validate(c).err()?;
    // `validate` checks the assigner's constructor, then `allowedLateness`: the assigner alone
    // tells which of the two refused.
    let assigner_alone = Scenario { assigner: c.assigner.clone(), ..Scenario::default() };
    let fields = if validate(&assigner_alone).is_err() { assigner_fields(&c.assigner) } else { &[Field::Lateness] };
    Some(Refusal { fields, message: format!("Flink refuses it: {}", e.message) })
}

/// The configuration part of a scenario (what the panel edits), to tell when errors are stale.
fn configuration(s: &Scenario) -> Scenario {
    Scenario { input: Vec::new(), ..s.clone() }
}

/// What the user typed that the scenario does not show, and why the last edit was refused.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigForm {
    /// The panel as last edited.
    draft: Option<ConfigView>,
    errors: BTreeMap<Field, String>,
    /// The configuration the errors were found against: once the scenario's is another one (an
    /// undo, a load, a drag of the bound), they no longer apply.
    errors_for: Option<Scenario>,
}

impl ConfigForm {
    fn errors_live(&self, s: &Scenario) -> bool {
        !self.errors.is_empty() && self.errors_for.as_ref().is_some_and(|c| *c == configuration(s))
    }

    /// The panel for `s`: the scenario's values; text typed for a value the scenario has (`30s` for
    /// 30000) as typed; and while an edit is refused, everything as typed.
    pub fn view(&self, s: &Scenario) -> ConfigView {
        let base = ConfigView::of(s);
        let Some(draft) = &self.draft else { return base };
        if self.errors_live(s) {
            return draft.clone();
        }
        let mut view = base;
        for &f in &TEXT_FIELDS {
            let typed = draft.text(f);
            if typed != view.text(f)
                && parse_millis(typed).ok() == parse_millis(view.text(f)).ok()
                && let Some(slot) = view.slot(f)
            {
                *slot = typed.to_string();
            }
        }
        view
    }

    /// Why fields are refused, for `s`.
    pub fn errors(&self, s: &Scenario) -> BTreeMap<Field, String> {
        if self.errors_live(s) { self.errors.clone() } else { BTreeMap::new() }
    }

    /// Applies an edit: the candidate scenario, or `None` with the reasons recorded.
    pub fn edit(&mut self, edit: &ConfigEdit, s: &Scenario) -> Option<Scenario> {
        let shown = self.errors(s);
        let mut view = self.view(s);
        view.apply(edit);
        let result = view.to_scenario(s, edit.field(), &shown);
        self.draft = Some(view);
        match result {
            Ok(candidate) => {
                self.errors.clear();
                Some(candidate)
            }
            Err(errors) => {
                self.errors = errors;
                self.errors_for = Some(configuration(s));
                None
            }
        }
    }

    /// The candidate's run refused it: the reason goes to `field`, against `s` (still on show).
    pub fn refuse(&mut self, field: Field, message: String, s: &Scenario) {
        self.errors.clear();
        self.errors.insert(field, message);
        self.errors_for = Some(configuration(s));
    }
}

/// Parses a duration field: whole milliseconds (`60000`, `-5000`), a number with a unit (`60s`,
/// `1 min`, `250ms`, `2h`, `1.5s`), or `LONG_MAX` / `LONG_MIN`.
/// `DeltaEvictor`'s threshold: any finite number (a Java double), as the scenario format takes it.
fn parse_threshold(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err("is not a number: DeltaEvictor's threshold is a double, e.g. 10 or 2.5".into()),
    }
}

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
mod tests;

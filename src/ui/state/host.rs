//! A lab page talks to Tidemark (README, "Embedding: talking to a lab page"): what a message from
//! the parent window asks for, whether it is heard at all, where replies may go, and the messages
//! Tidemark sends. Pure: the browser's side (the listener, `postMessage`, the resize observer) is
//! `hooks::use_host_api`, which only translates.
//!
//! ```text
//!  parent ──postMessage──▶ accepts: event.source is the parent, and its origin is the trusted one
//!                          parse_message: ≤ MAX_FRAGMENT_CHARS, {type: "tidemark:…", v: 1, …}
//!                            scenario ─▶ fragment::scenario_from_json (the link's loader and limits)
//!                            step ─────▶ fragment::parse_step, mode ─▶ teach::parse_mode
//!                          ──▶ HostCommand ──▶ an Action (or a reply: the scenario, an error)
//!  Tidemark ─▶ reply_origin only: ready, step changed, scenario edited, quiz answered, replies
//!           ─▶ "*" only when no origin is known: the resize messages (a height and nothing else:
//!              {subject: "lti.frameResize", height}, {context: "iframe.resize", height},
//!              {type: "tidemark:resize", v: 1, height}, written by `hooks::use_host_api`)
//! ```
//!
//! Nothing received is evaluated: a message is JSON data, read field by field.

use serde_json::Value;

use crate::engine::Scenario;
use crate::teach;
use crate::ui::action::{Action, DragAction, DragStart, Mode, TeachAction};
use crate::ui::fragment::{self, MAX_FRAGMENT_CHARS, StepParam};

use super::teach::{QuizState, clip, parse_mode};

/// The protocol's version: every message carries `v: 1`.
pub const VERSION: u64 = 1;

/// What the parent window asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// `tidemark:load`: a scenario in the engine's format (an object or its JSON text), at `step`.
    Load { scenario: Box<Scenario>, step: Option<StepParam> },
    /// `tidemark:load-preset`: a course preset, at `step` (else its default step).
    LoadPreset { id: String, step: Option<StepParam> },
    /// `tidemark:go-to-step`.
    GoToStep(StepParam),
    /// `tidemark:set-mode`.
    SetMode(Mode),
    /// `tidemark:lock`: read-only (no drags, no edits, no configuration) while `true`.
    Lock(bool),
    /// `tidemark:get-scenario`: answered with `tidemark:scenario`.
    GetScenario,
}

impl HostCommand {
    /// The actions that carry the command out (`GetScenario` is a reply, not an action).
    pub fn actions(self) -> Vec<Action> {
        use crate::ui::action::PlayAction;
        let to_step = |step: StepParam| match step {
            StepParam::End => Action::Play(PlayAction::Last),
            StepParam::At(n) => Action::Play(PlayAction::SetStep(n)),
        };
        match self {
            HostCommand::Load { scenario, step } => vec![Action::Load { scenario, step, banner: None }],
            HostCommand::LoadPreset { id, step } => {
                std::iter::once(Action::Teach(TeachAction::LoadPreset(id))).chain(step.map(to_step)).collect()
            }
            HostCommand::GoToStep(step) => vec![to_step(step)],
            HostCommand::SetMode(m) => vec![Action::Teach(TeachAction::SetMode(m))],
            HostCommand::Lock(on) => vec![Action::Teach(TeachAction::Lock(on))],
            HostCommand::GetScenario => Vec::new(),
        }
    }
}

/// A message of ours that cannot be carried out: `request` is its `type`, `message` says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostError {
    pub request: String,
    pub message: String,
}

/// Reads a message (its data as JSON text). `Ok(None)`: not a Tidemark request (other JSON, not
/// JSON at all, or no `tidemark:` type): ignored. `Err`: a Tidemark request that cannot be carried
/// out, with the reason a link would give.
pub fn parse_message(text: &str) -> Result<Option<HostCommand>, HostError> {
    let err = |request: &str, message: String| HostError { request: clip(request, 40), message };
    if text.len() > MAX_FRAGMENT_CHARS {
        return Err(err("", format!("the message is {} characters long; that is too long", text.len())));
    }
    let Ok(Value::Object(msg)) = serde_json::from_str::<Value>(text) else { return Ok(None) };
    let Some(kind) = msg.get("type").and_then(Value::as_str).filter(|t| t.starts_with("tidemark:")) else {
        return Ok(None);
    };
    let fail = |message: String| err(kind, message);
    if msg.get("v").and_then(Value::as_u64) != Some(VERSION) {
        let v = msg.get("v").map_or_else(|| "nothing".to_string(), |v| clip(&v.to_string(), 20));
        return Err(fail(format!("v must be {VERSION} (the protocol's version), not {v}")));
    }
    let step = match msg.get("step") {
        None | Some(Value::Null) => None,
        Some(v) => Some(step_of(v).map_err(&fail)?),
    };
    let command = match kind {
        "tidemark:load" => {
            let bytes = match msg.get("scenario") {
                Some(Value::String(json)) => json.as_bytes().to_vec(),
                Some(v @ Value::Object(_)) => v.to_string().into_bytes(),
                _ => return Err(fail("scenario must be a scenario (an object) or its JSON text".into())),
            };
            let scenario = fragment::scenario_from_json(&bytes, "the message").map_err(|e| fail(e.0))?;
            HostCommand::Load { scenario: Box::new(scenario), step }
        }
        "tidemark:load-preset" => {
            let id = msg.get("preset").and_then(Value::as_str).unwrap_or_default();
            if teach::presets::by_id(id).is_none() {
                let ids = teach::presets::ids().join(", ");
                return Err(fail(format!("There is no preset \"{}\" (presets: {ids}).", clip(id, 40))));
            }
            HostCommand::LoadPreset { id: id.to_string(), step }
        }
        "tidemark:go-to-step" => HostCommand::GoToStep(step.ok_or_else(|| fail("step is missing".into()))?),
        "tidemark:set-mode" => {
            let mode = msg.get("mode").and_then(Value::as_str).unwrap_or_default();
            HostCommand::SetMode(parse_mode(mode).map_err(fail)?)
        }
        "tidemark:lock" => match msg.get("locked") {
            Some(Value::Bool(on)) => HostCommand::Lock(*on),
            _ => return Err(fail("locked must be true or false".into())),
        },
        "tidemark:get-scenario" => HostCommand::GetScenario,
        other => return Err(fail(format!("there is no request \"{}\"", clip(other, 40)))),
    };
    Ok(Some(command))
}

/// A `step`: a whole number, or `"end"` (the link's rule and message for anything else).
fn step_of(v: &Value) -> Result<StepParam, String> {
    let text = match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    fragment::parse_step(&text).map_err(|e| e.0)
}

/// Whether a message is heard: it comes from the parent window, and from the trusted origin when
/// one is known (`reply_origin`).
pub fn accepts(from_parent: bool, event_origin: &str, trusted: Option<&str>) -> bool {
    from_parent && trusted.is_none_or(|t| t == event_origin)
}

/// Where replies and events go: the origin named in the link (`origin=`), else the parent's
/// origin from `document.referrer`. `None`: only the resize messages go out (to `"*"`). A named
/// origin that is not an http(s) origin is not replaced by the referrer: nothing is trusted.
pub fn reply_origin(hash: &str, referrer: &str) -> Option<String> {
    let named = hash
        .trim_start_matches('#')
        .split('&')
        .find_map(|p| p.strip_prefix("origin="))
        .map(|v| v.replace("%3A", ":").replace("%3a", ":").replace("%2F", "/").replace("%2f", "/"));
    match named {
        Some(o) => origin_of(&o),
        None => origin_of(referrer),
    }
}

/// `scheme://host[:port]` of an http(s) URL, as a browser writes an origin (lower case, without
/// the scheme's default port), or `None`.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default().to_ascii_lowercase();
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if authority.is_empty() || !authority.chars().all(allowed) {
        return None;
    }
    let default_port = if scheme == "https" { ":443" } else { ":80" };
    let authority = authority.strip_suffix(default_port).unwrap_or(&authority);
    Some(format!("{scheme}://{authority}"))
}

/// The student may not change the scenario while the lab page has locked editing: drags of the
/// input (panning stays), edits, the item editor, the context menu, the configuration, undo and
/// redo, imports. Keys reach the reducer as these actions, so they are refused the same way.
pub fn refused_when_locked(action: &Action) -> bool {
    match action {
        Action::Drag(DragAction::Start { what, .. }) => *what != DragStart::Pan,
        Action::Edit(_) | Action::Editor(_) | Action::Config(_) | Action::OpenMenu(_) => true,
        Action::Undo | Action::Redo => true,
        Action::Teach(TeachAction::Import { .. } | TeachAction::OpenImport(_) | TeachAction::ImportStream { .. }) => {
            true
        }
        // Compare mode's second configuration and the SQL view's TVF change the document too.
        Action::Compare(_) => true,
        _ => false,
    }
}

/// A JSON string literal.
fn text(s: &str) -> String {
    Value::from(s).to_string()
}

fn opt_text(s: Option<&str>) -> String {
    s.map_or_else(|| "null".to_string(), text)
}

/// `{"type":"tidemark:<kind>","v":1,…}`, each field's value JSON text already (written by hand
/// rather than with `json!`: the main module's size budget).
fn message(kind: &str, fields: &[(&str, String)]) -> String {
    let mut out = format!("{{\"type\":\"tidemark:{kind}\",\"v\":{VERSION}");
    for (name, value) in fields {
        out.push_str(&format!(",\"{name}\":{value}"));
    }
    out.push('}');
    out
}

/// Sent once the app listens: what is on show.
pub fn ready(step: usize, steps: usize, mode: Mode, locked: bool, preset: Option<&str>) -> String {
    message(
        "ready",
        &[
            ("step", step.to_string()),
            ("steps", steps.to_string()),
            ("mode", text(mode.as_str())),
            ("locked", locked.to_string()),
            ("preset", opt_text(preset)),
        ],
    )
}

/// The playhead moved.
pub fn step_changed(step: usize, steps: usize) -> String {
    message("step-changed", &[("step", step.to_string()), ("steps", steps.to_string())])
}

/// The scenario changed (an edit, an undo, a load): the new one, in the engine's format.
pub fn scenario_edited(scenario: &Scenario, title: &str, preset: Option<&str>) -> String {
    message(
        "scenario-edited",
        &[("scenario", scenario.to_json_string()), ("title", text(title)), ("preset", opt_text(preset))],
    )
}

/// The answer to `tidemark:get-scenario`.
pub fn scenario_reply(scenario: &Scenario, step: usize, steps: usize, title: &str, preset: Option<&str>) -> String {
    message(
        "scenario",
        &[
            ("scenario", scenario.to_json_string()),
            ("step", step.to_string()),
            ("steps", steps.to_string()),
            ("title", text(title)),
            ("preset", opt_text(preset)),
        ],
    )
}

/// A request that could not be carried out.
pub fn error_reply(e: &HostError) -> String {
    message("error", &[("request", text(&e.request)), ("message", text(&e.message))])
}

/// The question on screen was answered: which, right or wrong, and the score so far.
pub fn quiz_answered(q: &QuizState) -> Option<String> {
    let question = q.current()?;
    let verdict = q.verdict.as_ref()?;
    let score =
        format!("{{\"correct\":{},\"answered\":{},\"questions\":{}}}", q.score.correct, q.score.answered, q.total());
    Some(message(
        "quiz-answered",
        &[
            ("question", text(&question.id)),
            ("prompt", text(&question.prompt)),
            ("correct", verdict.correct.to_string()),
            ("score", score),
        ],
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const SCENARIO: &str = r#"{"assigner": {"kind": "tumbling", "size": 60000},
        "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 59999}]}"#;

    fn parse(v: Value) -> Result<Option<HostCommand>, HostError> {
        parse_message(&v.to_string())
    }

    fn error(v: Value) -> String {
        parse(v).err().map(|e| e.message).unwrap_or_default()
    }

    /// Each request becomes its command; a scenario may be an object or its JSON text.
    #[test]
    fn requests_become_commands() {
        let s: Value = serde_json::from_str(SCENARIO).unwrap_or_default();
        let Ok(Some(HostCommand::Load { scenario, step })) =
            parse(json!({"type": "tidemark:load", "v": 1, "scenario": s, "step": "end"}))
        else {
            panic!("no load")
        };
        assert_eq!((scenario.input.len(), step), (2, Some(StepParam::End)));
        let text = parse(json!({"type": "tidemark:load", "v": 1, "scenario": SCENARIO}));
        assert!(matches!(text, Ok(Some(HostCommand::Load { step: None, .. }))));
        assert_eq!(
            parse(json!({"type": "tidemark:load-preset", "v": 1, "preset": "lab-6-2", "step": 3})),
            Ok(Some(HostCommand::LoadPreset { id: "lab-6-2".into(), step: Some(StepParam::At(3)) }))
        );
        assert_eq!(
            parse(json!({"type": "tidemark:go-to-step", "v": 1, "step": 2})),
            Ok(Some(HostCommand::GoToStep(StepParam::At(2))))
        );
        assert_eq!(
            parse(json!({"type": "tidemark:set-mode", "v": 1, "mode": "lecture"})),
            Ok(Some(HostCommand::SetMode(Mode::Lecture)))
        );
        assert_eq!(parse(json!({"type": "tidemark:lock", "v": 1, "locked": true})), Ok(Some(HostCommand::Lock(true))));
        assert_eq!(parse(json!({"type": "tidemark:get-scenario", "v": 1})), Ok(Some(HostCommand::GetScenario)));
    }

    /// Other messages (an LMS's own, not JSON, not an object, no `tidemark:` type) are not ours.
    #[test]
    fn other_messages_are_ignored() {
        for text in
            ["{not json", "42", "\"tidemark:load\"", "[1,2]", "null", r#"{"type": 7}"#, r#"{"subject": "lti.scroll"}"#]
        {
            assert_eq!(parse_message(text), Ok(None), "{text}");
        }
    }

    /// A bad request gets the reason a link would give: the same loader, limits and messages.
    #[test]
    fn bad_requests_say_why_as_a_link_would() {
        let missing_key = json!({"assigner": {"kind": "tumbling", "size": 1}, "input": [{"id": 1}]});
        let e = error(json!({"type": "tidemark:load", "v": 1, "scenario": missing_key}));
        assert!(e.starts_with("the scenario in the message is not valid: input[0].key: is missing ("), "{e}");
        let e = error(json!({"type": "tidemark:load", "v": 1, "scenario": "<script>alert(1)</script>"}));
        assert!(e.starts_with("the scenario in the message is not valid: not valid JSON"), "{e}");
        assert_eq!(
            error(json!({"type": "tidemark:go-to-step", "v": 1, "step": -1})),
            "step must be a whole number or \"end\", not \"-1\""
        );
        assert_eq!(
            error(json!({"type": "tidemark:set-mode", "v": 1, "mode": "<b>"})),
            "mode must be embed, lecture or normal, not \"<b>\""
        );
        assert!(
            error(json!({"type": "tidemark:load-preset", "v": 1, "preset": "<img>"}))
                .starts_with("There is no preset \"<img>\"")
        );
        assert_eq!(error(json!({"type": "tidemark:lock", "v": 1, "locked": "yes"})), "locked must be true or false");
        assert_eq!(
            error(json!({"type": "tidemark:get-scenario"})),
            "v must be 1 (the protocol's version), not nothing"
        );
        assert_eq!(error(json!({"type": "tidemark:eval", "v": 1})), "there is no request \"tidemark:eval\"");
        // A message is limited like a link's value (12 M characters).
        let huge = "x".repeat(MAX_FRAGMENT_CHARS + 1);
        assert!(parse_message(&huge).is_err_and(|e| e.message.ends_with("that is too long")));
    }

    /// Keys like `__proto__` are data: the request is read as if they were not there.
    #[test]
    fn prototype_keys_are_plain_data() {
        let text = r#"{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"x": 1}},
                       "type": "tidemark:go-to-step", "v": 1, "step": 1}"#;
        assert_eq!(parse_message(text), Ok(Some(HostCommand::GoToStep(StepParam::At(1)))));
    }

    /// Replies go to the link's `origin=`, else the referrer's origin; a bad named origin trusts nothing.
    #[test]
    fn the_reply_origin() {
        assert_eq!(
            reply_origin("#preset=a&origin=https://lab.example.edu", "https://x.org/").as_deref(),
            Some("https://lab.example.edu")
        );
        assert_eq!(
            reply_origin("origin=https%3A%2F%2Flab.example.edu%3A8443", "").as_deref(),
            Some("https://lab.example.edu:8443")
        );
        assert_eq!(
            reply_origin("#preset=a", "https://Canvas.Example.com:443/courses/1?x").as_deref(),
            Some("https://canvas.example.com")
        );
        assert_eq!(reply_origin("#preset=a", ""), None);
        assert_eq!(reply_origin("#origin=*", "https://x.org/"), None);
        assert_eq!(reply_origin("#origin=javascript:alert(1)", "https://x.org/"), None);
        assert_eq!(origin_of("https://user@evil.example/"), None);
        assert_eq!(origin_of("file:///home/lab.html"), None);
        assert_eq!(origin_of("http://127.0.0.1:8080/lab.html").as_deref(), Some("http://127.0.0.1:8080"));
    }

    /// Only the parent is heard, and only from the trusted origin when there is one.
    #[test]
    fn only_the_parent_is_heard() {
        assert!(accepts(true, "https://lab.edu", Some("https://lab.edu")));
        assert!(!accepts(true, "https://evil.example", Some("https://lab.edu")));
        assert!(!accepts(false, "https://lab.edu", Some("https://lab.edu")));
        assert!(accepts(true, "https://any.example", None));
        assert!(!accepts(false, "https://any.example", None));
    }

    /// What Tidemark sends is JSON with its type and version; strings are escaped.
    #[test]
    fn outgoing_messages_are_json() {
        let read = |t: String| serde_json::from_str::<Value>(&t).unwrap_or_default();
        assert_eq!(read(step_changed(3, 5)), json!({"type": "tidemark:step-changed", "v": 1, "step": 3, "steps": 5}));
        assert_eq!(
            read(ready(2, 4, Mode::Embed, false, Some("lab-6-1"))),
            json!({"type": "tidemark:ready", "v": 1, "step": 2, "steps": 4, "mode": "embed", "locked": false, "preset": "lab-6-1"})
        );
        let e = HostError { request: "tidemark:load".into(), message: "a \"quoted\" <b>reason</b>\n".into() };
        assert_eq!(
            read(error_reply(&e)),
            json!({"type": "tidemark:error", "v": 1, "request": "tidemark:load", "message": "a \"quoted\" <b>reason</b>\n"})
        );
        let s = Scenario::from_json_str(SCENARIO).unwrap_or_default();
        let reply = read(scenario_reply(&s, 1, 3, "t", None));
        assert_eq!(reply["scenario"], s.to_json());
        assert_eq!((reply["step"].as_u64(), reply["preset"].is_null()), (Some(1), true));
    }

    /// Locked: input drags, edits, the editor, configuration and undo are refused; panning,
    /// the playhead and the teaching layer are not.
    #[test]
    fn what_a_lock_refuses() {
        use crate::ui::action::{EditAction, PlayAction};
        let drag = |what| Action::Drag(DragAction::Start { what, px: 0.0, millis: 0.0 });
        assert!(refused_when_locked(&drag(DragStart::Element(0))));
        assert!(refused_when_locked(&drag(DragStart::Watermark)));
        assert!(!refused_when_locked(&drag(DragStart::Pan)));
        assert!(refused_when_locked(&Action::Edit(EditAction::Delete(0))));
        assert!(refused_when_locked(&Action::Undo));
        assert!(refused_when_locked(&Action::Compare(crate::ui::action::CompareAction::Close)));
        assert!(!refused_when_locked(&Action::Play(PlayAction::Forward)));
        assert!(!refused_when_locked(&Action::Teach(TeachAction::ToggleQuiz)));
    }
}

//! The Sinks tab's state view: the live windows per key at the playhead ("with two minutes of
//! lateness, three windows are alive") and the course's back-of-envelope estimate, "active keys
//! times live windows per key times bytes per window", with the keys and the bytes per state
//! entry editable ([`crate::sinks::estimate`]). Rendered by the extras module inside
//! [`super::sinks_view::SinksView`].

use yew::prelude::*;

use crate::sinks::estimate::{self, EstimateParams, WindowsPerKey, bytes_text, grouped, parse_count};
use crate::sinks::{CourseLiveWindows, StateSample};
use crate::teach::format::duration;

/// The largest numbers the inputs take (a trillion keys, a gigabyte per entry).
const MAX_KEYS: u64 = 1_000_000_000_000;
const MAX_BYTES: u64 = 1_000_000_000;

#[derive(Properties, PartialEq)]
pub struct StateEstimateProps {
    pub step: usize,
    /// The operator's state at the playhead.
    pub now: StateSample,
    /// The course's rule for live windows per key, where the assigner fixes it.
    pub course_windows: Option<CourseLiveWindows>,
    /// Whether the function buffers its records.
    pub buffering: bool,
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n.into()), if n == 1 { one } else { many })
}

/// One editable number: its text as typed, and the error when it does not parse.
#[derive(Clone, PartialEq)]
struct Field {
    text: String,
    error: Option<String>,
}

impl Field {
    fn new(n: u64) -> Field {
        Field { text: grouped(n.into()), error: None }
    }
}

/// The two inputs and the last numbers that parsed.
#[derive(Clone, PartialEq)]
struct Inputs {
    keys: Field,
    bytes: Field,
    params: EstimateParams,
}

/// A typed text: which field, and what it holds now.
enum Typed {
    Keys(String),
    Bytes(String),
}

impl Reducible for Inputs {
    type Action = Typed;

    /// A text that parses updates the estimate; one that does not keeps the last estimate and
    /// says what it accepts, with the typed text left in place.
    fn reduce(self: std::rc::Rc<Self>, action: Typed) -> std::rc::Rc<Self> {
        let mut next = (*self).clone();
        let (field, value, text, what, max) = match action {
            Typed::Keys(t) => (&mut next.keys, &mut next.params.active_keys, t, "Active keys", MAX_KEYS),
            Typed::Bytes(t) => {
                (&mut next.bytes, &mut next.params.bytes_per_entry, t, "Bytes per state entry", MAX_BYTES)
            }
        };
        let parsed = parse_count(&text, what, 1, max);
        *field = Field { text, error: parsed.as_ref().err().cloned() };
        if let Ok(n) = parsed {
            *value = n;
        }
        next.into()
    }
}

/// Listens to `input` on the element behind `node` with a native listener. This component is
/// rendered by the extras module's own Yew, inside the page's: a Yew listener here would carry a
/// listener id that the page's Yew, seeing the event bubble through its root, would look up in
/// its own registry (and run a stranger's handler, such as the playhead scrubber's).
#[hook]
fn use_native_input(node: NodeRef, on_text: Callback<String>) {
    use_effect_with(node, move |node| {
        let listener = node.cast::<web_sys::HtmlInputElement>().map(|input| {
            let target = input.clone();
            gloo::events::EventListener::new(&input, "input", move |_| on_text.emit(target.value()))
        });
        move || drop(listener)
    });
}

#[component]
pub fn StateEstimateView(p: &StateEstimateProps) -> Html {
    let now = p.now;
    let inputs = use_reducer(|| {
        let params = EstimateParams::default();
        Inputs { keys: Field::new(params.active_keys), bytes: Field::new(params.bytes_per_entry), params }
    });
    let (keys_ref, bytes_ref) = (use_node_ref(), use_node_ref());
    let dispatch = inputs.dispatcher();
    use_native_input(keys_ref.clone(), dispatch.to_callback().reform(Typed::Keys));
    use_native_input(bytes_ref.clone(), dispatch.to_callback().reform(Typed::Bytes));
    let est = estimate::estimate_from(&now, p.course_windows, p.buffering, inputs.params);
    let rule = match est.source {
        WindowsPerKey::CourseRule(r) => {
            let lateness = if r.held_by_lateness == 0 {
                String::new()
            } else {
                format!(
                    " + {} held open by allowed lateness {}",
                    grouped(r.held_by_lateness.into()),
                    duration(r.lateness)
                )
            };
            format!(
                "The course's rule for a key with steady traffic: {} an element is in{lateness} = {} per key.",
                plural(r.per_element, "window", "windows"),
                plural(r.total(), "live window", "live windows"),
            )
        }
        WindowsPerKey::Measured => format!(
            "Session windows: how many are alive depends on the data, so the estimate takes the most any key has now, {}.",
            grouped(est.windows_per_key.into())
        ),
    };
    let entries = if est.buffering {
        format!(
            "{} here (a buffering function keeps every record of its windows)",
            plural(est.records_per_window, "record", "records")
        )
    } else {
        "1 accumulator (an incremental function folds each record in)".to_string()
    };
    let formula = format!(
        "{} × {} × {} × {} B = {} B ≈ {}",
        plural(est.params.active_keys, "key", "keys"),
        plural(est.windows_per_key, "window", "windows"),
        plural(est.entries_per_window(), "entry", "entries"),
        grouped(est.params.bytes_per_entry.into()),
        grouped(est.bytes),
        bytes_text(est.bytes)
    );
    let contrast = if est.buffering {
        format!(
            "With an AggregateFunction (one accumulator per window) the same keys would need {} instead.",
            bytes_text(est.other_form_bytes)
        )
    } else {
        format!(
            "A bare ProcessWindowFunction would buffer every record instead ({} per window here): {}.",
            grouped(est.records_per_window.into()),
            bytes_text(est.other_form_bytes)
        )
    };
    let field = |id: &'static str, label: &'static str, f: &Field, node: NodeRef| {
        let err_id = format!("{id}-error");
        html! {
            <div class="estimate-field">
                <label for={id}>{ label }</label>
                <input id={id} name={id} data-testid={id} type="text" inputmode="numeric" autocomplete="off"
                       ref={node} value={f.text.clone()} aria-invalid={f.error.is_some().to_string()}
                       aria-describedby={f.error.is_some().then(|| err_id.clone())} />
                if let Some(e) = &f.error {
                    <p id={err_id} class="field-error" role="alert">{ e.clone() }</p>
                }
            </div>
        }
    };
    html! {
        <section class="state-view" data-testid="state-view" aria-label="Window state and the course's estimate">
            <h3>{ format!("Window state at step {}", p.step) }</h3>
            <p data-testid="live-windows-per-key" data-max={now.max_windows_per_key.to_string()}
               data-keys={now.keys_with_state.to_string()} data-live={now.live_windows.to_string()}>
                { format!("Live windows now: {} for the busiest key ({} in all over {}).",
                    grouped(now.max_windows_per_key.into()),
                    grouped(now.live_windows.into()),
                    plural(now.keys_with_state, "key with state", "keys with state")) }
            </p>
            <p data-testid="course-windows-rule" data-windows={est.windows_per_key.to_string()}>{ rule }</p>
            <fieldset class="estimate">
                <legend>{ "The course's estimate: active keys × live windows per key × bytes per window" }</legend>
                { field("estimate-keys", "Active keys", &inputs.keys, keys_ref) }
                { field("estimate-bytes", "Bytes per state entry", &inputs.bytes, bytes_ref) }
                <p class="estimate-entries">{ format!("Each window holds {entries}.") }</p>
                <p class="estimate-result" data-testid="state-estimate" data-bytes={est.bytes.to_string()}
                   data-other-bytes={est.other_form_bytes.to_string()} aria-live="polite">
                    <strong>{ formula }</strong>
                </p>
                <p class="estimate-contrast">{ contrast }</p>
                <p class="muted">{ "Arithmetic, not a measurement: before backend overhead, timers not counted (Flink Windowing, in depth: State sizing)." }</p>
            </fieldset>
        </section>
    }
}

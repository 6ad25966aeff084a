//! The Output tab: the window results up to the playhead and the late side output, with the
//! `output-row` / `side-output-row` / `error-row` / `process-row` test contract.

use std::rc::Rc;

use yew::prelude::*;

use crate::engine::aggregate::AggregateResult;
use crate::engine::output::RecoveryLine;
use crate::engine::recovery::duplicate_of;
use crate::engine::scenario::WindowFunctionSpec;
use crate::engine::time::format_millis;
use crate::engine::trace::FiringKind;
use crate::engine::wire::{Fnv, Sink};
use crate::engine::{Output, Run, Scenario, Window};
use crate::teach::ValueFormat;
use crate::ui::hooks::AppHandle;
use crate::ui::scene::fold::{Effect, result_text};
use crate::ui::state::AppState;

#[derive(Properties, PartialEq)]
pub struct OutputListProps {
    pub state: AppHandle,
}

fn window_text(w: &Window) -> String {
    match w {
        Window::Global => "GlobalWindow".into(),
        Window::Time(tw) => format!("[{}, {})", format_millis(tw.start), format_millis(tw.end)),
    }
}

#[component]
pub fn OutputList(props: &OutputListProps) -> Html {
    let s = props.state.get();
    let s: &AppState = &s;
    let upto = s.fold.view.outputs.min(s.doc.run.outputs.len());
    let (fresh, fresh_late) = if s.play.animate {
        let fired = s.fold.effects.iter().filter_map(|e| match e {
            Effect::Fired { output, .. } => Some(*output),
            _ => None,
        });
        (fired.collect(), s.fold.effects.iter().any(|e| matches!(e, Effect::SideOutput { .. })))
    } else {
        (Vec::new(), false)
    };
    let dragging = s.drag.is_some();
    let recovery = s.doc.layout.recovery;
    let (function, side_output) = (s.doc.shown_scenario.function, s.doc.shown_scenario.side_output);
    html! {
        <OutputRows from={RowsFrom(props.state.clone())} outputs_version={s.doc.outputs_version} {function} {side_output}
            {recovery} {upto} {fresh} {fresh_late} {dragging} values={s.teach.values} />
    }
}

/// The state the rows are read from when drawn (a virtual list draws rows as it scrolls): the
/// run on show and its scenario. Always equal: the rows are compared by the document's
/// `outputs_version` and the other props, and no run is held between renders (a replaced run
/// goes at once, not at the list's next render: at 100,000 elements 70-110 MB).
#[derive(Clone)]
struct RowsFrom(AppHandle);

impl PartialEq for RowsFrom {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

#[derive(Properties, PartialEq)]
struct OutputRowsProps {
    from: RowsFrom,
    /// `Doc::outputs_version` of the run on show.
    outputs_version: u64,
    function: WindowFunctionSpec,
    side_output: bool,
    /// The scenario has checkpoint / crash items (`RunLayout::recovery`).
    recovery: bool,
    /// How many of `run.outputs` were emitted up to the playhead.
    upto: usize,
    /// Outputs emitted by the step just taken (animated).
    fresh: Vec<usize>,
    fresh_late: bool,
    /// A drag is under way: the digest waits for its end.
    dragging: bool,
    /// The scenario's unit of values.
    values: ValueFormat,
}

/// Lists longer than these are virtualised: only the rows in (and near) the visible part exist.
/// Every row in the DOM is laid out, painted and, when a run changes it, rendered again: a rest
/// mid-drag at 2,000 elements that moved the watermark changed 80 window results and 190 late
/// elements, and the lists' share of its frame (layout ≈ 20 ms, paint ≈ 8 ms with the CPU slowed
/// 1.5×) was most of what took it over 50 ms. A virtual row is one line: a late element's row is
/// one line anyway, so its list is virtual from 100 rows; a window result's full row has its value,
/// elements and watermark on lines of their own, every element whole, so its list stays whole up
/// to 300 (a virtual one puts them on its one line, clipping the elements' list first).
const RESULTS_VIRTUAL_ABOVE: usize = 300;
const LATES_VIRTUAL_ABOVE: usize = 100;
/// A virtualised row's height (CSS px; `.rows.virtual > li` in the stylesheet).
const ROW_PX: f64 = 24.0;
/// Rows drawn above and below the visible ones.
const OVERSCAN: usize = 6;
/// A virtual list's scrolling box is at most this high (CSS px; set here, beside the rows it
/// decides, not in the stylesheet).
const BOX_PX: f64 = 480.0;
/// Rows a virtual list shows at most at once: its box's 20 rows, and one more partly scrolled in.
const VISIBLE: usize = (BOX_PX / ROW_PX) as usize + 1;

#[component]
fn OutputRows(p: &OutputRowsProps) -> Html {
    // Equal props when the rows would be: a drag re-runs the engine, but the outputs often stay
    // the same (the same `outputs_version`), and then the list is not rendered again.
    let st = p.from.0.get();
    let run = &st.doc.run;
    let upto = p.upto.min(run.outputs.len());
    let outputs = &run.outputs[..upto];
    let fires: Vec<usize> = (0..upto)
        .filter(|i| matches!(outputs[*i], Output::Fire(_) | Output::Tvf(_) | Output::Process(_) | Output::Recovery(_)))
        .collect();
    let n_recovery = outputs.iter().filter(|o| matches!(o, Output::Recovery(_))).count();
    let lates: Vec<usize> = (0..upto).filter(|i| matches!(outputs[*i], Output::Late { .. })).collect();
    let errors = outputs.iter().enumerate().filter_map(|(i, o)| match o {
        Output::Error(e) => Some(html! {
            <li class="error-row" key={i.to_string()} data-testid="error-row" data-phase={e.phase} data-class={e.class}>
                { format!("Flink error ({}): {}: {}", e.phase, e.class, e.message) }
            </li>
        }),
        _ => None,
    });
    let errors: Vec<Html> = errors.collect();
    let (n_rows, n_lates) = (fires.len(), lates.len());
    let n_fires = n_rows - n_recovery;
    // The digest's index, made once per run, not during a drag (on the SVG backend every move
    // installs a run; on the canvas backend a rest does, in a long task already): at the drop, if
    // its run has not replaced the outputs (≈ 10 ms at 100,000 elements).
    let index = use_mut_ref(|| None::<(u64, DigestIndex)>);
    if !p.dragging && index.borrow().as_ref().is_none_or(|(version, _)| *version != p.outputs_version) {
        *index.borrow_mut() = Some((p.outputs_version, DigestIndex::of(&run.outputs, &run.keys)));
    }
    let digest = match &*index.borrow() {
        Some((version, index)) if !p.dragging && *version == p.outputs_version => {
            index.at(&run.outputs, &run.keys, upto).to_string()
        }
        _ => String::new(),
    };
    let fire_row = {
        let (from, fresh, values) = (p.from.clone(), p.fresh.clone(), p.values);
        let fires = Rc::new(fires);
        let recovery = p.recovery;
        let one_line = n_rows > RESULTS_VIRTUAL_ABOVE;
        Callback::from(move |n: usize| {
            let s = from.0.get();
            let (run, scenario) = (&s.doc.run, &s.doc.shown_scenario);
            fires
                .get(n)
                .map_or_else(Html::default, |i| output_row(run, scenario, &fresh, values, recovery, one_line, *i))
        })
    };
    let late_row = {
        let (from, fresh_late) = (p.from.clone(), p.fresh_late);
        let lates = Rc::new(lates);
        Callback::from(move |n: usize| {
            let s = from.0.get();
            let run = &s.doc.run;
            match lates.get(n).and_then(|i| run.outputs.get(*i)) {
                Some(Output::Late { elem, id, key, ts, .. }) => html! {
                    <LateRow key={*elem} elem={*elem} id={*id} key_name={AttrValue::from(run.key_name(*key).to_string())}
                        ts={*ts} fresh={fresh_late} />
                },
                _ => Html::default(),
            }
        })
    };
    html! {
        <div class="outputs" data-testid="outputs" data-run-digest={digest}>
            if !errors.is_empty() {
                <ul class="errors">{ for errors }</ul>
            }
            <h3>{ format!("Window results ({n_fires})") }</h3>
            if n_fires == 0 {
                <p class="empty">{ "Nothing emitted yet: a window fires when the watermark passes its end − 1." }</p>
            }
            <Rows testid="output-rows" class="rows" total={n_rows} row={fire_row} virtual_above={RESULTS_VIRTUAL_ABOVE} />
            <h3>{ format!("Late side output ({n_lates})") }</h3>
            if !p.side_output {
                <p class="empty">{ "Side output is off: late elements are dropped." }</p>
            }
            <Rows testid="side-output-rows" class="rows side-rows" total={n_lates} row={late_row}
                virtual_above={LATES_VIRTUAL_ABOVE} />
        </div>
    }
}

/// One window result (a window's firing, a TVF row or a process function's record).
/// `recovery`: the scenario has checkpoints or crashes (`Scenario::has_recovery`); `one_line`: the
/// row is drawn in a virtual list, on one line.
fn output_row(
    run: &Run,
    scenario: &Scenario,
    fresh: &[usize],
    values: ValueFormat,
    recovery: bool,
    one_line: bool,
    i: usize,
) -> Html {
    let fresh = fresh.contains(&i);
    match run.outputs.get(i) {
        Some(Output::Fire(f)) => {
            let kind = match f.kind {
                FiringKind::Early => "early",
                FiringKind::Main => "main",
                FiringKind::Late => "late",
            };
            html! {
                <FireRow key={i} key_name={AttrValue::from(run.key_name(f.key).to_string())} window={f.window}
                    firing={f.oracle_firing()} {kind} ids={f.ids.clone()} sum={f.sum} count={f.count}
                    result={AttrValue::from(result_text(scenario, run, Some(i), values))} aggregate={f.result}
                    list={scenario.function == WindowFunctionSpec::Process} wm={f.watermark} {fresh} {one_line}
                    duplicate_of={recovery.then(|| duplicate_of(&run.outputs, i)).flatten()} />
            }
        }
        // A window TVF's final row: one per window, never updated.
        Some(Output::Tvf(r)) => {
            let key = run.key_name(r.firing.key).to_string();
            let ids: Vec<String> = r.firing.ids.iter().map(|i| i.to_string()).collect();
            html! {
                <li class={classes!("output-row", "firing-main", fresh.then_some("fresh"))} key={i.to_string()}
                    data-testid="output-row" data-key={key.clone()} data-start={r.window_start.to_string()}
                    data-end={r.window_end.to_string()} data-firing="main" data-ids={ids.join(",")}
                    data-sum={r.firing.sum.to_string()} data-count={r.firing.count.to_string()}>
                    { format!("{key} [{}, {}) window_time {}: sum {} count {}", format_millis(r.window_start),
                        format_millis(r.window_end), format_millis(r.window_time), r.firing.sum, r.firing.count) }
                </li>
            }
        }
        // A keyed process function's record (completed, abandoned, alert, ok).
        Some(Output::Process(rec)) => {
            let key = run.key_name(rec.key).to_string();
            html! {
                <li class={classes!("output-row", "process-row", fresh.then_some("fresh"))} key={i.to_string()}
                    data-testid="process-row" data-key={key.clone()} data-kind={rec.kind} data-ts={rec.ts.to_string()}
                    data-id={rec.id.map(|id| id.to_string())} data-wm={rec.watermark.to_string()}
                    data-errors={rec.errors.map(|n| n.to_string())} data-requests={rec.requests.map(|n| n.to_string())}>
                    { format!("{key}: {} at {}", rec.kind, format_millis(rec.ts)) }
                </li>
            }
        }
        // A checkpoint, the TaskManager's death, the restore and replay: inline, in emission order.
        Some(Output::Recovery(line)) => {
            let (kind, text) = match *line {
                RecoveryLine::Checkpoint { checkpoint, item, .. } => {
                    ("checkpoint", format!("✓ checkpoint {checkpoint} (state, timers, source after #{item})"))
                }
                RecoveryLine::Crash { item, .. } => ("crash", format!("✗ the TaskManager dies at #{}", item + 1)),
                RecoveryLine::Restore { checkpoint: Some(n), from_item, .. } => {
                    ("restore", format!("↺ restore checkpoint {n}, replay from #{}", from_item + 1))
                }
                RecoveryLine::Restore { checkpoint: None, from_item, .. } => {
                    ("restore", format!("↺ empty state, replay from #{}", from_item + 1))
                }
            };
            html! {
                <li class={classes!("recovery-row", format!("recovery-{kind}"))} key={i.to_string()} data-testid="recovery-row" data-kind={kind}>
                    { text }
                </li>
            }
        }
        _ => Html::default(),
    }
}

/// Outputs between two states the [`DigestIndex`] keeps.
const DIGEST_EVERY: usize = 256;

/// The digest (`data-run-digest`) of a run's outputs at every [`DIGEST_EVERY`]-th output: the
/// digest up to any output is a kept state extended by fewer than `DIGEST_EVERY` lines. Made once
/// per run: at 100,000 elements the lines of all outputs took ≈ 27 ms of the page's thread, and the
/// digest was made again at every step of the playhead and at every drop.
#[derive(Debug, PartialEq)]
struct DigestIndex {
    /// The FNV-1a state after `k * DIGEST_EVERY` outputs, for every such `k` up to the run's end.
    states: Vec<u64>,
}

impl DigestIndex {
    fn of(outputs: &[Output], keys: &[String]) -> DigestIndex {
        let mut h = Fnv::default();
        let mut states = Vec::with_capacity(outputs.len() / DIGEST_EVERY + 1);
        for chunk in outputs.chunks(DIGEST_EVERY) {
            states.push(h.0);
            hash_lines(&mut h, chunk, keys);
        }
        if outputs.len().is_multiple_of(DIGEST_EVERY) {
            states.push(h.0);
        }
        DigestIndex { states }
    }

    /// The digest of `outputs[..upto]` (the outputs it was made of).
    fn at(&self, outputs: &[Output], keys: &[String], upto: usize) -> u64 {
        let upto = upto.min(outputs.len());
        let k = (upto / DIGEST_EVERY).min(self.states.len().saturating_sub(1));
        let mut h = Fnv(self.states.get(k).copied().unwrap_or(Fnv::default().0));
        hash_lines(&mut h, &outputs[k * DIGEST_EVERY..upto], keys);
        h.0
    }
}

/// FNV-1a (64 bit) of the outputs in emission order (`data-run-digest`), one line each: a firing
/// `F|key|start|end|ids|sum|count|n|wm`, a late element `L|id|key|ts`, anything else `O`. At the
/// end of the input a test computes the same from `tidemark run FILE`'s lines, and so compares the
/// page's run with the command line's without reading every (virtualised) row.
#[cfg(test)]
fn digest_of(outputs: &[Output], keys: &[String]) -> u64 {
    let mut h = Fnv::default();
    hash_lines(&mut h, outputs, keys);
    h.0
}

/// `h` extended by the digest's lines of `outputs`.
fn hash_lines(h: &mut Fnv, outputs: &[Output], keys: &[String]) {
    let mut line = String::new();
    for o in outputs {
        digest_line(&mut line, o, keys);
        h.extend_from_slice(line.as_bytes());
    }
}

/// The digest's line of output `o` (see [`digest_of`]), in `line`. Written piece by piece with
/// `itoa`, not `write!`: the formatting machinery was most of the digest's 27 ms at 100,000 elements.
fn digest_line(line: &mut String, o: &Output, keys: &[String]) {
    let key = |k: u32| keys.get(k as usize).map_or("", String::as_str);
    let mut num = itoa::Buffer::new();
    line.clear();
    match o {
        Output::Fire(f) => {
            let (start, end) = f.window.bounds();
            line.push_str("F|");
            line.push_str(key(f.key));
            line.push('|');
            for b in [start, end] {
                if let Some(v) = b {
                    line.push_str(num.format(v));
                }
                line.push('|');
            }
            for (i, id) in f.ids.iter().enumerate() {
                if i > 0 {
                    line.push(',');
                }
                line.push_str(num.format(*id));
            }
            line.push('|');
            line.push_str(num.format(f.sum));
            for v in [f.count, f.n] {
                line.push('|');
                line.push_str(num.format(v));
            }
            line.push('|');
            line.push_str(num.format(f.watermark));
        }
        Output::Late { id, key: k, ts, .. } => {
            line.push_str("L|");
            line.push_str(num.format(*id));
            line.push('|');
            line.push_str(key(*k));
            line.push('|');
            line.push_str(num.format(*ts));
        }
        _ => line.push('O'),
    }
    line.push('\n');
}

#[derive(Properties, PartialEq)]
struct RowsProps {
    testid: &'static str,
    class: &'static str,
    total: usize,
    /// The row at a position of the list.
    row: Callback<usize, Html>,
    /// Virtualised above this many rows.
    virtual_above: usize,
}

/// The rows a virtual list draws (the visible ones and [`OVERSCAN`] either side), scrolled `top` px
/// down a list of `total`: never so far down that fewer rows than the box holds are left to draw
/// (a scroll offset read before the list shrank).
fn drawn_rows(top: f64, total: usize) -> std::ops::Range<usize> {
    let first = ((top / ROW_PX) as usize).saturating_sub(OVERSCAN).min(total.saturating_sub(VISIBLE + OVERSCAN));
    first..(first + VISIBLE + 2 * OVERSCAN).min(total)
}

/// A list of rows with `data-rows` (the total). Over `virtual_above` rows it is virtualised: a
/// scrolling box of the full height, with only the rows near its visible part in the DOM.
#[component]
fn Rows(p: &RowsProps) -> Html {
    let top = use_state(|| 0.0f64);
    let total = p.total.to_string();
    let virtualised = p.total > p.virtual_above;
    {
        // A list that is whole again forgets its scroll offset: the next virtual box is a new
        // one, scrolled to its top (with the old offset its rows were drawn far below its view).
        let top = top.clone();
        use_effect_with(virtualised, move |v| {
            if !*v && *top != 0.0 {
                top.set(0.0);
            }
        });
    }
    if !virtualised {
        return html! {
            <ol class={p.class} data-testid={p.testid} data-rows={total}>{ for (0..p.total).map(|n| p.row.emit(n)) }</ol>
        };
    }
    let onscroll = {
        let top = top.clone();
        Callback::from(move |e: Event| {
            if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                top.set(f64::from(el.scroll_top()));
            }
        })
    };
    let std::ops::Range { start: first, end: last } = drawn_rows(*top, p.total);
    let style = format!("height: {}px; padding-top: {}px", p.total as f64 * ROW_PX, first as f64 * ROW_PX);
    html! {
        <div class="virtual-rows" style={format!("max-height: {BOX_PX}px")} data-testid={p.testid} data-rows={total}
            data-first={first.to_string()} {onscroll}>
            <ol class={classes!(p.class, "virtual")} {style}>{ for (first..last).map(|n| p.row.emit(n)) }</ol>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct FireRowProps {
    key_name: AttrValue,
    window: Window,
    /// The oracle's `firing`: main for the first call of the window function, late after.
    firing: &'static str,
    /// The teaching classification: early, main or late.
    kind: &'static str,
    ids: Vec<i64>,
    sum: i64,
    count: u64,
    result: AttrValue,
    /// A course aggregate's result: LatencySketch's percentiles go to `data-p50` / `data-p99`.
    aggregate: Option<AggregateResult>,
    /// Show the element ids (a buffering process function) rather than a count.
    list: bool,
    wm: crate::engine::Millis,
    fresh: bool,
    /// A recovery duplicate: the output index of the result it repeats.
    duplicate_of: Option<usize>,
    /// Drawn on one line (a virtual list), where a narrow panel clips its end: the whole row is
    /// its `title` too.
    one_line: bool,
}

/// A late element's row: a component, so that a drag which changes one late element re-renders
/// that row only (a scenario can have thousands).
#[derive(Properties, PartialEq, Clone)]
struct LateRowProps {
    /// The element's ordinal in the run: its key (an element goes to the side output at most once,
    /// when it is processed), so a row that comes or goes does not shift the keys of the rows after it.
    elem: crate::engine::trace::ElemIdx,
    id: i64,
    key_name: AttrValue,
    ts: crate::engine::Millis,
    fresh: bool,
}

#[component]
fn LateRow(p: &LateRowProps) -> Html {
    html! {
        <li class={classes!("side-row", p.fresh.then_some("fresh"))} data-testid="side-output-row" data-id={p.id.to_string()}
            data-key={p.key_name.clone()} data-ts={p.ts.to_string()}>
            { format!("element {} · key {} · ts {}", p.id, p.key_name, format_millis(p.ts)) }
            // The line the course's lab prints for a late record: LATE <request_id>.
            { " · " }<code class="late-line" title="What the lab prints for late_records">{ format!("LATE {}", p.id) }</code>
        </li>
    }
}

/// One window result, with the `data-*` contract of the end-to-end tests.
#[component]
fn FireRow(p: &FireRowProps) -> Html {
    let (start, end) = p.window.bounds();
    let ids: Vec<String> = p.ids.iter().map(|i| i.to_string()).collect();
    let contents = if p.list { format!("[{}]", ids.join(", ")) } else { format!("{} element(s)", p.count) };
    let class = classes!(
        "output-row",
        format!("firing-{}", p.kind),
        p.fresh.then_some("fresh"),
        p.duplicate_of.is_some().then_some("recovery-dup")
    );
    // Percentiles have their own contract: data-p50 / data-p99 (ms, empty for an empty window),
    // data-approximate when the window held more than K latencies (a reservoir sample).
    let (p50, p99, approximate) = match p.aggregate {
        Some(AggregateResult::Latency { p50, p99, approximate, .. }) => {
            let ms = |v: Option<i64>| Some(v.map(|v| v.to_string()).unwrap_or_default());
            (ms(p50), ms(p99), Some(approximate.to_string()))
        }
        _ => (None, None, None),
    };
    let approx_note = matches!(p.aggregate, Some(AggregateResult::Latency { approximate: true, .. }));
    let wm = format!("wm {}", format_millis(p.wm));
    let title = p.one_line.then(|| {
        let window = window_text(&p.window);
        format!("{} {window} {}: {} · {contents} · {wm}", p.key_name, p.kind, p.result)
    });
    html! {
        <li {class} {title} data-testid="output-row" data-key={p.key_name.clone()}
            data-start={start.map(|v| v.to_string()).unwrap_or_default()}
            data-end={end.map(|v| v.to_string()).unwrap_or_default()}
            data-firing={p.firing} data-ids={ids.join(",")}
            data-sum={p.sum.to_string()} data-count={p.count.to_string()}
            data-p50={p50} data-p99={p99} data-approximate={approximate}
            data-recovery-duplicate={p.duplicate_of.map(|o| o.to_string())}>
            <span class="row-key">{ p.key_name.clone() }</span>
            <span class="row-window">{ window_text(&p.window) }</span>
            if p.duplicate_of.is_some() {
                <span class="badge badge-recovery" data-testid="recovery-duplicate"
                    title="Repeated, identical, by the replay after the restore">
                    { "recovery duplicate" }
                </span>
            } else {
                <span class={classes!("badge", format!("badge-{}", p.kind))}>
                    { match p.kind { "late" => "late · updated result", k => k } }
                </span>
            }
            <span class="row-result">{ p.result.clone() }</span>
            if approx_note {
                <span class="badge badge-approximate" data-testid="approximate"
                    title="More than K = 1000 latencies: percentiles of a reservoir sample">
                    { "approximate" }
                </span>
            }
            <span class="row-ids">{ contents }</span>
            <span class="row-wm">{ wm }</span>
        </li>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A virtual list draws every row its box ([`BOX_PX`]) shows at any scroll offset, and no more than
    /// 33; scrolled past its end (an offset read before the list shrank) it draws its last rows.
    #[test]
    fn a_virtual_list_draws_the_rows_in_view() {
        let box_px = BOX_PX;
        for total in [101, 150, 299, 301, 1_297, 100_000] {
            let max_top = total as f64 * ROW_PX - box_px;
            let mut top = 0.0;
            while top <= max_top {
                let std::ops::Range { start: first, end: last } = drawn_rows(top, total);
                let (seen_from, seen_to) =
                    ((top / ROW_PX) as usize, (((top + box_px) / ROW_PX).ceil() as usize).min(total));
                assert!(
                    first <= seen_from && seen_to <= last,
                    "{total} rows at {top}: {first}..{last} for {seen_from}..{seen_to}"
                );
                assert!(last - first <= 33);
                top += 7.0;
            }
            for stale in [max_top + 24.0, total as f64 * ROW_PX * 10.0] {
                let std::ops::Range { start: first, end: last } = drawn_rows(stale, total);
                assert_eq!(last, total, "{total} rows at {stale}");
                assert!(total - first >= 20, "a box of rows: {}", total - first);
            }
        }
    }
    use crate::engine::run::run;

    /// The digest's line as it was first written, with `write!`: the format the e2e tests compute.
    fn digest_line_fmt(line: &mut String, o: &Output, keys: &[String]) {
        use std::fmt::Write;
        let key = |k: u32| keys.get(k as usize).map_or("", String::as_str);
        line.clear();
        let _ = match o {
            Output::Fire(f) => {
                let (start, end) = f.window.bounds();
                let _ = write!(line, "F|{}|", key(f.key));
                for b in [start, end] {
                    let _ = match b {
                        Some(v) => write!(line, "{v}|"),
                        None => write!(line, "|"),
                    };
                }
                for (i, id) in f.ids.iter().enumerate() {
                    let _ = write!(line, "{}{id}", if i == 0 { "" } else { "," });
                }
                writeln!(line, "|{}|{}|{}|{}", f.sum, f.count, f.n, f.watermark)
            }
            Output::Late { id, key: k, ts, .. } => writeln!(line, "L|{id}|{}|{ts}", key(*k)),
            _ => writeln!(line, "O"),
        };
    }

    /// The digest up to any output, read from the index, is the digest of those outputs' lines:
    /// at none, at the kept states' boundaries and between them, and at the end, for firings and
    /// late elements; an index of no outputs gives the empty digest.
    #[test]
    fn the_digest_index_gives_the_digest_up_to_any_output() {
        let input: Vec<String> = (0..1500)
            .map(|i| format!(r#"{{"id": {i}, "key": "k{}", "ts": {}}}"#, i % 7, (i * 7919) % 600_000))
            .collect();
        let json = format!(
            r#"{{"assigner": {{"kind": "sliding", "size": 20000, "slide": 5000}}, "side_output": true,
                "watermarks": {{"kind": "bounded_out_of_orderness", "bound": 2000}}, "input": [{}]}}"#,
            input.join(",")
        );
        let scenario = Scenario::from_json_str(&json).unwrap_or_else(|e| panic!("{e}"));
        let run = run(&scenario);
        let n = run.outputs.len();
        assert!(n > 3 * DIGEST_EVERY, "{n} outputs");
        assert!(run.outputs.iter().any(|o| matches!(o, Output::Late { .. })), "late elements among them");
        let index = DigestIndex::of(&run.outputs, &run.keys);
        assert_eq!(index.states.len(), n / DIGEST_EVERY + 1);
        for upto in
            (0..=n).filter(|u| u % 97 == 0 || u % DIGEST_EVERY < 2 || u % DIGEST_EVERY == DIGEST_EVERY - 1 || *u == n)
        {
            assert_eq!(
                index.at(&run.outputs, &run.keys, upto),
                digest_of(&run.outputs[..upto], &run.keys),
                "up to {upto}"
            );
        }
        assert_eq!(index.at(&run.outputs, &run.keys, n + 5), digest_of(&run.outputs, &run.keys), "clamped to the end");
        // Each line is the one first written with `write!` (the format the e2e tests compute from
        // the command line's output), here and over the real-Flink scenarios' runs (global windows
        // and their open bounds, process functions, errors among them).
        let (mut line, mut reference) = (String::new(), String::new());
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/flink/scenarios");
        let mut runs = vec![run];
        for file in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let Ok(text) = std::fs::read_to_string(file.path()) else { continue };
            let Ok(mut value) = serde_json::from_str::<serde_json::Value>(&text) else { continue };
            if value.get("assigner").is_none() && value.get("process_function").is_none() && value.get("tvf").is_none()
            {
                value["assigner"] = serde_json::json!({"kind": "global"});
            }
            if let Ok(s) = Scenario::from_value(&value) {
                runs.push(crate::engine::run::run(&s));
            }
        }
        assert!(runs.len() > 50, "{} runs", runs.len());
        let mut open = 0;
        for r in &runs {
            for o in &r.outputs {
                digest_line(&mut line, o, &r.keys);
                digest_line_fmt(&mut reference, o, &r.keys);
                assert_eq!(line, reference, "the line of {o:?}");
                open += usize::from(line.starts_with("F|") && line.contains("||"));
            }
        }
        assert!(open > 0, "windows with an open bound among them");
        let run = &runs[0];
        let none = DigestIndex::of(&[], &run.keys);
        assert_eq!(none.at(&[], &run.keys, 0), Fnv::default().0);
        assert_eq!(none.at(&[], &run.keys, 3), Fnv::default().0);
    }
}

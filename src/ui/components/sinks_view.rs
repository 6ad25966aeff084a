//! What downstream sees (issue 7), following the playhead: the main output rows, three sinks side
//! by side (append-only, upsert by (key, window_end), the Flink SQL changelog) each against the
//! correct answer, and the late side output with `numLateRecordsDropped`. Everything is read from
//! [`crate::sinks::Downstream`]; the component only lays it out. It is rendered by the extras
//! module (`src/extras.rs`), which the Sinks tab hands the scenario and the playhead.

use std::rc::Rc;

use yew::prelude::*;

use super::state_estimate::StateEstimateView;
use crate::engine::Window;
use crate::engine::trace::FiringKind;
use crate::sinks::{Amount, ChangeKind, Downstream, LateRecord, ResultRow, ResultValue, SinkTotals};
use crate::teach::{ValueFormat, format};

/// An amount of the sinks' column in the scenario's unit (`$8.41`); counts stay plain.
pub fn amount_text(a: Amount, column: &str, values: ValueFormat) -> String {
    match a {
        Amount::Int(i) if column != "count" => i64::try_from(i).map_or_else(|_| i.to_string(), |v| values.value(v)),
        Amount::Int(i) => i.to_string(),
        Amount::Real(r) => match values {
            ValueFormat::UsdCents => {
                let dollars = Amount::Real(r / 100.0).to_string();
                if let Some(rest) = dollars.strip_prefix('-') { format!("-${rest}") } else { format!("${dollars}") }
            }
            ValueFormat::Ms => format!("{} ms", Amount::Real(r)),
            ValueFormat::Count | ValueFormat::Plain => Amount::Real(r).to_string(),
        },
    }
}

/// A window function's result in the scenario's unit: `$4.31 (3 elements)`, `avg $1.44`.
pub fn value_text(v: &ResultValue, values: ValueFormat) -> String {
    let column = v.column();
    match v {
        ResultValue::SumCount { sum, count } => {
            format!("{} ({count} element{})", values.value(*sum), if *count == 1 { "" } else { "s" })
        }
        ResultValue::Sum(s) => values.value(*s),
        ResultValue::Count(c) => format!("{c}"),
        other => match other.amount() {
            Some(a) => format!("{column} {}", amount_text(a, column, values)),
            None => format!("{column} —"),
        },
    }
}

/// The raw amount for `data-*` attributes (integers exact, reals with 6 decimals).
fn amount_attr(a: Amount) -> String {
    match a {
        Amount::Int(i) => i.to_string(),
        Amount::Real(r) => format!("{r:.6}"),
    }
}

fn window_text(w: &Window) -> String {
    match w {
        Window::Global => "GlobalWindow".into(),
        Window::Time(_) => format::window(w),
    }
}

fn end_text(end: Option<i64>) -> String {
    end.map_or_else(|| "global".to_string(), format::time)
}

fn kind_label(k: FiringKind) -> &'static str {
    match k {
        FiringKind::Main => "main",
        FiringKind::Late => "late",
        FiringKind::Early => "early",
    }
}

/// How a sink's total compares with the correct answer, in words.
pub fn verdict_text(total: Amount, correct: Amount, column: &str, values: ValueFormat) -> (bool, String) {
    let diff = total - correct;
    if diff.is_zero() {
        (true, format!("= the correct {}", amount_text(correct, column, values)))
    } else if diff.as_f64() > 0.0 {
        (
            false,
            format!(
                "{} more than the correct {}",
                amount_text(diff, column, values),
                amount_text(correct, column, values)
            ),
        )
    } else {
        // The correct answer is each window's final value: a later result is still to come.
        let short = Amount::ZERO - diff;
        (
            false,
            format!(
                "{} less than the final {}",
                amount_text(short, column, values),
                amount_text(correct, column, values)
            ),
        )
    }
}

#[derive(Properties, PartialEq)]
pub struct SinksViewProps {
    pub downstream: DownstreamRef,
    pub step: usize,
    pub values: ValueFormat,
}

/// The Sinks tab's content: main output, the three sinks, the side output, at `step`.
#[component]
pub fn SinksView(p: &SinksViewProps) -> Html {
    let d = &p.downstream.0;
    let (step, values) = (p.step, p.values);
    let totals = d.totals_at(step);
    html! {
        <div class="sinks-panel" data-testid="sinks-panel" data-step={step.to_string()}>
            if let Some(e) = d.error() {
                <p class="field-error" role="alert">{ format!("Flink would fail ({} phase): {}: {}", e.phase, e.class, e.message) }</p>
            }
            <MainOutput downstream={p.downstream.clone()} {step} {values} />
            <h3 class="sinks-title">{ format!("Sinks at step {step}: what each one bills") }</h3>
            <div class="sinks">
                { append_sink(d, step, values, &totals) }
                { upsert_sink(d, step, values, &totals) }
                { changelog_sink(d, step, values, &totals) }
            </div>
            <p class="sink-correct" data-testid="sink-correct" data-amount={amount_attr(totals.correct)}>
                { format!("Correct answer: the final value of each window that has emitted so far, {} in all.",
                    amount_text(totals.correct, totals.column, values)) }
            </p>
            { side_output(d, step, values) }
            <StateEstimateView {step} now={d.state().at(step)} course_windows={d.state().course_windows} buffering={d.state().buffering} />
        </div>
    }
}

/// Shares a `Downstream` by identity in props.
#[derive(Clone)]
pub struct DownstreamRef(pub Rc<Downstream>);

impl PartialEq for DownstreamRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
struct MainOutputProps {
    downstream: DownstreamRef,
    step: usize,
    values: ValueFormat,
}

#[component]
fn MainOutput(p: &MainOutputProps) -> Html {
    let d = &p.downstream.0;
    let (step, values) = (p.step, p.values);
    let rows = d.rows_at(step);
    let first = first_shown(rows.len());
    let row = |i: usize, r: &ResultRow| {
        let kind = kind_label(r.kind);
        let note = if let Some(o) = r.recovery_duplicate {
            format!("recovery duplicate of #{}", o + 1)
        } else if let Some(u) = r.updates {
            format!("updates #{}", u + 1)
        } else if !r.replaces.is_empty() {
            let list: Vec<String> = r.replaces.iter().map(|x| format!("#{}", x + 1)).collect();
            format!("replaces {}", list.join(", "))
        } else {
            String::new()
        };
        let fresh = r.step + 1 == step;
        html! {
            <tr key={i} class={classes!(format!("firing-{kind}"), r.is_update().then_some("update"), fresh.then_some("fresh"))}
                data-testid="result-row" data-row={i.to_string()} data-key={d.key_name(r.key).to_string()}
                data-end={r.window_end().map(|e| e.to_string()).unwrap_or_default()} data-kind={kind}
                data-value={r.value.amount().map(amount_attr).unwrap_or_default()}
                data-updates={r.updates.map(|u| u.to_string()).unwrap_or_default()}
                data-recovery-duplicate={r.recovery_duplicate.map(|o| o.to_string())}
                data-record-ts={r.record_timestamp.to_string()}>
                <td class="num">{ format!("#{}", i + 1) }</td>
                <td>{ d.key_name(r.key).to_string() }</td>
                <td class="mono">{ window_text(&r.window) }</td>
                <td class="value">{ value_text(&r.value, values) }</td>
                <td><span class={classes!("badge", format!("badge-{kind}"))}>{ if r.is_update() { format!("{kind} · update") } else { kind.to_string() } }</span></td>
                <td class="mono">{ format::time(r.watermark) }</td>
                <td class="mono">{ format::time(r.record_timestamp) }</td>
                <td class="note">{ note }</td>
            </tr>
        }
    };
    html! {
        <section class="main-output" data-testid="main-output">
            <h3>{ format!("Main output ({} result{})", rows.len(), if rows.len() == 1 { "" } else { "s" }) }</h3>
            if rows.is_empty() {
                <p class="empty">{ "No window has fired yet." }</p>
            } else {
                { left_out_note(first, rows.len()) }
                // Scrolls sideways when narrow: a named Tab stop (axe scrollable-region-focusable).
                <div class="table-wrap" tabindex="0" role="region" aria-label="Main output table">
                    <table class="out-table">
                        <thead><tr>
                            <th>{ "#" }</th><th>{ "key" }</th><th>{ "window" }</th><th>{ "value" }</th>
                            <th>{ "firing" }</th><th title="ctx.currentWatermark() when it fired">{ "watermark" }</th>
                            <th title="The output record's timestamp: window.maxTimestamp() = end − 1">{ "record ts" }</th><th />
                        </tr></thead>
                        <tbody>{ for rows.iter().enumerate().skip(first).map(|(i, r)| row(i, r)) }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}

/// Rows a table of the Sinks tab shows at most: the most recent at the playhead. At 10,000
/// elements its five tables had 20,000 rows (130,000 nodes), a task of 1.7 s when the tab opened.
const ROWS_SHOWN: usize = 200;

/// The index of the first row of `n` a table shows ([`ROWS_SHOWN`], the most recent).
fn first_shown(n: usize) -> usize {
    n.saturating_sub(ROWS_SHOWN)
}

/// Over a table of `total` rows that shows those from `first` on (the most recent) and leaves out
/// the ones before: says so (the totals count them).
fn left_out_note(first: usize, total: usize) -> Html {
    let (left_out, shown) = (first, total - first);
    if left_out == 0 {
        return Html::default();
    }
    html! {
        <p class="sink-what rows-left-out" data-testid="rows-left-out" data-count={left_out.to_string()}>
            { format!("The {shown} most recent rows; the {left_out} before them are not shown here (the totals count every row).") }
        </p>
    }
}

fn total_line(
    testid: &'static str,
    label: &str,
    total: Amount,
    correct: Amount,
    column: &str,
    values: ValueFormat,
) -> Html {
    let (ok, verdict) = verdict_text(total, correct, column, values);
    html! {
        <div class={classes!("sink-total", if ok { "ok" } else { "wrong" })} data-testid={testid}
             data-amount={amount_attr(total)} data-correct={ok.to_string()}>
            <span class="total-label">{ label.to_string() }</span>
            <strong class="total-value">{ amount_text(total, column, values) }</strong>
            <span class="total-verdict">{ if ok { format!("✓ {verdict}") } else { format!("✗ {verdict}") } }</span>
        </div>
    }
}

fn append_sink(d: &Downstream, step: usize, values: ValueFormat, t: &SinkTotals) -> Html {
    let rows = d.append_at(step);
    let mut seen = std::collections::BTreeSet::new();
    let first = first_shown(rows.len());
    let items = rows.iter().enumerate().filter_map(|(i, a)| {
        let r = d.row(a.row)?;
        // (Over every row: a window's later rows are duplicates of its first, shown or not.)
        let dup = !seen.insert((r.key, r.window_end()));
        if i < first {
            return None;
        }
        let recovery = r.recovery_duplicate.is_some();
        Some(html! {
            <tr key={a.row} class={classes!(dup.then_some("dup"), recovery.then_some("recovery-dup"))} data-testid="append-row"
                data-recovery-duplicate={recovery.then_some("true")}>
                <td>{ d.key_name(r.key).to_string() }</td>
                <td class="mono">
                    { end_text(r.window_end()) }
                    if recovery {
                        <span class="badge badge-recovery" title="The replay after the restore emitted this result a second time: an append-only sink stores and sums it again">{ "recovery duplicate" }</span>
                    }
                </td>
                <td class="value">{ r.value.amount().map(|v| amount_text(v, t.column, values)).unwrap_or_else(|| "—".into()) }</td>
                <td class="value running">{ amount_text(a.running_total, t.column, values) }</td>
            </tr>
        })
    });
    html! {
        // Each sink box scrolls sideways when narrow (overflow-x: auto): a named Tab stop, so a keyboard
        // can scroll it (axe scrollable-region-focusable).
        <section class="sink" data-testid="sink-append" tabindex="0" aria-label="Append-only sink">
            <h4>{ "Append-only" }</h4>
            <p class="sink-what">{ "Every result is a new row; billing sums them." }</p>
            { left_out_note(first, rows.len()) }
            <table class="out-table small">
                <thead><tr><th>{ "key" }</th><th>{ "window_end" }</th><th>{ t.column }</th><th>{ "running total" }</th></tr></thead>
                <tbody>{ for items }</tbody>
            </table>
            { total_line("sink-append-total", "total", t.append, t.correct, t.column, values) }
        </section>
    }
}

fn upsert_sink(d: &Downstream, step: usize, values: ValueFormat, t: &SinkTotals) -> Html {
    let rows = d.upsert_at(step);
    // Its rows are in (key, window) order: the most recent are the last written (their results'
    // rows), shown in that order.
    let first = first_shown(rows.len());
    let mut written: Vec<_> = rows.iter().map(|u| u.row).collect();
    written.sort_unstable();
    let oldest_shown = written.get(first).copied();
    let items = rows.iter().filter(|u| oldest_shown.is_some_and(|o| u.row >= o)).map(|u| {
        let Some(r) = d.row(u.row) else { return Html::default() };
        html! {
            <tr key={format!("{}:{:?}", u.key, u.window_end)} class={classes!((u.writes > 1).then_some("overwritten"))} data-testid="upsert-row"
                data-writes={u.writes.to_string()} data-duplicates={u.duplicates.to_string()}>
                <td>{ d.key_name(u.key).to_string() }</td>
                <td class="mono">{ end_text(u.window_end) }</td>
                <td class="value">{ r.value.amount().map(|v| amount_text(v, t.column, values)).unwrap_or_else(|| "—".into()) }</td>
                <td class="writes">
                    { if u.writes > 1 { format!("{} writes", u.writes) } else { "1 write".into() } }
                    if u.duplicates > 0 {
                        { format!(" · {} recovery duplicate{} absorbed (same value, same key)", u.duplicates, if u.duplicates == 1 { "" } else { "s" }) }
                    }
                </td>
            </tr>
        }
    });
    html! {
        <section class="sink" data-testid="sink-upsert" tabindex="0" aria-label="Upsert sink">
            <h4>{ "Upsert by (key, window_end)" }</h4>
            <p class="sink-what">{ "A later result overwrites the row of the same window." }</p>
            { left_out_note(first, rows.len()) }
            <table class="out-table small">
                <thead><tr><th>{ "key" }</th><th>{ "window_end" }</th><th>{ t.column }</th><th /></tr></thead>
                <tbody>{ for items }</tbody>
            </table>
            { total_line("sink-upsert-total", "total", t.upsert, t.correct, t.column, values) }
        </section>
    }
}

fn changelog_sink(d: &Downstream, step: usize, values: ValueFormat, t: &SinkTotals) -> Html {
    let rows = d.changelog_at(step);
    // Not from between a retraction and its update (−U, +U): from the −U.
    let first = first_shown(rows.len());
    let first = if rows.get(first).is_some_and(|c| c.kind == ChangeKind::UpdateAfter) {
        first.saturating_sub(1)
    } else {
        first
    };
    let items = rows.iter().enumerate().skip(first).map(|(i, c)| {
        let Some(r) = d.row(c.row) else { return Html::default() };
        let op = c.kind.short();
        let class = match c.kind {
            ChangeKind::Insert => "op-insert",
            ChangeKind::UpdateBefore => "op-retract",
            ChangeKind::UpdateAfter => "op-update",
            ChangeKind::Delete => "op-delete",
        };
        html! {
            <tr key={i} class={class} data-testid="changelog-row" data-kind={op}>
                <td class="op mono">{ op.replace('-', "−") }</td>
                <td>{ d.key_name(r.key).to_string() }</td>
                <td class="mono">{ end_text(r.window_end()) }</td>
                <td class="value">{ r.value.amount().map(|v| amount_text(v, t.column, values)).unwrap_or_else(|| "—".into()) }</td>
            </tr>
        }
    });
    html! {
        <section class="sink" data-testid="sink-changelog" tabindex="0" aria-label="Flink SQL changelog sink">
            <h4>{ "Flink SQL changelog" }</h4>
            <p class="sink-what">{ "+I inserts; −U retracts the old row, +U adds the new." }</p>
            { left_out_note(first, rows.len()) }
            <table class="out-table small">
                <thead><tr><th>{ "op" }</th><th>{ "key" }</th><th>{ "window_end" }</th><th>{ t.column }</th></tr></thead>
                <tbody>{ for items }</tbody>
            </table>
            { total_line("sink-changelog-total", "materialized", t.changelog, t.correct, t.column, values) }
        </section>
    }
}

fn side_output(d: &Downstream, step: usize, values: ValueFormat) -> Html {
    let v = d.side_output_at(step);
    let first = first_shown(v.records.len());
    let items = v.records.iter().skip(first).map(|l| {
        html! {
            <tr key={l.elem} data-testid="late-record" data-id={l.id.to_string()}>
                <td>{ l.id }</td>
                <td>{ d.key_name(l.key).to_string() }</td>
                <td class="mono">{ format::time(l.ts) }</td>
                <td class="value">{ values.value(l.value) }</td>
                <td class="mono">{ format!("step {}", l.step + 1) }</td>
            </tr>
        }
    });
    html! {
        <section class="side-output-panel" data-testid="side-output-panel">
            <h3>{ if v.enabled { format!("Late side output ({})", v.records.len()) } else { "Late side output: off".to_string() } }</h3>
            if v.enabled {
                if v.records.is_empty() {
                    <p class="empty">{ "No record was too late yet (sideOutputLateData)." }</p>
                } else {
                    { left_out_note(first, v.records.len()) }
                    <table class="out-table small">
                        <thead><tr><th>{ "id" }</th><th>{ "key" }</th><th>{ "timestamp" }</th><th>{ "value" }</th><th>{ "arrived" }</th></tr></thead>
                        <tbody>{ for items }</tbody>
                    </table>
                    <p class="sink-what">{ "What the lab prints for late_records (its request_id is the element's id here):" }</p>
                    <pre class="late-lines" data-testid="late-lines">{ v.records.iter().map(LateRecord::lab_line).collect::<Vec<_>>().join("\n") }</pre>
                }
            } else {
                <p class="counter" data-testid="late-dropped" data-count={v.late_records_dropped.to_string()}>
                    <span class="mono">{ "numLateRecordsDropped" }</span>{ " = " }<strong>{ v.late_records_dropped }</strong>
                    { " (no side output: too-late records are dropped and counted)" }
                </p>
            }
            if v.silently_dropped > 0 {
                <p class="counter muted" data-testid="silently-dropped">
                    { format!("{} element(s) dropped without being counted: every window of theirs was already past its cleanup time while they were not too late.", v.silently_dropped) }
                </p>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Amounts are written in the preset's unit; counts stay plain; reals keep two decimals.
    #[test]
    fn amounts_in_units() {
        assert_eq!(amount_text(Amount::Int(841), "sum", ValueFormat::UsdCents), "$8.41");
        assert_eq!(amount_text(Amount::Int(3), "count", ValueFormat::UsdCents), "3");
        assert_eq!(amount_text(Amount::Real(143.666), "avg", ValueFormat::UsdCents), "$1.44");
        assert_eq!(amount_text(Amount::Real(-50.0), "avg", ValueFormat::UsdCents), "-$0.5");
        assert_eq!(amount_text(Amount::Int(120), "max", ValueFormat::Ms), "120 ms");
        assert_eq!(
            value_text(&ResultValue::SumCount { sum: 431, count: 3 }, ValueFormat::UsdCents),
            "$4.31 (3 elements)"
        );
        assert_eq!(value_text(&ResultValue::Min(None), ValueFormat::Plain), "min —");
    }

    /// Lab 6.2 at the end: append-only bills $8.41, $4.10 more than the correct $4.31; the
    /// upsert sink and the changelog hold $4.31; the changelog retracts with −U and adds +U.
    #[test]
    fn lab_6_2_sinks() {
        let Some(p) = crate::teach::presets::by_id("lab-6-2") else { panic!("lab-6-2") };
        let run = crate::engine::run(&p.scenario);
        let d = Downstream::new(&p.scenario, &run);
        let t = d.totals_at(run.steps);
        let v = ValueFormat::UsdCents;
        assert_eq!(amount_text(t.append, t.column, v), "$8.41");
        assert_eq!(amount_text(t.upsert, t.column, v), "$4.31");
        assert_eq!(amount_text(t.changelog, t.column, v), "$4.31");
        assert_eq!(verdict_text(t.append, t.correct, t.column, v), (false, "$4.10 more than the correct $4.31".into()));
        assert!(verdict_text(t.upsert, t.correct, t.column, v).0);
        let ops: Vec<&str> = d.changelog_at(run.steps).iter().map(|c| c.kind.short()).collect();
        assert_eq!(ops, ["+I", "-U", "+U"]);
    }
}

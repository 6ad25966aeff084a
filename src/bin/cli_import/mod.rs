//! `tidemark import` and `tidemark lateness`: your own stream from the command line.
//!
//! ```text
//! tidemark import FILE [--key COL] [--ts COL] [--ts-unit s|ms|us|ns|iso] [--offset +HH:MM]
//!                 [--value COL] [--partition COL] [--arrival COL] [--arrival-unit UNIT]
//!                 [--window tumbling:60s|sliding:60s:10s|session:5m] [--lateness DUR] [--bound DUR]
//!                 [--format csv|tsv|jsonl] [--no-header] [--name NAME] [--skip-bad]
//! tidemark lateness FILE [the same options] [--bounds DUR,DUR,...]
//! ```
//! `import` prints the scenario JSON on stdout; `lateness` prints the report as a table (FILE may
//! also be a scenario `.json`). Unset columns and units are guessed from the file, and the guess
//! is said on stderr. Bad rows: exit 2 with their line numbers, unless `--skip-bad`.

use std::path::Path;
use std::process::ExitCode;

use tidemark::engine::Scenario;
use tidemark::engine::scenario::AssignerSpec;
use tidemark::import::lateness::{self, LatenessReport};
use tidemark::import::{
    self, BadRowPolicy, Column, Format, ImportSpec, Imported, Method, Role, ScenarioOptions, TimeUnit, UtcOffset,
    build_scenario, parse_duration, parse_window, preview,
};

pub const USAGE: &str = "usage: tidemark import FILE [--key COL] [--ts COL] [--ts-unit s|ms|us|ns|iso] [--offset +HH:MM] \
[--value COL] [--partition COL] [--arrival COL] [--arrival-unit UNIT] [--window tumbling:60s|sliding:60s:10s|session:5m] \
[--lateness DUR] [--bound DUR] [--format csv|tsv|jsonl] [--no-header] [--name NAME] [--skip-bad]\n\
       tidemark lateness FILE [the import options] [--bounds DUR,DUR,...]";

/// Bad rows printed on stderr before "… and N more".
const BAD_ROWS_SHOWN: usize = 20;

#[derive(Default)]
struct Args {
    file: Option<String>,
    columns: [Option<String>; 5],
    ts_unit: Option<TimeUnit>,
    arrival_unit: Option<TimeUnit>,
    offset: Option<UtcOffset>,
    window: Option<AssignerSpec>,
    lateness: Option<i64>,
    bound: Option<i64>,
    bounds: Option<Vec<i64>>,
    format: Option<Format>,
    no_header: bool,
    name: Option<String>,
    skip_bad: bool,
}

fn parse_args(command: &str, mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args::default();
    while let Some(arg) = args.next() {
        let mut value = |what: &str| args.next().ok_or_else(|| format!("{arg} needs {what}"));
        let role = match arg.as_str() {
            "--key" => Some(Role::Key),
            "--ts" => Some(Role::EventTime),
            "--value" => Some(Role::Value),
            "--partition" => Some(Role::Partition),
            "--arrival" => Some(Role::Arrival),
            _ => None,
        };
        if let Some(role) = role {
            a.columns[role as usize] = Some(value("a column")?);
            continue;
        }
        match arg.as_str() {
            "--ts-unit" | "--arrival-unit" => {
                let v = value("a unit")?;
                let unit = TimeUnit::parse(&v).ok_or_else(|| format!("{arg} takes s, ms, us, ns or iso, not '{v}'"))?;
                if arg == "--ts-unit" { a.ts_unit = Some(unit) } else { a.arrival_unit = Some(unit) }
            }
            "--offset" => {
                let v = value("an offset")?;
                a.offset =
                    Some(UtcOffset::parse(&v).ok_or_else(|| format!("--offset takes +HH:MM or -HH:MM, not '{v}'"))?);
            }
            "--window" => a.window = Some(parse_window(&value("a window")?)?),
            "--lateness" => a.lateness = Some(parse_duration(&value("a duration")?)?),
            "--bound" => a.bound = Some(parse_duration(&value("a duration")?)?),
            "--bounds" if command == "lateness" => {
                let list = value("a list of durations")?;
                a.bounds = Some(list.split(',').map(parse_duration).collect::<Result<_, _>>()?);
            }
            "--format" => {
                let v = value("a format")?;
                a.format =
                    Some(Format::parse(&v).ok_or_else(|| format!("--format takes csv, tsv or jsonl, not '{v}'"))?);
            }
            "--no-header" => a.no_header = true,
            "--name" => a.name = Some(value("a name")?),
            "--skip-bad" => a.skip_bad = true,
            "-h" | "--help" => return Err(USAGE.into()),
            flag if flag.starts_with('-') && flag.len() > 1 => return Err(format!("unknown option '{flag}'\n{USAGE}")),
            _ if a.file.is_none() => a.file = Some(arg),
            _ => return Err(format!("one FILE only ('{arg}' is a second)\n{USAGE}")),
        }
    }
    if a.file.is_none() {
        return Err(USAGE.into());
    }
    Ok(a)
}

/// What went wrong: a message for stderr and the exit code.
struct Failure(String, u8);

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure(message, 2)
    }
}

/// `tidemark import ...` and `tidemark lateness ...`.
pub fn main(command: &str, args: impl Iterator<Item = String>) -> ExitCode {
    let outcome = parse_args(command, args).map_err(Failure::from).and_then(|a| match command {
        "import" => import_command(&a),
        _ => lateness_command(&a),
    });
    match outcome {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(Failure(message, code)) => {
            eprintln!("{message}");
            ExitCode::from(code)
        }
    }
}

fn note(message: &str) {
    eprintln!("tidemark: {message}");
}

fn import_command(a: &Args) -> Result<String, Failure> {
    let imported = import_file(a)?;
    Ok(format!("{}\n", imported.scenario.to_json()))
}

fn lateness_command(a: &Args) -> Result<String, Failure> {
    let file = a.file.as_deref().unwrap_or_default();
    let scenario = if file.ends_with(".json") {
        let bytes = std::fs::read(file).map_err(|e| format!("tidemark: {file}: cannot read: {e}"))?;
        Scenario::from_json_bytes(&bytes).map_err(|e| format!("tidemark: {file}: {e}"))?
    } else {
        import_file(a)?.scenario
    };
    let bounds = a.bounds.clone().unwrap_or_else(|| lateness::default_bounds(&scenario));
    let report = lateness::report(&scenario, &bounds).map_err(|e| format!("tidemark: {file}: {e}"))?;
    Ok(render_report(file, &scenario, &report))
}

/// Reads and imports the file, saying on stderr what was guessed, skipped or suspicious.
fn import_file(a: &Args) -> Result<Imported, Failure> {
    let file = a.file.as_deref().unwrap_or_default();
    let fail = |e: &dyn std::fmt::Display| Failure(format!("tidemark: {file}: {e}"), 2);
    let bytes = std::fs::read(file).map_err(|e| fail(&format!("cannot read: {e}")))?;
    let guess = preview(&bytes, 0).map_err(|e| fail(&e))?;
    let format = a.format.or_else(|| format_from_extension(file)).unwrap_or(guess.spec.format);
    // A header guess made for another format is no guess for this one.
    let has_header =
        !a.no_header && (format == guess.spec.format && guess.spec.has_header || format != guess.spec.format);
    let mut spec = ImportSpec { format, has_header, mapping: guess.spec.mapping.clone() };
    let m = &mut spec.mapping;
    let mut guessed = Vec::new();
    for role in Role::ALL {
        let slot = match role {
            Role::Key => &mut m.key,
            Role::EventTime => &mut m.ts,
            Role::Value => &mut m.value,
            Role::Partition => &mut m.partition,
            Role::Arrival => &mut m.arrival,
        };
        match &a.columns[role as usize] {
            Some(name) => *slot = Some(Column::Name(name.clone())),
            // Only the required roles are guessed: an optional column is the user's to name.
            None if matches!(role, Role::Key | Role::EventTime) => {
                if let Some(Column::Name(n)) = slot {
                    guessed.push(format!("{} {n}", flag_of(role)));
                }
            }
            None => *slot = None,
        }
    }
    m.ts_unit = match a.ts_unit {
        Some(u) => u,
        None => {
            let u = m.ts.as_ref().map_or(TimeUnit::Millis, |c| guess.unit_of(c));
            guessed.push(format!("--ts-unit {}", u.id()));
            u
        }
    };
    m.arrival_unit = match (a.arrival_unit, &m.arrival) {
        (Some(u), _) => Some(u),
        (None, Some(c)) => Some(guess.unit_of(c)).filter(|u| *u != m.ts_unit),
        (None, None) => None,
    };
    m.offset = a.offset;
    if !guessed.is_empty() {
        note(&format!("{file}: {}, guessed {} (give them to choose)", format.label(), guessed.join(" ")));
    }
    let parsed = import::parse(bytes, &spec).map_err(|e| fail(&e))?;
    if parsed.bad_row_count > 0 && !a.skip_bad {
        let mut message =
            format!("tidemark: {file}: {} bad row(s) of {}; nothing was loaded:", parsed.bad_row_count, parsed.rows);
        for b in parsed.bad_rows.iter().take(BAD_ROWS_SHOWN) {
            message.push_str(&format!("\n  {b}"));
        }
        if parsed.bad_row_count > BAD_ROWS_SHOWN as u64 {
            message.push_str(&format!("\n  … and {} more", parsed.bad_row_count - BAD_ROWS_SHOWN as u64));
        }
        message.push_str("\n(--skip-bad loads the other rows)");
        return Err(Failure(message, 2));
    }
    let policy = if a.skip_bad { BadRowPolicy::Skip } else { BadRowPolicy::Cancel };
    let name = a
        .name
        .clone()
        .unwrap_or_else(|| Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or("imported").to_string());
    let options = ScenarioOptions {
        name,
        assigner: a.window.clone().unwrap_or(ScenarioOptions::default().assigner),
        allowed_lateness: a.lateness,
        bound: a.bound,
        side_output: true,
    };
    let imported = build_scenario(&parsed, policy, &options).map_err(|e| fail(&e))?;
    if imported.skipped > 0 {
        let lines: Vec<String> = parsed.bad_rows.iter().take(BAD_ROWS_SHOWN).map(|b| b.line.to_string()).collect();
        note(&format!(
            "{file}: skipped {} bad row(s) (line {}{})",
            imported.skipped,
            lines.join(", "),
            if imported.skipped > BAD_ROWS_SHOWN as u64 { ", …" } else { "" }
        ));
    }
    for w in &imported.warnings {
        note(&format!("warning: {}", w.message()));
    }
    let s = &imported.suggestion;
    let bound = match imported.scenario.watermarks {
        tidemark::engine::scenario::WatermarkSpec::BoundedOutOfOrderness { bound } => bound,
        _ => s.bound,
    };
    note(&format!(
        "{file}: {} elements, {} keys, {} partition(s); bounded out-of-orderness {} ({}suggested: the 99th percentile of disorder, {} ms, rounded up)",
        imported.scenario.input.len(),
        parsed.keys,
        imported.scenario.partition_count(),
        import::format_duration(bound),
        if a.bound.is_some() { format!("given; {} ", import::format_duration(s.bound)) } else { String::new() },
        s.quantile_disorder
    ));
    Ok(imported)
}

fn flag_of(role: Role) -> &'static str {
    match role {
        Role::Key => "--key",
        Role::EventTime => "--ts",
        Role::Value => "--value",
        Role::Partition => "--partition",
        Role::Arrival => "--arrival",
    }
}

fn format_from_extension(file: &str) -> Option<Format> {
    let ext = Path::new(file).extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "tsv" | "tab" => Some(Format::TSV),
        "jsonl" | "ndjson" => Some(Format::JsonLines),
        _ => None,
    }
}

fn window_label(assigner: &AssignerSpec) -> String {
    let d = import::format_duration;
    match assigner {
        AssignerSpec::Tumbling { size, .. } => format!("tumbling {} windows", d(*size)),
        AssignerSpec::Sliding { size, slide, .. } => format!("sliding {} windows every {}", d(*size), d(*slide)),
        AssignerSpec::Session { gap } => format!("session windows (gap {})", d(*gap)),
        AssignerSpec::DynamicSession { default_gap, .. } => {
            format!("dynamic session windows (default gap {})", d(*default_gap))
        }
        other => other.flink_name().to_string(),
    }
}

/// The report as a table, one row per bound.
fn render_report(file: &str, scenario: &Scenario, r: &LatenessReport) -> String {
    let d = import::format_duration;
    let mut out = format!(
        "lateness report for {file}: {} elements, {}, allowed lateness {}, dropped elements {}\n",
        r.elements,
        window_label(&scenario.assigner),
        d(r.allowed_lateness),
        if r.side_output { "go to the late side output" } else { "are counted in numLateRecordsDropped" }
    );
    let silent = r.rows.iter().any(|row| row.silently_dropped > 0);
    let mut header = vec!["bound", "late", "late %", "on time", "late-fired", "dropped"];
    if silent {
        header.push("silently dropped");
    }
    header.push("result delay");
    let mut table: Vec<Vec<String>> = vec![header.iter().map(|h| h.to_string()).collect()];
    let mut notes = Vec::new();
    for row in &r.rows {
        let share = if r.elements == 0 { 0.0 } else { row.late as f64 * 100.0 / r.elements as f64 };
        let mut cells = vec![
            d(row.bound),
            row.late.to_string(),
            format!("{share:.1} %"),
            row.on_time.to_string(),
            row.late_fired.to_string(),
            (row.side_output + row.dropped).to_string(),
        ];
        if silent {
            cells.push(row.silently_dropped.to_string());
        }
        cells.push(d(row.result_delay));
        let mut marks = Vec::new();
        if row.bound == r.suggestion.bound {
            marks.push("suggested".to_string());
        }
        if Some(row.bound) == r.current_bound {
            marks.push("current".to_string());
        }
        if let Some(f) = &row.failure {
            marks.push(format!("the job fails: {f}"));
        }
        notes.push(marks.join(", "));
        table.push(cells);
    }
    let widths: Vec<usize> =
        (0..table[0].len()).map(|c| table.iter().map(|row| row[c].chars().count()).max().unwrap_or(0)).collect();
    for (i, row) in table.iter().enumerate() {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, w))| if c + 1 == row.len() { format!("{cell:<w$}") } else { format!("{cell:>w$}") })
            .collect();
        let mut line = line.join("  ");
        if let Some(n) = i.checked_sub(1).and_then(|i| notes.get(i)).filter(|n| !n.is_empty()) {
            line.push_str("  ");
            line.push_str(n);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let s = &r.suggestion;
    out.push_str(&format!(
        "suggested bound {}: the 99th percentile of how far an element lies behind the largest earlier timestamp of its partition ({} ms; {} of {} elements out of order, at most {} ms)\n",
        d(s.bound),
        s.quantile_disorder,
        s.out_of_order,
        s.elements,
        s.max_disorder
    ));
    let how = |m: Method| match m {
        Method::Analytic => "analytic (equal to engine runs, tests/import_lateness.rs)",
        Method::EngineRuns => "engine runs",
    };
    if r.late_method == r.outcome_method {
        out.push_str(&format!("computed: {}\n", how(r.late_method)));
    } else {
        out.push_str(&format!(
            "computed: late {}; on time, late-fired, dropped {}\n",
            how(r.late_method),
            how(r.outcome_method)
        ));
    }
    out
}

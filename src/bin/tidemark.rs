//! `tidemark`: the command-line front of the engine.
//!
//! ```text
//! tidemark run FILE                     the oracle's JSON lines (fire / late / error) on stdout
//! tidemark run -o DIR FILE...           DIR/<name>.jsonl for each scenario
//! tidemark run --format trace FILE      the full trace, one JSON object per line
//! tidemark run --format text FILE       the trace as readable lines
//! tidemark import FILE --key COL --ts COL ...   a CSV/TSV/JSON Lines file as a scenario (cli_import)
//! tidemark lateness FILE ...            the lateness report of a file or scenario, as a table
//! tidemark code --lang java|pyflink|sql FILE|PRESET
//!                                       the Flink program of a scenario file, a preset file or a
//!                                       preset by id (`lab-6-2`), on stdout
//! ```
//! Exit codes: 0 ok (a scenario Flink rejects still gives its `error` line, as the oracle does,
//! and its program with the rejection as a caveat), 2 usage error or malformed scenario (one
//! line on stderr naming the field), 1 I/O failure.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tidemark::codegen::{self, Dialect, ValueUnit};
use tidemark::engine::scenario::limits::Limits;
use tidemark::engine::{Run, RunOptions, Scenario, run_with};
use tidemark::teach::ValueFormat;
use tidemark::teach::presets;

mod cli_import;

const USAGE: &str = "usage: tidemark run [--format jsonl|trace|text] [-o DIR] FILE...\n       tidemark code --lang java|pyflink|sql FILE|PRESET";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Jsonl,
    Trace,
    Text,
}

struct Args {
    format: Format,
    out_dir: Option<PathBuf>,
    files: Vec<PathBuf>,
}

enum Command {
    Run(Args),
    /// `code --lang DIALECT SOURCE`: a file, or else a preset id.
    Code {
        dialect: Dialect,
        source: String,
    },
}

fn parse_command(mut args: impl Iterator<Item = String>) -> Result<Command, String> {
    match args.next().as_deref() {
        Some("run") => parse_run(args).map(Command::Run),
        Some("code") => parse_code(args),
        Some("-h" | "--help") | None => Err(format!("{USAGE}\n{}", cli_import::USAGE)),
        Some(other) => Err(format!("unknown command '{other}'\n{USAGE}")),
    }
}

fn parse_code(mut args: impl Iterator<Item = String>) -> Result<Command, String> {
    let mut dialect = None;
    let mut sources = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--lang" => {
                let lang = args.next().ok_or("--lang needs java, pyflink or sql")?;
                dialect = Some(
                    Dialect::ALL
                        .into_iter()
                        .find(|d| d.id() == lang)
                        .ok_or_else(|| format!("--lang takes java, pyflink or sql, not {lang:?}"))?,
                );
            }
            flag if flag.starts_with('-') && flag.len() > 1 => return Err(format!("unknown option '{flag}'\n{USAGE}")),
            _ => sources.push(arg),
        }
    }
    let dialect = dialect.ok_or_else(|| format!("code needs --lang java|pyflink|sql\n{USAGE}"))?;
    match <[String; 1]>::try_from(sources) {
        Ok([source]) => Ok(Command::Code { dialect, source }),
        Err(_) => Err(format!("code takes one scenario file or preset id\n{USAGE}")),
    }
}

fn parse_run(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut parsed = Args { format: Format::Jsonl, out_dir: None, files: Vec::new() };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-o" => parsed.out_dir = Some(args.next().ok_or("-o needs a directory")?.into()),
            "--format" => {
                parsed.format = match args.next().as_deref() {
                    Some("jsonl") => Format::Jsonl,
                    Some("trace") => Format::Trace,
                    Some("text") => Format::Text,
                    other => return Err(format!("--format takes jsonl, trace or text, not {other:?}")),
                }
            }
            flag if flag.starts_with('-') && flag.len() > 1 => return Err(format!("unknown option '{flag}'\n{USAGE}")),
            _ => parsed.files.push(arg.into()),
        }
    }
    if parsed.files.is_empty() {
        return Err(USAGE.into());
    }
    if parsed.out_dir.is_none() && parsed.files.len() > 1 {
        return Err("several scenarios need -o DIR".into());
    }
    Ok(parsed)
}

/// The scenario and its value unit for `code`: a preset file (an object with a `scenario`) or a
/// scenario file, or, when no such file exists, the preset with that id.
fn load_for_code(source: &str) -> Result<(Scenario, ValueUnit), String> {
    let path = Path::new(source);
    let unit = |f: ValueFormat| if f == ValueFormat::UsdCents { ValueUnit::UsdCents } else { ValueUnit::Plain };
    if !path.exists() {
        return match presets::by_id(source) {
            Some(p) => Ok((p.scenario, unit(p.value_format))),
            None => Err(format!(
                "{source}: no such file, and no preset has this id (presets: {})",
                presets::ids().join(", ")
            )),
        };
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let is_preset = serde_json::from_slice::<serde_json::Value>(&bytes).is_ok_and(|v| v.get("scenario").is_some());
    if !is_preset {
        return Scenario::from_json_bytes_within(&bytes, &Limits::CLI)
            .map(|s| (s, ValueUnit::Plain))
            .map_err(|e| format!("{}: {e}", path.display()));
    }
    let text = String::from_utf8_lossy(&bytes);
    let name = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    presets::parse(&name, &text)
        .map(|p| (p.scenario, unit(p.value_format)))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn load(path: &Path) -> Result<Scenario, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Scenario::from_json_bytes_within(&bytes, &Limits::CLI).map_err(|e| format!("{}: {e}", path.display()))
}

fn render(run: &Run, format: Format) -> String {
    let mut out = String::new();
    match format {
        Format::Jsonl => {
            for line in run.oracle_lines() {
                out.push_str(&line);
                out.push('\n');
            }
        }
        Format::Trace => {
            for event in &run.trace {
                out.push_str(&event.to_json(run).to_string());
                out.push('\n');
            }
        }
        Format::Text => {
            for event in &run.trace {
                out.push_str(&event.display(run).to_string());
                out.push('\n');
            }
        }
    }
    out
}

fn main() -> ExitCode {
    let mut argv = std::env::args().skip(1).peekable();
    if let Some(command @ ("import" | "lateness")) = argv.peek().map(String::as_str) {
        let command = command.to_string();
        return cli_import::main(&command, argv.skip(1));
    }
    let args = match parse_command(argv) {
        Ok(Command::Run(a)) => a,
        Ok(Command::Code { dialect, source }) => return code(dialect, &source),
        Err(message) => {
            eprintln!("tidemark: {message}");
            return ExitCode::from(2);
        }
    };
    // Load everything first: a malformed file fails the whole call before anything is written.
    let mut scenarios = Vec::with_capacity(args.files.len());
    for file in &args.files {
        match load(file) {
            Ok(s) => scenarios.push(s),
            Err(message) => {
                eprintln!("tidemark: {message}");
                return ExitCode::from(2);
            }
        }
    }
    for scenario in &scenarios {
        // The oracle's lines come from the outputs alone: no trace to record.
        let options = RunOptions { trace: args.format != Format::Jsonl };
        let text = render(&run_with(scenario, options), args.format);
        let written = match &args.out_dir {
            None => std::io::stdout().write_all(text.as_bytes()),
            Some(dir) => std::fs::create_dir_all(dir).and_then(|()| {
                let ext = if args.format == Format::Text { "txt" } else { "jsonl" };
                std::fs::write(dir.join(format!("{}.{ext}", scenario.name)), text)
            }),
        };
        if let Err(e) = written {
            eprintln!("tidemark: cannot write output for {}: {e}", scenario.name);
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

/// `tidemark code`: the program on stdout.
fn code(dialect: Dialect, source: &str) -> ExitCode {
    let (scenario, unit) = match load_for_code(source) {
        Ok(loaded) => loaded,
        Err(message) => {
            eprintln!("tidemark: {message}");
            return ExitCode::from(2);
        }
    };
    let program = codegen::generate_with(&scenario, dialect, unit);
    match std::io::stdout().write_all(program.text.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tidemark: cannot write the program: {e}");
            ExitCode::from(1)
        }
    }
}

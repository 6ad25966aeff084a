//! `tidemark`: the command-line front of the engine.
//!
//! ```text
//! tidemark run FILE                     the oracle's JSON lines (fire / late / error) on stdout
//! tidemark run -o DIR FILE...           DIR/<name>.jsonl for each scenario
//! tidemark run --format trace FILE      the full trace, one JSON object per line
//! tidemark run --format text FILE       the trace as readable lines
//! ```
//! Exit codes: 0 ok (a scenario Flink rejects still gives its `error` line, as the oracle does),
//! 2 usage error or malformed scenario (one line on stderr naming the field), 1 I/O failure.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use tidemark::engine::{Run, Scenario, run};

const USAGE: &str = "usage: tidemark run [--format jsonl|trace|text] [-o DIR] FILE...";

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

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    match args.next().as_deref() {
        Some("run") => {}
        Some("-h" | "--help") | None => return Err(USAGE.into()),
        Some(other) => return Err(format!("unknown command '{other}'\n{USAGE}")),
    }
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

fn load(path: &Path) -> Result<Scenario, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    Scenario::from_json_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
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
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(a) => a,
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
        let text = render(&run(scenario), args.format);
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

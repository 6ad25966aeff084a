//! The PyFlink programs: every one compiles and imports against PyFlink 2.3, and those of the
//! lab presets (with a session merge, a window TVF and the error-rate alert beside them) run on
//! PyFlink and print the lab's numbers.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tidemark::codegen::{self, Program, ValueUnit};
use tidemark::engine::scenario::{ProcessFunctionSpec, WindowFunctionSpec};
use tidemark::engine::{Scenario, run};
use tidemark::teach::ValueFormat;
use tidemark::teach::presets::{self, Preset};

use crate::common::Corpus;
use crate::env::{Flink, flink, full, output, python, work_dir, write};
use crate::results::{WindowResults, check_records, check_window_results, tvf_row};
use crate::{compile_set, ext_names, load, load_ext, parity_names, rejected_at_build};

/// The value unit a preset's programs show: Lab 6's cents as dollars.
fn unit_of(p: &Preset) -> ValueUnit {
    if p.value_format == ValueFormat::UsdCents { ValueUnit::UsdCents } else { ValueUnit::Plain }
}

/// Compiles and imports every module, then checks that no name is read that is not bound in
/// the module, a function of it, or the builtins (a small pyflakes).
const PY_CHECK: &str = r#"
import ast, builtins, importlib.util, py_compile, sys
bad = 0
for path in sys.argv[1:]:
    try:
        py_compile.compile(path, doraise=True)
        spec = importlib.util.spec_from_file_location("generated_module", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception as e:
        print("FAIL", path, repr(e)); bad += 1; continue
    tree = ast.parse(open(path, encoding="utf-8").read())
    bound = set(dir(builtins)) | set(vars(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            bound.add(node.name)
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in bound:
            print("UNDEFINED", path, node.id, "line", node.lineno); bad += 1
print("checked", len(sys.argv) - 1, "bad", bad)
sys.exit(1 if bad else 0)
"#;

/// Every generated PyFlink program compiles (`py_compile`), imports against PyFlink 2.3, and
/// reads no undefined name.
#[test]
fn pyflink_programs_compile_and_import() {
    let Some(flink) = flink("pyflink_programs_compile_and_import", false) else { return };
    let dir = work_dir("pyflink");
    let mut files = Vec::new();
    let programs = compile_set()
        .iter()
        .map(codegen::pyflink::program)
        .chain(presets::all().iter().map(|p| codegen::pyflink::program_with(&p.scenario, unit_of(p))))
        .collect::<Vec<_>>();
    for (i, p) in programs.iter().enumerate() {
        let path = dir.join(format!("case{i}_{}", p.file_name));
        write(&path, &p.text);
        files.push(path);
    }
    let check = dir.join("check.py");
    write(&check, PY_CHECK);
    let (ok, text) = output(Command::new(&flink.python).arg(&check).args(&files));
    assert!(ok, "generated PyFlink programs in {} fail:\n{text}", dir.display());
    // Also the exact command the issue names.
    let (ok, text) = output(Command::new(&flink.python).args(["-m", "py_compile"]).args(&files));
    assert!(ok, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs each program's `main()` in one Python process (one PyFlink gateway JVM for all, a
/// MiniCluster and Python workers per job), printing `=== path` before each program's output
/// and `!!! exception` after a failure.
const RUN_PROGRAMS: &str = r#"
import importlib.util, sys
for i, path in enumerate(sys.argv[1:]):
    print("=== " + path, flush=True)
    try:
        spec = importlib.util.spec_from_file_location("program%d" % i, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.main()
    except Exception as e:
        print("!!! " + " ".join(repr(e).split())[:500], flush=True)
    sys.stdout.flush()
"#;

/// A program to run and what it must print.
struct Case {
    name: String,
    program: Program,
    scenario: Scenario,
    /// A golden, or the engine's run of what the program does (see [`as_the_program_runs`]).
    reference: Vec<Value>,
}

/// The scenario as the program runs it, where a caveat says the two differ: a bounded
/// collection source always ends with Long.MAX_VALUE, and a job that reads its input in
/// milliseconds of wall-clock time never sees a processing-time TTL of minutes expire.
fn as_the_program_runs(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    s.end_of_input = true;
    if let Some(ProcessFunctionSpec::RequestAssembler { ttl, .. }) = &mut s.process_function {
        *ttl = None;
    }
    s
}

fn oracle_lines(s: &Scenario) -> Vec<Value> {
    run(s).oracle_lines().iter().filter_map(|l| serde_json::from_str(l).ok()).collect()
}

/// A preset's program as the command line prints it (`tidemark code --lang pyflink <id>`, the
/// same text as [`codegen::pyflink::program_with`] with the preset's unit).
fn preset_case(id: &str) -> Case {
    let p = presets::by_id(id).unwrap_or_else(|| panic!("preset {id}"));
    let out = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["code", "--lang", "pyflink", id])
        .output()
        .unwrap_or_else(|e| panic!("tidemark code: {e}"));
    assert!(out.status.success(), "tidemark code --lang pyflink {id}: {}", String::from_utf8_lossy(&out.stderr));
    let mut program = codegen::pyflink::program_with(&p.scenario, unit_of(&p));
    program.text = String::from_utf8_lossy(&out.stdout).into_owned();
    let reference = oracle_lines(&as_the_program_runs(&p.scenario));
    Case { name: id.into(), program, scenario: p.scenario, reference }
}

fn golden_case(corpus: Corpus, name: &str, scenario: Scenario) -> Case {
    let program = codegen::pyflink::program(&scenario);
    Case { name: name.into(), program, scenario, reference: corpus.golden(name) }
}

/// A printed `+I[f1,f2,...]` row's fields.
fn row_fields(line: &str) -> Option<Vec<&str>> {
    Some(line.strip_prefix("+I[")?.strip_suffix(']')?.split(',').collect())
}

/// A window job's printed lines: `+I[key,start,end,sum,count,(usd,)watermark]` (no start and end
/// for GlobalWindows), `LATE <id>` and `!!! exception`.
fn window_results(case: &Case, lines: &[String]) -> WindowResults {
    let s = &case.scenario;
    assert_eq!(s.function, WindowFunctionSpec::Process, "{}: only SumAndCount's rows are parsed", case.name);
    let usd = case.program.text.contains("\"usd\"");
    let mut out = WindowResults::default();
    for l in lines {
        if let Some(mut f) = row_fields(l) {
            let num = |x: Option<&str>| x.and_then(|x| x.parse::<i64>().ok()).unwrap_or(i64::MIN);
            let wm = num(f.pop());
            if usd {
                f.pop();
            }
            let count = num(f.pop());
            let sum = num(f.pop());
            let window = if s.assigner.is_global() {
                (None, None)
            } else {
                let end = num(f.pop());
                (Some(num(f.pop())), Some(end))
            };
            out.fire(&f.join(","), window, (sum, count as u64, wm));
        } else if let Some(id) = l.strip_prefix("LATE ") {
            out.late.push(id.parse().unwrap_or_else(|_| panic!("{}: {l:?}", case.name)));
        } else if l.starts_with("!!! ") {
            out.errors += 1;
        } else {
            panic!("{}: unexpected output line {l:?}", case.name);
        }
    }
    out
}

/// A keyed process function's `+I[key,kind,ts,watermark,...]` rows (`id` for the
/// RequestAssembler, `errors,requests` for the alert), a window TVF's table rows, `!!! exception`.
fn records(case: &Case, lines: &[String]) -> Vec<Value> {
    let extra: &[&str] = match case.scenario.process_function {
        Some(ProcessFunctionSpec::ErrorRateAlert { .. }) => &["errors", "requests"],
        _ => &["id"],
    };
    let mut ours = Vec::new();
    for l in lines {
        if let Some(f) = row_fields(l) {
            let mut rec = serde_json::Map::new();
            rec.insert("out".into(), "process".into());
            for (name, v) in ["key", "kind", "ts", "wm"].iter().chain(extra).zip(f) {
                rec.insert((*name).into(), v.parse::<i64>().map_or_else(|_| Value::from(v), Value::from));
            }
            ours.push(Value::Object(rec));
        } else if let Some(row) = tvf_row(l) {
            ours.push(row);
        } else if l.starts_with("!!! ") {
            ours.push(serde_json::json!({"out": "error"}));
        }
    }
    ours
}

/// Runs the programs; returns each one's printed lines, in order.
fn run_programs(flink: &Flink, dir: &Path, cases: &[Case]) -> Vec<Vec<String>> {
    let paths: Vec<PathBuf> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let path = dir.join(format!("case{i}_{}", c.program.file_name));
            write(&path, &c.program.text);
            path
        })
        .collect();
    let runner = dir.join("run_programs.py");
    write(&runner, RUN_PROGRAMS);
    let out = python(flink).arg(&runner).args(&paths).output().unwrap_or_else(|e| panic!("{runner:?}: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let mut printed: Vec<Vec<String>> = Vec::new();
    for line in stdout.lines() {
        if line.starts_with("=== ") {
            printed.push(Vec::new());
        } else if let Some(current) = printed.last_mut() {
            current.push(line.to_string());
        }
    }
    assert_eq!(printed.len(), cases.len(), "not every program ran:\n{stdout}");
    printed
}

/// The PyFlink programs of the lab presets, run on PyFlink 2.3, print the lab's numbers: the
/// watermark comes right after each element (a Table API watermark expression, interval 0) and
/// one element per bundle keeps it from being overtaken, so late data and late firings happen
/// as in Tidemark. Lab 6.1 to 6.3 print what Tidemark shows and, the input being bounded, the
/// windows left pending fire at the end; Lab 6.4's ten-minute processing-time TTL never expires
/// in a job that reads its input in milliseconds, so its program prints what the preset without
/// TTL shows, as its caveat says. Beside them: a session merge with scripted watermarks, a
/// cleanup decided by a 1 ms watermark step, a window TVF that drops a late row, and the
/// error-rate alert, against their goldens. With
/// `TIDEMARK_FLINK_FULL=1` also every scenario whose program has no caveat.
#[test]
fn pyflink_programs_reproduce_the_labs_on_flink() {
    let Some(flink) = flink("pyflink_programs_reproduce_the_labs_on_flink", false) else { return };
    let mut cases: Vec<Case> =
        ["lab-6-1", "lab-6-2", "lab-6-3", "lab-6-4", "lab-6-4-no-ttl"].into_iter().map(preset_case).collect();
    // A session merge with scripted watermarks; a cleanup decided by a 1 ms watermark step (an
    // advance the watermark operator would hold back with its default 200 ms interval).
    for name in ["session_late_bridge_two_fired", "lateness_1ms_boundary"] {
        cases.push(golden_case(Corpus::Parity, name, load(name)));
    }
    for name in ["tvf_tumble_late_dropped", "era_late_error_dropped"] {
        cases.push(golden_case(Corpus::Ext, name, load_ext(name)));
    }
    if full() {
        let parity = parity_names().into_iter().filter(|n| !rejected_at_build(n)).map(|n| (Corpus::Parity, n));
        let ext = ext_names().into_iter().map(|n| (Corpus::Ext, n));
        for (corpus, name) in parity.chain(ext) {
            let case = golden_case(corpus, &name, corpus.scenario(&name));
            let known = cases.iter().any(|c| c.name == name);
            if !known && case.program.caveats.is_empty() && case.scenario.function == WindowFunctionSpec::Process {
                cases.push(case);
            }
        }
    }
    let dir = work_dir("pyflink-run");
    let printed = run_programs(&flink, &dir, &cases);
    // Every program is checked (each mismatch is printed), then the test fails naming them all.
    let mut differ = Vec::new();
    for (case, lines) in cases.iter().zip(&printed) {
        let checked = std::panic::catch_unwind(|| {
            if case.scenario.process_function.is_some() || case.scenario.tvf.is_some() {
                check_records(&case.name, records(case, lines), &case.reference, lines);
            } else {
                check_window_results(&case.name, &window_results(case, lines), &case.reference, lines);
            }
        });
        if checked.is_err() {
            differ.push(case.name.as_str());
        }
    }
    assert!(differ.is_empty(), "{} of {} programs print other results: {differ:?}", differ.len(), cases.len());
    // The lesson itself, as PyFlink prints it: $4.10 (the main firing), then $4.31 (the late
    // firing) for the same minute, then the minute left pending at the end of input.
    let lab = printed[1].join("\n");
    let main = lab.find(",410,2,4.10,").unwrap_or(usize::MAX);
    let late = lab.find(",431,3,4.31,").unwrap_or(0);
    assert!(main < late, "Lab 6.2 printed\n{lab}");
    let _ = std::fs::remove_dir_all(&dir);
}

//! The PyFlink programs: every one compiles and imports against PyFlink 2.3, and those of the
//! lab presets (with a session merge, a window TVF and the error-rate alert beside them) run on
//! PyFlink and print the lab's numbers.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tidemark::codegen::{self, Program, ValueUnit};
use tidemark::engine::aggregate::CourseAggregate;
use tidemark::engine::scenario::{InputItem, ProcessFunctionSpec, WindowFunctionSpec};
use tidemark::engine::{Scenario, run};
use tidemark::teach::ValueFormat;
use tidemark::teach::presets::{self, Preset};

use crate::common::Corpus;
use crate::env::{Flink, flink, full, output, printed_program, python, work_dir, write};
use crate::results::{
    Printed, WindowResults, check_records, check_window_results, latency_result, oracle_lines, tvf_row,
};
use crate::{ABOVE_K, compile_set, ext_names, latency_above_k, load, load_ext, parity_names, rejected_at_build};

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
    /// A real-Flink golden the program must print too, beside the engine's run (a preset's).
    golden: Option<Vec<Value>>,
}

/// The scenario as the program runs it, where a caveat says the two differ: a bounded
/// collection source always ends with Long.MAX_VALUE, a job that reads its input in
/// milliseconds of wall-clock time never sees a processing-time TTL of minutes expire, and the
/// program runs without the scenario's checkpoints and crashes.
fn as_the_program_runs(s: &Scenario) -> Scenario {
    let mut s = s.clone();
    s.end_of_input = true;
    s.input.retain(|i| !matches!(i, InputItem::Control(_)));
    if let Some(ProcessFunctionSpec::RequestAssembler { ttl, .. }) = &mut s.process_function {
        *ttl = None;
    }
    s
}

/// A preset's program as the command line prints it (`tidemark code --lang pyflink <id>`, the
/// same text as [`codegen::pyflink::program_with`] with the preset's unit).
fn preset_case(id: &str) -> Case {
    let p = presets::by_id(id).unwrap_or_else(|| panic!("preset {id}"));
    let mut program = codegen::pyflink::program_with(&p.scenario, unit_of(&p));
    program.text = printed_program("pyflink", id);
    let reference = oracle_lines(&as_the_program_runs(&p.scenario));
    Case { name: id.into(), program, scenario: p.scenario, reference, golden: None }
}

/// A preset's case that must also print the preset's real-Flink golden (OracleExt's).
fn preset_case_with_golden(id: &str) -> Case {
    let mut case = preset_case(id);
    let p = presets::by_id(id).unwrap_or_else(|| panic!("preset {id}"));
    let name = p.golden.unwrap_or_else(|| panic!("preset {id} has no golden"));
    assert_eq!(p.golden_prefix, None, "{id}: the golden's whole input");
    case.golden = Some(Corpus::Ext.golden(&name));
    case
}

fn golden_case(corpus: Corpus, name: &str, scenario: Scenario) -> Case {
    let program = codegen::pyflink::program(&scenario);
    Case { name: name.into(), program, scenario, reference: corpus.golden(name), golden: None }
}

/// A scenario no golden backs, against the engine's run of it.
fn engine_case(scenario: Scenario) -> Case {
    let program = codegen::pyflink::program(&scenario);
    let reference = oracle_lines(&as_the_program_runs(&scenario));
    Case { name: scenario.name.clone(), program, scenario, reference, golden: None }
}

/// A printed `+I[f1,f2,...]` row's fields.
fn row_fields(line: &str) -> Option<Vec<&str>> {
    Some(line.strip_prefix("+I[")?.strip_suffix(']')?.split(',').collect())
}

/// A window job's printed lines: `+I[key,start,end,sum,count,(usd,)watermark]` (no start and end
/// for GlobalWindows; `usd,requests` of TenantCost, `p50_ms,p99_ms,n,approximate` of
/// LatencySketch in place of `sum,count`), `LATE <id>` and `!!! exception`.
fn window_results(case: &Case, lines: &[String]) -> WindowResults {
    let s = &case.scenario;
    let aggregate = match s.function {
        WindowFunctionSpec::Process => None,
        WindowFunctionSpec::Aggregate(agg) => Some(agg),
        f => panic!("{}: only SumAndCount's and the course aggregates' rows are parsed, not {}", case.name, f.kind()),
    };
    let usd = aggregate.is_none() && case.program.text.contains("\"usd\"");
    let mut out = WindowResults::default();
    for l in lines {
        if let Some(mut f) = row_fields(l) {
            let num = |x: Option<&str>| x.and_then(|x| x.parse::<i64>().ok()).unwrap_or(i64::MIN);
            let wm = num(f.pop());
            // The value fields, last first.
            let value = match aggregate {
                None => {
                    if usd {
                        f.pop();
                    }
                    let count = num(f.pop());
                    Printed::SumAndCount(num(f.pop()), count as u64)
                }
                Some(CourseAggregate::TenantCost) => {
                    let requests = num(f.pop());
                    Printed::Aggregate(serde_json::json!({"requests": requests, "usd": num(f.pop())}))
                }
                Some(CourseAggregate::LatencySketch { .. }) => {
                    let approximate = match f.pop() {
                        Some("true" | "True") => true,
                        Some("false" | "False") => false,
                        other => panic!("{}: approximate is {other:?} in {l:?}", case.name),
                    };
                    let n = num(f.pop());
                    let p99 = num(f.pop());
                    Printed::Aggregate(latency_result(num(f.pop()), p99, n as u64, approximate))
                }
            };
            let window = if s.assigner.is_global() {
                (None, None)
            } else {
                let end = num(f.pop());
                (Some(num(f.pop())), Some(end))
            };
            out.printed(&f.join(","), window, value, wm);
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
    // The course aggregates' presets, against the engine and their goldens; a percentile window
    // above K (no golden: the reservoir's draws are Tidemark's), against the engine. (The
    // crash/restore preset's program is TenantCost's but for its name and caveat, which
    // `tests/codegen_cli.rs` checks: not run again.)
    cases.extend(["tenant-cost-aggregate", "model-latency-p50-p99"].map(preset_case_with_golden));
    cases.push(engine_case(latency_above_k()));
    if full() {
        let parity = parity_names().into_iter().filter(|n| !rejected_at_build(n)).map(|n| (Corpus::Parity, n));
        let ext = ext_names().into_iter().map(|n| (Corpus::Ext, n));
        for (corpus, name) in parity.chain(ext) {
            let case = golden_case(corpus, &name, corpus.scenario(&name));
            let known = cases.iter().any(|c| c.name == name);
            let parsed =
                matches!(case.scenario.function, WindowFunctionSpec::Process | WindowFunctionSpec::Aggregate(_));
            if !known && case.program.caveats.is_empty() && parsed {
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
                let ours = window_results(case, lines);
                check_window_results(&case.name, &ours, &case.reference, lines);
                if let Some(golden) = &case.golden {
                    check_window_results(&format!("{} (golden)", case.name), &ours, golden, lines);
                }
            }
        });
        if checked.is_err() {
            differ.push(case.name.as_str());
        }
    }
    assert!(differ.is_empty(), "{} of {} programs print other results: {differ:?}", differ.len(), cases.len());
    // The lesson itself, as PyFlink prints it: $4.10 (the main firing), then $4.31 (the late
    // firing) for the same minute, then the minute left pending at the end of input.
    let lines_of = |name: &str| {
        let i = cases.iter().position(|c| c.name == name).unwrap_or_else(|| panic!("no case {name}"));
        (&cases[i], &printed[i])
    };
    let lab = lines_of("lab-6-2").1.join("\n");
    let main = lab.find(",410,2,4.10,").unwrap_or(usize::MAX);
    let late = lab.find(",431,3,4.31,").unwrap_or(0);
    assert!(main < late, "Lab 6.2 printed\n{lab}");
    the_course_aggregates_as_printed(lines_of("tenant-cost-aggregate"), lines_of("model-latency-p50-p99"));
    above_k_as_printed(lines_of(&latency_above_k().name));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A course aggregate's printed rows in the order printed: (window start, result).
fn rows_in_order(case: &Case, lines: &[String]) -> Vec<(Option<i64>, Value)> {
    lines
        .iter()
        .filter(|l| row_fields(l).is_some())
        .flat_map(|l| window_results(case, std::slice::from_ref(l)).results)
        .flat_map(|((_, start, _), results)| results.into_iter().map(move |(r, _)| (start, r)))
        .collect()
}

/// The engine's side-output lines of a scenario, as the course's lab prints them.
fn lab_late_lines(s: &Scenario) -> Vec<String> {
    let r = run(s);
    let d = tidemark::sinks::Downstream::new(s, &r);
    d.side_output_at(r.steps).records.iter().map(|l| l.lab_line()).collect()
}

/// 2026-01-01 at hh:mm (UTC), in epoch milliseconds.
fn at(h: i64, m: i64) -> Option<i64> {
    Some(1_767_225_600_000 + (h * 60 + m) * 60_000)
}

/// The course's numbers as PyFlink prints them: TenantCost (410, 2) = $4.10 for (acme, 10:00),
/// then its late firing (431, 3) = $4.31, then (100, 1) and (75, 1), and `LATE 6`, the lab's
/// `LATE <request_id>` line of the record past the lateness; ModelLatency's p50/p99 of the window
/// ending 10:03: 95 ms and 120 ms of 6 samples, exact.
fn the_course_aggregates_as_printed(tenant: (&Case, &Vec<String>), latency: (&Case, &Vec<String>)) {
    let (case, lines) = tenant;
    let cost = |usd: i64, requests: i64| serde_json::json!({"usd": usd, "requests": requests});
    assert_eq!(
        rows_in_order(case, lines),
        vec![(at(10, 0), cost(410, 2)), (at(10, 0), cost(431, 3)), (at(10, 1), cost(100, 1)), (at(10, 3), cost(75, 1))],
        "tenant-cost-aggregate printed\n{}",
        lines.join("\n")
    );
    let late: Vec<&String> = lines.iter().filter(|l| l.starts_with("LATE ")).collect();
    assert_eq!(late, lab_late_lines(&case.scenario).iter().collect::<Vec<_>>(), "{}", lines.join("\n"));
    assert_eq!(late, ["LATE 6"], "{}", lines.join("\n"));
    let (case, lines) = latency;
    let at_10_03 = rows_in_order(case, lines).into_iter().filter(|(start, _)| *start == at(9, 58)).collect::<Vec<_>>();
    assert_eq!(at_10_03, vec![(at(9, 58), latency_result(95, 120, 6, false))], "{}", lines.join("\n"));
}

/// Above K, the program's reservoir draws what the engine's does: the same p50 and p99, marked
/// approximate (the engine says so too), n counting every latency.
fn above_k_as_printed((case, lines): (&Case, &Vec<String>)) {
    let rows = rows_in_order(case, lines);
    let engine = oracle_lines(&case.scenario);
    let results: Vec<&Value> = engine.iter().filter(|l| l["out"] == "fire").map(|l| &l["result"]).collect();
    assert_eq!(results.len(), 1, "one window: {engine:?}");
    assert_eq!((results[0]["approximate"].as_bool(), results[0]["n"].as_i64()), (Some(true), Some(ABOVE_K)));
    assert_eq!(rows.iter().map(|(_, r)| r).collect::<Vec<_>>(), results, "{}", lines.join("\n"));
}

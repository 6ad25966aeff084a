//! The generated programs against real Apache Flink 2.3 (the jars and the Python package of
//! `apache-flink` from PyPI):
//!
//! - every Java program compiles with `javac -Xlint:all -Werror` against Flink's jars;
//! - every PyFlink program passes `python -m py_compile`, imports, and uses no undefined name;
//! - the SQL programs are planned by Flink's SQL planner (or rejected where a caveat says so);
//! - the Java programs of the course presets, run on Flink, print exactly the golden results.
//!
//! The scenarios are every Flink parity scenario Flink accepts, plus variants for each window
//! function, dynamic sessions, a large input and hostile names.
//!
//! Needs `java`/`javac` (17) and the virtualenv `${ORACLE_VENV:-~/.cache/flink-oracle-venv}` with
//! `apache-flink==2.3.0` (`scripts/setup-flink` installs it). Without them each test writes a
//! `SKIP` line to stderr and passes, unless `TIDEMARK_REQUIRE_FLINK=1` (CI), which makes it fail.
//! `TIDEMARK_FLINK_FULL=1` plans every SQL program and runs every Java program (minutes).

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::Corpus;
use serde_json::Value;
use tidemark::codegen::{self, Program};
use tidemark::engine::scenario::{InputItem, ProcessFunctionSpec, TriggerSpec, WindowFunctionSpec};
use tidemark::engine::{Scenario, run};

// ------------------------------------------------------------------ environment

struct Flink {
    python: PathBuf,
    lib: PathBuf,
}

fn require() -> bool {
    std::env::var("TIDEMARK_REQUIRE_FLINK").is_ok_and(|v| !v.is_empty() && v != "0")
}

fn full() -> bool {
    std::env::var("TIDEMARK_FLINK_FULL").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Writes past libtest's output capture, so that a skip is seen in a normal `cargo test` run.
fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

fn venv() -> PathBuf {
    match std::env::var_os("ORACLE_VENV") {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/flink-oracle-venv"),
    }
}

fn runs(cmd: &str, arg: &str) -> bool {
    Command::new(cmd).arg(arg).output().is_ok_and(|o| o.status.success())
}

/// The Flink toolchain, or `None` after a SKIP line (a panic under `TIDEMARK_REQUIRE_FLINK`).
fn flink(test: &str, needs_java: bool) -> Option<Flink> {
    let venv = venv();
    let missing = |what: String| {
        let msg = format!("SKIP codegen_flink::{test}: {what} (scripts/setup-flink installs the venv)");
        assert!(!require(), "{msg}; TIDEMARK_REQUIRE_FLINK is set");
        say(&msg);
        None
    };
    if needs_java && !(runs("javac", "-version") && runs("java", "-version")) {
        return missing("java/javac not found on PATH".into());
    }
    let python = venv.join("bin/python");
    if !python.exists() {
        return missing(format!("no virtualenv at {}", venv.display()));
    }
    let lib = std::fs::read_dir(venv.join("lib"))
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("python3")))
        .map(|p| p.join("site-packages/pyflink/lib"))
        .find(|lib| {
            jars(lib).iter().any(|j| j.file_name().is_some_and(|n| n.to_string_lossy().starts_with("flink-dist-")))
        });
    match lib {
        Some(lib) => Some(Flink { python, lib }),
        None => missing(format!("no pyflink/lib/flink-dist-*.jar in {}", venv.display())),
    }
}

fn jars(lib: &Path) -> Vec<PathBuf> {
    let mut jars: Vec<PathBuf> = std::fs::read_dir(lib)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jar"))
        .collect();
    jars.sort();
    jars
}

fn classpath(flink: &Flink, extra: &[&Path]) -> String {
    let mut parts: Vec<String> = extra.iter().map(|p| p.display().to_string()).collect();
    parts.extend(jars(&flink.lib).iter().map(|p| p.display().to_string()));
    parts.join(":")
}

/// A fresh directory for one test's files.
fn work_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tidemark-codegen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

fn output(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

// ------------------------------------------------------------------ scenarios

fn load(name: &str) -> Scenario {
    Corpus::Parity.scenario(name)
}

fn load_ext(name: &str) -> Scenario {
    Corpus::Ext.scenario(name)
}

fn parity_names() -> Vec<String> {
    Corpus::Parity.names()
}

fn ext_names() -> Vec<String> {
    Corpus::Ext.names()
}

fn rejected_at_build(name: &str) -> bool {
    Corpus::Parity.golden(name).iter().any(|l| l["out"] == "error" && l["phase"] == "build")
}

fn with_function(mut s: Scenario, f: WindowFunctionSpec, suffix: &str) -> Scenario {
    s.function = f;
    s.name = format!("{}_{suffix}", s.name);
    s
}

/// Scenarios beyond the corpus: every window function, dynamic gaps, GlobalWindows with an
/// aggregate and with EventTimeTrigger, a purging default trigger, a large input with hostile
/// keys (compact input path), hostile names and descriptions, an empty input.
fn variants() -> Vec<Scenario> {
    let mut out = Vec::new();
    let lab = load("course_lab_6_tenant_cost");
    for f in WindowFunctionSpec::ALL {
        out.push(with_function(lab.clone(), f, f.kind()));
    }
    for f in [WindowFunctionSpec::Avg, WindowFunctionSpec::Min, WindowFunctionSpec::Count] {
        out.push(with_function(load("session_late_bridge_two_fired"), f, f.kind()));
        out.push(with_function(load("count_trigger_global"), f, f.kind()));
        out.push(with_function(load("count_evictor_event_time"), f, f.kind()));
    }
    out.push(with_function(load("course_model_latency_sliding"), WindowFunctionSpec::Max, "max"));
    let json = r#"{"name": "dynamic gaps", "assigner": {"kind": "dynamic_session", "default_gap": 30000,
        "gaps": {"api": 10000, "we\"ird\\u000a key": 1500}}, "allowed_lateness": 5000,
        "watermarks": {"kind": "monotonous"},
        "input": [{"id": 1, "key": "api", "ts": 1000}, {"id": 2, "key": "web", "ts": 2000}, {"wm": 50000}]}"#;
    out.push(Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}")));
    let mut global_event_time = load("count_trigger_global");
    global_event_time.name = "global_event_time".into();
    global_event_time.trigger = TriggerSpec { base: tidemark::engine::scenario::BaseTrigger::EventTime, purging: true };
    out.push(global_event_time);
    let mut purging_default = load("tumbling_basic");
    purging_default.name = "purging_default".into();
    purging_default.trigger = TriggerSpec { base: tidemark::engine::scenario::BaseTrigger::Default, purging: true };
    out.push(purging_default);
    let mut big = String::from(
        r#"{"name": "big input", "assigner": {"kind": "sliding", "size": 60000, "slide": 20000, "offset": -5000},
        "watermarks": {"kind": "bounded_out_of_orderness", "bound": 1500}, "input": ["#,
    );
    let keys = ["a,b", "100%", "é\\u00e9", "line\\nbreak", "quote\\\"d", "\\\\u000a", "😀"];
    for i in 0..1200 {
        if i > 0 {
            big.push(',');
        }
        if i % 50 == 49 {
            big.push_str(&format!(r#"{{"wm": {}}}"#, i * 1000));
        } else {
            big.push_str(&format!(
                r#"{{"id": {i}, "key": "{}", "ts": {}, "value": {}}}"#,
                keys[i % keys.len()],
                i * 997,
                i % 13
            ));
        }
    }
    big.push_str("]}");
    out.push(Scenario::from_json_str(&big).unwrap_or_else(|e| panic!("{e}")));
    let json = r#"{"name": "9 */ hostile \\u000a name", "description": "ends a comment */ and \\u000a a line \u2028 too",
        "assigner": {"kind": "tumbling", "size": 1500}, "side_output": false, "end_of_input": false,
        "input": [{"id": 1, "key": "k'--", "ts": "LONG_MIN"}, {"id": 2, "key": "x", "ts": "LONG_MAX", "value": "LONG_MIN"}]}"#;
    out.push(Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}")));
    out.push(
        Scenario::from_json_str(r#"{"name": "empty", "assigner": {"kind": "global_eos"}, "input": []}"#)
            .unwrap_or_else(|e| panic!("{e}")),
    );
    out
}

/// Whether a part-two scenario depends on what a bounded single-stream job cannot reproduce
/// (several partitions, processing time: periodic emission, idleness, arrival times, TTL); the
/// programs say so in a caveat.
fn needs_the_source_simulation(s: &Scenario) -> bool {
    s.partition_count() > 1
        || s.source.periodic
        || s.source.idleness.is_some()
        || s.input.iter().any(|i| match i {
            InputItem::Element(e) => e.arrival.is_some(),
            InputItem::SourceWatermark(m) => m.arrival.is_some(),
            InputItem::Watermark(_) => false,
        })
        || matches!(s.process_function, Some(ProcessFunctionSpec::RequestAssembler { ttl: Some(_), .. }))
}

/// The scenarios whose programs must compile: every one Flink accepts, the part-two corpus
/// (partitions, idleness, window TVFs, keyed process functions), plus the variants.
fn compile_set() -> Vec<Scenario> {
    let mut set: Vec<Scenario> = parity_names().iter().filter(|n| !rejected_at_build(n)).map(|n| load(n)).collect();
    set.extend(ext_names().iter().map(|n| load_ext(n)));
    set.extend(variants());
    set
}

/// Unique class names: `Case<i>` + the generated name (names can collide once sanitized).
fn java_programs(set: &[Scenario]) -> Vec<Program> {
    set.iter()
        .enumerate()
        .map(|(i, s)| codegen::java::program_with_class(s, &format!("Case{i}{}", codegen::java_class_name(&s.name))))
        .collect()
}

// ------------------------------------------------------------------ Java

fn javac(flink: &Flink, dir: &Path, programs: &[Program]) -> PathBuf {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).unwrap_or_else(|e| panic!("{e}"));
    let mut files = Vec::new();
    for p in programs {
        let path = dir.join(&p.file_name);
        write(&path, &p.text);
        files.push(path);
    }
    let (ok, text) = output(
        Command::new("javac")
            .args(["-Xlint:all,-serial,-processing", "-Werror", "-encoding", "UTF-8", "-d"])
            .arg(&classes)
            .arg("-cp")
            .arg(classpath(flink, &[]))
            .args(&files),
    );
    assert!(ok, "javac failed on the generated programs in {}:\n{text}", dir.display());
    classes
}

/// Every generated Java program compiles, warning-free, against Flink 2.3's jars.
#[test]
fn java_programs_compile_with_javac() {
    let Some(flink) = flink("java_programs_compile_with_javac", true) else { return };
    let dir = work_dir("javac");
    let programs = java_programs(&compile_set());
    assert!(programs.len() > 120);
    javac(&flink, &dir, &programs);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `main()` of each class in one JVM, printing `=== Class` before its captured output and
/// `!!! exception` after a failure.
const RUN_MAINS: &str = r#"
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;

public class RunMains {
    public static void main(String[] args) throws Exception {
        PrintStream real = System.out;
        for (String cls : args) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            String error = null;
            try {
                Class.forName(cls).getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } catch (InvocationTargetException e) {
                Throwable root = e;
                while (root.getCause() != null && root.getCause() != root) root = root.getCause();
                error = root.getClass().getName() + ": " + root.getMessage();
            } finally {
                System.setOut(real);
            }
            real.println("=== " + cls);
            real.print(buf.toString(StandardCharsets.UTF_8));
            if (error != null) real.println("!!! " + error.replace('\n', ' '));
        }
        System.exit(0);
    }
}
"#;

/// (key, start, end) → the window's results in order: (sum, count, watermark). `GlobalWindow`
/// results have no start and end.
type FiresPerWindow = BTreeMap<(String, Option<i64>, Option<i64>), Vec<(i64, u64, i64)>>;

/// `Result{key=A, window=[0, 60000), sum=3, count=2, watermark=59999}` (or without the window,
/// for GlobalWindows) → the golden's fields.
#[allow(clippy::type_complexity)]
fn parse_result(line: &str) -> Option<(String, Option<i64>, Option<i64>, i64, u64, i64)> {
    let body = line.strip_prefix("Result{key=")?.strip_suffix('}')?;
    let (key, start, end, rest) = match body.split_once(", window=[") {
        Some((key, rest)) => {
            let (start, rest) = rest.split_once(", ")?;
            let (end, rest) = rest.split_once("), ")?;
            (key, Some(start.parse().ok()?), Some(end.parse().ok()?), rest)
        }
        None => {
            let (key, rest) = body.split_once(", sum=")?;
            (key, None, None, rest)
        }
    };
    let rest = rest.strip_prefix("sum=").unwrap_or(rest);
    let (sum, rest) = rest.split_once(", count=")?;
    let (count, wm) = rest.split_once(", watermark=")?;
    Some((key.into(), start, end, sum.parse().ok()?, count.parse().ok()?, wm.parse().ok()?))
}

/// `late> Event{id=6, key=acme, ts=1767261650000, value=30}` → (id, key, ts).
fn parse_late(line: &str) -> Option<(i64, String, i64)> {
    let body = line.strip_prefix("late> Event{id=")?.strip_suffix('}')?;
    let (id, rest) = body.split_once(", key=")?;
    let (key, rest) = rest.split_once(", ts=")?;
    let (ts, _) = rest.split_once(", value=")?;
    Some((id.parse().ok()?, key.into(), ts.parse().ok()?))
}

/// Compiles the programs (one class each) and runs all their `main()`s in one JVM; returns each
/// class's printed lines.
fn run_on_flink(flink: &Flink, dir: &Path, programs: &[Program]) -> BTreeMap<String, Vec<String>> {
    let classes = javac(flink, dir, programs);
    write(&dir.join("RunMains.java"), RUN_MAINS);
    let (ok, text) = output(Command::new("javac").arg("-d").arg(&classes).arg(dir.join("RunMains.java")));
    assert!(ok, "{text}");
    let log4j = dir.join("log4j2.properties");
    write(&log4j, "rootLogger.level = OFF\n");
    let mut cmd = Command::new("java");
    cmd.args(["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"])
        .arg(format!("-Dlog4j.configurationFile={}", log4j.display()))
        .arg("-cp")
        .arg(classpath(flink, &[&classes]))
        .arg("RunMains")
        .args(programs.iter().map(|p| p.file_name.trim_end_matches(".java").to_string()));
    let (ok, text) = output(&mut cmd);
    assert!(ok, "{text}");
    let mut printed: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines() {
        if let Some(class) = line.strip_prefix("=== ") {
            current = class.to_string();
            printed.entry(current.clone()).or_default();
        } else if !current.is_empty() {
            printed.entry(current.clone()).or_default().push(line.to_string());
        }
    }
    printed
}

/// A window job's printed results against its golden: fires per window in order, late records
/// in order, errors.
fn check_window_job(name: &str, scenario: &Scenario, lines: &[String]) {
    let gold = Corpus::Parity.golden(name);
    // Fires per window, in order (windows of different keys may interleave differently within
    // one watermark's timer group, which Flink leaves unspecified).
    let mut ours: FiresPerWindow = BTreeMap::new();
    let mut late = Vec::new();
    let mut errors = 0;
    for l in lines {
        if let Some((k, s, e, sum, count, wm)) = parse_result(l) {
            ours.entry((k, s, e)).or_default().push((sum, count, wm));
        } else if let Some(l) = parse_late(l) {
            late.push(l);
        } else if l.starts_with("!!! ") {
            errors += 1;
        } else {
            panic!("{name}: unexpected output line {l:?}");
        }
    }
    let mut theirs: FiresPerWindow = BTreeMap::new();
    let mut gold_late = Vec::new();
    for g in &gold {
        match g["out"].as_str() {
            Some("fire") => theirs
                .entry((g["key"].as_str().unwrap_or_default().to_string(), g["start"].as_i64(), g["end"].as_i64()))
                .or_default()
                .push((
                    g["sum"].as_i64().unwrap_or_default(),
                    g["count"].as_u64().unwrap_or_default(),
                    g["wm"].as_i64().unwrap_or_default(),
                )),
            Some("late") => gold_late.push((
                g["id"].as_i64().unwrap_or_default(),
                g["key"].as_str().unwrap_or_default().to_string(),
                g["ts"].as_i64().unwrap_or_default(),
            )),
            _ => {}
        }
    }
    let gold_errors = gold.iter().filter(|g| g["out"] == "error").count();
    let report = format!("{name}: generated program printed\n{}", lines.join("\n"));
    assert_eq!(ours, theirs, "fires per window differ: {report}");
    assert_eq!(late, gold_late, "late records differ: {report}");
    assert_eq!(errors, gold_errors, "errors differ: {report}");
    // And the engine agrees (the parity tests check it in full).
    assert_eq!(run(scenario).outputs.len(), gold.len(), "{name}");
}

/// Days from 1970-01-01 to a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `1970-01-01 00:00:20.000` (UTC, as the table result prints TIMESTAMP_LTZ) → epoch ms.
fn epoch_millis(text: &str) -> Option<i64> {
    let (date, time) = text.trim().split_once(' ')?;
    let mut d = date.split('-').map(|x| x.parse::<i64>());
    let (y, m, day) = (d.next()?.ok()?, d.next()?.ok()?, d.next()?.ok()?);
    let (hms, ms) = time.split_once('.')?;
    let mut t = hms.split(':').map(|x| x.parse::<i64>());
    let (h, min, sec) = (t.next()?.ok()?, t.next()?.ok()?, t.next()?.ok()?);
    Some(((days_from_civil(y, m, day) * 24 + h) * 60 + min) * 60_000 + sec * 1000 + ms.parse::<i64>().ok()?)
}

/// A part-two job's printed records (keyed process function `Record{..}` lines, or the window
/// TVF's `| +I | key | start | end | time | sum | count |` rows) against its golden, as sorted
/// sets (one advance's timer results of different keys come in an unspecified order).
fn check_ext_job(name: &str, lines: &[String]) {
    let mut ours: Vec<Value> = Vec::new();
    for l in lines {
        if let Some(body) = l.strip_prefix("Record{").and_then(|b| b.strip_suffix('}')) {
            let mut rec = serde_json::Map::new();
            rec.insert("out".into(), "process".into());
            for part in body.split(", ") {
                let Some((k, v)) = part.split_once('=') else { continue };
                let k = if k == "watermark" { "wm" } else { k };
                let v = v.parse::<i64>().map_or_else(|_| Value::from(v), Value::from);
                rec.insert(k.into(), v);
            }
            ours.push(Value::Object(rec));
        } else if l.starts_with("| +I |") {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            // ["", "+I", key, start, end, time, sum, count, ""]
            let num = |i: usize| cells.get(i).and_then(|c| c.parse::<i64>().ok());
            let time = |i: usize| cells.get(i).and_then(|c| epoch_millis(c));
            ours.push(serde_json::json!({
                "out": "tvf", "key": cells.get(2).copied().unwrap_or_default(),
                "window_start": time(3), "window_end": time(4), "window_time": time(5),
                "sum": num(6), "count": num(7),
            }));
        } else if l.starts_with("!!! ") {
            ours.push(serde_json::json!({"out": "error"}));
        }
    }
    let mut theirs: Vec<Value> = Corpus::Ext
        .golden(name)
        .into_iter()
        .filter(|g| matches!(g["out"].as_str(), Some("process" | "tvf" | "error")))
        .map(|mut g| {
            if let Value::Object(o) = &mut g {
                match o.get("out").and_then(Value::as_str) {
                    // The printed table has no watermark column.
                    Some("tvf") => {
                        o.remove("wm");
                    }
                    Some("error") => o.retain(|k, _| k == "out"),
                    _ => {}
                }
            }
            g
        })
        .collect();
    let key = |v: &Value| v.to_string();
    ours.sort_by_key(key);
    theirs.sort_by_key(key);
    assert_eq!(ours, theirs, "{name}: generated program printed\n{}", lines.join("\n"));
}

/// The generated Java programs, run on Flink, print the golden results: window jobs, keyed
/// process functions and window TVFs. (Course presets, a session merge, GlobalWindows, both
/// process functions and CUMULATE by default; every scenario with `TIDEMARK_FLINK_FULL=1`.)
/// Left out, because their caveats say a bounded single-stream job cannot reproduce them: a
/// paused input (`end_of_input: false`), several partitions, and what depends on processing
/// time (periodic emission, idleness, arrival times, state TTL).
#[test]
fn java_programs_reproduce_the_goldens_on_flink() {
    let Some(flink) = flink("java_programs_reproduce_the_goldens_on_flink", true) else { return };
    let (window_names, ext): (Vec<String>, Vec<String>) = if full() {
        (parity_names().into_iter().filter(|n| !rejected_at_build(n)).collect(), ext_names())
    } else {
        (
            [
                "course_lab_6_tenant_cost",
                "course_model_latency_sliding",
                "session_late_bridge_two_fired",
                "global_end_of_stream_trigger",
            ]
            .map(String::from)
            .to_vec(),
            ["ra_completed_before_timeout", "era_late_error_dropped", "tvf_cumulate_basic"].map(String::from).to_vec(),
        )
    };
    let windows: Vec<(String, Scenario)> =
        window_names.iter().map(|n| (n.clone(), load(n))).filter(|(_, s)| s.end_of_input).collect();
    let ext: Vec<(String, Scenario)> = ext
        .iter()
        .map(|n| (n.clone(), load_ext(n)))
        .filter(|(_, s)| (s.process_function.is_some() || s.tvf.is_some()) && !needs_the_source_simulation(s))
        .collect();
    let dir = work_dir("run");
    let programs: Vec<Program> = windows
        .iter()
        .chain(&ext)
        .map(|(n, s)| codegen::java::program_with_class(s, &codegen::java_class_name(n)))
        .collect();
    let printed = run_on_flink(&flink, &dir, &programs);
    let lines_of = |name: &str| {
        printed.get(&codegen::java_class_name(name)).unwrap_or_else(|| panic!("{name}: no output\n{printed:?}"))
    };
    for (name, scenario) in &windows {
        check_window_job(name, scenario, lines_of(name));
    }
    for (name, _) in &ext {
        check_ext_job(name, lines_of(name));
    }
    // The lesson itself, as printed by Flink: $4.10, then $4.31 for the same minute.
    let lab = printed.get("CourseLab6TenantCostJob").map(|l| l.join("\n")).unwrap_or_default();
    let first = lab.find("sum=410, count=2").unwrap_or(usize::MAX);
    let second = lab.find("sum=431, count=3").unwrap_or(0);
    assert!(first < second, "{lab}");
    let _ = std::fs::remove_dir_all(&dir);
}

// ------------------------------------------------------------------ Python

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
    for (i, s) in compile_set().iter().enumerate() {
        let p = codegen::pyflink::program(s);
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

// ------------------------------------------------------------------ SQL

/// Runs each SQL file's statements in a TableEnvironment (switching to a batch environment for
/// `SET 'execution.runtime-mode' = 'batch'`, as the SQL client does) and asks the planner to
/// explain the INSERT and the SELECT. Prints `=== file`, then `PLANNED` or `!!! error`.
const SQL_PLAN: &str = r#"
import sys
from pyflink.table import EnvironmentSettings, TableEnvironment

def statements(text):
    out, cur, i, n, in_str = [], [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            cur.append(c)
            if c == "'":
                if i + 1 < n and text[i + 1] == "'":
                    cur.append("'"); i += 1
                else:
                    in_str = False
        elif c == "'":
            in_str = True; cur.append(c)
        elif text.startswith("--", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif c == ";":
            s = "".join(cur).strip()
            if s: out.append(s)
            cur = []
        else:
            cur.append(c)
        i += 1
    s = "".join(cur).strip()
    if s: out.append(s)
    return out

envs = {}
def env_for(mode):
    if mode not in envs:
        settings = EnvironmentSettings.in_batch_mode() if mode == "batch" else EnvironmentSettings.in_streaming_mode()
        envs[mode] = TableEnvironment.create(settings)
    return envs[mode]

for path in sys.argv[1:]:
    print("===", path, flush=True)
    mode, ddl, conf, applied = "streaming", [], [], {}
    t_env = env_for(mode)
    try:
        for s in statements(open(path, encoding="utf-8").read()):
            up = s.upper()
            if up.startswith("SET "):
                k, v = (x.strip().strip("'") for x in s[4:].split("=", 1))
                if k == "execution.runtime-mode":
                    mode, t_env = v, env_for(v)
                    for c in conf: t_env.get_config().set(*c)
                    for d in ddl[applied.get(mode, 0):]: t_env.execute_sql(d).wait()
                    applied[mode] = len(ddl)
                else:
                    conf.append((k, v)); t_env.get_config().set(k, v)
            elif up.startswith("CREATE"):
                ddl.append(s); t_env.execute_sql(s).wait()
                applied[mode] = len(ddl)
            else:
                t_env.explain_sql(s)
        print("PLANNED", flush=True)
    except Exception as e:
        print("!!!", " | ".join(l for l in str(e).splitlines() if "Exception" in l)[:500], flush=True)
    for e in envs.values():
        for name in list(e.list_tables()):
            e.execute_sql("DROP TABLE IF EXISTS `%s`" % name)
"#;

/// Flink's SQL planner accepts the generated SQL (DDL, INSERT, window TVF query), except where
/// a caveat of the program says that Flink rejects it.
#[test]
fn sql_programs_are_planned_by_flink() {
    let Some(flink) = flink("sql_programs_are_planned_by_flink", true) else { return };
    let set: Vec<Scenario> = if full() {
        compile_set()
    } else {
        [
            "course_lab_6_tenant_cost",
            "course_model_latency_sliding",
            "session_late_bridge_two_fired",
            "sliding_size_not_multiple_of_slide",
            "global_end_of_stream_trigger",
            "tumbling_offset_positive",
            "tumbling_basic",
        ]
        .iter()
        .map(|n| load(n))
        .chain(
            [
                "tvf_cumulate_basic",
                "era_alert_and_ok",
                "ra_ttl_expires_during_watermark_stall",
                "src_idleness_releases_watermark",
            ]
            .iter()
            .map(|n| load_ext(n)),
        )
        .chain(variants().into_iter().filter(|s| s.name == "dynamic gaps" || s.name.ends_with("_avg")))
        .collect()
    };
    let dir = work_dir("sql");
    let mut files = BTreeMap::new();
    for (i, s) in set.iter().enumerate() {
        let p = codegen::sql::program(s);
        let path = dir.join(format!("case{i}_{}", p.file_name));
        write(&path, &p.text);
        files.insert(path.display().to_string(), p);
    }
    let script = dir.join("plan.py");
    write(&script, SQL_PLAN);
    let mut cmd = Command::new(&flink.python);
    // PyFlink starts a JVM with the `java` on PATH; put the venv first for its Python workers.
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![flink.python.parent().map(Path::to_path_buf).unwrap_or_default()];
    paths.extend(std::env::split_paths(&path));
    cmd.env("PATH", std::env::join_paths(paths).unwrap_or(path)).arg(&script).args(files.keys());
    let (_, text) = output(&mut cmd);
    let mut current = String::new();
    let mut seen = 0;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("=== ") {
            current = f.to_string();
        } else if line == "PLANNED" {
            seen += 1;
        } else if let Some(err) = line.strip_prefix("!!! ") {
            seen += 1;
            let p = files.get(&current).unwrap_or_else(|| panic!("unknown file {current}\n{text}"));
            let expected = p.caveats.iter().any(|c| c.contains("rejected by Flink") || c.contains("planner rejects"));
            assert!(expected, "Flink's planner rejects {current}: {err}\n\n{}", p.text);
        }
    }
    assert_eq!(seen, files.len(), "not every file was planned:\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

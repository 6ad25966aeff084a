//! The Java programs: every one compiles warning-free against Flink 2.3's jars, and those of
//! the course presets, a session merge, GlobalWindows, both process functions and a window TVF,
//! run on Flink, print the goldens.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tidemark::codegen::{self, Program};
use tidemark::engine::{Scenario, run};
use tidemark::teach::presets;

use crate::common::Corpus;
use crate::env::{Flink, classpath, flink, full, output, printed_program, work_dir, write};
use crate::results::{
    Printed, WindowResults, check_records, check_window_results, latency_result, oracle_lines, tvf_row,
};
use crate::{
    ABOVE_K, compile_set, ext_names, latency_above_k, load, load_ext, needs_the_source_simulation, parity_names,
    rejected_at_build,
};

/// Unique class names: `Case<i>` + the generated name (names can collide once sanitized).
fn java_programs(set: &[Scenario]) -> Vec<Program> {
    set.iter()
        .enumerate()
        .map(|(i, s)| codegen::java::program_with_class(s, &format!("Case{i}{}", codegen::java_class_name(&s.name))))
        .collect()
}

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

/// `Result{key=A, window=[0, 60000), sum=3, count=2, watermark=59999}` (or without the window,
/// for GlobalWindows; `usd=410, requests=2` of TenantCost; `p50Ms=95, p99Ms=120, n=6,
/// approximate=false` of LatencySketch) → (key, start, end, what, watermark).
#[allow(clippy::type_complexity)]
fn parse_result(line: &str) -> Option<(String, Option<i64>, Option<i64>, Printed, i64)> {
    let body = line.strip_prefix("Result{key=")?.strip_suffix('}')?;
    let (key, start, end, rest) = match body.split_once(", window=[") {
        Some((key, rest)) => {
            let (start, rest) = rest.split_once(", ")?;
            let (end, rest) = rest.split_once("), ")?;
            (key, Some(start.parse().ok()?), Some(end.parse().ok()?), rest)
        }
        None => {
            // The first value field ends the key (which may hold ", ").
            let at = ["sum=", "usd=", "p50Ms="].iter().filter_map(|f| body.find(&format!(", {f}"))).min()?;
            (&body[..at], None, None, &body[at + 2..])
        }
    };
    let fields: BTreeMap<&str, &str> = rest.split(", ").filter_map(|f| f.split_once('=')).collect();
    let num = |name: &str| fields.get(name).and_then(|v| v.parse::<i64>().ok());
    let printed = if let (Some(sum), Some(count)) = (num("sum"), num("count")) {
        Printed::SumAndCount(sum, u64::try_from(count).ok()?)
    } else if let (Some(usd), Some(requests)) = (num("usd"), num("requests")) {
        Printed::Aggregate(serde_json::json!({"requests": requests, "usd": usd}))
    } else {
        let approximate = match *fields.get("approximate")? {
            "true" => true,
            "false" => false,
            _ => return None,
        };
        Printed::Aggregate(latency_result(num("p50Ms")?, num("p99Ms")?, u64::try_from(num("n")?).ok()?, approximate))
    };
    Some((key.into(), start, end, printed, num("watermark")?))
}

/// `late> Event{id=6, key=acme, ts=1767261650000, value=30}` → (id, key, ts).
fn parse_late(line: &str) -> Option<(i64, String, i64)> {
    let body = line.strip_prefix("late> Event{id=")?.strip_suffix('}')?;
    let (id, rest) = body.split_once(", key=")?;
    let (key, rest) = rest.split_once(", ts=")?;
    let (ts, _) = rest.split_once(", value=")?;
    Some((id.parse().ok()?, key.into(), ts.parse().ok()?))
}

/// A window job's printed lines: `Result{..}`, `late> Event{..}` and `!!! exception`.
fn window_results(name: &str, lines: &[String]) -> WindowResults {
    let mut out = WindowResults::default();
    for l in lines {
        if let Some((k, s, e, printed, wm)) = parse_result(l) {
            out.printed(&k, (s, e), printed, wm);
        } else if let Some((id, _, _)) = parse_late(l) {
            out.late.push(id);
        } else if l.starts_with("!!! ") {
            out.errors += 1;
        } else {
            panic!("{name}: unexpected output line {l:?}");
        }
    }
    out
}

/// A part-two job's printed records: keyed process function `Record{..}` lines, the window
/// TVF's table rows, `!!! exception`.
fn records(lines: &[String]) -> Vec<Value> {
    let mut ours = Vec::new();
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
        } else if let Some(row) = tvf_row(l) {
            ours.push(row);
        } else if l.starts_with("!!! ") {
            ours.push(serde_json::json!({"out": "error"}));
        }
    }
    ours
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

/// A preset's program as `tidemark code --lang java <id>` prints it: (id, program, scenario).
fn preset_program(id: &str) -> (String, Program, Scenario) {
    let p = presets::by_id(id).unwrap_or_else(|| panic!("preset {id}"));
    let mut program = codegen::java::program(&p.scenario);
    program.text = printed_program("java", id);
    (id.to_string(), program, p.scenario)
}

/// The Java programs of the course's window jobs, a session merge, GlobalWindows, both process
/// functions and a window TVF (with `TIDEMARK_FLINK_FULL=1` every scenario), run on Flink in one
/// JVM, print their goldens; those of the course aggregates' presets print the engine's results
/// and their goldens, and a percentile window above K the engine's approximate p50/p99. Left
/// out: paused input (`end_of_input: false`), several partitions, and what depends on processing
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
    // The course's window jobs of issue 17 (ext corpus): the TenantCost aggregate, DeltaEvictor
    // and the course's two trigger classes, in the same JVM (about a second each).
    let course = [
        "course_tenant_cost_lab_6_aggregate",
        "course_delta_evictor_value_before",
        "course_early_count_every_2_then_watermark",
        "course_session_max_duration_bot",
    ];
    let windows: Vec<(String, Scenario, Corpus)> = window_names
        .iter()
        .map(|n| (n.clone(), load(n), Corpus::Parity))
        .chain(course.iter().map(|n| (n.to_string(), load_ext(n), Corpus::Ext)))
        .filter(|(_, s, _)| s.end_of_input)
        .collect();
    let ext: Vec<(String, Scenario)> = ext
        .iter()
        .map(|n| (n.clone(), load_ext(n)))
        .filter(|(_, s)| (s.process_function.is_some() || s.tvf.is_some()) && !needs_the_source_simulation(s))
        .collect();
    // The course aggregates' presets as the command line prints them (against the engine and
    // their goldens), and a percentile window above K (against the engine: the same seeded draws).
    let engine_checked: Vec<(String, Program, Scenario)> = ["tenant-cost-aggregate", "model-latency-p50-p99"]
        .into_iter()
        .map(preset_program)
        .chain(std::iter::once({
            let s = latency_above_k();
            (s.name.clone(), codegen::java::program(&s), s)
        }))
        .collect();
    let dir = work_dir("run");
    let programs: Vec<Program> = windows
        .iter()
        .map(|(n, s, _)| (n, s))
        .chain(ext.iter().map(|(n, s)| (n, s)))
        .map(|(n, s)| codegen::java::program_with_class(s, &codegen::java_class_name(n)))
        .chain(engine_checked.iter().map(|(_, p, _)| p.clone()))
        .collect();
    let printed = run_on_flink(&flink, &dir, &programs);
    let lines_of = |name: &str| {
        printed.get(&codegen::java_class_name(name)).unwrap_or_else(|| panic!("{name}: no output\n{printed:?}"))
    };
    for (name, scenario, corpus) in &windows {
        let gold: Vec<Value> =
            corpus.golden(name).into_iter().filter(|l| matches!(l["out"].as_str(), Some("fire" | "late"))).collect();
        check_window_results(name, &window_results(name, lines_of(name)), &gold, lines_of(name));
        // And the engine agrees (the parity tests check it in full).
        assert_eq!(run(scenario).outputs.len(), gold.len(), "{name}");
    }
    for (name, _) in &ext {
        check_records(name, records(lines_of(name)), &Corpus::Ext.golden(name), lines_of(name));
    }
    for (name, _, scenario) in &engine_checked {
        let engine = oracle_lines(scenario);
        let ours = window_results(name, lines_of(&scenario.name));
        check_window_results(name, &ours, &engine, lines_of(&scenario.name));
        if let Some(golden) = presets::by_id(name).and_then(|p| p.golden) {
            check_window_results(&golden, &ours, &Corpus::Ext.golden(&golden), lines_of(&scenario.name));
        }
    }
    let above_k = lines_of(&latency_above_k().name).join("\n");
    assert!(above_k.contains(&format!("n={ABOVE_K}, approximate=true")), "{above_k}");
    // The lesson itself, as printed by Flink: $4.10, then $4.31 for the same minute.
    let lab = printed.get("CourseLab6TenantCostJob").map(|l| l.join("\n")).unwrap_or_default();
    let first = lab.find("sum=410, count=2").unwrap_or(usize::MAX);
    let second = lab.find("sum=431, count=3").unwrap_or(0);
    assert!(first < second, "{lab}");
    let _ = std::fs::remove_dir_all(&dir);
}

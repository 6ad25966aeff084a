//! The Java programs: every one compiles warning-free against Flink 2.3's jars, and those of
//! the course presets, a session merge, GlobalWindows, both process functions and a window TVF,
//! run on Flink, print the goldens.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use tidemark::codegen::{self, Program};
use tidemark::engine::{Scenario, run};

use crate::common::Corpus;
use crate::env::{Flink, classpath, flink, full, output, work_dir, write};
use crate::results::{WindowResults, check_records, check_window_results, tvf_row};
use crate::{compile_set, ext_names, load, load_ext, needs_the_source_simulation, parity_names, rejected_at_build};

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
    // TenantCost's `usd` and `requests` are the oracle's `sum` and `count`.
    let rest = rest.strip_prefix("sum=").or_else(|| rest.strip_prefix("usd=")).unwrap_or(rest);
    let (sum, rest) = rest.split_once(", count=").or_else(|| rest.split_once(", requests="))?;
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

/// A window job's printed lines: `Result{..}`, `late> Event{..}` and `!!! exception`.
fn window_results(name: &str, lines: &[String]) -> WindowResults {
    let mut out = WindowResults::default();
    for l in lines {
        if let Some((k, s, e, sum, count, wm)) = parse_result(l) {
            out.fire(&k, (s, e), (sum, count, wm));
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
    let dir = work_dir("run");
    let programs: Vec<Program> = windows
        .iter()
        .map(|(n, s, _)| (n, s))
        .chain(ext.iter().map(|(n, s)| (n, s)))
        .map(|(n, s)| codegen::java::program_with_class(s, &codegen::java_class_name(n)))
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
    // The lesson itself, as printed by Flink: $4.10, then $4.31 for the same minute.
    let lab = printed.get("CourseLab6TenantCostJob").map(|l| l.join("\n")).unwrap_or_default();
    let first = lab.find("sum=410, count=2").unwrap_or(usize::MAX);
    let second = lab.find("sum=431, count=3").unwrap_or(0);
    assert!(first < second, "{lab}");
    let _ = std::fs::remove_dir_all(&dir);
}

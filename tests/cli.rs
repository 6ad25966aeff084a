//! The `tidemark` command line: the oracle's JSON lines, `-o DIR`, `--format trace`, and exit
//! code 2 with a one-line message naming the field for a malformed scenario.

use std::path::PathBuf;
use std::process::Command;

fn tidemark(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tidemark")).args(args).output().expect("tidemark runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn corpus(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink").join(name).display().to_string()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tidemark-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// `tidemark run FILE` prints exactly the golden's lines for a scenario.
#[test]
fn run_prints_the_oracle_lines() {
    let (code, stdout, _) = tidemark(&["run", &corpus("scenarios/tumbling_basic.json")]);
    assert_eq!(code, 0);
    let golden = std::fs::read_to_string(corpus("golden/tumbling_basic.jsonl")).expect("golden");
    let parse = |t: &str| -> Vec<serde_json::Value> {
        t.lines().map(|l| serde_json::from_str(l).expect("json line")).collect()
    };
    assert_eq!(parse(&stdout), parse(&golden));
}

/// The lines are the golden's bytes, field order included, so `diff` against the oracle works:
/// every golden of the corpus except those whose `cause` the oracle cannot trace (global
/// windows at end of input) or whose timer ties between keys may reorder.
#[test]
fn run_output_is_byte_identical_to_the_goldens() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/flink/scenarios");
    let mut identical = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        let golden = std::fs::read_to_string(corpus(&format!("golden/{name}.jsonl"))).expect("golden");
        if golden.contains(r#""cause":{"kind":"untraced"}"#) {
            continue;
        }
        let (code, stdout, _) = tidemark(&["run", path.to_str().expect("utf-8 path")]);
        assert_eq!(code, 0, "{name}");
        let mut ours: Vec<&str> = stdout.lines().collect();
        let mut theirs: Vec<&str> = golden.lines().filter(|l| !l.is_empty()).collect();
        if ours != theirs {
            // Same-timestamp timers of different keys: Flink's heap order is unspecified.
            ours.sort_unstable();
            theirs.sort_unstable();
            assert_eq!(ours, theirs, "{name}: not the golden's bytes");
        }
        identical += 1;
    }
    assert!(identical >= 90, "only {identical} scenarios compared");
}

/// A scenario Flink rejects gives Flink's error line and exit code 0, as the oracle does.
#[test]
fn flink_rejections_are_error_lines() {
    let (code, stdout, _) = tidemark(&["run", &corpus("scenarios/session_gap_zero_rejected.json")]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains(r#""out":"error""#)
            && stdout.contains("EventTimeSessionWindows parameters must satisfy 0 < size")
    );
}

/// Malformed input: exit 2, one line on stderr naming the file and the field, no panic.
#[test]
fn malformed_scenarios_exit_2_naming_the_field() {
    let dir = temp_dir("bad");
    let cases = [
        ("types.json", r#"{"assigner": {"kind": "tumbling", "size": "big"}, "input": []}"#, "assigner.size"),
        ("missing.json", r#"{"input": []}"#, "assigner: is missing"),
        ("kind.json", r#"{"assigner": {"kind": "hopping"}, "input": []}"#, "assigner.kind: unknown kind"),
        (
            "range.json",
            r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": 1e300}]}"#,
            "input[0].ts",
        ),
        ("json.json", "{\"assigner\": ", "not valid JSON"),
    ];
    for (file, text, expected) in cases {
        let path = dir.join(file);
        std::fs::write(&path, text).expect("write");
        let (code, stdout, stderr) = tidemark(&["run", &path.display().to_string()]);
        assert_eq!(code, 2, "{file}: {stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr.lines().count(), 1, "{file}: one line: {stderr}");
        assert!(stderr.contains(expected), "{file}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    std::fs::write(dir.join("binary.json"), [0xffu8, 0xfe, 0x00]).expect("write");
    let (code, _, stderr) = tidemark(&["run", &dir.join("binary.json").display().to_string()]);
    assert_eq!((code, stderr.contains("not UTF-8")), (2, true));
    let (code, _, stderr) = tidemark(&["frobnicate"]);
    assert_eq!(code, 2, "{stderr}");
}

/// `-o DIR` writes one `<name>.jsonl` per scenario; `--format trace` prints trace events.
#[test]
fn output_dir_and_trace_format() {
    let dir = temp_dir("out");
    let (code, _, stderr) = tidemark(&[
        "run",
        "-o",
        &dir.display().to_string(),
        &corpus("scenarios/tumbling_basic.json"),
        &corpus("scenarios/session_basic.json"),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(dir.join("tumbling_basic.jsonl").exists() && dir.join("session_basic.jsonl").exists());
    let (code, stdout, _) = tidemark(&["run", "--format", "trace", &corpus("scenarios/session_basic.json")]);
    assert_eq!(code, 0);
    let events: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).expect("json")).collect();
    assert!(events.iter().any(|e| e["event"] == "sessions_merged" && e["key"] == "A"));
    assert!(events.windows(2).all(|p| p[0]["seq"].as_u64() < p[1]["seq"].as_u64()));
}

/// Issue 15: the command line runs the 300,000-element stream of sliding 60 s / 10 s windows
/// (≈ 15 MB of JSON, 1.8 M element-window assignments), which the page's limits refuse, so
/// Tidemark can be timed against real Flink on the same file as a whole process.
#[test]
fn run_accepts_a_300k_element_sliding_file() {
    let mut seed: u64 = 15;
    let mut rand = move |n: i64| {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        (seed as i64 * n) / 2_147_483_648
    };
    let items: Vec<String> = (0..300_000i64)
        .map(|i| {
            let ts = (i * 1000 + rand(1000) - rand(20_000)).max(0);
            format!(r#"{{"id":{},"key":"k{}","ts":{ts},"value":{}}}"#, i + 1, i % 20, 1 + i % 9)
        })
        .collect();
    let text = format!(
        r#"{{"name":"sliding_300k","assigner":{{"kind":"sliding","size":60000,"slide":10000}},"watermarks":{{"kind":"bounded_out_of_orderness","bound":5000}},"input":[{}]}}"#,
        items.join(",")
    );
    assert!(text.len() > 8 << 20, "over the old 8 MB limit: {} bytes", text.len());
    let dir = temp_dir("sliding-300k");
    let file = dir.join("sliding_300k.json");
    std::fs::write(&file, &text).expect("write scenario");
    let page = tidemark::engine::Scenario::from_json_bytes(text.as_bytes()).err().map(|e| e.to_string());
    assert!(
        page.as_deref().is_some_and(|m| m.contains("has 300000 items; the limit of the page is 100000")
            && m.ends_with("(the command line takes more: tidemark run FILE)")),
        "{page:?}"
    );
    let (code, stdout, stderr) = tidemark(&["run", file.to_str().expect("utf-8 path")]);
    assert_eq!(code, 0, "{stderr}");
    let fires = stdout.lines().filter(|l| l.starts_with(r#"{"out":"fire""#)).count();
    let late = stdout.lines().filter(|l| l.starts_with(r#"{"out":"late""#)).count();
    // Every element is in 6 windows; a window fires once (no lateness), so an element is counted
    // at most 6 times across the fires' counts, and not at all when it was late (a late line):
    // only the windows that were already late are skipped for it.
    let counted: u64 = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v.get("count").and_then(serde_json::Value::as_u64))
        .sum();
    assert!(fires > 20 * 29_000, "{fires} firings");
    assert!(counted <= 6 * (300_000 - late as u64) && counted > 5 * 300_000, "{counted} counted, {late} late");
    let _ = std::fs::remove_dir_all(&dir);
}

//! `tidemark import` and `tidemark lateness`, driven as a user runs them, over the seeded data in
//! `tests/data/`: the scenario JSON, what is said on stderr, exit code 2 for bad rows (with their
//! lines) unless `--skip-bad`, and the lateness table.

use std::path::PathBuf;
use std::process::Command;

use tidemark::engine::{Scenario, run};
use tidemark::import::{self, BadRowPolicy, Column, Format, ImportSpec, Mapping, ScenarioOptions, TimeUnit, lateness};

fn tidemark(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tidemark")).args(args).output().expect("tidemark runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).display().to_string()
}

fn scenario(stdout: &str) -> Scenario {
    Scenario::from_json_str(stdout).unwrap_or_else(|e| panic!("not a scenario: {e}"))
}

fn columns(s: &Scenario) -> Vec<(String, i64, i64, u32, Option<i64>)> {
    s.elements().map(|e| (e.key.to_string(), e.ts, e.value, e.partition, e.arrival)).collect()
}

const SENSORS: [&str; 14] = [
    "--key",
    "sensor",
    "--ts",
    "event_time",
    "--ts-unit",
    "iso",
    "--value",
    "reading",
    "--partition",
    "partition",
    "--arrival",
    "ingest_ms",
    "--arrival-unit",
    "ms",
];

/// `import` prints the scenario the library builds from the same mapping, byte for byte; it
/// loads and runs like any scenario.
#[test]
fn import_prints_the_scenario_and_it_runs() {
    let file = data("sensors.csv");
    let mut args = vec!["import", file.as_str()];
    args.extend(SENSORS);
    args.extend(["--window", "sliding:60s:10s", "--lateness", "5s"]);
    let (code, stdout, stderr) = tidemark(&args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        format!(
            "tidemark: {file}: 1067 elements, 10 keys, 3 partition(s); bounded out-of-orderness 7.2 s (suggested: the 99th percentile of disorder, 7138 ms, rounded up)"
        )
    );
    let spec = ImportSpec {
        format: Format::CSV,
        has_header: true,
        mapping: Mapping {
            key: Some(Column::Name("sensor".into())),
            ts: Some(Column::Name("event_time".into())),
            value: Some(Column::Name("reading".into())),
            partition: Some(Column::Name("partition".into())),
            arrival: Some(Column::Name("ingest_ms".into())),
            ts_unit: TimeUnit::Iso,
            arrival_unit: Some(TimeUnit::Millis),
            offset: None,
        },
    };
    let parsed = import::parse(std::fs::read(&file).expect("read"), &spec).expect("parse");
    let options = ScenarioOptions {
        name: "sensors".into(),
        assigner: import::parse_window("sliding:60s:10s").expect("window"),
        allowed_lateness: Some(5000),
        ..ScenarioOptions::default()
    };
    let library = import::build_scenario(&parsed, BadRowPolicy::Cancel, &options).expect("build");
    assert_eq!(stdout, format!("{}\n", library.scenario.to_json()));
    let s = scenario(&stdout);
    assert_eq!(s.name, "sensors");
    let dir = std::env::temp_dir().join(format!("tidemark-cli-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sensors.json");
    std::fs::write(&path, &stdout).expect("write");
    let (code, lines, stderr) = tidemark(&["run", &path.display().to_string()]);
    assert_eq!(code, 0, "{stderr}");
    let expected: Vec<String> = run(&s).oracle_lines();
    assert_eq!(lines.lines().collect::<Vec<_>>(), expected);
    assert!(expected.len() > 100, "sliding windows over 8 minutes of 10 keys fire often");
}

/// Without `--key`/`--ts`/`--ts-unit` the guess is used and said; every encoding of the stream
/// gives the same elements.
#[test]
fn guesses_are_said_and_every_encoding_agrees() {
    let (code, csv, stderr) = tidemark(&["import", &data("sensors.csv"), "--partition", "partition"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "tidemark: {}: CSV, guessed --key sensor --ts event_time --ts-unit iso (give them to choose)\n",
            data("sensors.csv")
        )),
        "{stderr}"
    );
    let strip = |s: &Scenario| -> Vec<(String, i64, i64, u32)> {
        s.elements().map(|e| (e.key.to_string(), e.ts, e.value, e.partition)).collect()
    };
    let reference = strip(&scenario(&csv));
    assert_eq!(reference.len(), 1067);
    for (file, extra) in [
        ("sensors.tsv", vec!["--partition", "partition"]),
        ("sensors.jsonl", vec!["--partition", "meta.partition"]),
        ("sensors_local.csv", vec!["--partition", "partition", "--offset", "+01:00"]),
    ] {
        let f = data(file);
        let mut args = vec!["import", f.as_str()];
        args.extend(extra);
        let (code, stdout, stderr) = tidemark(&args);
        assert_eq!(code, 0, "{file}: {stderr}");
        assert_eq!(strip(&scenario(&stdout)), reference, "{file}");
    }
    let (code, full, _) = tidemark(
        &{
            let f = data("sensors.csv");
            let mut a = vec!["import".to_string(), f];
            a.extend(SENSORS.iter().map(|s| s.to_string()));
            a
        }
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>(),
    );
    assert_eq!(code, 0);
    let (code, local, _) = tidemark(&[
        "import",
        &data("sensors_local.csv"),
        "--partition",
        "partition",
        "--value",
        "value",
        "--arrival",
        "received",
        "--offset",
        "+01:00",
    ]);
    assert_eq!(code, 0);
    assert_eq!(columns(&scenario(&local)), columns(&scenario(&full)), "naive local arrival times too");
}

/// Bad rows: exit 2, every bad line on stderr, nothing on stdout; `--skip-bad` loads the rest
/// and says what it skipped.
#[test]
fn bad_rows_exit_2_with_line_numbers_unless_skipped() {
    let file = data("bad_rows.csv");
    let args =
        ["import", &file, "--key", "sensor", "--ts", "event_time", "--value", "reading", "--partition", "partition"];
    let (code, stdout, stderr) = tidemark(&args);
    assert_eq!(code, 2, "{stderr}");
    assert!(stdout.is_empty());
    let expected = format!(
        "tidemark: {file}: 6 bad row(s) of 20; nothing was loaded:
  line 4: the event time '2024-03-10T08:00:0x' is not an ISO-8601 date-time (like 2024-03-10T12:00:00Z or 2024-03-10 12:00:00.250+01:00)
  line 7: the key is empty
  line 9: the value '12.5' is not a whole number (Tidemark sums 64-bit integers)
  line 12: has 2 field(s), so no value column 'reading'
  line 17: the partition '99' is not a number from 0 to 63
  line 22: the event time '1710057618' is not an ISO-8601 date-time (like 2024-03-10T12:00:00Z or 2024-03-10 12:00:00.250+01:00)
(--skip-bad loads the other rows)"
    );
    assert!(stderr.ends_with(&format!("{expected}\n")), "{stderr}");
    let (code, stdout, stderr) = tidemark(&[&args[..], &["--skip-bad"]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(&format!("tidemark: {file}: skipped 6 bad row(s) (line 4, 7, 9, 12, 17, 22)\n")),
        "{stderr}"
    );
    let s = scenario(&stdout);
    assert_eq!(s.elements().map(|e| e.id).collect::<Vec<_>>(), [2, 3, 5, 6, 8, 10, 11, 13, 14, 16, 18, 19, 21, 23]);
}

/// Naive date-times need `--offset`; a likely unit mistake is a warning before loading.
#[test]
fn offsets_and_unit_mistakes_are_said() {
    let file = data("sensors_local.csv");
    let (code, stdout, stderr) = tidemark(&["import", &file]);
    assert_eq!(code, 2);
    assert!(stdout.is_empty());
    assert!(
        stderr.ends_with(&format!("tidemark: {file}: line 2: the event time \"2024-03-10 09:00:00.572\" has no offset (Z or +02:00): say which fixed offset such times are in (--offset +HH:MM; +00:00 for UTC)\n")),
        "{stderr}"
    );
    let file = data("sensors_seconds.csv");
    let (code, _, stderr) = tidemark(&["import", &file, "--ts-unit", "ms"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("tidemark: warning: the event time column read as epoch milliseconds puts the median at 1970-01-20 19:00:57.647 UTC; read as epoch seconds it is 2024-03-10 08:00:47 UTC: are they epoch seconds?\n"),
        "{stderr}"
    );
    assert!(stderr.contains("tidemark: warning: all 200 elements lie within 96 ms of event time, less than one 1 min window: is the time unit right?\n"), "{stderr}");
    let (code, _, stderr) = tidemark(&["import", &file]);
    assert_eq!(code, 0);
    assert!(stderr.contains("guessed --key sensor --ts ts --ts-unit s") && !stderr.contains("warning"), "{stderr}");
}

/// `lateness` prints one row per bound; its numbers are the library's report, itself equal to
/// engine runs (tests/import_lateness.rs).
#[test]
fn lateness_prints_the_report_table() {
    let file = data("sensors.csv");
    let (code, stdout, stderr) =
        tidemark(&["lateness", &file, "--window", "sliding:60s:10s", "--lateness", "5s", "--bounds", "0,1s,8.4s,1min"]);
    assert_eq!(code, 0, "{stderr}");
    let expected = format!(
        "lateness report for {file}: 1067 elements, sliding 1 min windows every 10 s, allowed lateness 5 s, dropped elements go to the late side output
bound  late  late %  on time  late-fired  dropped  result delay
 0 ms   311  29.1 %     1048          19        0  1 min
  1 s    51   4.8 %     1055          12        0  61 s
8.4 s     9   0.8 %     1064           3        0  68.4 s        suggested, current
1 min     1   0.1 %     1067           0        0  2 min
suggested bound 8.4 s: the 99th percentile of how far an element lies behind the largest earlier timestamp of its partition (8340 ms; 311 of 1067 elements out of order, at most 62319 ms)
computed: analytic (equal to engine runs, tests/import_lateness.rs)
"
    );
    assert_eq!(stdout, expected);
    // The same numbers from the library, and from engine runs.
    let (_, json, _) = tidemark(&["import", &file, "--window", "sliding:60s:10s", "--lateness", "5s"]);
    let s = scenario(&json);
    let bounds = [0, 1000, 8400, 60_000];
    let fast = lateness::report(&s, &bounds).expect("report");
    assert_eq!(fast.rows, lateness::report_by_runs(&s, &bounds).expect("runs").rows);
    let late: Vec<u64> = fast.rows.iter().map(|r| r.late).collect();
    assert_eq!(late, [311, 51, 9, 1]);
}

/// A scenario file works too; what has no report, and usage mistakes, exit 2 with one message.
#[test]
fn lateness_of_a_scenario_file_and_errors() {
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/flink/scenarios/tumbling_basic.json");
    let (code, stdout, stderr) = tidemark(&["lateness", &golden.display().to_string(), "--bounds", "0"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.starts_with("lateness report for "), "{stdout}");
    assert_eq!(stdout.lines().count(), 5, "{stdout}");
    let dir = std::env::temp_dir().join(format!("tidemark-cli-lateness-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let tvf = dir.join("tvf.json");
    std::fs::write(&tvf, r#"{"tvf": {"kind": "tumble", "size": 1000}, "input": [{"id": 1, "key": "a", "ts": 5}]}"#)
        .expect("write");
    let (code, stdout, stderr) = tidemark(&["lateness", &tvf.display().to_string()]);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.ends_with("no lateness report: the scenario runs a window TVF, not a DataStream window\n"),
        "{stderr}"
    );
    for (args, message) in [
        (vec!["import"], "usage: tidemark import FILE"),
        (vec!["import", "x.csv", "--ts-unit", "hours"], "--ts-unit takes s, ms, us, ns or iso, not 'hours'"),
        (vec!["import", "x.csv", "--offset", "CET"], "--offset takes +HH:MM or -HH:MM, not 'CET'"),
        (vec!["import", "x.csv", "--window", "hopping:5s"], "'hopping:5s' is not a window"),
        (vec!["import", "x.csv", "--frobnicate"], "unknown option '--frobnicate'"),
        (vec!["import", "/nonexistent/x.csv"], "/nonexistent/x.csv: cannot read"),
        (vec!["import", "x.csv", "--bounds", "1s"], "unknown option '--bounds'"),
    ] {
        let (code, stdout, stderr) = tidemark(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty() && stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
}

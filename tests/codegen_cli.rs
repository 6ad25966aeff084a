//! `tidemark code --lang java|pyflink|sql FILE|PRESET`: the program of a scenario file, a
//! preset file or a preset by id on stdout, exactly what `codegen` generates; exit code 2 with a
//! one-line message for a bad call or a malformed scenario.

mod common;

use std::process::Command;

use common::Corpus;
use tidemark::codegen::{Dialect, ValueUnit, generate, generate_with};
use tidemark::teach::presets;

fn tidemark(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tidemark")).args(args).output().expect("tidemark runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

fn repo(path: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path).display().to_string()
}

/// A scenario file's program in each language is exactly the generator's text.
#[test]
fn code_prints_the_program_of_a_scenario_file() {
    let name = "session_late_bridge_two_fired";
    let file = repo(&format!("tests/flink/scenarios/{name}.json"));
    let scenario = Corpus::Parity.scenario(name);
    for dialect in Dialect::ALL {
        let (code, stdout, stderr) = tidemark(&["code", "--lang", dialect.id(), &file]);
        assert_eq!((code, stderr.as_str()), (0, ""), "{}", dialect.id());
        assert_eq!(stdout, generate(&scenario, dialect).text, "{}", dialect.id());
    }
}

/// A preset by id, or its file, gives the preset's program: Lab 6.2's values are US cents, so
/// the PyFlink program shows them in dollars too; the other languages print the cents.
#[test]
fn code_prints_the_program_of_a_preset() {
    let p = presets::by_id("lab-6-2").expect("preset lab-6-2");
    let (code, by_id, _) = tidemark(&["code", "--lang", "pyflink", "lab-6-2"]);
    assert_eq!(code, 0);
    assert_eq!(by_id, generate_with(&p.scenario, Dialect::PyFlink, ValueUnit::UsdCents).text);
    assert!(by_id.contains("dollars(total)") && by_id.contains("OutputTag(\"late-request-records\""), "{by_id}");
    let (code, by_file, _) = tidemark(&["code", "--lang", "pyflink", &repo("assets/presets/lab-6-2.json")]);
    assert_eq!((code, &by_file), (0, &by_id));
    let (code, java, _) = tidemark(&["code", "--lang", "java", "lab-6-2"]);
    assert_eq!((code, java), (0, generate(&p.scenario, Dialect::Java).text));
}

/// The crash/restore preset's programs say, in each language, that they do not reproduce the
/// crash, why, and what they print instead: each result once, no recovery duplicates. Their code
/// is the TenantCost preset's (the same elements) but for the name and that caveat, and
/// `tests/codegen_flink` runs that one on real Flink and PyFlink: $4.10 and $4.31 once each,
/// where Tidemark's run of the recovery preset has both twice.
#[test]
fn the_recovery_presets_programs_say_they_run_without_the_crash() {
    let p = presets::by_id("lab-6-2-recovery").expect("preset lab-6-2-recovery");
    let tenant = presets::by_id("tenant-cost-aggregate").expect("preset tenant-cost-aggregate");
    assert!(p.scenario.has_recovery(), "the preset has checkpoint and crash items");
    for dialect in Dialect::ALL {
        let (code, stdout, _) = tidemark(&["code", "--lang", dialect.id(), "lab-6-2-recovery"]);
        assert_eq!(code, 0, "{}", dialect.id());
        let program = generate_with(&p.scenario, dialect, ValueUnit::UsdCents);
        assert_eq!(stdout, program.text, "{}", dialect.id());
        let caveat = program
            .caveats
            .iter()
            .find(|c| c.contains("checkpoint and crash items"))
            .unwrap_or_else(|| panic!("{}: no caveat about the crash in {:?}", dialect.id(), program.caveats));
        for says in [
            "this program does not reproduce the crash",
            "it prints each result once",
            "the recovery duplicates that Tidemark shows after the restore are not printed",
            "Flink takes checkpoints on a processing-time interval, not after a given element",
        ] {
            assert!(caveat.contains(says), "{}: the caveat does not say {says:?}: {caveat}", dialect.id());
        }
        // The printed header carries it (wrapped over comment lines).
        let marker = |l: &str| ["//", "#", "--"].iter().any(|m| l.trim_start().starts_with(m));
        let words = |text: &str| {
            let words = text.lines().filter(|l| marker(l)).map(|l| l.trim_start_matches(['/', '#', '-', ' ']));
            words.flat_map(str::split_whitespace).collect::<Vec<_>>().join(" ")
        };
        assert!(words(&stdout).contains(&words(caveat)), "{}: the program does not print the caveat", dialect.id());
        // Apart from comments and names, TenantCost's program.
        let code_of = |text: &str, name: &str| -> Vec<String> {
            let names = [name.to_string(), name.replace('-', "_"), tidemark::codegen::java_class_name(name)];
            let code = text.lines().filter(|l| !marker(l));
            code.map(|l| names.iter().fold(l.to_string(), |l, n| l.replace(n, "NAME"))).collect()
        };
        let theirs = generate_with(&tenant.scenario, dialect, ValueUnit::UsdCents).text;
        assert_eq!(code_of(&stdout, &p.id), code_of(&theirs, &tenant.id), "{}", dialect.id());
    }
    // What those programs leave out: Tidemark's run of the preset emits $4.10 and $4.31 twice
    // (the replay's recovery duplicates), the TenantCost preset's run once.
    let minute = |s: &tidemark::engine::Scenario| {
        let r = tidemark::engine::run(s);
        r.oracle_lines().iter().filter(|l| l.contains("\"start\":1767261600000,")).count()
    };
    assert_eq!((minute(&p.scenario), minute(&tenant.scenario)), (4, 2));
}

/// Bad calls and bad input exit 2 with one line on stderr that says what is wrong, and print
/// nothing on stdout.
#[test]
fn code_refuses_bad_calls_and_bad_input() {
    let file = repo("tests/flink/scenarios/tumbling_basic.json");
    let dir = std::env::temp_dir().join(format!("tidemark-codegen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"assigner": {"kind": "tumbling", "size": 60000}, "input": [{"id": 1, "key": "A", "ts": "soon"}]}"#,
    )
    .expect("write");
    let bad_preset = dir.join("bad-preset.json");
    std::fs::write(&bad_preset, r#"{"id": "x", "scenario": {}}"#).expect("write");
    let cases: [(&[&str], &str); 7] = [
        (&["code", &file], "code needs --lang java|pyflink|sql"),
        (&["code", "--lang", "rust", &file], "--lang takes java, pyflink or sql, not \"rust\""),
        (&["code", "--lang"], "--lang needs java, pyflink or sql"),
        (&["code", "--lang", "sql", &file, &file], "code takes one scenario file or preset id"),
        (&["code", "--lang", "sql", "lab-9-9"], "lab-9-9: no such file, and no preset has this id (presets: lab-6-1,"),
        (&["code", "--lang", "sql", bad.to_str().expect("utf-8")], "input[0].ts"),
        (&["code", "--lang", "sql", bad_preset.to_str().expect("utf-8")], "preset x: title: is missing"),
    ];
    for (args, message) in cases {
        let (code, stdout, stderr) = tidemark(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}: {stdout}");
        assert!(stderr.starts_with("tidemark: ") && stderr.contains(message), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

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

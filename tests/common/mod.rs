//! What several test files share: the scenario corpora by name (with their goldens), the
//! presets with their runs, and the course's clock. `mod common;` in a test file brings it in.
// Each test binary uses only a part of this module; the rest would warn as dead code there.
#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;
use tidemark::engine::{Run, Scenario, run};
use tidemark::teach::presets::{self, Preset};

/// Epoch milliseconds of `h:m:s.ms` on 2026-01-01 (UTC), the day of the course's timelines.
pub const fn at(h: i64, m: i64, s: i64, ms: i64) -> i64 {
    1_767_225_600_000 + ((h * 60 + m) * 60 + s) * 1000 + ms
}

/// A scenario from its JSON text (a test's own scenario: it must parse).
pub fn scenario(json: &str) -> Scenario {
    Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"))
}

/// A preset by id and the engine's run of its scenario.
pub fn preset(id: &str) -> (Preset, Run) {
    let p = presets::by_id(id).unwrap_or_else(|| panic!("preset {id} does not load"));
    let r = run(&p.scenario);
    (p, r)
}

/// The scenario corpora under `tests/`, each a `scenarios/` folder of JSON files with the
/// goldens real Flink printed for them in `golden/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Corpus {
    /// `tests/flink`: the window-operator parity scenarios, recorded by `../shared/flink-oracle`.
    Parity,
    /// `tests/flink-ext`: partitions, idleness, window TVFs and keyed process functions,
    /// recorded by `tests/oracle-ext`.
    Ext,
}

impl Corpus {
    pub fn dir(self) -> PathBuf {
        let dir = match self {
            Corpus::Parity => "tests/flink",
            Corpus::Ext => "tests/flink-ext",
        };
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir)
    }

    /// Every scenario's name (its file stem), sorted.
    pub fn names(self) -> Vec<String> {
        let dir = self.dir().join("scenarios");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        names.sort();
        names
    }

    /// A scenario's JSON text.
    pub fn text(self, name: &str) -> String {
        let path = self.dir().join(format!("scenarios/{name}.json"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// A scenario by name. The part-two corpus's source-only scenarios (no assigner, process
    /// function or TVF) run behind GlobalWindows, as in its parity test.
    pub fn scenario(self, name: &str) -> Scenario {
        let text = self.text(name);
        let mut value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        if self == Corpus::Ext
            && value.get("assigner").is_none()
            && value.get("process_function").is_none()
            && value.get("tvf").is_none()
        {
            value["assigner"] = serde_json::json!({"kind": "global"});
        }
        Scenario::from_value(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    /// A scenario's golden: the JSON lines real Flink printed.
    pub fn golden(self, name: &str) -> Vec<Value> {
        let path = self.dir().join(format!("golden/{name}.jsonl"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        text.lines().filter(|l| !l.trim().is_empty()).filter_map(|l| serde_json::from_str(l).ok()).collect()
    }
}

/// Every preset's scenario, then every parity scenario the engine parses, in file order: the
/// set the teaching layer must answer for without a panic.
pub fn presets_and_parity_scenarios() -> Vec<Scenario> {
    let mut scenarios: Vec<Scenario> = presets::all().into_iter().map(|p| p.scenario).collect();
    scenarios
        .extend(Corpus::Parity.names().iter().filter_map(|n| Scenario::from_json_str(&Corpus::Parity.text(n)).ok()));
    scenarios
}

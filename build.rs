//! Generates one parity test per scenario file in `tests/flink/scenarios/` and
//! `tests/flink-ext/scenarios/` (see `tests/flink_parity.rs`, `tests/flink_ext_parity.rs`), so a
//! new scenario is a new test without copy-pasting.
use std::fmt::Write;

fn main() {
    generate("tests/flink/scenarios", "flink_parity_tests.rs");
    generate("tests/flink-ext/scenarios", "flink_ext_parity_tests.rs");
}

fn generate(dir: &str, out_file: &str) {
    let dir = std::path::Path::new(dir);
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().to_str().and_then(|n| n.strip_suffix(".json")).map(String::from))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::new();
    for name in &names {
        let ident: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let _ = writeln!(code, "#[test]\nfn {ident}() {{ check_scenario(\"{name}\"); }}");
    }
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into()));
    if let Err(e) = std::fs::write(out.join(out_file), code) {
        println!("cargo:warning=cannot write the generated parity tests: {e}");
    }
}

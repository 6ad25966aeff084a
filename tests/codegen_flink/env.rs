//! The Flink toolchain of these tests: Java 17 and the virtualenv with `apache-flink==2.3.0`
//! (its jars and its Python package), and small process helpers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

pub struct Flink {
    pub python: PathBuf,
    pub lib: PathBuf,
}

pub fn require() -> bool {
    std::env::var("TIDEMARK_REQUIRE_FLINK").is_ok_and(|v| !v.is_empty() && v != "0")
}

pub fn full() -> bool {
    std::env::var("TIDEMARK_FLINK_FULL").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Writes past libtest's output capture, so that a skip is seen in a normal `cargo test` run.
pub fn say(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(err, "{line}");
}

pub fn venv() -> PathBuf {
    match std::env::var_os("ORACLE_VENV") {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache/flink-oracle-venv"),
    }
}

pub fn runs(cmd: &str, arg: &str) -> bool {
    Command::new(cmd).arg(arg).output().is_ok_and(|o| o.status.success())
}

/// The Flink toolchain, or `None` after a SKIP line (a panic under `TIDEMARK_REQUIRE_FLINK`).
pub fn flink(test: &str, needs_java: bool) -> Option<Flink> {
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

pub fn jars(lib: &Path) -> Vec<PathBuf> {
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

pub fn classpath(flink: &Flink, extra: &[&Path]) -> String {
    let mut parts: Vec<String> = extra.iter().map(|p| p.display().to_string()).collect();
    parts.extend(jars(&flink.lib).iter().map(|p| p.display().to_string()));
    parts.join(":")
}

/// A fresh directory for one test's files.
pub fn work_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tidemark-codegen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

pub fn write(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

pub fn output(cmd: &mut Command) -> (bool, String) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

/// A command for the venv's Python with the venv first on PATH: PyFlink starts its JVM with the
/// `java` on PATH and its Python workers with the `python` on PATH.
pub fn python(flink: &Flink) -> Command {
    let mut cmd = Command::new(&flink.python);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![flink.python.parent().map(Path::to_path_buf).unwrap_or_default()];
    paths.extend(std::env::split_paths(&path));
    cmd.env("PATH", std::env::join_paths(paths).unwrap_or(path));
    cmd
}

/// A preset's program as the command line prints it: `tidemark code --lang <lang> <id>`.
pub fn printed_program(lang: &str, id: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["code", "--lang", lang, id])
        .output()
        .unwrap_or_else(|e| panic!("tidemark code: {e}"));
    assert!(out.status.success(), "tidemark code --lang {lang} {id}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

//! The import rules of `docs/architecture.md`, checked over the paths the source files name (every
//! `use` tree, and `crate::…`, `super::…`, `self::…` or a child module's name in code):
//!
//! - no import circle between files anywhere under `src/`;
//! - `engine` imports nothing of the rest; `teach`, `sinks` and `codegen` only the engine;
//! - in `ui`: components → hooks → state → scene, runner, storage → action → the rest, never back.
//!
//! A small tokenizer instead of `cargo-modules` (which builds rust-analyzer: too slow for CI on two
//! cores). `a_circle_is_found` runs the same checker on a synthetic tree with a circle in it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A source file and the module path it is (`["ui", "state", "keys"]`); a binary is its own crate.
#[derive(Clone, Debug)]
struct SourceFile {
    path: PathBuf,
    module: Vec<String>,
    /// A binary's file: its `crate::` is itself, the library is `tidemark::`.
    bin: bool,
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The files of a crate under `src` (`lib.rs` the library; `main.rs`, other top-level files that
/// `lib.rs` does not declare, and `bin/*.rs` binaries).
fn source_files(src: &Path) -> Vec<SourceFile> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let lib_mods = declared_modules(&strip(&lib));
    paths
        .into_iter()
        .map(|path| {
            let rel: Vec<String> = path
                .strip_prefix(src)
                .unwrap_or(&path)
                .iter()
                .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
                .collect();
            let top_level_bin = rel.len() == 1 && rel[0] != "lib" && !lib_mods.contains(&rel[0]);
            let bin = top_level_bin || rel.first().is_some_and(|c| c == "bin");
            let mut module = if bin { vec![format!("bin:{}", rel.join("/"))] } else { rel };
            if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                module.pop();
            }
            SourceFile { path, module, bin }
        })
        .collect()
}

/// The text without comments, string and character literals (so that no path is found in them).
fn strip(text: &str) -> String {
    let b: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && (next == Some('#') || next == Some('"'))
            && !b.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_')
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            while j < b.len() && !(b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#'))) {
                j += 1;
            }
            i = j + 1 + hashes;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' {
            // A character literal ('x', '\n', '\''), or a lifetime ('a).
            let lit = if next == Some('\\') {
                b.iter().skip(i + 2).position(|ch| *ch == '\'').map(|p| i + 2 + p)
            } else if b.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match lit {
                Some(end) => {
                    out.push_str("' '");
                    i = end + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push(b[start..i].iter().collect());
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push("::".into());
            i += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            i += 1;
        }
    }
    out
}

/// The child modules a file declares (`mod x;`, `pub mod x;`, `mod x { … }`).
fn declared_modules(stripped: &str) -> BTreeSet<String> {
    let t = tokens(stripped);
    t.windows(2)
        .filter(|w| w[0] == "mod" && w[1].chars().all(|c| c.is_alphanumeric() || c == '_'))
        .map(|w| w[1].clone())
        .collect()
}

/// Expands the use tree at `t[i..]` (after `use`) into paths; returns them and the index after `;`.
fn use_tree(t: &[String], mut i: usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut path = prefix;
    loop {
        match t.get(i).map(String::as_str) {
            Some("{") => {
                i += 1;
                loop {
                    i = use_tree(t, i, path.clone(), out);
                    match t.get(i).map(String::as_str) {
                        Some(",") => {
                            i += 1;
                            if t.get(i).map(String::as_str) == Some("}") {
                                return i + 1;
                            }
                        }
                        Some("}") => return i + 1,
                        _ => return i,
                    }
                }
            }
            Some("*") => {
                out.push(path);
                return i + 1;
            }
            Some("::") => i += 1,
            Some(tok) if tok.chars().all(|c| c.is_alphanumeric() || c == '_') && tok != "as" => {
                path.push(tok.to_string());
                i += 1;
            }
            Some("as") => {
                out.push(path);
                return i + 2;
            }
            _ => {
                out.push(path);
                return i;
            }
        }
    }
}

/// A path a file names, as written (relative or absolute).
#[derive(Clone, Debug, PartialEq)]
struct Named {
    /// The inline modules (`mod tests { … }`) it is written in, within the file.
    inline: Vec<String>,
    path: Vec<String>,
    /// In a `pub use`: a re-export, which is where an item is found, not what the file uses.
    reexport: bool,
}

/// Every path a file names.
fn named_paths(text: &str) -> Vec<Named> {
    let stripped = strip(text);
    let t = tokens(&stripped);
    let mut out = Vec::new();
    // The inline modules open at this point, with the brace depth each was opened at.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < t.len() {
        match t[i].as_str() {
            "{" => {
                if i >= 2 && t[i - 2] == "mod" {
                    inline.push((t[i - 1].clone(), depth));
                }
                depth += 1;
            }
            "}" => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            _ => {}
        }
        let here: Vec<String> = inline.iter().map(|(m, _)| m.clone()).collect();
        if t[i] == "use" && (i == 0 || t[i - 1] != "::") {
            // `pub use`, `pub(crate) use`, `pub(super) use`.
            let reexport = t[..i].iter().rev().take(4).any(|w| w == "pub")
                && t.get(i.wrapping_sub(1)).is_some_and(|w| w == "pub" || w == ")");
            let mut paths = Vec::new();
            let end = use_tree(&t, i + 1, Vec::new(), &mut paths);
            out.extend(paths.into_iter().filter(|p| !p.is_empty()).map(|path| Named {
                inline: here.clone(),
                path,
                reexport,
            }));
            i = end.max(i + 1);
            continue;
        }
        let starts_path = (i == 0 || t[i - 1] != "::") && t.get(i + 1).is_some_and(|n| n == "::");
        // In code, a path from the crate or a parent (`crate::…`, `super::…`); a parent calling its
        // own child module (`java::program(…)`) is how a module is made of files, not an import.
        if starts_path && matches!(t[i].as_str(), "crate" | "super" | "self" | "tidemark") {
            let mut p = vec![t[i].clone()];
            let mut j = i + 1;
            while t.get(j).is_some_and(|s| s == "::")
                && t.get(j + 1).is_some_and(|s| s.chars().all(|c| c.is_alphanumeric() || c == '_'))
            {
                p.push(t[j + 1].clone());
                j += 2;
            }
            out.push(Named { inline: here, path: p, reexport: false });
            i = j;
            continue;
        }
        i += 1;
    }
    out
}

/// The file edges of a crate under `src`: file → the files of the modules it names.
fn import_graph(src: &Path) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let files = source_files(src);
    let by_module: BTreeMap<Vec<String>, PathBuf> =
        files.iter().filter(|f| !f.bin).map(|f| (f.module.clone(), f.path.clone())).collect();
    let mut graph = BTreeMap::new();
    for f in &files {
        let text = fs::read_to_string(&f.path).unwrap_or_default();
        let children = declared_modules(&strip(&text));
        let mut targets = BTreeSet::new();
        for Named { inline, path: p, reexport } in named_paths(&text) {
            // The module the path is written in (the file's, or an inline one in it).
            let mut here = f.module.clone();
            here.extend(inline.iter().cloned());
            // The module the path is relative to, then the path made absolute.
            let mut base: Vec<String> = match p[0].as_str() {
                "crate" if f.bin => continue,
                "crate" | "tidemark" => Vec::new(),
                "self" | "super" => here.clone(),
                head if children.contains(head) && !f.bin && inline.is_empty() => here.clone(),
                // Another crate (std, yew, …) or an item in scope.
                _ => continue,
            };
            let mut rest = p.iter().peekable();
            if matches!(p[0].as_str(), "crate" | "tidemark" | "self") {
                rest.next();
            }
            while rest.peek().is_some_and(|s| *s == "super") {
                rest.next();
                base.pop();
            }
            base.extend(rest.cloned());
            // An inline module is part of its file.
            if base.starts_with(&here) && !inline.is_empty() {
                continue;
            }
            // The deepest module named: the file that holds the item.
            while !base.is_empty() && !by_module.contains_key(&base) {
                base.pop();
            }
            // A parent re-exporting its children's items (`pub use run::Run` in `engine/mod.rs`)
            // says where they are found; it does not use them.
            if reexport && base.len() > f.module.len() && base.starts_with(&f.module) {
                continue;
            }
            if let Some(target) = by_module.get(&base)
                && *target != f.path
            {
                targets.insert(target.clone());
            }
        }
        graph.insert(f.path.clone(), targets);
    }
    graph
}

/// The import circles: strongly connected sets of more than one file (Tarjan).
fn circles(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct Tarjan<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a PathBuf) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let lw = self.low[w];
                    let lv = self.low.get_mut(v).unwrap_or_else(|| panic!("visited"));
                    *lv = (*lv).min(lw);
                } else if self.on_stack.contains(w) {
                    let iw = self.index[w];
                    let lv = self.low.get_mut(v).unwrap_or_else(|| panic!("visited"));
                    *lv = (*lv).min(iw);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    set.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    set.sort();
                    self.out.push(set);
                }
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

/// The layer of a file under `src/`, for the one-way rules (higher imports lower, never back).
fn layer(rel: &str) -> Option<(u8, &'static str)> {
    let rules: [(&str, u8, &str); 18] = [
        ("ui/components/", 9, "components"),
        ("ui/hooks/", 8, "hooks"),
        ("ui/state/", 7, "state"),
        ("ui/scene/", 6, "scene"),
        ("ui/runner.rs", 6, "runner"),
        ("ui/worker_runner.rs", 6, "runner"),
        ("ui/import_worker.rs", 6, "runner"),
        ("ui/storage.rs", 6, "storage"),
        ("ui/charts/", 6, "charts"),
        ("ui/export.rs", 6, "export"),
        ("ui/extras.rs", 6, "extras"),
        ("ui/action.rs", 5, "action"),
        ("ui/geometry.rs", 4, "geometry"),
        ("ui/fragment.rs", 4, "fragment"),
        ("ui/history.rs", 4, "history"),
        ("teach/", 2, "teach"),
        ("sinks/", 2, "sinks"),
        ("engine/", 0, "engine"),
    ];
    if rel.starts_with("codegen/") {
        return Some((2, "codegen"));
    }
    if rel.starts_with("import/") {
        return Some((2, "import"));
    }
    rules.iter().find(|(p, _, _)| rel.starts_with(p)).map(|(_, l, n)| (*l, *n))
}

/// Edges that go up a layer (or sideways between the engine's users).
fn layer_violations(src: &Path, graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<String> {
    let rel = |p: &Path| p.strip_prefix(src).unwrap_or(p).to_string_lossy().replace('\\', "/");
    let mut out = Vec::new();
    for (from, targets) in graph {
        let Some((lf, nf)) = layer(&rel(from)) else { continue };
        for to in targets {
            let Some((lt, nt)) = layer(&rel(to)) else { continue };
            let sideways = lf == lt && nf != nt && lf <= 2;
            if lt > lf || sideways {
                out.push(format!("{} ({nf}) imports {} ({nt})", rel(from), rel(to)));
            }
        }
    }
    out
}

fn show(sets: &[Vec<PathBuf>], src: &Path) -> String {
    sets.iter()
        .map(|s| {
            s.iter().map(|p| p.strip_prefix(src).unwrap_or(p).display().to_string()).collect::<Vec<_>>().join(" ↔ ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// No file under `src/` is in an import circle, and the layers hold.
#[test]
fn no_import_circle_and_the_layers_hold() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = import_graph(&src);
    assert!(graph.len() > 60, "the checker saw only {} files", graph.len());
    let edges: usize = graph.values().map(BTreeSet::len).sum();
    assert!(edges > 150, "the checker saw only {edges} imports");
    // It sees the imports that matter: the state's handle from a component, the key map from the state.
    let seen = |from: &str, to: &str| graph.iter().any(|(f, t)| f.ends_with(from) && t.iter().any(|p| p.ends_with(to)));
    assert!(seen("components/header.rs", "hooks/mod.rs"), "components/header.rs → hooks/mod.rs not seen");
    assert!(seen("state/open.rs", "state/keys.rs"), "state/open.rs → state/keys.rs not seen");
    let found = circles(&graph);
    assert!(found.is_empty(), "import circles between files:\n{}", show(&found, &src));
    let up = layer_violations(&src, &graph);
    assert!(up.is_empty(), "imports against the layers of docs/architecture.md:\n{}", up.join("\n"));
}

/// The circles of another tree: `TIDEMARK_IMPORT_GRAPH_SRC=/path/to/src cargo test --test
/// import_graph -- --ignored --nocapture` (how the circles of the code before this check were found).
#[test]
#[ignore]
fn print_circles_of_another_tree() {
    let Ok(src) = std::env::var("TIDEMARK_IMPORT_GRAPH_SRC") else { return };
    let src = PathBuf::from(src);
    let graph = import_graph(&src);
    println!("{} files; circles:\n{}", graph.len(), show(&circles(&graph), &src));
    if let Ok(only) = std::env::var("TIDEMARK_IMPORT_GRAPH_EDGES") {
        for (f, t) in graph.iter().filter(|(f, _)| f.to_string_lossy().contains(&only)) {
            let t: Vec<String> = t.iter().map(|p| p.strip_prefix(&src).unwrap_or(p).display().to_string()).collect();
            println!("{} → {}", f.strip_prefix(&src).unwrap_or(f).display(), t.join(", "));
        }
    }
}

fn tree(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tidemark-import-graph-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        fs::create_dir_all(p.parent().unwrap_or(&dir)).unwrap_or_else(|e| panic!("{e}"));
        fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
    }
    dir
}

/// The checker finds a circle added to a small tree, through a use tree, `super` and a path in
/// code; and it finds none once the circle is gone. Comments and strings name nothing.
#[test]
fn a_circle_is_found() {
    let lib = "pub mod ui;\npub mod engine;\n";
    let base = [
        ("lib.rs", lib),
        ("engine/mod.rs", "pub struct Run;\n"),
        ("ui/mod.rs", "pub mod state;\npub mod components;\n"),
        (
            "ui/state/mod.rs",
            "use crate::engine::Run;\n// use crate::ui::components::App;\nconst S: &str = \"crate::ui::components::x\";\npub mod keys;\n",
        ),
        ("ui/state/keys.rs", "use super::{AppState as S, super::state};\n"),
        ("ui/components/mod.rs", "pub fn app() { crate::ui::state::keys::go(); }\n"),
    ];
    let clean = tree("clean", &base);
    let g = import_graph(&clean);
    assert_eq!(circles(&g), Vec::<Vec<PathBuf>>::new());
    let keys = &g[&clean.join("ui/state/keys.rs")];
    assert!(keys.contains(&clean.join("ui/state/mod.rs")), "{keys:?}");
    assert!(g[&clean.join("ui/components/mod.rs")].contains(&clean.join("ui/state/keys.rs")));
    assert!(
        !g[&clean.join("ui/state/mod.rs")].contains(&clean.join("ui/components/mod.rs")),
        "comments and strings name nothing"
    );
    // The circle: the state imports a component.
    let mut with = base.to_vec();
    with[3] = ("ui/state/mod.rs", "use crate::ui::components::{app, self};\npub mod keys;\n");
    let dir = tree("circle", &with);
    let found = circles(&import_graph(&dir));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains(&dir.join("ui/state/mod.rs")) && found[0].contains(&dir.join("ui/components/mod.rs")));
    assert!(found[0].contains(&dir.join("ui/state/keys.rs")), "the circle runs through keys.rs");
    // And the layer rule names it too.
    let up = layer_violations(&dir, &import_graph(&dir));
    assert!(up.iter().any(|v| v.starts_with("ui/state/mod.rs (state) imports ui/components/mod.rs")), "{up:?}");
    let _ = fs::remove_dir_all(&clean);
    let _ = fs::remove_dir_all(&dir);
}

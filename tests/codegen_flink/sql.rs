//! The SQL programs: Flink's SQL planner accepts them, or rejects them where a caveat says so.

use std::collections::BTreeMap;

use tidemark::codegen;
use tidemark::engine::Scenario;

use crate::env::{flink, full, output, python, work_dir, write};
use crate::{compile_set, load, load_ext, variants};

/// Runs each SQL file's statements in a TableEnvironment (switching to a batch environment for
/// `SET 'execution.runtime-mode' = 'batch'`, as the SQL client does) and asks the planner to
/// explain the INSERT and the SELECT. Prints `=== file`, then `PLANNED` or `!!! error`.
const SQL_PLAN: &str = r#"
import sys
from pyflink.table import EnvironmentSettings, TableEnvironment

def statements(text):
    out, cur, i, n, in_str = [], [], 0, len(text), False
    while i < n:
        c = text[i]
        if in_str:
            cur.append(c)
            if c == "'":
                if i + 1 < n and text[i + 1] == "'":
                    cur.append("'"); i += 1
                else:
                    in_str = False
        elif c == "'":
            in_str = True; cur.append(c)
        elif text.startswith("--", i):
            while i < n and text[i] != "\n":
                i += 1
            continue
        elif c == ";":
            s = "".join(cur).strip()
            if s: out.append(s)
            cur = []
        else:
            cur.append(c)
        i += 1
    s = "".join(cur).strip()
    if s: out.append(s)
    return out

envs = {}
def env_for(mode):
    if mode not in envs:
        settings = EnvironmentSettings.in_batch_mode() if mode == "batch" else EnvironmentSettings.in_streaming_mode()
        envs[mode] = TableEnvironment.create(settings)
    return envs[mode]

for path in sys.argv[1:]:
    print("===", path, flush=True)
    mode, ddl, conf, applied = "streaming", [], [], {}
    t_env = env_for(mode)
    try:
        for s in statements(open(path, encoding="utf-8").read()):
            up = s.upper()
            if up.startswith("SET "):
                k, v = (x.strip().strip("'") for x in s[4:].split("=", 1))
                if k == "execution.runtime-mode":
                    mode, t_env = v, env_for(v)
                    for c in conf: t_env.get_config().set(*c)
                    for d in ddl[applied.get(mode, 0):]: t_env.execute_sql(d).wait()
                    applied[mode] = len(ddl)
                else:
                    conf.append((k, v)); t_env.get_config().set(k, v)
            elif up.startswith("CREATE"):
                ddl.append(s); t_env.execute_sql(s).wait()
                applied[mode] = len(ddl)
            else:
                t_env.explain_sql(s)
        print("PLANNED", flush=True)
    except Exception as e:
        print("!!!", " | ".join(l for l in str(e).splitlines() if "Exception" in l)[:500], flush=True)
    for e in envs.values():
        for name in list(e.list_tables()):
            e.execute_sql("DROP TABLE IF EXISTS `%s`" % name)
"#;

/// Flink's SQL planner accepts the generated SQL (DDL, INSERT, window TVF query), except where
/// a caveat of the program says that Flink rejects it.
#[test]
fn sql_programs_are_planned_by_flink() {
    let Some(flink) = flink("sql_programs_are_planned_by_flink", true) else { return };
    let set: Vec<Scenario> = if full() {
        compile_set()
    } else {
        [
            "course_lab_6_tenant_cost",
            "course_model_latency_sliding",
            "session_late_bridge_two_fired",
            "sliding_size_not_multiple_of_slide",
            "global_end_of_stream_trigger",
            "tumbling_offset_positive",
            "tumbling_basic",
        ]
        .iter()
        .map(|n| load(n))
        .chain(
            [
                "tvf_cumulate_basic",
                "era_alert_and_ok",
                "ra_ttl_expires_during_watermark_stall",
                "src_idleness_releases_watermark",
            ]
            .iter()
            .map(|n| load_ext(n)),
        )
        .chain(variants().into_iter().filter(|s| s.name == "dynamic gaps" || s.name.ends_with("_avg")))
        .collect()
    };
    let dir = work_dir("sql");
    let mut files = BTreeMap::new();
    for (i, s) in set.iter().enumerate() {
        let p = codegen::sql::program(s);
        let path = dir.join(format!("case{i}_{}", p.file_name));
        write(&path, &p.text);
        files.insert(path.display().to_string(), p);
    }
    let script = dir.join("plan.py");
    write(&script, SQL_PLAN);
    let mut cmd = python(&flink);
    cmd.arg(&script).args(files.keys());
    let (_, text) = output(&mut cmd);
    let mut current = String::new();
    let mut seen = 0;
    for line in text.lines() {
        if let Some(f) = line.strip_prefix("=== ") {
            current = f.to_string();
        } else if line == "PLANNED" {
            seen += 1;
        } else if let Some(err) = line.strip_prefix("!!! ") {
            seen += 1;
            let p = files.get(&current).unwrap_or_else(|| panic!("unknown file {current}\n{text}"));
            let expected = p.caveats.iter().any(|c| c.contains("rejected by Flink") || c.contains("planner rejects"));
            assert!(expected, "Flink's planner rejects {current}: {err}\n\n{}", p.text);
        }
    }
    assert_eq!(seen, files.len(), "not every file was planned:\n{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#!/usr/bin/env python3
"""Generates the import test data in tests/data/ (seeded: the same files every run).

One stream of sensor readings, written five ways, and a file with bad rows:

- sensors.csv        CSV with a UTF-8 BOM, ISO-8601 event times with zones (Z, +02:00, -05:00,
                     +05:30), quoted fields (keys with commas and quotes, a note spanning two
                     lines), arrival (ingest) time in epoch ms, rows in arrival order
- sensors.tsv        the same rows as TSV, event time in epoch ms
- sensors.jsonl      the same rows as JSON Lines, event time in epoch seconds with a fraction,
                     partition and arrival nested under "meta"
- sensors_local.csv  the same rows, ';'-delimited, naive local times at +01:00 (event and arrival)
- sensors_seconds.csv  the first 200 rows, event time in whole epoch seconds, no arrival column
- bad_rows.csv       a short file with bad rows at known lines

The stream: three source partitions, 0 and 1 busy (about one reading a second each), 2 quiet (one
every ~15 s, silent from 200 s to 330 s); a burst of 150 readings in 1.5 s on partition 1 at 300 s;
arrival delays log-normal around 250 ms with a heavy (Pareto) tail of up to 4 minutes.

sensors.manifest.json holds what the generator knows, computed here independently of Tidemark:
row, key and partition counts, the bad rows, and the late counts of a simple model of Flink's
bounded out-of-orderness watermarks (per-partition maximum, minimum over partitions).

Usage: python3 tests/data/generate.py          (rewrites the files)
       python3 tests/data/generate.py --check  (exit 1 if a committed file differs)
"""
import csv
import io
import json
import math
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

SEED = 15
HERE = Path(__file__).resolve().parent
BASE_MS = 1_710_057_600_000  # 2024-03-10T08:00:00Z
DURATION_S = 480
KEYS = {
    0: ["sensor-01", "sensor-02", "sensor-03", "Hall B, east"],
    1: ["sensor-05", "sensor-06", "sensor-07", 'door "front"'],
    2: ["Café-3", "roof"],
}
ZONE_OF_PARTITION = {0: 0, 1: 120, 2: -300}
ZONE_OF_KEY = {"Hall B, east": 330}
NOTES = ["", "", "", "", "ok", "battery low, replace", 'said "hi"']
BOUNDS = [0, 100, 250, 500, 1000, 2000, 5000, 10000, 30000, 60000, 120000, 300000]


def stream(rng):
    rows = []
    for p in (0, 1):
        t = 0.0
        while True:
            t += rng.expovariate(1.0)
            if t >= DURATION_S:
                break
            rows.append((p, rng.choice(KEYS[p]), int(t * 1000)))
    t = 0.0
    while True:
        t += rng.expovariate(1 / 15)
        if t >= DURATION_S:
            break
        if not 200 <= t < 330:
            rows.append((2, rng.choice(KEYS[2]), int(t * 1000)))
    for i in range(150):
        rows.append((1, "sensor-06", 300_000 + i * 10))
    out = []
    for (p, key, rel) in rows:
        delay = int(rng.lognormvariate(math.log(250), 0.8))
        if rng.random() < 0.04:
            delay += min(240_000, int(2000 * rng.paretovariate(1.3)))
        note = rng.choice(NOTES)
        out.append({"partition": p, "key": key, "ts": BASE_MS + rel, "arrival": BASE_MS + rel + delay,
                    "reading": rng.randrange(0, 500), "note": note})
    # One note spans two lines (a quoted field with a line break).
    out[len(out) // 3]["note"] = "checked twice\nsecond line"
    # File order is arrival order; ties keep generation order (Python's sort is stable).
    out.sort(key=lambda r: r["arrival"])
    return out


def iso(ms, minutes):
    dt = datetime.fromtimestamp(ms / 1000, tz=timezone.utc).replace(microsecond=(ms % 1000) * 1000)
    local = dt.astimezone(timezone(timedelta(minutes=minutes)))
    text = local.strftime("%Y-%m-%dT%H:%M:%S")
    if ms % 1000:
        text += ".%03d" % (ms % 1000)
    if minutes == 0:
        return text + "Z"
    sign = "+" if minutes > 0 else "-"
    return text + "%s%02d:%02d" % (sign, abs(minutes) // 60, abs(minutes) % 60)


def naive_local(ms, minutes=60):
    return iso(ms, minutes)[:23 if ms % 1000 else 19].replace("T", " ")


def write_csv(rows, header, delimiter=","):
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def late_counts(rows, partitions):
    """Elements with ts <= watermark on arrival, for each bound: watermark = min over partitions
    of (largest timestamp read so far) - bound - 1, Long.MIN until every partition has one."""
    lags = []
    seen = {}
    for r in rows:
        p = r["partition"] if partitions > 1 else 0
        if len(seen) == partitions:
            lags.append(min(seen.values()) - r["ts"])
        seen[p] = max(seen.get(p, r["ts"]), r["ts"])
    return {str(b): sum(1 for lag in lags if lag > b) for b in BOUNDS}


def suggestion(rows, partitions):
    """The 99th percentile (nearest rank) of the per-partition disorder, rounded up to two digits."""
    seen = {}
    disorder = []
    for r in rows:
        p = r["partition"] if partitions > 1 else 0
        disorder.append(max(0, seen[p] - r["ts"]) if p in seen else 0)
        seen[p] = max(seen.get(p, r["ts"]), r["ts"])
    disorder.sort()
    n = len(disorder)
    q = disorder[math.ceil(n * 99 / 100) - 1]
    if q >= 100:
        step = 10 ** (len(str(q)) - 2)
        q_round = -(-q // step) * step
    else:
        q_round = q
    return {"quantile_disorder": q, "bound": q_round, "max_disorder": disorder[-1],
            "out_of_order": sum(1 for d in disorder if d > 0)}


BAD_ROWS = """event_time,sensor,reading,partition
2024-03-10T08:00:00Z,sensor-01,5,0
2024-03-10T08:00:01Z,sensor-02,6,1
2024-03-10T08:00:0x,sensor-01,7,0
2024-03-10T08:00:03Z,sensor-03,8,0
2024-03-10T08:00:04Z,sensor-01,9,1
2024-03-10T08:00:05Z,,10,0
2024-03-10T08:00:06Z,sensor-02,11,1
2024-03-10T08:00:07Z,sensor-01,12.5,0
2024-03-10T08:00:08Z,sensor-03,13,0
2024-03-10T08:00:09Z,sensor-01,14,1
2024-03-10T08:00:10Z,sensor-02
2024-03-10T08:00:11Z,sensor-03,16,0
2024-03-10T08:00:12Z,"multi
line",17,0
2024-03-10T08:00:13Z,sensor-01,18,1
2024-03-10T08:00:14Z,sensor-02,19,99
2024-03-10T08:00:15Z,sensor-03,20,0
2024-03-10T08:00:16Z,sensor-01,21,1

2024-03-10T08:00:17Z,sensor-02,22,0
1710057618,sensor-03,23,0
2024-03-10T08:00:19Z,sensor-01,24,1
"""
BAD_LINES = [
    {"line": 4, "reason": "the event time '2024-03-10T08:00:0x' is not an ISO-8601 date-time"},
    {"line": 7, "reason": "the key is empty"},
    {"line": 9, "reason": "the value '12.5' is not a whole number"},
    {"line": 12, "reason": "has 2 field(s), so no value column"},
    {"line": 17, "reason": "the partition '99' is not a number from 0 to 63"},
    {"line": 22, "reason": "the event time '1710057618' is not an ISO-8601 date-time"},
]


def files():
    rng = random.Random(SEED)
    rows = stream(rng)
    out = {}
    out["sensors.csv"] = "\ufeff" + write_csv(
        [[iso(r["ts"], ZONE_OF_KEY.get(r["key"], ZONE_OF_PARTITION[r["partition"]])), r["key"], r["reading"],
          r["partition"], r["arrival"], r["note"]] for r in rows],
        ["event_time", "sensor", "reading", "partition", "ingest_ms", "note"])
    out["sensors.tsv"] = write_csv(
        [[r["key"], r["ts"], r["reading"], r["partition"], r["arrival"]] for r in rows],
        ["sensor", "ts_ms", "reading", "partition", "ingest_ms"], delimiter="\t")
    out["sensors.jsonl"] = "".join(
        json.dumps({"sensor": r["key"], "ts": r["ts"] / 1000, "reading": r["reading"],
                    "meta": {"partition": r["partition"], "ingest_ms": r["arrival"]}}, ensure_ascii=False) + "\n"
        for r in rows)
    out["sensors_local.csv"] = write_csv(
        [[naive_local(r["ts"]), r["key"], r["reading"], r["partition"], naive_local(r["arrival"])] for r in rows],
        ["time", "device", "value", "partition", "received"], delimiter=";")
    out["sensors_seconds.csv"] = write_csv(
        [[r["key"], r["ts"] // 1000, r["reading"]] for r in rows[:200]], ["sensor", "ts", "reading"])
    out["bad_rows.csv"] = BAD_ROWS
    per_partition = {str(p): sum(1 for r in rows if r["partition"] == p) for p in (0, 1, 2)}
    manifest = {
        "seed": SEED,
        "rows": len(rows),
        "keys": len({r["key"] for r in rows}),
        "per_partition": per_partition,
        "burst": 150,
        "multi_line_note_row": next(i for i, r in enumerate(rows) if "\n" in r["note"]),
        "first_ts": min(r["ts"] for r in rows),
        "last_ts": max(r["ts"] for r in rows),
        "bounds": BOUNDS,
        "late_with_partitions": late_counts(rows, 3),
        "late_one_partition": late_counts(rows, 1),
        "suggestion_with_partitions": suggestion(rows, 3),
        "suggestion_one_partition": suggestion(rows, 1),
        "bad_rows": {"rows": 20, "good": 14, "bad": BAD_LINES},
    }
    out["sensors.manifest.json"] = json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"
    return out


def main():
    check = "--check" in sys.argv[1:]
    stale = []
    for name, text in files().items():
        path = HERE / name
        data = text.encode("utf-8")
        if check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
        else:
            path.write_bytes(data)
    if stale:
        print("stale: " + ", ".join(stale) + " (run python3 tests/data/generate.py)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()

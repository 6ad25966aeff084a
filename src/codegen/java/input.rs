//! The job's input as Java: the watermark generator that emits the watermarks Tidemark shows
//! (scripted `Event.watermark(ts)` items, and the strategy's watermark after every element), and
//! large inputs as compact strings parsed at start-up.

use super::syntax::{percent_encode, string_lit};
use crate::codegen::Text;
use crate::engine::scenario::{InputItem, Scenario, WatermarkSpec};

/// Above this many input items the data moves from a `fromData(...)` argument list (one
/// constant per number, and Java limits a class to 65535 constants and a method to 64 KB of
/// bytecode) into compact strings parsed at start-up.
pub(super) const INLINE_ITEMS_MAX: usize = 400;
/// Characters per string constant of the compact input (a Java string constant holds at most
/// 65535 bytes of modified UTF-8; the encoding below is ASCII).
const CHUNK_CHARS: usize = 30_000;

/// The generator behind the strategy: scripted items, and/or Flink's own generator with its
/// watermark emitted after every element instead of periodically (unless the scenario emits
/// periodically itself).
pub(super) fn generator(t: &mut Text, s: &Scenario, markers: bool) {
    let generated = s.watermarks != WatermarkSpec::Explicit;
    let per_event = generated && !s.source.periodic;
    t.line("    /**");
    if markers && per_event {
        t.line("     * Emits the watermarks Tidemark shows: Watermark(ts) when the input reaches an");
        t.line("     * Event.watermark(ts) item (scripted), and the wrapped strategy's watermark right after");
        t.line("     * every element.");
    } else if markers && generated {
        t.line("     * Emits Watermark(ts) when the input reaches an Event.watermark(ts) item (scripted), and");
        t.line("     * the wrapped strategy's watermark periodically, as Flink does.");
    } else if markers {
        t.line("     * Emits the scenario's scripted watermarks: Watermark(ts) when the input reaches an");
        t.line("     * Event.watermark(ts) item, and nothing periodically.");
    } else {
        t.line("     * Emits the wrapped strategy's watermark right after every element, as Tidemark shows it.");
    }
    if per_event {
        t.line("     * Flink itself emits it periodically (every 200 ms, pipeline.auto-watermark-interval), and");
        t.line("     * this small bounded input is read faster than that: every window would fire only at the");
        t.line("     * end of input. In production, use the strategy directly.");
    }
    t.line("     */");
    t.line("    public static class TidemarkWatermarks implements WatermarkGenerator<Event> {");
    if generated {
        t.line("        private final WatermarkGenerator<Event> strategy;");
        t.blank();
        t.line("        public TidemarkWatermarks(WatermarkGenerator<Event> strategy) {");
        t.line("            this.strategy = strategy;");
        t.line("        }");
        t.blank();
    }
    t.line("        @Override");
    t.line("        public void onEvent(Event event, long eventTimestamp, WatermarkOutput output) {");
    let emit_after_event = |t: &mut Text, indent: &str| {
        t.line(format!("{indent}strategy.onEvent(event, eventTimestamp, output);"));
        if per_event {
            t.line(format!("{indent}strategy.onPeriodicEmit(output);"));
        }
    };
    match (markers, generated) {
        (true, true) => {
            t.line("            if (event.isWatermark) {");
            t.line("                output.emitWatermark(new Watermark(event.ts));");
            t.line("            } else {");
            emit_after_event(t, "                ");
            t.line("            }");
        }
        (true, false) => {
            t.line("            if (event.isWatermark) {");
            t.line("                output.emitWatermark(new Watermark(event.ts));");
            t.line("            }");
        }
        (false, _) => emit_after_event(t, "            "),
    }
    t.line("        }");
    t.blank();
    t.line("        @Override");
    t.line("        public void onPeriodicEmit(WatermarkOutput output) {");
    if generated && !per_event {
        t.line("            strategy.onPeriodicEmit(output);");
    } else {
        t.line("            // nothing periodic: every watermark was emitted in onEvent");
    }
    t.line("        }");
    t.line("    }");
}

/// Large inputs: ASCII lines `E,id,ts,value,key%XX` / `W,ts` in string chunks.
pub(super) fn compact_input(t: &mut Text, s: &Scenario, markers: bool, events: bool) {
    let mut chunks: Vec<String> = vec![String::new()];
    for item in &s.input {
        let line = match item {
            InputItem::Element(e) => format!(
                "E,{},{},{},{},{}\n",
                e.id,
                e.ts,
                e.value,
                // `~` never comes out of percent_encode: it stands for "no event type".
                e.event.as_deref().map_or_else(|| "~".to_string(), percent_encode),
                percent_encode(&e.key)
            ),
            InputItem::Watermark(_) | InputItem::SourceWatermark(_) => {
                format!("W,{}\n", item.watermark().unwrap_or(i64::MIN))
            }
            // Not input a job reads (`without_recovery` left them out).
            InputItem::Control(_) => continue,
        };
        if chunks.last().is_some_and(|c| c.len() + line.len() > CHUNK_CHARS) {
            chunks.push(String::new());
        }
        if let Some(c) = chunks.last_mut() {
            c.push_str(&line);
        }
    }
    t.line(format!(
        "    /** The scenario's {} input items, one per line: E,id,ts,value,event,key (percent-encoded; ~: no event) or W,ts. */",
        s.input.len()
    ));
    t.line("    static final String[] INPUT = {");
    for c in &chunks {
        t.line(format!("        {},", string_lit(c)));
    }
    t.line("    };");
    t.blank();
    t.line("    static List<Event> input() {");
    t.line("        List<Event> events = new ArrayList<>();");
    t.line("        for (String chunk : INPUT) {");
    t.line("            for (String line : chunk.split(\"\\n\")) {");
    t.line("                String[] f = line.split(\",\", 6);");
    if markers {
        t.line("                if (f[0].equals(\"W\")) {");
        t.line("                    events.add(Event.watermark(Long.parseLong(f[1])));");
        t.line("                    continue;");
        t.line("                }");
    }
    if events {
        t.line("                String eventType = f[4].equals(\"~\") ? null : decode(f[4]);");
        t.line("                events.add(Event.of(Long.parseLong(f[1]), decode(f[5]), Long.parseLong(f[2]), Long.parseLong(f[3]), eventType));");
    } else {
        t.line("                events.add(Event.of(Long.parseLong(f[1]), decode(f[5]), Long.parseLong(f[2]), Long.parseLong(f[3])));");
    }
    t.line("            }");
    t.line("        }");
    t.line("        return events;");
    t.line("    }");
    t.blank();
    t.line("    static String decode(String s) {");
    t.line("        ByteArrayOutputStream bytes = new ByteArrayOutputStream();");
    t.line("        for (int i = 0; i < s.length(); i++) {");
    t.line("            char c = s.charAt(i);");
    t.line("            if (c == '%') {");
    t.line("                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));");
    t.line("                i += 2;");
    t.line("            } else {");
    t.line("                bytes.write(c);");
    t.line("            }");
    t.line("        }");
    t.line("        return new String(bytes.toByteArray(), StandardCharsets.UTF_8);");
    t.line("    }");
}

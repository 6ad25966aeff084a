//! The course texts' simplified rules, and Flink's exact values beside them.
//!
//! Two course texts round Flink's rules for readability: "Windows and Timers" says that
//! [10:00, 10:01) "fires when the watermark reaches 10:01:00", and "Time & windows" says that
//! `forBoundedOutOfOrderness(d)` "emits a watermark of (max event timestamp seen) − d". Flink
//! fires at the window's max timestamp, end − 1, and `BoundedOutOfOrdernessWatermarks` emits
//! max − d − 1 ms; Tidemark shows the exact values. A preset that reproduces such a text names
//! the rules in its file (`"course_rules"`), and where its narration meets one, one line names
//! the course's simplification and the exact value, so that a student does not wonder which of
//! the two is wrong.

use crate::engine::scenario::WatermarkSpec;
use crate::engine::time::{LONG_MAX, LONG_MIN, Millis, format_millis};
use crate::engine::trace::{FireCause, TraceKind};
use crate::engine::{Output, Window};

use super::Context;
use super::format::{duration, time, window as window_text};

/// A simplified rule of a course text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CourseRule {
    /// "[10:00, 10:01) fires when the watermark reaches 10:01:00" (Flink: end − 1).
    FiresAtEnd,
    /// "watermark = max − d" (Flink: max − d − 1 ms).
    WatermarkMaxMinusD,
}

impl CourseRule {
    pub const ALL: [CourseRule; 2] = [CourseRule::FiresAtEnd, CourseRule::WatermarkMaxMinusD];

    /// The name a preset file uses.
    pub fn id(self) -> &'static str {
        match self {
            CourseRule::FiresAtEnd => "fires_at_end",
            CourseRule::WatermarkMaxMinusD => "watermark_max_minus_d",
        }
    }

    pub fn parse(s: &str) -> Option<CourseRule> {
        CourseRule::ALL.into_iter().find(|r| r.id() == s)
    }
}

impl Context<'_> {
    /// One line per course rule that the narration at `playhead` meets (the step that led to
    /// it fired a window at its max timestamp, or raised a bounded-out-of-orderness watermark):
    /// the course's simplification and Flink's exact value. Empty at playhead 0.
    pub fn course_rule_notes(&self, rules: &[CourseRule], playhead: usize) -> Vec<String> {
        let Some(step) = playhead.min(self.run.steps).checked_sub(1) else { return Vec::new() };
        let events = self.events(step);
        let mut notes = Vec::new();
        if rules.contains(&CourseRule::WatermarkMaxMinusD)
            && let WatermarkSpec::BoundedOutOfOrderness { bound } = self.scenario.watermarks
            && let Some(to) = events.iter().find_map(|e| match e.kind {
                TraceKind::WatermarkAdvanced { to, .. } if to != LONG_MAX && to != LONG_MIN => Some(to),
                _ => None,
            })
        {
            // The generator's watermark is max − bound − 1, so the largest timestamp is to + bound + 1.
            let max = to.saturating_add(bound).saturating_add(1);
            notes.push(format!(
                "The course writes this watermark as max − d = {} − {} = {}; Flink's exact value, shown here, is max − d − 1 ms = {}.",
                seconds(max),
                duration(bound),
                seconds(to.saturating_add(1)),
                time(to)
            ));
        }
        if rules.contains(&CourseRule::FiresAtEnd)
            && let Some(window) = events.iter().find_map(|e| match e.kind {
                TraceKind::Fired { output, .. } => match self.run.outputs.get(output) {
                    Some(Output::Fire(f)) => match (f.cause, f.window.time_window()) {
                        (FireCause::Timer { time: t }, Some(w)) if t == f.window.max_timestamp() && t != LONG_MAX => {
                            Some(w)
                        }
                        _ => None,
                    },
                    _ => None,
                },
                _ => None,
            })
        {
            notes.push(format!(
                "The course says a window fires \"when the watermark reaches\" its end ({} for {}); Flink's exact rule, shown here, is end − 1 ms = {}, the window's max timestamp.",
                seconds(window.end),
                window_text(&Window::Time(window)),
                time(window.max_timestamp())
            ));
        }
        notes
    }
}

/// A time as the course writes it, seconds kept: `10:01:00` (`10:01:00.500` with milliseconds).
fn seconds(t: Millis) -> String {
    let full = format_millis(t);
    full.strip_suffix(".000").map(str::to_string).unwrap_or(full)
}

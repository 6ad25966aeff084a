//! Sound cues, as PhET's sonification does: a short tone as the watermark passes a window's end
//! (a main firing), a distinct one for a late firing, one for an element sent to the late side
//! output and one for an element dropped. Off by default (`Chrome::sound`); which cues a step has
//! is a pure function of that step's trace events, so it is tested natively and the page shows it
//! (`data-testid="sound-cues"`) without relying on audio. `hooks::use_sound` plays them with the
//! Web Audio API (oscillators, no audio files), one cue set per step the playhead lands on.
//!
//! ```text
//!  run.trace, events of the step just taken ──cues_at──▶ [main, late, side-output, dropped] (each once,
//!                                                          in the order they happened)
//!  Fired { output } ─ run.firing(output).kind ─▶ Main → main, Late → late (early firings: none)
//!  SideOutput ─▶ side-output       Dropped ─▶ dropped
//! ```

use crate::engine::Run;
use crate::engine::trace::{FiringKind, TraceKind};

/// One kind of sound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// The watermark passed a window's end: its main firing.
    MainFiring,
    /// A late element updated a fired window: a late firing.
    LateFiring,
    /// A late element went to the late side output.
    SideOutput,
    /// A late element was dropped (no side output).
    Dropped,
}

/// A cue's sound: one or two notes of an oscillator.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tone {
    /// `OscillatorNode.type`.
    pub wave: &'static str,
    pub notes_hz: &'static [f64],
    pub note_millis: f64,
}

impl Cue {
    /// The `data-cues` spelling.
    pub fn name(&self) -> &'static str {
        match self {
            Cue::MainFiring => "main",
            Cue::LateFiring => "late",
            Cue::SideOutput => "side-output",
            Cue::Dropped => "dropped",
        }
    }

    /// Distinct in pitch, timbre and shape: a bright ding, a falling pair, a buzz, a low thud.
    pub fn tone(&self) -> Tone {
        match self {
            Cue::MainFiring => Tone { wave: "sine", notes_hz: &[880.0], note_millis: 140.0 },
            Cue::LateFiring => Tone { wave: "triangle", notes_hz: &[660.0, 495.0], note_millis: 90.0 },
            Cue::SideOutput => Tone { wave: "square", notes_hz: &[220.0], note_millis: 170.0 },
            Cue::Dropped => Tone { wave: "sawtooth", notes_hz: &[130.0], note_millis: 220.0 },
        }
    }
}

/// The cues of the step that brought the playhead to `step` (input item `step - 1`, or the end
/// of input): each kind once, in the order it first happened. Step 0 (nothing taken) has none.
pub fn cues_at(run: &Run, step: usize) -> Vec<Cue> {
    let Some(taken) = step.checked_sub(1) else { return Vec::new() };
    // The trace is in step order.
    let from = run.trace.partition_point(|e| e.step < taken);
    let mut out = Vec::new();
    for ev in run.trace[from..].iter().take_while(|e| e.step == taken) {
        let cue = match &ev.kind {
            TraceKind::Fired { output, .. } => match run.firing(*output).map(|f| f.kind) {
                Some(FiringKind::Main) => Some(Cue::MainFiring),
                Some(FiringKind::Late) => Some(Cue::LateFiring),
                _ => None,
            },
            TraceKind::SideOutput { .. } => Some(Cue::SideOutput),
            TraceKind::Dropped { .. } => Some(Cue::Dropped),
            _ => None,
        };
        if let Some(c) = cue.filter(|c| !out.contains(c)) {
            out.push(c);
        }
    }
    out
}

/// The `data-cues` text: the names, space-separated.
pub fn cue_names(cues: &[Cue]) -> String {
    cues.iter().map(Cue::name).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Scenario, run};
    use crate::teach::presets;

    fn cues(json: &str) -> Vec<String> {
        let s = Scenario::from_json_str(json).unwrap_or_else(|e| panic!("{e}"));
        let r = run(&s);
        (0..=r.steps).map(|step| cue_names(&cues_at(&r, step))).collect()
    }

    /// The watermark passing the end of [0, 10 s) is a main firing; a late element within the
    /// allowed lateness is a late firing; one past the cleanup time goes to the side output.
    #[test]
    fn main_late_and_side_output() {
        let got = cues(
            r#"{"assigner": {"kind": "tumbling", "size": 10000}, "allowed_lateness": 5000,
                "side_output": true, "input": [{"id": 1, "key": "A", "ts": 1000}, {"wm": 9999},
                {"id": 2, "key": "A", "ts": 2000}, {"wm": 20000}, {"id": 3, "key": "A", "ts": 3000}]}"#,
        );
        assert_eq!(got, ["", "", "main", "late", "", "side-output", ""]);
    }

    /// Without a side output a late element past the cleanup is dropped; a watermark that fires
    /// two windows is one cue (each kind once per step).
    #[test]
    fn dropped_and_one_cue_per_kind() {
        let got = cues(
            r#"{"assigner": {"kind": "tumbling", "size": 10000}, "side_output": false,
                "input": [{"id": 1, "key": "A", "ts": 1000}, {"id": 2, "key": "B", "ts": 2000},
                {"wm": 9999}, {"id": 3, "key": "A", "ts": 3000}]}"#,
        );
        assert_eq!(got, ["", "", "", "main", "dropped", ""]);
    }

    /// Lab 6.1's main firing (step 3), Lab 6.2's late completion (step 4) and Lab 6.3's event
    /// past the cleanup (step 6, to the side output).
    #[test]
    fn the_lab_presets() {
        let at = |id: &str, step: usize| {
            let p = presets::by_id(id).unwrap_or_else(|| panic!("no preset {id}"));
            cue_names(&cues_at(&run(&p.scenario), step))
        };
        assert_eq!(at("lab-6-1", 3), "main");
        assert_eq!(at("lab-6-2", 4), "late");
        assert_eq!(at("lab-6-3", 6), "side-output");
    }

    /// The tones differ in wave and pitch.
    #[test]
    fn tones_are_distinct() {
        let all = [Cue::MainFiring, Cue::LateFiring, Cue::SideOutput, Cue::Dropped].map(|c| c.tone());
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert_ne!(a.wave, b.wave);
                assert_ne!(a.notes_hz[0], b.notes_hz[0]);
            }
        }
    }
}

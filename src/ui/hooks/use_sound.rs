//! Sound cues in the browser: when the playhead lands on a step and sound is on, the step's cues
//! (`state::sound::cues_at`, one cue set per step) play one after another through the Web Audio
//! API (an oscillator and a gain envelope per note; no audio files). The setting is kept in the
//! browser like the autosave (`storage`).

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::use_app::AppHandle;
use crate::ui::state::sound::{Cue, cues_at};
use crate::ui::storage::write_sound;

// One AudioContext per page, made at the first cue (after the click that turned sound on).
#[wasm_bindgen(inline_js = r#"
let ctx = null;
export function tidemark_tone(wave, notes, noteMillis, startMillis) {
  const C = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!C) return false;
  if (!ctx) ctx = new C();
  if (ctx.state === 'suspended') ctx.resume();
  let t = ctx.currentTime + startMillis / 1000;
  for (const hz of notes) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = wave;
    osc.frequency.value = hz;
    const d = noteMillis / 1000;
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.18, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + d);
    osc.connect(gain).connect(ctx.destination);
    osc.start(t);
    osc.stop(t + d + 0.02);
    t += d;
  }
  return true;
}
"#)]
extern "C" {
    fn tidemark_tone(wave: &str, notes: Vec<f64>, note_millis: f64, start_millis: f64) -> bool;
}

/// Plays `cues` one after another.
fn play(cues: &[Cue]) {
    let mut start = 0.0;
    for cue in cues {
        let tone = cue.tone();
        if !tidemark_tone(tone.wave, tone.notes_hz.to_vec(), tone.note_millis, start) {
            return;
        }
        start += tone.note_millis * tone.notes_hz.len() as f64 + 60.0;
    }
}

/// Plays the cues of each step the playhead lands on while sound is on, and keeps the setting.
#[hook]
pub fn use_sound(state: &AppHandle) {
    let now = {
        let s = state.get();
        (s.chrome.sound, s.play.step)
    };
    let last = use_mut_ref(|| now);
    let state = state.clone();
    use_effect_with(now, move |&(on, step)| {
        let (was_on, was_at) = std::mem::replace(&mut *last.borrow_mut(), (on, step));
        if was_on != on {
            // The stored setting is what the page starts with next time.
            let _ = write_sound(on);
        } else if on && was_at != step {
            play(&cues_at(&state.get().doc.run, step));
        }
    });
}

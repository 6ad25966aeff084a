//! The playhead and playback: which step is shown, play/pause, speed, and the frame clock that
//! steps while playing. `steps` is always the run's number of steps (input items + end of input).

use std::cell::Cell;

use crate::ui::action::PlayAction;
pub use crate::ui::scene::STEP_MILLIS;
pub const SPEEDS: [f64; 6] = [0.25, 0.5, 1.0, 1.5, 2.0, 4.0];

#[derive(Clone, Debug)]
pub struct Playback {
    /// The playhead: steps taken (0 = before input, `steps` = after the end of input).
    pub step: usize,
    pub playing: bool,
    pub speed: f64,
    /// Last frame-clock time while playing (a cell: a tick that changes no step re-renders
    /// nothing, see [`Playback::advance_clock`]).
    clock_millis: Cell<Option<f64>>,
    /// Animation time within the current step, in ms of 1× time.
    step_elapsed_millis: Cell<f64>,
    /// Animate the step just taken (a single step forward, not a jump back or an edit).
    pub animate: bool,
    /// Bumps on every animated step: restarts the CSS animations.
    pub anim_seq: u64,
}

impl Playback {
    pub fn new(step: usize) -> Playback {
        Playback {
            step,
            playing: false,
            speed: 1.0,
            clock_millis: Cell::new(None),
            step_elapsed_millis: Cell::new(0.0),
            animate: false,
            anim_seq: 0,
        }
    }

    pub fn reduce(&mut self, action: PlayAction, steps: usize) {
        match action {
            PlayAction::TogglePlay => {
                if self.playing {
                    self.playing = false;
                } else {
                    if self.step >= steps {
                        self.set_step(0, steps);
                    }
                    self.playing = true;
                    self.clock_millis.set(None);
                    self.step_elapsed_millis.set(0.0);
                }
            }
            PlayAction::Pause => self.playing = false,
            PlayAction::Forward => self.go(self.step + 1, steps),
            PlayAction::Back => self.go(self.step.saturating_sub(1), steps),
            PlayAction::First => self.go(0, steps),
            PlayAction::Last => self.go(steps, steps),
            PlayAction::SetStep(s) => self.go(s, steps),
            PlayAction::SetSpeed(x) => {
                if x.is_finite() {
                    self.speed = x.clamp(0.25, 4.0);
                }
            }
            PlayAction::Tick { now_millis } => {
                if self.advance_clock(now_millis, steps) {
                    self.clock_step(steps);
                }
            }
        }
    }

    /// A step chosen by the user: playback stops.
    fn go(&mut self, step: usize, steps: usize) {
        self.playing = false;
        self.set_step(step, steps);
    }

    /// Moves the playhead; a single step forward animates.
    pub fn set_step(&mut self, step: usize, steps: usize) {
        let step = step.min(steps);
        self.animate = step == self.step + 1;
        if self.animate {
            self.anim_seq += 1;
        }
        self.step = step;
        self.step_elapsed_millis.set(0.0);
    }

    /// The playhead after an edit or a load: same content, no animation.
    pub fn place(&mut self, step: usize, steps: usize) {
        self.step = step.min(steps);
        self.animate = false;
    }

    /// Advances the playback clock in place and says whether the step must change (or the
    /// playback stop). Interior mutability so that the frame clock's ticks between steps cost
    /// no re-render: the reducer returns the same state for them.
    pub fn advance_clock(&self, now_millis: f64, steps: usize) -> bool {
        if !self.playing {
            return false;
        }
        let dt = self.clock_millis.get().map_or(0.0, |c| (now_millis - c).clamp(0.0, 250.0));
        self.clock_millis.set(Some(now_millis));
        let elapsed = self.step_elapsed_millis.get() + dt * self.speed;
        self.step_elapsed_millis.set(elapsed);
        elapsed >= STEP_MILLIS || self.step >= steps
    }

    /// The clock's step: one forward, stopping at the end.
    pub fn clock_step(&mut self, steps: usize) {
        if self.step < steps {
            self.set_step(self.step + 1, steps);
        }
        self.step_elapsed_millis.set(0.0);
        if self.step >= steps {
            self.playing = false;
            self.clock_millis.set(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Playback advances one step per STEP_MILLIS of (speed-scaled) clock, and stops at the end.
    #[test]
    fn playback_is_stepped_by_the_clock() {
        let steps = 4;
        let mut p = Playback::new(0);
        p.reduce(PlayAction::SetSpeed(2.0), steps);
        p.reduce(PlayAction::TogglePlay, steps);
        let mut now = 0.0;
        for _ in 0..40 {
            p.reduce(PlayAction::Tick { now_millis: now }, steps);
            now += 16.0;
        }
        // 39 * 16 ms * 2 = 1248 ms of 1x time: one step.
        assert_eq!(p.step, 1);
        assert!(p.animate);
        for _ in 0..400 {
            p.reduce(PlayAction::Tick { now_millis: now }, steps);
            now += 16.0;
        }
        assert_eq!(p.step, steps);
        assert!(!p.playing);
        p.reduce(PlayAction::Back, steps);
        assert!(!p.animate, "stepping back is instant");
        p.reduce(PlayAction::SetSpeed(100.0), steps);
        assert_eq!(p.speed, 4.0);
        // Play at the end starts over.
        p.reduce(PlayAction::Last, steps);
        p.reduce(PlayAction::TogglePlay, steps);
        assert_eq!((p.step, p.playing), (0, true));
    }
}

//! Compare mode: a second configuration (B) beside the scenario on show (A), with its own run, on
//! the same input, drawn by the same scene builder under A's canvas; and the SQL view's choice of
//! window TVF. Generic over two scenarios: B is a whole scenario, and while it *follows* A (the
//! usual case) its input is A's, so every edit of A's input (a drag too) reaches B.
//!
//! ```text
//!  dispatch ──▶ reduce ──▶ sync: B follows and its input ≠ A's? ──▶ B.doc.touch ─┐
//!                                                                              RunRequest { slot: Compare }
//!  Runner ──▶ RunFinished { slot } ──▶ A's Doc (Main) or B's Doc (Compare): newest revision? install : drop
//!  refresh: B's fold at the playhead ──▶ Diff (scene::diff) ──▶ B's scene (SceneInput::build) + marks on both
//! ```
//!
//! **One playhead.** The playhead is an input position: step n is "after the first n input items"
//! on both sides (each side's own end of input when its input is shorter), so the two canvases
//! always show the same moment of the same input. The playback runs to the longer of the two.
//!
//! **The link** carries B as `&cmp=<z>` (`fragment::encode_compare`; an empty input: A's), the
//! autosave too, and an undo step restores both configurations (`undo::Snapshot::compare`).
//! A course preset opens in compare mode with its `compare` scenario. The reducer's part is
//! `compare_mode.rs`.

use std::rc::Rc;

use crate::engine::Scenario;
use crate::engine::scenario::{AssignerSpec, TvfSpec, WatermarkSpec};
use crate::ui::action::TvfKind;
use crate::ui::geometry::format_duration;
use crate::ui::runner::RunSlot;
use crate::ui::scene::Scene;
use crate::ui::scene::diff::Diff;
use crate::ui::scene::fold::StepFold;

use super::scenario::Doc;
use super::scene_key::SceneKey;

/// Compare mode's second configuration, its run, and what is drawn of it.
#[derive(Clone, Debug)]
pub struct Compare {
    pub doc: Doc,
    /// B's input is A's (see the module doc).
    pub follow: bool,
    /// B's fold at the playhead (its own end of input when its input is shorter).
    pub fold: Rc<StepFold>,
    pub scene: Rc<Scene>,
    pub diff: Rc<Diff>,
    /// What `fold` was made for: (B's run revision, step).
    pub(super) fold_key: (u64, usize),
    /// What `diff` was made for: (A's fold key, B's fold key).
    pub(super) diff_key: Option<((u64, usize), (u64, usize))>,
    pub(super) scene_key: Option<SceneKey>,
}

impl Compare {
    pub(super) fn new(b: Scenario, follow: bool) -> Compare {
        let mut doc = Doc::empty();
        doc.slot = RunSlot::Compare;
        let fold = Rc::new(StepFold::new(&doc.shown_scenario, &doc.run, 0));
        let mut c = Compare {
            doc,
            follow,
            fold,
            scene: Rc::default(),
            diff: Rc::default(),
            fold_key: (u64::MAX, 0),
            diff_key: None,
            scene_key: None,
        };
        c.doc.scenario = Rc::new(b);
        c
    }

    /// B as the link and an undo step keep it: without its input while it follows A's.
    pub fn kept(&self) -> super::undo::KeptCompare {
        (self.doc.scenario.clone(), self.follow)
    }
}

/// A window TVF of `kind` for `s`: the sizes of its TVF or DataStream window, kept valid for
/// Flink (HOP's size and CUMULATE's a multiple of the slide or step).
pub fn tvf_for(kind: TvfKind, s: &Scenario) -> TvfSpec {
    let session_gap = match (s.tvf, &s.assigner) {
        (Some(TvfSpec::Session { gap }), _) => Some(gap),
        (_, AssignerSpec::Session { gap }) => Some(*gap),
        _ => None,
    };
    let size = match (s.tvf, &s.assigner) {
        (Some(TvfSpec::Tumble { size } | TvfSpec::Hop { size, .. } | TvfSpec::Cumulate { size, .. }), _) => size,
        (_, AssignerSpec::Tumbling { size, .. } | AssignerSpec::Sliding { size, .. }) => *size,
        _ => session_gap.map_or(60_000, |g| g.saturating_mul(6)),
    }
    .max(1);
    let part = [3, 2].into_iter().find(|d| size % d == 0).map_or(size, |d| size / d);
    match kind {
        TvfKind::Tumble => TvfSpec::Tumble { size },
        TvfKind::Hop => match s.assigner {
            AssignerSpec::Sliding { size: sz, slide, .. } if sz == size && slide > 0 && size % slide == 0 => {
                TvfSpec::Hop { size, slide }
            }
            _ => TvfSpec::Hop { size, slide: part },
        },
        TvfKind::Cumulate => TvfSpec::Cumulate { step: part, size },
        TvfKind::Session => TvfSpec::Session { gap: session_gap.unwrap_or((size / 6).max(1)) },
    }
}

/// The DataStream window closest to a TVF (CUMULATE has none: the assigner stays).
fn assigner_for(tvf: TvfSpec, old: &AssignerSpec) -> AssignerSpec {
    match tvf {
        TvfSpec::Tumble { size } => AssignerSpec::Tumbling { size, offset: 0 },
        TvfSpec::Hop { size, slide } => AssignerSpec::Sliding { size, slide, offset: 0 },
        TvfSpec::Session { gap } => AssignerSpec::Session { gap },
        TvfSpec::Cumulate { .. } => old.clone(),
    }
}

/// `s` with the DataStream window (`None`) or a window TVF.
pub(super) fn with_tvf(s: &Scenario, kind: Option<TvfKind>) -> Scenario {
    let mut out = s.clone();
    match kind {
        Some(k) => out.tvf = Some(tvf_for(k, s)),
        None => {
            if let Some(t) = s.tvf {
                out.assigner = assigner_for(t, &s.assigner);
            }
            out.tvf = None;
        }
    }
    out
}

/// A configuration in one line (what the two canvases' labels say).
pub fn summary(s: &Scenario) -> String {
    let d = format_duration;
    let mut parts = vec![match (s.tvf, &s.assigner) {
        (Some(TvfSpec::Tumble { size }), _) => format!("SQL TUMBLE {}", d(size)),
        (Some(TvfSpec::Hop { size, slide }), _) => format!("SQL HOP {} every {}", d(size), d(slide)),
        (Some(TvfSpec::Cumulate { step, size }), _) => format!("SQL CUMULATE {} by {}", d(size), d(step)),
        (Some(TvfSpec::Session { gap }), _) => format!("SQL SESSION gap {}", d(gap)),
        (None, AssignerSpec::Tumbling { size, .. }) => format!("DataStream tumbling {}", d(*size)),
        (None, AssignerSpec::Sliding { size, slide, .. }) => {
            format!("DataStream sliding {} every {}", d(*size), d(*slide))
        }
        (None, AssignerSpec::Session { gap }) => format!("DataStream session gap {}", d(*gap)),
        (None, _) => "DataStream window".to_string(),
    }];
    parts.push(match s.watermarks {
        WatermarkSpec::Explicit => "explicit watermarks".into(),
        WatermarkSpec::BoundedOutOfOrderness { bound } => format!("bound {}", d(bound)),
        WatermarkSpec::Monotonous => "monotonous".into(),
    });
    if s.tvf.is_none() {
        parts.push(format!("lateness {}", d(s.lateness())));
    }
    if let Some(i) = s.source.idleness {
        parts.push(format!("idleness {}", d(i)));
    }
    parts.join(", ")
}

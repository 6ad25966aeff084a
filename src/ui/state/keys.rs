//! The key map (TIMELINE_CONTRACT.md §4), as one pure function from a key press and a little
//! context to an action, and the help dialog's table of every key.
//!
//! ```text
//!  outside the canvas   ←/→ step · Home/End · space plays · PageUp/PageDown · ? help
//!                       [ ] enter the canvas · n w + − f t q · Enter/e edit · Delete · Esc
//!  on the canvas        ] [ next/previous object in the lane · ↑ ↓ neighbouring lane
//!  (one Tab stop)       ← → move a movable object (shift: 1 ms), else as [ ] · Enter edits
//!                       W why? · Delete removes · Esc leaves the canvas
//! ```
//!
//! Changed from before the contract: ←/→ outside the canvas always step (they used to move a
//! selected element wherever the focus was); `[`/`]` outside the canvas enter it; `w` on the
//! canvas explains ("why?"), elsewhere it still inserts a watermark item.

use crate::ui::action::{
    Action, CanvasAction, EditAction, EditorAction, KeyInput, KeyTarget, Nav, PanelAction, PlayAction, TeachAction,
    ViewAction,
};

/// What the key map needs to know of the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyContext {
    pub editor_open: bool,
    pub menu_open: bool,
    pub help_open: bool,
    pub why_open: bool,
    pub blackout: bool,
    pub lecture: bool,
    /// A quiz question waits for its answer.
    pub quiz_waiting: bool,
    /// ←/→ move the selected object (an element, a watermark item, the watermark handle).
    pub movable: bool,
    /// The input item Enter edits.
    pub editable: Option<usize>,
    /// The input item Delete removes.
    pub deletable: Option<usize>,
}

/// The keys the page handles (it does not scroll or click on them): a superset of what
/// [`key_action`] maps in a given context.
pub fn is_shortcut(k: &KeyInput) -> bool {
    if k.ctrl {
        return history_action(k).is_some();
    }
    if k.in_field() {
        return k.key == "Escape";
    }
    let canvas = k.target == KeyTarget::Canvas;
    matches!(
        k.key.as_str(),
        " " | "ArrowLeft"
            | "ArrowRight"
            | "Home"
            | "End"
            | "PageUp"
            | "PageDown"
            | "["
            | "]"
            | "Delete"
            | "Backspace"
            | "Enter"
            | "Escape"
            | "n"
            | "w"
            | "W"
            | "e"
            | "+"
            | "="
            | "-"
            | "f"
            | "t"
            | "q"
            | "b"
            | "B"
            | "."
            | "?"
    ) || (canvas && matches!(k.key.as_str(), "ArrowUp" | "ArrowDown"))
        || (k.key.len() == 1 && k.key.chars().all(|c| ('1'..='9').contains(&c)))
}

/// Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y (Cmd on macOS), outside text fields.
fn history_action(k: &KeyInput) -> Option<Action> {
    if !k.ctrl || k.alt || k.target == KeyTarget::Text {
        return None;
    }
    match k.key.as_str() {
        "z" | "Z" if k.shift => Some(Action::Redo),
        "z" | "Z" => Some(Action::Undo),
        "y" | "Y" if !k.shift => Some(Action::Redo),
        _ => None,
    }
}

fn teach(a: TeachAction) -> Option<Action> {
    Some(Action::Teach(a))
}

/// What a key press does.
pub fn key_action(k: &KeyInput, c: &KeyContext) -> Option<Action> {
    if k.ctrl {
        return history_action(k);
    }
    let key = k.key.as_str();
    if k.in_field() {
        return match key {
            "Escape" if c.why_open => teach(TeachAction::CloseWhy),
            "Escape" if c.editor_open => Some(Action::Editor(EditorAction::Cancel)),
            "Escape" => Some(Action::CloseMenu),
            _ => None,
        };
    }
    // The teaching modes' keys come first: a clicker's PageDown, lecture keys, the quiz's answers.
    match key {
        "PageDown" => return Some(Action::Play(PlayAction::Forward)),
        "PageUp" => return Some(Action::Play(PlayAction::Back)),
        " " if c.lecture => return Some(Action::Play(PlayAction::Forward)),
        "b" | "B" | "." if c.lecture => return teach(TeachAction::ToggleBlackout),
        "Escape" if c.blackout => return teach(TeachAction::ToggleBlackout),
        "Escape" if c.why_open => return teach(TeachAction::CloseWhy),
        "Enter" if c.quiz_waiting => return teach(TeachAction::QuizSubmit),
        d if c.quiz_waiting && d.len() == 1 && d.chars().all(|ch| ('1'..='9').contains(&ch)) => {
            let i = d.parse::<usize>().unwrap_or(1).saturating_sub(1);
            return teach(TeachAction::QuizSelect(i));
        }
        "q" => return teach(TeachAction::ToggleQuiz),
        _ if c.blackout => return None,
        _ => {}
    }
    if c.editor_open {
        return (key == "Escape").then_some(Action::Editor(EditorAction::Cancel));
    }
    let nudge = |direction: i64| Action::Edit(EditAction::Nudge { direction, fine: k.shift || k.alt });
    if k.target == KeyTarget::Canvas {
        let nav = |n: Nav| Some(Action::Canvas(CanvasAction::Move(n)));
        match key {
            "]" => return nav(Nav::Next),
            "[" => return nav(Nav::Prev),
            "ArrowUp" => return nav(Nav::Up),
            "ArrowDown" => return nav(Nav::Down),
            "ArrowRight" if c.movable => return Some(nudge(1)),
            "ArrowLeft" if c.movable => return Some(nudge(-1)),
            "ArrowRight" => return nav(Nav::Next),
            "ArrowLeft" => return nav(Nav::Prev),
            "w" | "W" => {
                let (x_px, y_px) = k.anchor_px.unwrap_or_default();
                return Some(Action::Canvas(CanvasAction::Explain { x_px, y_px }));
            }
            "Escape" => return Some(Action::Canvas(CanvasAction::Leave)),
            _ => {}
        }
    }
    Some(match key {
        " " => Action::Play(PlayAction::TogglePlay),
        "ArrowLeft" => Action::Play(PlayAction::Back),
        "ArrowRight" => Action::Play(PlayAction::Forward),
        "Home" => Action::Play(PlayAction::First),
        "End" => Action::Play(PlayAction::Last),
        "]" => Action::Canvas(CanvasAction::Enter(Nav::Next)),
        "[" => Action::Canvas(CanvasAction::Enter(Nav::Prev)),
        "Delete" | "Backspace" => Action::Edit(EditAction::Delete(c.deletable?)),
        "Enter" | "e" => Action::Editor(EditorAction::Open(c.editable?)),
        "Escape" if c.menu_open => Action::CloseMenu,
        "Escape" if c.help_open => Action::Panel(PanelAction::ToggleHelp),
        "Escape" => Action::Select(None),
        "n" => Action::Edit(EditAction::AddElement { key: None, ts: None }),
        "w" => Action::Edit(EditAction::InsertWatermark { wm: None }),
        "+" | "=" => Action::View(ViewAction::ZoomIn),
        "-" => Action::View(ViewAction::ZoomOut),
        "f" => Action::View(ViewAction::Fit),
        "t" => Action::Panel(PanelAction::ToggleTwoD),
        "?" => Action::Panel(PanelAction::ToggleHelp),
        _ => return None,
    })
}

/// The help dialog: every key, anywhere and on the canvas (contract §4), and what changed.
pub const HELP: &[(&str, &[(&str, &str)])] = &[
    (
        "Anywhere",
        &[
            ("space", "play / pause (lecture mode: step forward)"),
            ("← →", "step back / forward"),
            ("Home End", "first step / end of input"),
            ("PageUp PageDown", "step back / forward (a presenter's clicker)"),
            ("[ ]", "go onto the canvas: the selected object, or the first / last element"),
            ("Tab", "the canvas is one Tab stop: Tab enters it, Tab again leaves it"),
            ("Enter, e", "edit the selected item"),
            ("Delete Backspace", "delete the selected item"),
            ("n", "add an element"),
            ("w", "insert a watermark item at the playhead"),
            ("+ − f", "zoom in / out / fit"),
            ("t", "toggle the 2-D view (event time × processing time)"),
            ("q", "quiz on / off"),
            ("1–9 Enter", "quiz: pick an answer, Enter checks it"),
            ("b .", "lecture mode: black out the screen (again: back)"),
            ("Esc", "close, deselect"),
            ("Ctrl+Z", "undo (⌘Z on a Mac); Ctrl+Shift+Z or Ctrl+Y: redo"),
            ("?", "this help"),
        ],
    ),
    (
        "On the canvas",
        &[
            (
                "] [",
                "next / previous object in event time within the lane (elements, windows, timers, the watermark; on a partition track, its watermark)",
            ),
            (
                "↑ ↓",
                "the lane above / below: the source partition tracks (top), the key lanes, the side output (bottom)",
            ),
            (
                "← →",
                "move the element or the watermark one unit (shift or alt: 1 ms); on a window, timer or partition track, as [ ]",
            ),
            ("Enter", "edit the element or the watermark item"),
            ("W", "why? explain the object (Esc closes the explanation)"),
            ("Delete", "remove the element or the watermark item"),
            ("Esc", "leave the canvas"),
        ],
    ),
    (
        "On the arrival strip (one Tab stop)",
        &[
            ("← →", "the previous / next item (the playhead follows)"),
            ("Alt+← Alt+→", "move the item one place earlier / later in arrival order"),
            ("Alt+↑ Alt+↓", "read the item from the partition above / below (several partitions)"),
            ("Enter", "edit the item: key, value, time, partition, arrival"),
        ],
    ),
];

/// What changed in the keys, said in the help.
pub const HELP_CHANGED: &str = "Changed: ← → outside the canvas always step (on the canvas they move the focused \
     element); [ ] outside the canvas take you onto it; on the canvas W explains and w no longer inserts a watermark item.";

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx() -> KeyContext {
        KeyContext::default()
    }

    /// Outside the canvas the arrows step, even with an element selected; on it they move it.
    #[test]
    fn arrows_step_outside_and_move_inside() {
        let selected = KeyContext { movable: true, editable: Some(0), deletable: Some(0), ..ctx() };
        assert_eq!(key_action(&KeyInput::page("ArrowRight"), &selected), Some(Action::Play(PlayAction::Forward)));
        assert_eq!(
            key_action(&KeyInput::canvas("ArrowRight"), &selected),
            Some(Action::Edit(EditAction::Nudge { direction: 1, fine: false }))
        );
        let shift = KeyInput { shift: true, ..KeyInput::canvas("ArrowLeft") };
        assert_eq!(key_action(&shift, &selected), Some(Action::Edit(EditAction::Nudge { direction: -1, fine: true })));
        // On a window (not movable) the arrows move the focus like ] and [.
        assert_eq!(
            key_action(&KeyInput::canvas("ArrowLeft"), &ctx()),
            Some(Action::Canvas(CanvasAction::Move(Nav::Prev)))
        );
        assert_eq!(
            key_action(&KeyInput::canvas("ArrowDown"), &ctx()),
            Some(Action::Canvas(CanvasAction::Move(Nav::Down)))
        );
    }

    /// The canvas keys of contract §4, and the page keys that keep working.
    #[test]
    fn canvas_keys() {
        let c = KeyContext { editable: Some(3), deletable: Some(3), ..ctx() };
        assert_eq!(key_action(&KeyInput::canvas("Enter"), &c), Some(Action::Editor(EditorAction::Open(3))));
        assert_eq!(key_action(&KeyInput::canvas("Delete"), &c), Some(Action::Edit(EditAction::Delete(3))));
        assert_eq!(key_action(&KeyInput::canvas("Escape"), &c), Some(Action::Canvas(CanvasAction::Leave)));
        let w = KeyInput { anchor_px: Some((10.0, 20.0)), ..KeyInput::canvas("W") };
        assert_eq!(key_action(&w, &c), Some(Action::Canvas(CanvasAction::Explain { x_px: 10.0, y_px: 20.0 })));
        assert_eq!(key_action(&KeyInput::page("w"), &c), Some(Action::Edit(EditAction::InsertWatermark { wm: None })));
        assert_eq!(key_action(&KeyInput::page("]"), &c), Some(Action::Canvas(CanvasAction::Enter(Nav::Next))));
        assert_eq!(key_action(&KeyInput::canvas("End"), &c), Some(Action::Play(PlayAction::Last)));
        assert_eq!(key_action(&KeyInput::canvas(" "), &c), Some(Action::Play(PlayAction::TogglePlay)));
        assert_eq!(key_action(&KeyInput::page("Delete"), &ctx()), None, "nothing selected: nothing to delete");
        assert!(is_shortcut(&KeyInput::canvas("ArrowUp")));
        assert!(!is_shortcut(&KeyInput::page("ArrowUp")), "the page scrolls");
    }

    /// The help lists every key the page handles (contract §4: "the help dialog lists every key").
    #[test]
    fn help_lists_every_key() {
        let tokens: Vec<&str> = HELP
            .iter()
            .flat_map(|(_, rows)| rows.iter())
            .flat_map(|(keys, _)| keys.split([' ', ',']).filter(|t| !t.is_empty()))
            .collect();
        let keys = [
            (" ", "space"),
            ("ArrowLeft", "←"),
            ("ArrowRight", "→"),
            ("ArrowUp", "↑"),
            ("ArrowDown", "↓"),
            ("Home", "Home"),
            ("End", "End"),
            ("PageUp", "PageUp"),
            ("PageDown", "PageDown"),
            ("[", "["),
            ("]", "]"),
            ("Delete", "Delete"),
            ("Backspace", "Backspace"),
            ("Enter", "Enter"),
            ("Escape", "Esc"),
            ("n", "n"),
            ("w", "w"),
            ("W", "W"),
            ("e", "e"),
            ("+", "+"),
            ("-", "−"),
            ("f", "f"),
            ("t", "t"),
            ("q", "q"),
            ("b", "b"),
            (".", "."),
            ("?", "?"),
            ("1", "1–9"),
        ];
        for (key, shown) in keys {
            assert!(is_shortcut(&KeyInput::canvas(key)), "{key:?} is a key of the page");
            assert!(tokens.contains(&shown), "the help does not list {shown:?} ({key:?})");
        }
        let updown = HELP.iter().flat_map(|(_, rows)| rows.iter()).find(|(k, _)| *k == "↑ ↓").map(|r| r.1);
        assert!(updown.is_some_and(|t| t.contains("partition tracks") && t.contains("side output")), "{updown:?}");
    }

    /// Lecture keys, the quiz's answers and the blackout come first.
    #[test]
    fn teaching_keys_come_first() {
        let lecture = KeyContext { lecture: true, ..ctx() };
        assert_eq!(key_action(&KeyInput::page(" "), &lecture), Some(Action::Play(PlayAction::Forward)));
        assert_eq!(key_action(&KeyInput::page("b"), &lecture), teach(TeachAction::ToggleBlackout));
        let dark = KeyContext { blackout: true, ..lecture };
        assert_eq!(key_action(&KeyInput::page("PageDown"), &dark), Some(Action::Play(PlayAction::Forward)));
        assert_eq!(key_action(&KeyInput::page("n"), &dark), None, "behind the blackout only the clicker works");
        let quiz = KeyContext { quiz_waiting: true, ..ctx() };
        assert_eq!(key_action(&KeyInput::canvas("2"), &quiz), teach(TeachAction::QuizSelect(1)));
        assert_eq!(key_action(&KeyInput::page("Enter"), &quiz), teach(TeachAction::QuizSubmit));
    }

    /// Ctrl+Z is ours outside text fields only; in a field only Escape is.
    #[test]
    fn fields_and_history() {
        let k = |key: &str, shift: bool, target: KeyTarget| KeyInput {
            key: key.into(),
            ctrl: true,
            shift,
            target,
            ..KeyInput::default()
        };
        assert!(is_shortcut(&k("z", false, KeyTarget::Page)));
        assert!(is_shortcut(&k("Z", true, KeyTarget::Page)));
        assert!(is_shortcut(&k("y", false, KeyTarget::Control)), "a focused select is no text field");
        assert!(!is_shortcut(&k("z", false, KeyTarget::Text)), "native undo in text fields");
        assert!(!is_shortcut(&k("c", false, KeyTarget::Page)), "Ctrl+C stays the browser's");
        let typing = KeyInput { target: KeyTarget::Text, ..KeyInput::page("n") };
        assert!(!is_shortcut(&typing));
        assert_eq!(
            key_action(&KeyInput { target: KeyTarget::Text, ..KeyInput::page("Escape") }, &ctx()),
            Some(Action::CloseMenu)
        );
    }

    /// Every key the map handles is in the help.
    #[test]
    fn the_help_lists_every_key() {
        let keys: String = HELP.iter().flat_map(|(_, rows)| rows.iter().map(|(k, _)| *k)).collect::<Vec<_>>().join(" ");
        for k in [
            "space", "←", "→", "↑", "↓", "Home", "End", "PageUp", "PageDown", "[", "]", "Tab", "Enter", "W", "Delete",
            "Esc", "?", "n", "w", "q", "t", "f", "Ctrl+Z",
        ] {
            assert!(keys.contains(k), "{k} is not in the help");
        }
    }
}

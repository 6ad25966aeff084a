//! Which marbles have room for their element id (the SVG backend's level of detail for text).
//!
//! A marble's id is drawn over it, centred, in the canvas's 10 px monospace. Where marbles crowd
//! (2,000 elements over a 1,900 px axis: ≈ 19 px apart in a lane, a four-digit id ≈ 25 px wide) the
//! ids overlap one another into a smear nobody can read, and they were most of what Chromium
//! painted again when a run came in (a rest mid-drag at 2,000 elements: ≈ 10-15 of a 60 ms frame
//! on a slow hour). So an id is drawn only where it is clear of every other marble's id in its lane:
//! the rule is symmetric and looks at neighbours alone, so that moving one element changes the ids
//! of its old and new neighbours only (a drag's rest redraws a few groups, not the lane), and a
//! zoom brings the ids back as the marbles move apart. The marble itself, its name (hover,
//! focus, "why?") and its outcome's shape are always there; at the course's sizes every id has room.

/// The advance of one character of a marble's id (`.marble-text`: 10 px of a monospace font, whose
/// advance is 0.6 em in the usual ones; a little more, so that a wider font does not touch).
const CHAR_W: f64 = 6.2;
/// Two ids whose lines are this far apart do not touch (10 px text: the stacking rows 11 px apart
/// keep both; the half rows, 5.5 px, do not).
const LINE_H: f64 = 10.0;
/// The least gap between two ids on one line.
const GAP: f64 = 1.0;

/// How wide element id `id` is drawn.
pub fn id_width(id: i64) -> f64 {
    let mut n = id.unsigned_abs();
    let mut chars = 1 + usize::from(id < 0);
    while n >= 10 {
        n /= 10;
        chars += 1;
    }
    chars as f64 * CHAR_W
}

/// A marble's id to place: its centre and its width.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tag {
    pub x: f64,
    pub y: f64,
    pub width: f64,
}

/// For tags of one lane in `x` order (the order matters: not checked, a wrong order draws ids
/// that overlap), whether each one is clear of all the others. The scan of a tag's right-hand
/// neighbours stops where none of them can reach it, the widest of them as wide as the widest tag.
pub fn clear(tags: &[Tag]) -> Vec<bool> {
    let widest = tags.iter().map(|t| t.width).fold(0.0, f64::max);
    let mut clear = vec![true; tags.len()];
    for (i, a) in tags.iter().enumerate() {
        // In the same arithmetic as the test of a pair below, so that rounding cannot stop the
        // scan short of a tag that touches.
        let reach = (a.width + widest) / 2.0 + GAP;
        for (j, b) in tags.iter().enumerate().skip(i + 1) {
            if (b.x - a.x).abs() >= reach {
                break;
            }
            let apart_x = (b.x - a.x).abs() >= (a.width + b.width) / 2.0 + GAP;
            if !apart_x && (b.y - a.y).abs() < LINE_H {
                clear[i] = false;
                clear[j] = false;
            }
        }
    }
    clear
}

/// [`clear`] for the items `order` names (one lane's, in `x` order), item `k`'s tag `tags[k]`:
/// `labelled[k]` set for each `k` of `order`. Not generic: the page's main `.wasm` is at its size
/// budget (scripts/test), and both lanes and the side output lane call it.
pub fn mark_clear(order: &[usize], tags: &[Tag], labelled: &mut [bool]) {
    let lane: Vec<Tag> = order.iter().filter_map(|&k| tags.get(k).copied()).collect();
    for (&k, clear) in order.iter().zip(clear(&lane)) {
        if let Some(l) = labelled.get_mut(k) {
            *l = clear;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(x: f64, y: f64, id: i64) -> Tag {
        Tag { x, y, width: id_width(id) }
    }

    #[test]
    fn an_id_is_as_wide_as_its_characters() {
        assert_eq!(id_width(0), CHAR_W);
        assert_eq!(id_width(9), CHAR_W);
        assert_eq!(id_width(10), 2.0 * CHAR_W);
        assert_eq!(id_width(1999), 4.0 * CHAR_W);
        assert_eq!(id_width(-5), 2.0 * CHAR_W);
        assert_eq!(id_width(i64::MIN), 20.0 * CHAR_W);
        assert_eq!(id_width(i64::MAX), 19.0 * CHAR_W);
    }

    #[test]
    fn ids_that_would_overlap_are_both_left_out_and_the_others_kept() {
        // Four-digit ids 24.8 px wide: 20 px apart they touch, 30 px apart they do not.
        let tags = [tag(0.0, 0.0, 1000), tag(20.0, 0.0, 1001), tag(60.0, 0.0, 1002), tag(90.0, 0.0, 1003)];
        assert_eq!(clear(&tags), [false, false, true, true]);
        // Two-digit ids at the same spacing have room.
        let tags = [tag(0.0, 0.0, 10), tag(20.0, 0.0, 11)];
        assert_eq!(clear(&tags), [true, true]);
    }

    #[test]
    fn stacked_rows_keep_their_ids_and_half_rows_do_not() {
        // The stacking rows: 0, -11 and 11 px from the lane's line, then -5.5 and 5.5.
        let tags = [tag(0.0, 0.0, 7), tag(0.0, -11.0, 8), tag(0.0, 11.0, 9)];
        assert_eq!(clear(&tags), [true, true, true]);
        let tags = [tag(0.0, 0.0, 7), tag(0.0, -11.0, 8), tag(0.0, 11.0, 9), tag(1.0, -5.5, 10)];
        assert_eq!(clear(&tags), [false, false, true, false]);
    }

    #[test]
    fn a_wide_id_far_to_the_left_is_still_seen() {
        // The scan stops by the widest tag, not the current one: a narrow tag followed by a wide one.
        let tags = [tag(0.0, 0.0, 1), tag(14.0, 0.0, 1_000_000_000)];
        assert_eq!(clear(&tags), [false, false]);
    }

    /// The rule against a check of every pair, over random lanes.
    #[test]
    fn the_scan_agrees_with_every_pair() {
        use proptest::prelude::*;
        let lane = proptest::collection::vec((0.0..400.0f64, 0usize..5, -50i64..200_000), 0..60);
        proptest!(|(mut raw in lane)| {
            raw.sort_by(|a, b| a.0.total_cmp(&b.0));
            let rows = [0.0, -11.0, 11.0, -5.5, 5.5];
            let tags: Vec<Tag> = raw.iter().map(|&(x, r, id)| tag(x, rows[r], id)).collect();
            let got = clear(&tags);
            for (i, a) in tags.iter().enumerate() {
                let touches = tags.iter().enumerate().any(|(j, b)| {
                    j != i && (b.x - a.x).abs() < (a.width + b.width) / 2.0 + GAP && (b.y - a.y).abs() < LINE_H
                });
                prop_assert_eq!(got[i], !touches, "tag {} of {:?}", i, tags);
            }
        });
    }
}

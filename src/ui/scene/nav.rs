//! Keyboard moves between the canvas's objects (TIMELINE_CONTRACT.md §4): `]`/`[` to the next or
//! previous object in event time within the lane, ↑/↓ to the nearest object of the neighbouring
//! lane. Pure, over the focusable objects of a scene, each with its lane and its x.

use crate::ui::action::{Nav, ObjectId};

/// An object the keyboard can focus: which lane it is in and where (canvas x).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Focusable {
    pub id: ObjectId,
    pub lane: usize,
    pub x: f64,
}

/// Draw order breaks ties of x: windows, elements, timers, then the watermark.
fn rank(id: &ObjectId) -> u8 {
    match id {
        ObjectId::Window { .. } => 0,
        ObjectId::Element(_) | ObjectId::Late(_) | ObjectId::WatermarkItem(_) => 1,
        ObjectId::Timer { .. } | ObjectId::Partition(_) => 2,
        ObjectId::Watermark => 3,
    }
}

/// The event-time order of objects: x, then draw order, then id.
fn key(o: &Focusable) -> (f64, u8, ObjectId) {
    (o.x, rank(&o.id), o.id)
}

fn before(a: &Focusable, b: &Focusable) -> bool {
    let (ka, kb) = (key(a), key(b));
    ka.0.total_cmp(&kb.0).then(ka.1.cmp(&kb.1)).then(ka.2.cmp(&kb.2)).is_lt()
}

/// Where `nav` goes from `from` (the focused object, in lane `lane`; the watermark is in every
/// lane). From nothing: the lane's first object. At the ends it stays put. A linear scan: a key
/// press looks at each object once.
pub fn go(objects: &[Focusable], from: Option<ObjectId>, lane: usize, nav: Nav) -> Option<Focusable> {
    let in_lane = |l: usize| objects.iter().filter(move |o| o.lane == l);
    let first = |l: usize| {
        in_lane(l).fold(None, |best: Option<&Focusable>, o| match best {
            Some(b) if !before(o, b) => Some(b),
            _ => Some(o),
        })
    };
    let Some(here) = from.and_then(|id| in_lane(lane).find(|o| o.id == id)).copied() else {
        return first(lane).or_else(|| objects.first()).copied();
    };
    match nav {
        Nav::Next => {
            let next =
                in_lane(lane).filter(|o| before(&here, o)).fold(None, |best: Option<&Focusable>, o| match best {
                    Some(b) if !before(o, b) => Some(b),
                    _ => Some(o),
                });
            Some(next.copied().unwrap_or(here))
        }
        Nav::Prev => {
            let prev =
                in_lane(lane).filter(|o| before(o, &here)).fold(None, |best: Option<&Focusable>, o| match best {
                    Some(b) if !before(b, o) => Some(b),
                    _ => Some(o),
                });
            Some(prev.copied().unwrap_or(here))
        }
        Nav::Up | Nav::Down => {
            let other = if nav == Nav::Up {
                objects.iter().map(|o| o.lane).filter(|l| *l < lane).max()
            } else {
                objects.iter().map(|o| o.lane).filter(|l| *l > lane).min()
            };
            let Some(other) = other else { return Some(here) };
            // The nearest other object: the watermark is in every lane, and landing on it again
            // would tell a screen-reader user nothing about the lane they moved to.
            let distance = |o: &&Focusable| (o.x - here.x).abs() + if o.id == here.id { f64::MAX / 2.0 } else { 0.0 };
            in_lane(other)
                .fold(None, |best: Option<&Focusable>, o| match best {
                    Some(b) if distance(&b) <= distance(&o) => Some(b),
                    _ => Some(o),
                })
                .copied()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(id: ObjectId, lane: usize, x: f64) -> Focusable {
        Focusable { id, lane, x }
    }

    /// `]` and `[` walk a lane in x order (ties: windows before elements); ↑/↓ go to the nearest
    /// object of the neighbouring lane; the ends stay put.
    #[test]
    fn moves_within_and_between_lanes() {
        let w = ObjectId::Window { key: 0, window: crate::engine::Window::Global };
        let objects = [
            f(ObjectId::Element(0), 0, 50.0),
            f(w, 0, 10.0),
            f(ObjectId::Element(1), 0, 10.0),
            f(ObjectId::Watermark, 0, 80.0),
            f(ObjectId::Watermark, 1, 80.0),
            f(ObjectId::Element(2), 1, 40.0),
            f(ObjectId::Late(1), 2, 12.0),
        ];
        let next = |from, lane, nav| go(&objects, Some(from), lane, nav).map(|o| (o.id, o.lane));
        assert_eq!(next(w, 0, Nav::Next), Some((ObjectId::Element(1), 0)));
        assert_eq!(next(ObjectId::Element(1), 0, Nav::Next), Some((ObjectId::Element(0), 0)));
        assert_eq!(next(ObjectId::Watermark, 0, Nav::Next), Some((ObjectId::Watermark, 0)), "the end stays");
        assert_eq!(next(w, 0, Nav::Prev), Some((w, 0)));
        assert_eq!(next(ObjectId::Element(0), 0, Nav::Down), Some((ObjectId::Element(2), 1)));
        // From the watermark (in every lane) ↑ goes to the other lane's nearest other object.
        assert_eq!(next(ObjectId::Watermark, 1, Nav::Up), Some((ObjectId::Element(0), 0)));
        assert_eq!(next(ObjectId::Element(2), 1, Nav::Down), Some((ObjectId::Late(1), 2)));
        assert_eq!(next(ObjectId::Late(1), 2, Nav::Down), Some((ObjectId::Late(1), 2)));
        assert_eq!(go(&objects, None, 0, Nav::Next).map(|o| o.id), Some(w), "from nothing: the lane's first");
    }
}

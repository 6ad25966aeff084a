//! The shapes of outcomes, so that colour is never the only signal (WCAG 1.4.1): an element's
//! marble, the side output's marbles and a window's state mark are drawn as a path whose geometry
//! says the outcome, and the colour (Okabe–Ito, `assets/style.css`) repeats it.
//!
//! ```text
//!  ● circle   in state (hollow ring), emitted on time, window fired
//!  ◆ diamond  emitted in a late firing, window late-fired
//!  ▼ triangle late: in the side output
//!  ■ square   dropped (crossed out), or removed unemitted
//! ```

use crate::engine::view::ElementOutcome;

/// The shape of an outcome (`None`: not arrived, a dashed circle).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Diamond,
    Triangle,
    Square,
}

impl Shape {
    pub fn of(o: Option<ElementOutcome>) -> Shape {
        match o {
            Some(ElementOutcome::InLateFiring) => Shape::Diamond,
            Some(ElementOutcome::SideOutput) => Shape::Triangle,
            Some(ElementOutcome::Dropped { .. } | ElementOutcome::Discarded) => Shape::Square,
            None | Some(ElementOutcome::Pending | ElementOutcome::OnTime) => Shape::Circle,
        }
    }

    /// An SVG path of this shape around `(x, y)`, of about the area of a circle of radius `r`.
    pub fn path(&self, x: f64, y: f64, r: f64) -> String {
        let f = |v: f64| (v * 10.0).round() / 10.0;
        match self {
            Shape::Circle => {
                format!("M{} {}a{r} {r} 0 1 0 {} 0a{r} {r} 0 1 0 {} 0Z", f(x - r), f(y), f(2.0 * r), f(-2.0 * r))
            }
            Shape::Diamond => {
                let d = f(r * 1.3);
                format!("M{} {}l{d} {d}l-{d} {d}l-{d} -{d}Z", f(x), f(y - d))
            }
            Shape::Triangle => {
                let d = f(r * 1.25);
                format!("M{} {}h{}l-{d} {}Z", f(x - d), f(y - d * 0.75), f(2.0 * d), f(d * 1.85))
            }
            Shape::Square => {
                let d = f(r * 0.9);
                format!("M{} {}h{}v{}h-{}Z", f(x - d), f(y - d), f(2.0 * d), f(2.0 * d), f(2.0 * d))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The four outcomes a student must tell apart have four different geometries (the path's
    /// commands differ, not only its fill), and every path is closed around its centre.
    #[test]
    fn outcomes_differ_in_shape() {
        let outcomes = [
            Some(ElementOutcome::OnTime),
            Some(ElementOutcome::InLateFiring),
            Some(ElementOutcome::SideOutput),
            Some(ElementOutcome::Dropped { counted: true }),
        ];
        let commands: Vec<String> = outcomes
            .iter()
            .map(|o| Shape::of(*o).path(100.0, 50.0, 9.0).chars().filter(|c| c.is_ascii_alphabetic()).collect())
            .collect();
        for (i, a) in commands.iter().enumerate() {
            assert!(a.ends_with('Z'), "{a}");
            for b in &commands[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(Shape::of(None), Shape::Circle);
        assert_eq!(Shape::Square.path(10.0, 10.0, 10.0), "M1 1h18v18h-18Z");
    }
}

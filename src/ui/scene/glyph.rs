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

    /// How far the shape of size `r` ([`Shape::path`]'s) reaches above and below its centre.
    pub fn rows(&self, r: f64) -> (f64, f64) {
        match self {
            Shape::Circle => (r, r),
            Shape::Diamond => (r * 1.3, r * 1.3),
            Shape::Triangle => (r * 1.25 * 0.75, r * 1.25 * 1.1),
            Shape::Square => (r * 0.9, r * 0.9),
        }
    }

    /// Half the width of the shape of size `r` at `t` below its centre (above where negative);
    /// `None` outside it. A shape rasterised a row at a time (`canvas::raster::Boxes::shape`).
    pub fn half_width(&self, r: f64, t: f64) -> Option<f64> {
        let (above, below) = self.rows(r);
        if !(-above..=below).contains(&t) {
            return None;
        }
        Some(match self {
            Shape::Circle => (r * r - t * t).max(0.0).sqrt(),
            Shape::Diamond => r * 1.3 - t.abs(),
            // From the top edge, 2 × 1.25 r wide, to the tip, 1.85 × 1.25 r below it.
            Shape::Triangle => (below - t) / 1.85,
            Shape::Square => r * 0.9,
        })
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

    /// The rows of a rasterised shape are the path's: its extent is the path's vertices', and
    /// its width at each vertex's height is the path's there.
    #[test]
    fn a_shapes_rows_are_its_paths() {
        let r = 8.0;
        // (shape, (t, half width) at the path's vertices)
        let vertices: [(Shape, &[(f64, f64)]); 4] = [
            (Shape::Diamond, &[(-10.4, 0.0), (0.0, 10.4), (10.4, 0.0)]),
            (Shape::Triangle, &[(-7.5, 10.0), (11.0, 0.0)]),
            (Shape::Square, &[(-7.2, 7.2), (7.2, 7.2)]),
            (Shape::Circle, &[(-8.0, 0.0), (0.0, 8.0), (8.0, 0.0)]),
        ];
        for (shape, at) in vertices {
            let (above, below) = shape.rows(r);
            assert!((above - -at[0].0).abs() < 1e-9 && (below - at[at.len() - 1].0).abs() < 1e-9, "{shape:?}");
            for (t, half) in at {
                let w = shape.half_width(r, *t).unwrap_or(f64::NAN);
                assert!((w - half).abs() < 1e-9, "{shape:?} at {t}: {w}, the path's {half}");
            }
            assert_eq!(shape.half_width(r, -above - 0.01), None);
            assert_eq!(shape.half_width(r, below + 0.01), None);
        }
        // The path's own numbers (`Shape::path`): the triangle's top edge and tip.
        assert_eq!(Shape::Triangle.path(0.0, 0.0, r), "M-10 -7.5h20l-10 18.5Z");
    }
}

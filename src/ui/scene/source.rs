//! The source partitions as scene items: a track per partition with its own watermark line
//! (`teach::source` folds what each partition emitted up to the playhead).

use crate::engine::time::format_millis;
use crate::teach::source::{SourceView, wm_text};
use crate::ui::action::ObjectId;
use crate::ui::geometry::{Viewport, watermark_x};

use super::layout::RunLayout;
use super::{PartitionItem, TabStop};

/// The partitions as scene items: tracks at the layout's rows, or (one partition emitting
/// per event) the contract's nodes only.
pub(super) fn partition_items(
    source: &SourceView,
    layout: &RunLayout,
    vp: &Viewport,
    entry: Option<ObjectId>,
    two_d: bool,
) -> Vec<PartitionItem> {
    source
        .partitions
        .iter()
        .map(|p| {
            let id = ObjectId::Partition(p.partition);
            let track = layout.tracks.get(p.partition as usize).filter(|_| !two_d);
            let holds = source.holders.contains(&p.partition);
            let state_text = match (p.idle, p.idle_at, holds) {
                (true, Some(at), _) => format!("idle since {}", format_millis(at)),
                (true, None, _) => "idle".to_string(),
                (false, _, true) => "holds the watermark back".to_string(),
                _ => String::new(),
            };
            PartitionItem {
                id,
                partition: p.partition,
                wm: p.wm,
                idle: p.idle,
                holds,
                drawn: track.is_some(),
                x: watermark_x(vp, p.wm),
                y: track.copied().unwrap_or(0.0),
                text: format!("partition {} · wm {}", p.partition, wm_text(p.wm)),
                state_text,
                tab: if Some(id) == entry { TabStop::Entry } else { TabStop::Roving },
            }
        })
        .collect()
}

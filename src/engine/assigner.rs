//! Flink's window assigners' `assignWindows`: the windows an element belongs to, in the
//! assigner's order, with Java's long arithmetic.

use super::output::FlinkError;
use super::scenario::AssignerSpec;
use super::scenario::limits::MAX_WINDOWS_PER_ELEMENT;
use super::time::{LONG_MIN, Millis, TimeWindow, Window, window_start_with_offset};

/// `WindowAssigner.assignWindows`, in the assigner's order. Event-time assigners read the
/// element's timestamp `ts`, processing-time ones `processing_time` (the arrival clock); a
/// dynamic session gap comes from `key_name`. Writes into `out` (cleared first): the caller
/// reuses one buffer for every element.
pub fn assign_windows(
    assigner: &AssignerSpec,
    key_name: &str,
    ts: Millis,
    processing_time: Millis,
    out: &mut Vec<Window>,
) -> Result<(), FlinkError> {
    out.clear();
    let no_timestamp = || {
        FlinkError::run(
            "java.lang.RuntimeException",
            "Record has Long.MIN_VALUE timestamp (= no timestamp marker). Did you forget to call 'DataStream.assignTimestampsAndWatermarks(...)'?",
        )
    };
    match assigner {
        AssignerSpec::Tumbling { size, offset } => {
            if ts == LONG_MIN {
                return Err(no_timestamp());
            }
            // `(globalOffset + staggerOffset) % size` with the ALIGNED stagger (0).
            let start = window_start_with_offset(ts, offset % size, *size);
            out.push(Window::Time(TimeWindow::new(start, start.wrapping_add(*size))))
        }
        AssignerSpec::Sliding { size, slide, offset } => {
            if ts == LONG_MIN {
                return Err(no_timestamp());
            }
            sliding_windows(ts, *size, *slide, *offset, out)
        }
        AssignerSpec::Session { gap } => out.push(Window::Time(TimeWindow::new(ts, ts.wrapping_add(*gap)))),
        AssignerSpec::DynamicSession { default_gap, gaps } => {
            let gap = gaps.get(key_name).copied().unwrap_or(*default_gap);
            // `DynamicEventTimeSessionWindows.assignWindows`.
            if gap <= 0 {
                return Err(FlinkError::run(
                    "java.lang.IllegalArgumentException",
                    "Dynamic session time gap must satisfy 0 < gap",
                ));
            }
            out.push(Window::Time(TimeWindow::new(ts, ts.wrapping_add(gap))))
        }
        AssignerSpec::Global | AssignerSpec::GlobalEos => out.push(Window::Global),
        // Processing-time assigners use `context.getCurrentProcessingTime()`, not the
        // element's timestamp.
        AssignerSpec::TumblingProcessing { size, offset } => {
            let now = processing_time;
            let start = window_start_with_offset(now, offset % size, *size);
            out.push(Window::Time(TimeWindow::new(start, start.wrapping_add(*size))))
        }
        AssignerSpec::SlidingProcessing { size, slide, offset } => {
            sliding_windows(processing_time, *size, *slide, *offset, out)
        }
    }
    Ok(())
}

/// `SlidingEventTimeWindows.assignWindows` (and the processing-time twin): from the last start
/// at or before `ts` back while `start > ts - size`, in descending start order, with Java long
/// arithmetic. The count guard only matters where Java would wrap around forever.
fn sliding_windows(ts: Millis, size: Millis, slide: Millis, offset: Millis, windows: &mut Vec<Window>) {
    let mut start = window_start_with_offset(ts, offset, slide);
    while start > ts.wrapping_sub(size) && (windows.len() as i64) <= MAX_WINDOWS_PER_ELEMENT {
        windows.push(Window::Time(TimeWindow::new(start, start.wrapping_add(size))));
        let next = start.wrapping_sub(slide);
        if next > start {
            break;
        }
        start = next;
    }
}

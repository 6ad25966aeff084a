//! What Flink builds from a scenario before the job runs: the window operator's configuration,
//! after the checks of the assigner constructors, the trigger and `allowedLateness`, each failing
//! with Flink's own exception and message.

use super::output::FlinkError;
use super::scenario::{AssignerSpec, BaseTrigger, EvictorSpec, Scenario, WindowFunctionSpec};
use super::time::Millis;
use super::trigger::{Trigger, TriggerKind};

/// The operator's configuration after Flink's build-time checks.
#[derive(Clone, Debug)]
pub struct OperatorConfig {
    pub assigner: AssignerSpec,
    pub trigger: Trigger,
    pub evictor: Option<EvictorSpec>,
    pub allowed_lateness: Millis,
    pub side_output: bool,
    pub function: WindowFunctionSpec,
}

fn illegal_argument(message: &str) -> FlinkError {
    FlinkError::build("java.lang.IllegalArgumentException", message)
}

/// Builds the operator configuration the way Flink builds the job, in the oracle's order
/// (assigner, trigger, evictor, allowed lateness), failing with Flink's own exception.
pub fn validate(s: &Scenario) -> Result<OperatorConfig, FlinkError> {
    match s.assigner {
        // `TumblingEventTimeWindows` constructor.
        AssignerSpec::Tumbling { size, offset } if offset.unsigned_abs() >= size.max(0) as u64 => {
            return Err(illegal_argument("TumblingEventTimeWindows parameters must satisfy abs(offset) < size"));
        }
        // `SlidingEventTimeWindows` constructor.
        AssignerSpec::Sliding { size, slide, offset } if offset.unsigned_abs() >= slide.max(0) as u64 || size <= 0 => {
            return Err(illegal_argument(
                "SlidingEventTimeWindows parameters must satisfy abs(offset) < slide and size > 0",
            ));
        }
        AssignerSpec::Sliding { size, slide, .. } if size / slide > 10_000_000 => {
            return Err(illegal_argument("SlidingEventTimeWindows parameters must satisfy size / slide <= 10000000"));
        }
        AssignerSpec::TumblingProcessing { size, offset } if offset.unsigned_abs() >= size.max(0) as u64 => {
            return Err(illegal_argument("TumblingProcessingTimeWindows parameters must satisfy abs(offset) < size"));
        }
        AssignerSpec::SlidingProcessing { size, slide, offset }
            if offset.unsigned_abs() >= slide.max(0) as u64 || size <= 0 =>
        {
            return Err(illegal_argument(
                "SlidingProcessingTimeWindows parameters must satisfy abs(offset) < slide and size > 0",
            ));
        }
        // `EventTimeSessionWindows` constructor.
        AssignerSpec::Session { gap } if gap <= 0 => {
            return Err(illegal_argument("EventTimeSessionWindows parameters must satisfy 0 < size"));
        }
        _ => {}
    }
    let trigger = match s.trigger.base {
        BaseTrigger::Default => match s.assigner {
            AssignerSpec::Global => TriggerKind::Never,
            AssignerSpec::GlobalEos => TriggerKind::EndOfStream,
            AssignerSpec::TumblingProcessing { .. } | AssignerSpec::SlidingProcessing { .. } => {
                TriggerKind::ProcessingTime
            }
            _ => TriggerKind::EventTime,
        },
        BaseTrigger::EventTime => TriggerKind::EventTime,
        BaseTrigger::Count { n } => TriggerKind::Count(n),
        BaseTrigger::ContinuousEventTime { interval } => TriggerKind::ContinuousEventTime(interval),
        // The course's classes check their argument in the constructor (`CourseFunctions.java`).
        BaseTrigger::EarlyCount { n } if n <= 0 => {
            return Err(illegal_argument(&format!("EarlyCountEventTimeTrigger: n must be > 0, not {n}")));
        }
        BaseTrigger::EarlyCount { n } => TriggerKind::EarlyCount(n),
        BaseTrigger::SessionMaxDuration { max_duration } if max_duration <= 0 => {
            return Err(illegal_argument(&format!(
                "SessionMaxDurationTrigger: max_duration must be > 0, not {max_duration}"
            )));
        }
        BaseTrigger::SessionMaxDuration { max_duration } => TriggerKind::SessionMaxDuration(max_duration),
    };
    // `WindowedStream.allowedLateness`: `checkArgument(millis >= 0, ...)`.
    let allowed_lateness = s.lateness();
    if allowed_lateness < 0 {
        return Err(illegal_argument("The allowed lateness cannot be negative."));
    }
    Ok(OperatorConfig {
        assigner: s.assigner.clone(),
        trigger: Trigger { kind: trigger, purging: s.trigger.purging },
        evictor: s.evictor,
        allowed_lateness,
        side_output: s.side_output,
        function: s.function,
    })
}

//! The window functions of a PyFlink window job: `SumAndCount`, a `ProcessWindowFunction` that
//! buffers, or an incremental `AggregateFunction`/`ReduceFunction` followed by `EmitResult`, which
//! stamps the one pre-aggregated value with the key, the window and the watermark.

use super::course;
use crate::codegen::{Text, ValueUnit};
use crate::engine::scenario::WindowFunctionSpec;

/// Whether the result row carries the amount in dollars (`usd`): US cents, and a function whose
/// value is an amount (a sum, the smallest or largest value; not a count or an average).
pub(super) fn has_usd(function: WindowFunctionSpec, unit: ValueUnit) -> bool {
    unit == ValueUnit::UsdCents
        && matches!(
            function,
            WindowFunctionSpec::Process | WindowFunctionSpec::Sum | WindowFunctionSpec::Min | WindowFunctionSpec::Max
        )
}

/// The result row a window function yields (`window` and `context` are its locals), `amount`
/// the value shown in dollars too, if any.
fn result_row(global: bool, value: &str, amount: Option<&str>) -> String {
    let value = match amount {
        Some(a) => format!("{value}, dollars({a})"),
        None => value.to_string(),
    };
    if global {
        format!("Row(key, {value}, context.current_watermark())")
    } else {
        format!("Row(key, window.start, window.end, {value}, context.current_watermark())")
    }
}

/// The window function: a buffering `SumAndCount`, or an incremental function and `EmitResult`.
pub(super) fn functions(t: &mut Text, function: WindowFunctionSpec, global: bool, unit: ValueUnit) {
    let usd = has_usd(function, unit);
    if usd {
        t.line("def dollars(cents):");
        t.line("    \"\"\"US cents in dollars: 410 -> 4.10.\"\"\"");
        t.line("    return Decimal(cents).scaleb(-2)");
        t.blank_lines(2);
    }
    let window_line = |t: &mut Text| {
        if !global {
            t.line("        window = context.window()");
        }
    };
    match function {
        WindowFunctionSpec::Aggregate(agg) => {
            let window = (!global).then_some("        window = context.window()");
            course::aggregate(t, agg, window, |values| result_row(global, values, None));
            return;
        }
        WindowFunctionSpec::Process => {
            t.line("class SumAndCount(ProcessWindowFunction):");
            t.line("    \"\"\"A ProcessWindowFunction: Flink buffers every element of the window in state.\"\"\"");
            t.blank();
            t.line("    def process(self, key, context, elements):");
            t.line("        total, count = 0, 0");
            t.line("        for e in elements:");
            t.line("            total += e.value");
            t.line("            count += 1");
            window_line(t);
            t.line(format!("        yield {}", result_row(global, "total, count", usd.then_some("total"))));
            t.blank_lines(2);
            return;
        }
        WindowFunctionSpec::Sum | WindowFunctionSpec::Count => {
            let (name, doc, add) = if function == WindowFunctionSpec::Sum {
                ("SumOfValues", "Sums the values", "accumulator + value.value")
            } else {
                ("CountOfEvents", "Counts the elements", "accumulator + 1")
            };
            t.line(format!("class {name}(AggregateFunction):"));
            t.line(format!("    \"\"\"{doc} as they arrive: the window's state is one accumulator.\"\"\""));
            t.blank();
            t.line("    def create_accumulator(self):");
            t.line("        return 0");
            t.blank();
            t.line("    def add(self, value, accumulator):");
            t.line(format!("        return {add}"));
            t.blank();
            t.line("    def get_result(self, accumulator):");
            t.line("        return accumulator");
            t.blank();
            t.line("    def merge(self, a, b):  # merging session windows");
            t.line("        return a + b");
        }
        WindowFunctionSpec::Avg => {
            t.line("class AverageOfValues(AggregateFunction):");
            t.line("    \"\"\"Averages the values as they arrive: the state is one (sum, count) accumulator.\"\"\"");
            t.blank();
            t.line("    def create_accumulator(self):");
            t.line("        return 0, 0");
            t.blank();
            t.line("    def add(self, value, accumulator):");
            t.line("        return accumulator[0] + value.value, accumulator[1] + 1");
            t.blank();
            t.line("    def get_result(self, accumulator):");
            t.line("        total, count = accumulator");
            t.line("        return total / count if count else float(\"nan\")");
            t.blank();
            t.line("    def merge(self, a, b):  # merging session windows");
            t.line("        return a[0] + b[0], a[1] + b[1]");
        }
        WindowFunctionSpec::Min | WindowFunctionSpec::Max => {
            let (name, doc, op) = if function == WindowFunctionSpec::Min {
                ("MinOfValues", "the smallest", "<=")
            } else {
                ("MaxOfValues", "the largest", ">=")
            };
            t.line(format!("class {name}(ReduceFunction):"));
            t.line(format!("    \"\"\"Keeps the element with {doc} value: the window's state is one element.\"\"\""));
            t.blank();
            t.line("    def reduce(self, a, b):");
            t.line(format!("        return a if a.value {op} b.value else b"));
        }
    }
    let value = match function {
        WindowFunctionSpec::Min | WindowFunctionSpec::Max => "next(iter(results)).value",
        _ => "next(iter(results))",
    };
    t.blank_lines(2);
    t.line("class EmitResult(ProcessWindowFunction):");
    t.line("    \"\"\"Stamps the one pre-aggregated value with the key, the window and the watermark.\"\"\"");
    t.blank();
    t.line("    def process(self, key, context, results):");
    t.line(format!("        value = {value}  # exactly one"));
    window_line(t);
    t.line(format!("        yield {}", result_row(global, "value", usd.then_some("value"))));
    t.blank_lines(2);
}

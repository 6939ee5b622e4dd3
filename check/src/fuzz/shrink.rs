//! Shrinking a finding: the arguments of a tool call that found a fault made smaller, step by
//! step, while they stay valid under the tool's input schema and the fault stays.
//!
//! Each step tries the candidates one step smaller than the arguments (a member removed, an
//! array item removed, a string, number or boolean made smaller, inside any member or item),
//! keeps the first that the schema accepts and that finds the same fault again (the same kind;
//! for an error response, the same code), and starts again from it, until none does or
//! [`ATTEMPTS`] calls were sent. A crash or a hang on the way ends it, and is a finding of its
//! own. A crash of a stdio server is shrunk too, each smaller call in a server of its own (at
//! most [`CRASH_ATTEMPTS`] servers started); a hang is not (each attempt would wait out the
//! timeout).

use serde_json::{json, Value};

use super::{Fault, Finding, Options, Session, Target};

/// How many calls a shrink may send.
const ATTEMPTS: usize = 100;

/// How many servers a crash's shrink may start (each attempt runs in a server of its own).
const CRASH_ATTEMPTS: usize = 40;

/// What one smaller call did.
enum Tried {
    /// It found the fault again.
    Again,
    /// It did not.
    Not,
    /// It ended the conversation (a crash or a hang of its own): shrinking stops.
    Stop,
}

impl From<bool> for Tried {
    /// Whether the fault came back.
    fn from(again: bool) -> Tried {
        if again {
            Tried::Again
        } else {
            Tried::Not
        }
    }
}

impl Session {
    /// Shrinks the arguments of the tool call `params` (`{"name", "arguments"}`), whose first
    /// finding is `found` (a violation or an error response), in this conversation: the
    /// smallest call that found it again, if a smaller one did.
    pub(super) fn shrink(
        &mut self,
        params: &Value,
        schema: &Value,
        found: &Finding,
        tolerated: &[i64],
    ) -> Option<Value> {
        smallest(params, schema, ATTEMPTS, |tried| {
            let before = self.report.findings.len();
            self.call_through("tools/call", tried, found.call.clone(), tolerated);
            let again = (self.report.findings[before..].iter()).any(|f| same_fault(f, found));
            if self.stopped() {
                // A crash or a hang is a finding of its own; the others were found already.
                let last = self.report.findings.pop();
                self.report.findings.truncate(before);
                self.report.findings.extend(last);
                return Tried::Stop;
            }
            self.report.findings.truncate(before);
            Tried::from(again)
        })
    }
}

/// Shrinks the arguments of the tool call `params` that crashed a stdio server (`found`),
/// each smaller call sent to a server of its own, started and opened as the run's was: the
/// smallest call that crashed one again, if a smaller one did.
pub(super) fn shrink_crash(
    target: &Target,
    options: &Options,
    params: &Value,
    schema: &Value,
    found: &Finding,
    tolerated: &[i64],
) -> Option<Value> {
    smallest(params, schema, CRASH_ATTEMPTS, |tried| {
        let Ok(mut fresh) = Session::start(target, options) else {
            return Tried::Stop;
        };
        let crashed = fresh.open(options.revision).is_some() && {
            fresh.call_through("tools/call", tried, found.call.clone(), tolerated);
            (fresh.report.findings.iter()).any(|f| f.fault == Fault::Crash)
        };
        fresh.server.close();
        Tried::from(crashed)
    })
}

/// The smallest arguments, from `params`' and step by step, that `attempt` finds the fault
/// again with (each candidate valid under `schema`; at most `limit` attempts): the params of
/// that call, when one smaller than `params` did.
fn smallest(
    params: &Value,
    schema: &Value,
    limit: usize,
    mut attempt: impl FnMut(Value) -> Tried,
) -> Option<Value> {
    let validator = jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .ok()?;
    let mut smallest = params["arguments"].clone();
    let mut shrunk = false;
    let mut attempts = 0;
    'step: loop {
        for candidate in smaller(&smallest) {
            if !validator.is_valid(&candidate) {
                continue;
            }
            if attempts == limit {
                break 'step;
            }
            attempts += 1;
            let mut tried = params.clone();
            tried["arguments"] = candidate.clone();
            match attempt(tried) {
                Tried::Again => {
                    smallest = candidate;
                    shrunk = true;
                    continue 'step;
                }
                Tried::Not => {}
                Tried::Stop => break 'step,
            }
        }
        break;
    }
    shrunk.then(|| {
        let mut params = params.clone();
        params["arguments"] = smallest;
        params.as_object_mut().map(|p| p.remove("_meta"));
        params
    })
}

/// Whether `finding` is the fault `original` is: the same kind, and for an error response the
/// same code (or both refused outside JSON-RPC).
fn same_fault(finding: &Finding, original: &Finding) -> bool {
    let code = |f: &Finding| {
        serde_json::from_str::<Value>(&f.detail)
            .ok()
            .and_then(|error| error["code"].as_i64())
    };
    finding.fault == original.fault
        && (finding.fault != Fault::Error || code(finding) == code(original))
}

/// The values one step smaller than `value`: whole parts removed first, then each part made
/// smaller (a string shorter, a number nearer 0, `true` false), so that shrinking ends.
pub(super) fn smaller(value: &Value) -> Vec<Value> {
    let mut candidates = Vec::new();
    match value {
        Value::Null => {}
        Value::Bool(b) => {
            if *b {
                candidates.push(Value::Bool(false));
            }
        }
        Value::Number(number) => {
            if let Some(n) = number.as_i64() {
                if n != 0 {
                    candidates.push(json!(0));
                    if n / 2 != 0 {
                        candidates.push(json!(n / 2));
                    }
                }
            } else if let Some(n) = number.as_u64() {
                candidates.push(json!(0));
                candidates.push(json!(n / 2));
            } else if let Some(n) = number.as_f64() {
                candidates.push(json!(0));
                let whole = n.trunc();
                if whole != n && whole != 0.0 && whole.abs() < 9.0e15 {
                    candidates.push(json!(whole as i64));
                }
            }
        }
        Value::String(text) => {
            if !text.is_empty() {
                candidates.push(json!(""));
                let chars = text.chars().count();
                if chars > 1 {
                    candidates.push(json!(text.chars().take(chars / 2).collect::<String>()));
                }
                if chars > 2 {
                    candidates.push(json!(text.chars().take(chars - 1).collect::<String>()));
                }
            }
        }
        Value::Array(items) => {
            for i in 0..items.len() {
                let mut fewer = items.clone();
                fewer.remove(i);
                candidates.push(Value::Array(fewer));
            }
            for (i, item) in items.iter().enumerate() {
                for smaller_item in smaller(item) {
                    let mut changed = items.clone();
                    changed[i] = smaller_item;
                    candidates.push(Value::Array(changed));
                }
            }
        }
        Value::Object(members) => {
            for name in members.keys() {
                // Rebuilt rather than removed from: the others keep their order.
                let fewer = (members.iter())
                    .filter(|(other, _)| *other != name)
                    .map(|(other, member)| (other.clone(), member.clone()))
                    .collect();
                candidates.push(Value::Object(fewer));
            }
            for (name, member) in members {
                for smaller_member in smaller(member) {
                    let mut changed = members.clone();
                    changed.insert(name.clone(), smaller_member);
                    candidates.push(Value::Object(changed));
                }
            }
        }
    }
    candidates
}

#[cfg(test)]
mod tests {
    use super::smaller;
    use serde_json::json;

    #[test]
    fn each_candidate_is_one_step_smaller() {
        assert_eq!(smaller(&json!(true)), [json!(false)]);
        assert!(smaller(&json!(false)).is_empty());
        assert!(smaller(&json!(0)).is_empty());
        assert_eq!(smaller(&json!(40)), [json!(0), json!(20)]);
        assert_eq!(smaller(&json!(2.5)), [json!(0), json!(2)]);
        assert_eq!(
            smaller(&json!("abcd")),
            [json!(""), json!("ab"), json!("abc")]
        );
        assert_eq!(
            smaller(&json!({"a": 1, "b": "xy"})),
            [
                json!({"b": "xy"}),
                json!({"a": 1}),
                json!({"a": 0, "b": "xy"}),
                json!({"a": 1, "b": ""}),
                json!({"a": 1, "b": "x"}),
            ]
        );
        assert_eq!(
            smaller(&json!([true, 3])),
            [
                json!([3]),
                json!([true]),
                json!([false, 3]),
                json!([true, 0]),
                json!([true, 1])
            ]
        );
    }
}

//! Rules the spec states in prose that the schema cannot express, applied to the types.

use crate::ir::{Module, ObjectDispatch, TypeExpr, TypeKind, Variant};

/// The member that names a 2026-07-28 result's kind.
const RESULT_TYPE: &str = "resultType";

/// The `resultType` of a result that asks for more input (`InputRequiredResult`).
const INPUT_REQUIRED: &str = "input_required";

/// Rules the spec states in prose that the schema cannot express.
pub(super) fn apply(module: &mut Module) {
    for t in &mut module.types {
        let schema_name = t.schema_name.as_deref();
        if let TypeKind::Struct(s) = &mut t.kind {
            for f in &mut s.fields {
                // 2026-07-28, `Result.resultType`: "when a client receives a result from a server
                // implementing an earlier protocol version (which does not include `resultType`),
                // the client MUST treat the absent field as "complete"".
                if f.json_name == RESULT_TYPE && f.required && f.ty == TypeExpr::String {
                    f.default_when_absent = Some("complete".to_owned());
                    // The value a result built here has: "input_required" says "additional
                    // input is needed" (`InputRequiredResult`), every other result is final.
                    let value = match schema_name {
                        Some("InputRequiredResult") => INPUT_REQUIRED,
                        _ => "complete",
                    };
                    f.fixed = Some(value.to_owned());
                }
            }
        }
    }
}

/// How a union of two results, one of them `InputRequiredResult`, finds its member (a
/// method's result in 2026-07-28: `anyOf[InputRequiredResult, CallToolResult]`), where both
/// members have `resultType` as a plain string that [`apply`] gave its fixed value.
///
/// 2026-07-28, `resultType`: "Indicates the type of the result, which allows the client to
/// determine how to parse the result object"; `ResultType`: "input_required - … the result
/// contains an `InputRequiredResult` object". So "input_required" names the
/// `InputRequiredResult`, and anything else (`"complete"`, a value this revision does not
/// know, none: "treat the absent field as `complete`") the method's own result, which then
/// says what is wrong with it. The schema's `anyOf` alone would let any object with a string
/// `resultType` be an `InputRequiredResult`. The conformance suite's wire validation decides
/// the same way (`resultType === 'input_required' ? 'InputRequiredResult' :
/// resultDefs.get(method)`).
pub(super) fn object_dispatch(
    module: &Module,
    variants: &[Variant],
    objects: &[usize],
) -> Option<ObjectDispatch> {
    let [first, second] = objects else {
        return None;
    };
    let fixed = |i: usize| {
        let TypeExpr::Named(name) = module.resolve_alias(&variants[i].ty) else {
            return None;
        };
        let TypeKind::Struct(s) = &module.get(name)?.kind else {
            return None;
        };
        let f = s.fields.iter().find(|f| f.json_name == RESULT_TYPE)?;
        f.default_when_absent.as_ref()?;
        f.fixed.as_deref()
    };
    let (asks, answers) = match (fixed(*first)?, fixed(*second)?) {
        (INPUT_REQUIRED, other) if other != INPUT_REQUIRED => (*first, *second),
        (other, INPUT_REQUIRED) if other != INPUT_REQUIRED => (*second, *first),
        _ => return None,
    };
    Some(ObjectDispatch::ByValue {
        tag: RESULT_TYPE.to_owned(),
        cases: vec![(INPUT_REQUIRED.to_owned(), asks)],
        otherwise: answers,
    })
}

//! Rules the spec states in prose that the schema cannot express, applied to the types.

use crate::ir::{Module, TypeExpr, TypeKind};

/// Rules the spec states in prose that the schema cannot express.
pub(super) fn apply(module: &mut Module) {
    for t in &mut module.types {
        let schema_name = t.schema_name.as_deref();
        if let TypeKind::Struct(s) = &mut t.kind {
            for f in &mut s.fields {
                // 2026-07-28, `Result.resultType`: "when a client receives a result from a server
                // implementing an earlier protocol version (which does not include `resultType`),
                // the client MUST treat the absent field as "complete"".
                if f.json_name == "resultType" && f.required && f.ty == TypeExpr::String {
                    f.default_when_absent = Some("complete".to_owned());
                    // The value a result built here has: "input_required" says "additional
                    // input is needed" (`InputRequiredResult`), every other result is final.
                    let value = match schema_name {
                        Some("InputRequiredResult") => "input_required",
                        _ => "complete",
                    };
                    f.fixed = Some(value.to_owned());
                }
            }
        }
    }
}

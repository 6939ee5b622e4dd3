//! The message layer: the schema's direction unions (`ClientRequest`, `ServerNotification`,
//! `ClientResult`, …) become enums dispatched on `method`, and each request is paired with the
//! type of its result.

use super::{check_identifier, err, SchemaError};
use crate::ir::{
    Call, CallKind, CallSet, ConstValue, DirectionModel, Messages, Module, TypeExpr, TypeKind,
};
use crate::naming;
use crate::pointer::unescape;

/// Replaces the direction unions by call sets and records the message layer. A schema without
/// them (not an MCP schema, or a fragment) gets no message layer.
pub(super) fn derive(module: &mut Module) -> Result<(), SchemaError> {
    let sets = [
        ("ClientRequest", CallKind::Request),
        ("ServerRequest", CallKind::Request),
        ("ClientNotification", CallKind::Notification),
        ("ServerNotification", CallKind::Notification),
    ];
    for (name, kind) in sets {
        let Some(index) = module
            .types
            .iter()
            .position(|t| t.schema_name.as_deref() == Some(name))
        else {
            continue;
        };
        let calls = calls_of(module, index, kind)?;
        module.types[index].kind = TypeKind::Calls(CallSet { kind, calls });
    }
    for name in ["ClientResult", "ServerResult"] {
        if let Some(t) = module
            .types
            .iter_mut()
            .find(|t| t.schema_name.as_deref() == Some(name))
        {
            if let TypeKind::Union(u) = &mut t.kind {
                for v in &mut u.variants {
                    if let TypeExpr::Named(ty) = &v.ty {
                        v.name = match ty.as_str() {
                            "Result" | "EmptyResult" => "Empty".to_owned(),
                            other => other
                                .strip_suffix("Result")
                                .filter(|s| !s.is_empty())
                                .unwrap_or(other)
                                .to_owned(),
                        };
                    }
                }
            }
        }
    }
    let (Some(_), Some(_)) = (
        module.by_schema_name("ClientRequest"),
        module.by_schema_name("ServerNotification"),
    ) else {
        return Ok(());
    };
    let error = ["JSONRPCErrorResponse", "JSONRPCError"]
        .iter()
        .find_map(|n| module.by_schema_name(n))
        .and_then(|t| match &t.kind {
            TypeKind::Struct(s) => s
                .fields
                .iter()
                .find(|f| f.json_name == "error")
                .map(|f| f.ty.clone()),
            _ => None,
        });
    let Some(error) = error else {
        return err(
            "",
            "the schema has direction unions but no JSONRPCError(Response) with an `error` member",
        );
    };
    if module.by_schema_name("RequestId").is_none() {
        return err("", "the schema has direction unions but no `RequestId`");
    }
    pair_results(module);
    let direction = |side: &str, other: &str| DirectionModel {
        name: format!("{side}Message"),
        side: side.to_owned(),
        requests: module
            .by_schema_name(&format!("{side}Request"))
            .map(|t| t.name.clone()),
        notifications: module
            .by_schema_name(&format!("{side}Notification"))
            .map(|t| t.name.clone()),
        results: TypeExpr::Named(
            module
                .by_schema_name(&format!("{side}Result"))
                .map_or_else(|| "Result".to_owned(), |t| t.name.clone()),
        ),
        responds: module.by_schema_name(&format!("{other}Request")).is_some(),
    };
    let directions = vec![direction("Client", "Server"), direction("Server", "Client")];
    for d in &directions {
        if module.get(&d.name).is_some() {
            return err(
                "",
                format!(
                    "the schema defines `{}`, which the message layer needs for itself",
                    d.name
                ),
            );
        }
    }
    let error_codes = error_codes(module);
    for (owner, _) in &error_codes {
        let pointer = module
            .by_schema_name(owner)
            .map_or_else(String::new, |t| t.pointer.clone());
        check_identifier(
            &naming::const_name(owner),
            &pointer,
            "error code constant name",
        )?;
    }
    module.messages = Some(Messages {
        directions,
        id: TypeExpr::Named("RequestId".into()),
        error,
        error_codes,
        batches: ["JSONRPCBatchRequest", "JSONRPCBatchResponse"]
            .iter()
            .any(|name| module.by_schema_name(name).is_some()),
    });
    Ok(())
}

/// The members of a direction union (or the one struct it was inlined to).
fn calls_of(module: &Module, index: usize, kind: CallKind) -> Result<Vec<Call>, SchemaError> {
    let def = &module.types[index];
    let members: Vec<String> = match &def.kind {
        TypeKind::Union(u) => u
            .variants
            .iter()
            .map(|v| match &v.ty {
                TypeExpr::Named(n) => Ok(n.clone()),
                _ => err(
                    &def.pointer,
                    format!(
                        "member `{}` of a direction union is not a named type",
                        v.name
                    ),
                ),
            })
            .collect::<Result<_, _>>()?,
        TypeKind::Struct(_) => vec![def.name.clone()],
        TypeKind::Alias(TypeExpr::Named(n)) => vec![n.clone()],
        _ => {
            return err(
                &def.pointer,
                "a direction union must be a union of request or notification types",
            )
        }
    };
    let mut calls: Vec<Call> = Vec::new();
    for member in members {
        let Some(TypeKind::Struct(s)) = module.get(&member).map(|t| &t.kind) else {
            return err(
                &def.pointer,
                format!("`{member}` is not an object type with a `method`"),
            );
        };
        let method = s
            .consts
            .iter()
            .find_map(|c| match (&c.json_name[..], &c.value) {
                ("method", ConstValue::String(m)) => Some(m.clone()),
                _ => None,
            });
        let Some(method) = method else {
            return err(
                &module
                    .get(&member)
                    .map_or(def.pointer.clone(), |t| t.pointer.clone()),
                format!("`{member}` has no constant `method`"),
            );
        };
        if calls.iter().any(|c| c.method == method) {
            return err(&def.pointer, format!("method `{method}` appears twice"));
        }
        let params = s.fields.iter().find(|f| f.json_name == "params");
        let suffix = match kind {
            CallKind::Request => "Request",
            CallKind::Notification => "Notification",
        };
        let variant = if member == def.name {
            // The union was inlined to its single member: name the variant after the method.
            let last = method.rsplit('/').next().unwrap_or(&method);
            naming::pascal(last, "M")
        } else {
            member
                .strip_suffix(suffix)
                .filter(|s| !s.is_empty())
                .unwrap_or(&member)
                .to_owned()
        };
        // The emitter names the variant and the method's constant (`methods::TOOLS_CALL`) so.
        let method_pointer = module.get(&member).map_or(def.pointer.clone(), |t| {
            format!("{}/properties/method/const", t.pointer)
        });
        check_identifier(&variant, &method_pointer, "call variant")?;
        check_identifier(
            &naming::const_name(&method.replace(['/', '.', '-'], "_")),
            &method_pointer,
            "method constant name",
        )?;
        calls.push(Call {
            method,
            variant,
            message_type: member.clone(),
            params: params.map(|p| p.ty.clone()),
            params_required: params.is_some_and(|p| p.required),
            result: None,
            boxed: false,
        });
    }
    Ok(calls)
}

/// Each request's result type: `XResultResponse.result` (2026-07-28 on), else `XResult`, else
/// the generic (empty) result.
fn pair_results(module: &mut Module) {
    let empty = ["EmptyResult", "Result"]
        .into_iter()
        .find(|n| module.get(n).is_some())
        .unwrap_or("Result")
        .to_owned();
    let mut pairs = Vec::new();
    for (ti, t) in module.types.iter().enumerate() {
        let TypeKind::Calls(set) = &t.kind else {
            continue;
        };
        if set.kind != CallKind::Request {
            continue;
        }
        for (ci, call) in set.calls.iter().enumerate() {
            let stem = call
                .message_type
                .strip_suffix("Request")
                .unwrap_or(&call.message_type);
            let from_response = module
                .get(&format!("{stem}ResultResponse"))
                .and_then(|r| match &r.kind {
                    TypeKind::Struct(s) => s
                        .fields
                        .iter()
                        .find(|f| f.json_name == "result")
                        .map(|f| f.ty.clone()),
                    _ => None,
                });
            let result = from_response
                .or_else(|| {
                    module
                        .get(&format!("{stem}Result"))
                        .map(|r| TypeExpr::Named(r.name.clone()))
                })
                .unwrap_or_else(|| TypeExpr::Named(empty.clone()));
            pairs.push((ti, ci, result));
        }
    }
    for (ti, ci, result) in pairs {
        if let TypeKind::Calls(set) = &mut module.types[ti].kind {
            set.calls[ci].result = Some(result);
        }
    }
}

/// Integer constants of `code` members: the error codes the schema defines, named after the
/// definition they belong to.
fn error_codes(module: &Module) -> Vec<(String, i64)> {
    let mut codes = Vec::new();
    for t in &module.types {
        let TypeKind::Struct(s) = &t.kind else {
            continue;
        };
        for c in &s.consts {
            if let ("code", ConstValue::Integer(code)) = (&c.json_name[..], &c.value) {
                let owner = unescape(t.pointer.split('/').nth(2).unwrap_or(&t.name));
                if !codes.iter().any(|(n, _)| *n == owner) {
                    codes.push((owner, *code));
                }
            }
        }
    }
    codes
}

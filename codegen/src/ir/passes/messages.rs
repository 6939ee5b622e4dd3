//! The message layer: the schema's direction unions (`ClientRequest`, `ServerNotification`,
//! `ClientResult`, …) become enums dispatched on `method`, and each request is paired with the
//! type of its result.

use crate::ir::TypeDef;
use crate::ir::{
    Call, CallKind, CallSet, ConstValue, DirectionModel, Messages, Module, TypeExpr, TypeKind,
};
use crate::naming;
use crate::naming::check_identifier;
use crate::schema_error::{err, SchemaError};
use crate::settings::Settings;
use mcp_typed_json::pointer::unescape;

/// Replaces the direction unions by call sets and records the message layer. A schema without
/// them (not an MCP schema, or a fragment) gets no message layer.
pub(super) fn derive(module: &mut Module, settings: &Settings) -> Result<(), SchemaError> {
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
        return extension_messages(module, settings);
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
        let call = call_of(module, &member, kind, &def.pointer, member == def.name)?;
        if calls.iter().any(|c| c.method == call.method) {
            return err(
                &def.pointer,
                format!("method `{}` appears twice", call.method),
            );
        }
        calls.push(call);
    }
    Ok(calls)
}

/// The call of the request or notification type `member` (Rust name): its `method` constant
/// and its params; errors point at `pointer` (the set's) where the member has none of its own.
/// `inlined`: the set was inlined to this one member (the variant is named after the method).
fn call_of(
    module: &Module,
    member: &str,
    kind: CallKind,
    pointer: &str,
    inlined: bool,
) -> Result<Call, SchemaError> {
    {
        let Some(TypeKind::Struct(s)) = module.get(member).map(|t| &t.kind) else {
            return err(
                pointer,
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
                    .get(member)
                    .map_or(pointer.to_owned(), |t| t.pointer.clone()),
                format!("`{member}` has no constant `method`"),
            );
        };
        let params = s.fields.iter().find(|f| f.json_name == "params");
        let suffix = match kind {
            CallKind::Request => "Request",
            CallKind::Notification => "Notification",
        };
        let variant = if inlined {
            // The union was inlined to its single member: name the variant after the method.
            let last = method.rsplit('/').next().unwrap_or(&method);
            naming::pascal(last, "M")
        } else {
            member
                .strip_suffix(suffix)
                .filter(|s| !s.is_empty())
                .unwrap_or(member)
                .to_owned()
        };
        // The emitter names the variant and the method's constant (`methods::TOOLS_CALL`) so.
        let method_pointer = module.get(member).map_or(pointer.to_owned(), |t| {
            format!("{}/properties/method/const", t.pointer)
        });
        check_identifier(&variant, &method_pointer, "call variant")?;
        check_identifier(
            &naming::const_name(&method.replace(['/', '.', '-'], "_")),
            &method_pointer,
            "method constant name",
        )?;
        Ok(Call {
            method,
            variant,
            message_type: member.to_owned(),
            params: params.map(|p| p.ty.clone()),
            params_required: params.is_some_and(|p| p.required),
            result: None,
            boxed: false,
        })
    }
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
            let result = result_of(module, &call.message_type, Some(&empty))
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

/// The result of request type `request` (Rust name) by the schema's naming:
/// `XResultResponse.result`, else `XResult`, else `empty` if given.
fn result_of(module: &Module, request: &str, empty: Option<&str>) -> Option<TypeExpr> {
    let stem = request.strip_suffix("Request").unwrap_or(request);
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
    from_response
        .or_else(|| {
            module
                .get(&format!("{stem}Result"))
                .map(|r| TypeExpr::Named(r.name.clone()))
        })
        .or_else(|| empty.map(|e| TypeExpr::Named(e.to_owned())))
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
                let owner = unescape(t.pointer.split('/').nth(2).unwrap_or(&t.name)).into_owned();
                if !codes.iter().any(|(n, _)| *n == owner) {
                    codes.push((owner, *code));
                }
            }
        }
    }
    codes
}

/// The messages of a schema without direction unions (an extension's: `ui/render`, …): every
/// definition with a constant string `method` whose name ends in `Request` is a request, paired
/// with its result as the core requests are (`FooResult`, `FooResultResponse.result`) or as
/// `Settings::results` says; those ending in `Notification` are notifications. The message
/// enums of `Settings::message_enums` are call sets over the definitions they name.
fn extension_messages(module: &mut Module, settings: &Settings) -> Result<(), SchemaError> {
    let mut requests = Vec::new();
    let mut notifications = Vec::new();
    for t in &module.types {
        let Some(schema_name) = t.schema_name.as_deref() else {
            continue;
        };
        let TypeKind::Struct(s) = &t.kind else {
            continue;
        };
        let has_method = s
            .consts
            .iter()
            .any(|c| c.json_name == "method" && matches!(c.value, ConstValue::String(_)));
        if !has_method {
            continue;
        }
        // A request by its name, or because `result_for` declares its result (a definition
        // named otherwise, which the warning about unanswered requests points to).
        let declared = settings.results.iter().any(|(r, _)| r == schema_name);
        if schema_name.ends_with("Request") || declared {
            requests.push(t.name.clone());
        } else if schema_name.ends_with("Notification") {
            notifications.push(t.name.clone());
        }
    }
    for (request, _) in &settings.results {
        let Some(t) = module.by_schema_name(request) else {
            return err(
                "",
                format!("`result_for` names request `{request}`, which the schema does not define"),
            );
        };
        if !requests.contains(&t.name) {
            return err(
                &t.pointer,
                format!(
                    "`result_for` names `{request}`, which is not a request (an object with a \
                     constant string `method`)"
                ),
            );
        }
    }
    let mut calls = Vec::new();
    for name in &requests {
        let pointer = module
            .get(name)
            .map_or_else(String::new, |t| t.pointer.clone());
        let mut call = call_of(module, name, CallKind::Request, &pointer, false)?;
        let schema_name = module
            .get(name)
            .and_then(|t| t.schema_name.clone())
            .unwrap_or_else(|| name.clone());
        let declared = settings
            .results
            .iter()
            .find(|(request, _)| *request == schema_name)
            .map(|(_, result)| result);
        call.result = match declared {
            Some(result) => match module.by_schema_name(result) {
                Some(t) => Some(TypeExpr::Named(t.name.clone())),
                None => {
                    return err(
                        &pointer,
                        format!(
                            "`result_for` pairs `{schema_name}` with `{result}`, which the \
                             schema does not define"
                        ),
                    )
                }
            },
            None => result_of(module, &call.message_type, None),
        };
        // No result by name nor declared (`Config::result_for`): no `Request` impl, as the
        // schema does not say what answers it.
        if call.result.is_none() {
            continue;
        }
        calls.push(call);
    }
    for (name, members) in &settings.message_enums {
        let set = message_enum(module, name, members, &requests, &notifications)?;
        module.types.push(set);
    }
    module.extension_requests = calls;
    Ok(())
}

/// The message enum `name` over the definitions `members` (schema names), each one of
/// `requests` or `notifications` (Rust names), all of one kind: a call set of its own
/// (`Settings::message_enums`).
fn message_enum(
    module: &Module,
    name: &str,
    members: &[String],
    requests: &[String],
    notifications: &[String],
) -> Result<TypeDef, SchemaError> {
    check_identifier(name, "", "message enum name")?;
    if module.get(name).is_some() {
        return err(
            "",
            format!("message enum `{name}`: the schema already defines a type of that name"),
        );
    }
    let mut set: Vec<Call> = Vec::new();
    let mut kind = None;
    for member in members {
        let Some(t) = module.by_schema_name(member) else {
            return err(
                "",
                format!("message enum `{name}` names `{member}`, which the schema does not define"),
            );
        };
        let member_kind = if requests.contains(&t.name) {
            CallKind::Request
        } else if notifications.contains(&t.name) {
            CallKind::Notification
        } else {
            return err(
                &t.pointer,
                format!(
                    "message enum `{name}` names `{member}`, which is not a request or a \
                     notification (a definition named `…Request`/`…Notification` with a \
                     constant `method`)"
                ),
            );
        };
        if kind.is_some_and(|k| k != member_kind) {
            return err(
                &t.pointer,
                format!("message enum `{name}` mixes requests and notifications"),
            );
        }
        kind = Some(member_kind);
        let call = call_of(
            module,
            &t.name.clone(),
            member_kind,
            &t.pointer.clone(),
            false,
        )?;
        if set.iter().any(|c| c.method == call.method) {
            return err(
                &t.pointer,
                format!("method `{}` appears twice", call.method),
            );
        }
        set.push(call);
    }
    let Some(kind) = kind else {
        return err("", format!("message enum `{name}` names no message"));
    };
    let what = match kind {
        CallKind::Request => "request",
        CallKind::Notification => "notification",
    };
    Ok(TypeDef {
        name: name.to_owned(),
        schema_name: None,
        pointer: String::new(),
        doc: Some(format!(
            "A {what} of this schema, dispatched on `method` (`Config::message_enum`)."
        )),
        errata: Vec::new(),
        constraints: Vec::new(),
        kind: TypeKind::Calls(CallSet { kind, calls: set }),
    })
}

/// A request-shaped definition that got no result: see [`unanswered_requests`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unanswered {
    /// Its schema name (`FooRequest`).
    pub schema_name: String,
    /// Its JSON pointer (`/$defs/FooRequest`).
    pub pointer: String,
    /// Its `method` constant.
    pub method: String,
}

/// The request-shaped definitions (an object with a constant string `method` and a `params`
/// member) for which no result is found, so that they get no `jsonrpc::Request` impl: a
/// request set does not pair them with a result (the direction unions always do, with the
/// empty result when none is named), they have no extension `Request` impl, and the naming
/// rule finds no result ([`result_of`]; that exempts the 2026-07-28 input requests, outside
/// the direction unions but each with its result). Notifications are not request-shaped: named
/// `…Notification`, or members of a notification set.
pub(crate) fn unanswered_requests(module: &Module) -> Vec<Unanswered> {
    let sets: Vec<&CallSet> = (module.types.iter())
        .filter_map(|t| match &t.kind {
            TypeKind::Calls(set) => Some(set),
            _ => None,
        })
        .collect();
    let in_set = |name: &str, kind: CallKind, answered: bool| {
        sets.iter().any(|set| {
            set.kind == kind
                && (set.calls.iter())
                    .any(|c| c.message_type == name && (!answered || c.result.is_some()))
        })
    };
    let mut unanswered = Vec::new();
    for t in &module.types {
        let (Some(schema_name), TypeKind::Struct(s)) = (t.schema_name.as_deref(), &t.kind) else {
            continue;
        };
        let method = s
            .consts
            .iter()
            .find_map(|c| match (&c.json_name[..], &c.value) {
                ("method", ConstValue::String(m)) => Some(m),
                _ => None,
            });
        let Some(method) = method else { continue };
        let shaped = s.fields.iter().any(|f| f.json_name == "params")
            && !schema_name.ends_with("Notification")
            && !in_set(&t.name, CallKind::Notification, false);
        let answered = in_set(&t.name, CallKind::Request, true)
            || (module.extension_requests.iter()).any(|c| c.message_type == t.name)
            || (schema_name.ends_with("Request") && result_of(module, &t.name, None).is_some());
        if shaped && !answered {
            unanswered.push(Unanswered {
                schema_name: schema_name.to_owned(),
                pointer: t.pointer.clone(),
                method: method.clone(),
            });
        }
    }
    unanswered
}

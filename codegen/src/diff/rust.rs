//! The Rust side of the IR as callers see it: the type a field has, what `new` takes, which
//! `From` impls a union has: the emitter's rules, read from the IR where they live
//! (`Union::from_members`, `Field::is_new_param`); `tests/diff.rs` compiles callers against
//! both sides to keep the report true to the code.

use crate::ir::{Field, Module, TypeExpr, TypeKind, Union};

/// The Rust type of a type expression, as the generated code spells it for a caller (the
/// runtime's paths shortened): `String`, `Vec<Icon>`, `Option<Cursor>`, `serde_json::Number`,
/// `RawObject`, `IndexMap<String, JsonValue>`.
pub fn rust_type(t: &TypeExpr) -> String {
    match t {
        TypeExpr::String => "String".into(),
        TypeExpr::Integer => "i64".into(),
        TypeExpr::Number => "serde_json::Number".into(),
        TypeExpr::Boolean => "bool".into(),
        TypeExpr::Any => "serde_json::Value".into(),
        TypeExpr::Array(item) => format!("Vec<{}>", rust_type(item)),
        // A free-form object is kept as its text (see `emit::scope::type_tokens`).
        TypeExpr::Map(value) if **value == TypeExpr::Any => "RawObject".into(),
        TypeExpr::Map(value) => format!("IndexMap<String, {}>", rust_type(value)),
        TypeExpr::Nullable(inner) => format!("Option<{}>", rust_type(inner)),
        TypeExpr::Named(name) => name.clone(),
    }
}

/// The Rust type of a struct field: boxed where the generator boxes it, an `Option` where the
/// member is optional.
pub fn field_type(f: &Field) -> String {
    let ty = rust_type(&f.ty);
    let ty = if f.boxed { format!("Box<{ty}>") } else { ty };
    if f.required {
        ty
    } else {
        format!("Option<{ty}>")
    }
}

/// The extra field's type, where the struct keeps undeclared members.
pub(super) fn extra_type(a: &crate::ir::Additional) -> Option<String> {
    match a {
        crate::ir::Additional::Forbidden => None,
        crate::ir::Additional::Any => Some("serde_json::Map<String, serde_json::Value>".into()),
        crate::ir::Additional::Typed(t) => Some(format!("IndexMap<String, {}>", rust_type(t))),
    }
}

/// The variants of `u` that have a `From` impl ([`Union::from_members`], the emitter's rule).
pub(super) fn from_variants<'a>(module: &'a Module, name: &str, u: &'a Union) -> Vec<&'a str> {
    (u.from_members(module, name).into_iter())
        .map(|(v, _)| v.name.as_str())
        .collect()
}

/// `t` with every alias replaced by what it stands for, at any depth: a member whose type
/// became a named alias of the same thing (`{string: any}` → `MetaObject`) has not changed for
/// Rust code.
pub(super) fn resolve(module: &Module, t: &TypeExpr) -> TypeExpr {
    fn go(module: &Module, t: &TypeExpr, depth: usize) -> TypeExpr {
        let inner = |x: &TypeExpr| Box::new(go(module, x, depth));
        match t {
            TypeExpr::Array(x) => TypeExpr::Array(inner(x)),
            TypeExpr::Map(x) => TypeExpr::Map(inner(x)),
            TypeExpr::Nullable(x) => TypeExpr::Nullable(inner(x)),
            // The depth bound stops a (schema-invalid) alias cycle.
            TypeExpr::Named(name) if depth < 16 => match module.get(name).map(|d| &d.kind) {
                Some(TypeKind::Alias(target)) => go(module, target, depth + 1),
                _ => t.clone(),
            },
            other => other.clone(),
        }
    }
    go(module, t, 0)
}

/// The kind of a type, in Rust terms.
pub(super) fn kind_name(kind: &TypeKind) -> &'static str {
    match kind {
        TypeKind::Struct(_) => "struct",
        TypeKind::StringEnum(_) => "enum (string values)",
        TypeKind::Union(_) => "enum (union)",
        TypeKind::Alias(_) => "type alias",
        TypeKind::Calls(_) => "enum (methods)",
    }
}

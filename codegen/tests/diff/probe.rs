//! Callers written against the OLD side's API, one per change and way of writing code: what a
//! team that builds with struct literals, with the constructors, or that matches and reads
//! values, would have written about the changed item. `tests/diff.rs` compiles each against
//! both sides: it must compile against the old one, and against the new one exactly when the
//! report says the change does not break that style.
//!
//! Types are written as the report writes them (`Option<Vec<Icon>>`), inside a module that
//! imports the side's items: the report's Rust names are compiled too.

use mcp_codegen::diff::{field_type, rust_type, Change, Item, Kind, Style};
use mcp_codegen::ir::{Module, Struct, TypeExpr, TypeKind, Union};

/// The body of the probe module for `change` in `style` (functions using the side imported as
/// `*`), or `None` where that style writes nothing about the item (an added item, which old
/// code cannot name; a constant, which only reading code names).
pub fn probe(old: &Module, new: &Module, change: &Change, style: Style) -> Option<String> {
    match &change.item {
        // Documentation only: the type is still there by that name.
        Item::Type { name } if change.kind == Kind::DocsChanged => {
            Some(format!("pub fn f(_: &{name}) {{}}"))
        }
        Item::Type { name } => type_probe(old, name, style),
        Item::Field {
            owner, json_name, ..
        } => field_probe(old, change.kind, owner, json_name, style),
        Item::Extra { owner } => extra_probe(old, owner, style),
        Item::Const {
            owner, rust_const, ..
        } => (style == Style::Match
            && old_struct(old, owner)?
                .consts
                .iter()
                .any(|c| c.rust_const == *rust_const))
        .then(|| format!("pub fn f() {{ let _ = {owner}::{rust_const}; }}")),
        Item::ErrorCode { name } => (style == Style::Match && change.before.is_some())
            .then(|| format!("pub fn f() {{ let _: i64 = error_codes::{name}; }}")),
        Item::EnumValue { owner, value, .. } => enum_probe(old, owner, Some(value), style),
        Item::UnionMember { owner, variant } | Item::Method { owner, variant, .. } => {
            member_probe(old, new, change, owner, variant, style)
        }
    }
}

fn old_struct<'a>(old: &'a Module, name: &str) -> Option<&'a Struct> {
    match &old.get(name)?.kind {
        TypeKind::Struct(s) => Some(s),
        _ => None,
    }
}

/// `Box<T>` → `T`: a reference to a box coerces to a reference to its content.
fn unboxed(ty: &str) -> &str {
    ty.strip_prefix("Box<")
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(ty)
}

/// The name of a field's setter (`emit::constructors`).
fn setter(rust_name: &str) -> String {
    format!(
        "with_{}",
        rust_name.trim_start_matches("r#").trim_start_matches('_')
    )
}

/// Every use of a whole type in `style`.
fn type_probe(old: &Module, name: &str, style: Style) -> Option<String> {
    match &old.get(name)?.kind {
        TypeKind::Struct(s) => Some(match style {
            Style::Literals => full_literal(name, s),
            Style::Constructors => new_call(name, s),
            Style::Match => read_all(name, s),
        }),
        TypeKind::StringEnum(_) => enum_probe(old, name, None, style),
        // Every `From`: one of them may stay by chance (`From<T> for T` where the union
        // became an alias of one of its members).
        TypeKind::Union(u) if style == Style::Constructors => from_probe(old, name, u, &|_| true),
        TypeKind::Union(u) => union_probe(old, name, u, style),
        TypeKind::Calls(set) => {
            let first = set.calls.first()?;
            calls_probe(old, name, &first.variant, style)
        }
        TypeKind::Alias(target) => Some(format!(
            "pub fn f(v: {}) -> {name} {{ v }}",
            rust_type(target)
        )),
    }
}

/// `T { every field, extra }`.
fn full_literal(name: &str, s: &Struct) -> String {
    let mut params = Vec::new();
    let mut fields = Vec::new();
    for (i, f) in s.fields.iter().enumerate() {
        params.push(format!("p{i}: {}", field_type(f)));
        fields.push(format!("{}: p{i}", f.rust_name));
    }
    if s.additional != mcp_codegen::ir::Additional::Forbidden {
        fields.push("extra: Default::default()".into());
    }
    format!(
        "pub fn f({}) -> {name} {{ {name} {{ {} }} }}",
        params.join(", "),
        fields.join(", ")
    )
}

/// `T::new(required…)` with arguments of the old types.
fn new_call(name: &str, s: &Struct) -> String {
    let taken: Vec<_> = s
        .fields
        .iter()
        .filter(|f| f.required && f.fixed.is_none())
        .collect();
    let params: Vec<String> = (taken.iter().enumerate())
        .map(|(i, f)| format!("p{i}: {}", rust_type(&f.ty)))
        .collect();
    let args: Vec<String> = (0..taken.len()).map(|i| format!("p{i}")).collect();
    format!(
        "pub fn f({}) -> {name} {{ {name}::new({}) }}",
        params.join(", "),
        args.join(", ")
    )
}

/// Reads every field.
fn read_all(name: &str, s: &Struct) -> String {
    let reads: Vec<String> = s.fields.iter().map(read_field).collect();
    format!("pub fn f(base: &{name}) {{ {} }}", reads.join(" "))
}

fn read_field(f: &mcp_codegen::ir::Field) -> String {
    let ty = field_type(f);
    // A required boxed field reads through its box (deref coercion); an optional one does not.
    let ty = if f.required { unboxed(&ty) } else { &ty };
    format!("let _: &{ty} = &base.{};", f.rust_name)
}

fn field_probe(
    old: &Module,
    kind: Kind,
    owner: &str,
    json_name: &str,
    style: Style,
) -> Option<String> {
    let s = old_struct(old, owner)?;
    let field = s.fields.iter().find(|f| f.json_name == json_name);
    let set_changed = matches!(
        kind,
        Kind::StructFieldAdded
            | Kind::StructFieldAddedRequired
            | Kind::StructFieldRemoved
            | Kind::StructFieldBecameConstant
            | Kind::StructConstantBecameField
    );
    match (style, field) {
        (Style::Literals, Some(f)) if !set_changed => Some(format!(
            "pub fn f(base: {owner}, v: {}) -> {owner} {{ {owner} {{ {}: v, ..base }} }}",
            field_type(f),
            f.rust_name
        )),
        (Style::Literals, _) => Some(full_literal(owner, s)),
        (Style::Constructors, Some(f)) if !f.required => Some(format!(
            "pub fn f(base: {owner}, v: {}) -> {owner} {{ base.{}(v) }}",
            rust_type(&f.ty),
            setter(&f.rust_name)
        )),
        (Style::Constructors, _) => Some(new_call(owner, s)),
        (Style::Match, Some(f)) => {
            Some(format!("pub fn f(base: &{owner}) {{ {} }}", read_field(f)))
        }
        (Style::Match, None) => None,
    }
}

fn extra_probe(old: &Module, owner: &str, style: Style) -> Option<String> {
    let s = old_struct(old, owner)?;
    let value = match &s.additional {
        mcp_codegen::ir::Additional::Forbidden => None,
        mcp_codegen::ir::Additional::Any => Some("serde_json::Value".to_owned()),
        mcp_codegen::ir::Additional::Typed(t) => Some(rust_type(t)),
    };
    match (style, value) {
        (Style::Literals, Some(v)) => {
            // The full literal, with undeclared members of the old type.
            let map = format!("{}{v}>", extra_map(&s.additional));
            let literal = full_literal(owner, s)
                .replacen("pub fn f(", &format!("pub fn f(e: {map}, "), 1)
                .replace("extra: Default::default()", "extra: e");
            Some(literal)
        }
        (Style::Literals, None) => Some(full_literal(owner, s)),
        (Style::Constructors, Some(v)) => Some(format!(
            "pub fn f(base: {owner}, k: String, v: {v}) -> {owner} {{ base.with_extra(k, v) }}"
        )),
        (Style::Constructors, None) => Some(new_call(owner, s)),
        (Style::Match, Some(v)) => Some(format!(
            "pub fn f(base: &{owner}) {{ let _: &{}<{v}> = &base.extra; }}",
            extra_map(&s.additional)
        )),
        (Style::Match, None) => None,
    }
}

/// The map type of `extra`, without its value type.
fn extra_map(a: &mcp_codegen::ir::Additional) -> &'static str {
    match a {
        mcp_codegen::ir::Additional::Typed(_) => "IndexMap<String, ",
        _ => "serde_json::Map<String, ",
    }
}

/// A string enum: its variant named, or an exhaustive match over the old variants.
fn enum_probe(old: &Module, owner: &str, value: Option<&str>, style: Style) -> Option<String> {
    let TypeKind::StringEnum(values) = &old.get(owner)?.kind else {
        return None;
    };
    let named = match value {
        Some(value) => values.iter().find(|v| v.value == value),
        None => values.first(),
    };
    match style {
        Style::Match => {
            let arms: Vec<String> = values
                .iter()
                .map(|v| format!("{owner}::{} => {{}}", v.variant))
                .collect();
            Some(format!(
                "pub fn f(v: {owner}) {{ match v {{ {} }} }}",
                arms.join(", ")
            ))
        }
        _ => named.map(|v| format!("pub fn f() -> {owner} {{ {owner}::{} }}", v.variant)),
    }
}

fn member_probe(
    old: &Module,
    new: &Module,
    change: &Change,
    owner: &str,
    variant: &str,
    style: Style,
) -> Option<String> {
    let added = matches!(change.kind, Kind::UnionMemberAdded | Kind::MethodAdded);
    match (&old.get(owner)?.kind, added, style) {
        // An addition can take away the `From`s of the members that stay (same type).
        (TypeKind::Union(u), true, Style::Constructors) => {
            let stays = |v: &str| match new.get(owner).map(|t| &t.kind) {
                Some(TypeKind::Union(n)) => n
                    .variants
                    .iter()
                    .any(|w| w.name == v && u.variants.iter().any(|x| x.name == v && x.ty == w.ty)),
                _ => false,
            };
            from_probe(old, owner, u, &stays)
        }
        (TypeKind::Union(u), true, Style::Match) => union_probe(old, owner, u, style),
        (TypeKind::Calls(set), true, Style::Match) => {
            calls_probe(old, owner, &set.calls.first()?.variant, style)
        }
        (_, true, _) => None,
        (TypeKind::Union(u), false, _) => member_use(old, owner, u, variant, style),
        (TypeKind::Calls(_), false, _) => calls_probe(old, owner, variant, style),
        _ => None,
    }
}

/// `From` each member that has one, for the members `keep` selects.
fn from_probe(old: &Module, owner: &str, u: &Union, keep: &dyn Fn(&str) -> bool) -> Option<String> {
    let froms: Vec<String> = from_variants(old, owner, u)
        .into_iter()
        .filter(|(v, _)| keep(v))
        .enumerate()
        .map(|(i, _)| format!("let _ = {owner}::from(p{i}());"))
        .collect();
    let sources: Vec<String> = from_variants(old, owner, u)
        .into_iter()
        .filter(|(v, _)| keep(v))
        .enumerate()
        .map(|(i, (_, ty))| format!("fn p{i}() -> {ty} {{ unimplemented!() }}"))
        .collect();
    (!froms.is_empty())
        .then(|| format!("{} pub fn f() {{ {} }}", sources.join(" "), froms.join(" ")))
}

/// The members with a `From`: their type (aliases resolved) is no other member's, not null,
/// not the union itself (`emit::constructors::union_conversions`), with that source type.
fn from_variants(old: &Module, owner: &str, u: &Union) -> Vec<(String, String)> {
    let resolved: Vec<TypeExpr> = u.variants.iter().map(|v| resolve(old, &v.ty)).collect();
    u.variants
        .iter()
        .zip(&resolved)
        .filter(|(_, r)| resolved.iter().filter(|o| o == r).count() == 1)
        .filter(|(_, r)| !matches!(r, TypeExpr::Nullable(_)))
        .filter(|(_, r)| !matches!(r, TypeExpr::Named(n) if n == owner))
        .map(|(v, r)| (v.name.clone(), rust_type(r)))
        .collect()
}

fn resolve(module: &Module, t: &TypeExpr) -> TypeExpr {
    let mut t = t.clone();
    for _ in 0..16 {
        let TypeExpr::Named(name) = &t else { break };
        match module.get(name).map(|d| &d.kind) {
            Some(TypeKind::Alias(target)) => t = target.clone(),
            _ => break,
        }
    }
    t
}

/// The member's type as its variant holds it.
fn member_type(u: &Union, variant: &str) -> Option<String> {
    let v = u.variants.iter().find(|v| v.name == variant)?;
    let ty = rust_type(&v.ty);
    Some(if v.boxed { format!("Box<{ty}>") } else { ty })
}

fn union_probe(old: &Module, owner: &str, u: &Union, style: Style) -> Option<String> {
    let first = u.variants.first()?;
    member_use(old, owner, u, &first.name, style)
}

/// One member of a union built, converted from, or matched (exhaustively, reading it).
fn member_use(old: &Module, owner: &str, u: &Union, variant: &str, style: Style) -> Option<String> {
    let ty = member_type(u, variant)?;
    match style {
        Style::Literals => Some(format!(
            "pub fn f(v: {ty}) -> {owner} {{ {owner}::{variant}(v) }}"
        )),
        Style::Constructors => from_probe(old, owner, u, &|v| v == variant),
        Style::Match => {
            let arms: Vec<String> = u
                .variants
                .iter()
                .map(|v| {
                    if v.name == variant {
                        format!(
                            "{owner}::{}(x) => {{ let _: &{} = x; }}",
                            v.name,
                            unboxed(&ty)
                        )
                    } else {
                        format!("{owner}::{}(_) => {{}}", v.name)
                    }
                })
                .collect();
            Some(format!(
                "pub fn f(v: &{owner}) {{ match v {{ {} }} }}",
                arms.join(", ")
            ))
        }
    }
}

/// A call set's variant: built by hand, by its constructor, or matched.
fn calls_probe(old: &Module, owner: &str, variant: &str, style: Style) -> Option<String> {
    let TypeKind::Calls(set) = &old.get(owner)?.kind else {
        return None;
    };
    let call = set.calls.iter().find(|c| c.variant == variant)?;
    let params = call.params.as_ref().map(|p| {
        let ty = rust_type(p);
        let ty = if call.boxed { format!("Box<{ty}>") } else { ty };
        if call.params_required {
            ty
        } else {
            format!("Option<{ty}>")
        }
    });
    let ctor = mcp_codegen::naming::field_name(variant);
    let clash = set
        .calls
        .iter()
        .filter(|c| mcp_codegen::naming::field_name(&c.variant) == ctor)
        .count()
        > 1
        || [
            "new",
            "from",
            "default",
            "method",
            "as_str",
            "parse",
            "from_value",
        ]
        .contains(&ctor.as_str());
    match (style, &params) {
        (Style::Literals, Some(p)) => Some(format!(
            "pub fn f(v: {p}) -> {owner} {{ {owner}::{variant}(v) }}"
        )),
        (Style::Literals, None) => Some(format!("pub fn f() -> {owner} {{ {owner}::{variant} }}")),
        (Style::Constructors, _) if clash => None,
        (Style::Constructors, Some(_)) => {
            let p = call.params.as_ref().map(rust_type)?;
            let p = if call.params_required {
                p
            } else {
                format!("Option<{p}>")
            };
            Some(format!(
                "pub fn f(v: {p}) -> {owner} {{ {owner}::{ctor}(v) }}"
            ))
        }
        (Style::Constructors, None) => {
            Some(format!("pub fn f() -> {owner} {{ {owner}::{ctor}() }}"))
        }
        (Style::Match, _) => {
            let arms: Vec<String> = set
                .calls
                .iter()
                .map(|c| match (&c.params, c.variant == variant, &params) {
                    (None, _, _) => format!("{owner}::{} => {{}}", c.variant),
                    (Some(_), true, Some(p)) => {
                        format!(
                            "{owner}::{}(x) => {{ let _: &{} = x; }}",
                            c.variant,
                            unboxed(p)
                        )
                    }
                    (Some(_), _, _) => format!("{owner}::{}(_) => {{}}", c.variant),
                })
                .collect();
            Some(format!(
                "pub fn f(v: &{owner}) {{ match v {{ {} }} }}",
                arms.join(", ")
            ))
        }
    }
}

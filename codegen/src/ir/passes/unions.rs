//! Union dispatch: the kinds of JSON value each union member accepts, and how an object value
//! finds its member (one object member, a spec rule, a tag, deciding member names, or a
//! structural match).
//! Unions whose members cannot be told apart are refused.

use std::collections::BTreeSet;

use crate::ir::{
    ConstValue, JsonKind, Module, ObjectDispatch, Partition, StructuralCase, TypeExpr, TypeKind,
};
use crate::schema_error::{err, SchemaError};

/// The JSON kinds a type accepts.
pub(crate) fn kinds(module: &Module, ty: &TypeExpr) -> BTreeSet<JsonKind> {
    let mut visiting = BTreeSet::new();
    kinds_inner(module, ty, &mut visiting)
}

fn kinds_inner(
    module: &Module,
    ty: &TypeExpr,
    visiting: &mut BTreeSet<String>,
) -> BTreeSet<JsonKind> {
    use JsonKind::*;
    match ty {
        TypeExpr::String => [String].into(),
        TypeExpr::Integer => [Integer].into(),
        TypeExpr::Number => [Integer, Number].into(),
        TypeExpr::Boolean => [Boolean].into(),
        TypeExpr::Any => [Null, Boolean, Integer, Number, String, Array, Object].into(),
        TypeExpr::Array(_) => [Array].into(),
        TypeExpr::Map(_) => [Object].into(),
        TypeExpr::Nullable(inner) => {
            let mut k = kinds_inner(module, inner, visiting);
            k.insert(Null);
            k
        }
        TypeExpr::Named(name) => {
            if !visiting.insert(name.clone()) {
                return BTreeSet::new();
            }
            let out = match module.get(name).map(|t| &t.kind) {
                Some(TypeKind::Struct(_) | TypeKind::Calls(_)) => [Object].into(),
                Some(TypeKind::StringEnum(_)) => [String].into(),
                Some(TypeKind::Alias(inner)) => kinds_inner(module, inner, visiting),
                Some(TypeKind::Union(u)) => u
                    .variants
                    .iter()
                    .flat_map(|v| kinds_inner(module, &v.ty, visiting))
                    .collect(),
                None => BTreeSet::new(),
            };
            visiting.remove(name);
            out
        }
    }
}

/// Resolves aliases down to the kind of the type a type expression names, if it names one.
fn named_kind<'m>(module: &'m Module, ty: &TypeExpr) -> Option<&'m TypeKind> {
    let mut ty = ty;
    for _ in 0..64 {
        let TypeExpr::Named(name) = ty else {
            return None;
        };
        match &module.get(name)?.kind {
            TypeKind::Alias(inner) => ty = inner,
            kind => return Some(kind),
        }
    }
    None
}

/// The struct a type names, through aliases.
fn struct_of<'m>(module: &'m Module, ty: &TypeExpr) -> Option<&'m crate::ir::Struct> {
    match named_kind(module, ty)? {
        TypeKind::Struct(s) => Some(s),
        _ => None,
    }
}

/// Computes every union's member kinds and object dispatch, refusing unions whose members
/// cannot be told apart by the kind of JSON value (two members that both take strings, …).
pub(super) fn finalize(module: &mut Module) -> Result<(), SchemaError> {
    for index in 0..module.types.len() {
        let TypeKind::Union(union) = &module.types[index].kind else {
            continue;
        };
        let pointer = module.types[index].pointer.clone();
        let mut variants = union.variants.clone();
        for v in &mut variants {
            v.kinds = kinds(module, &v.ty);
            if v.kinds.is_empty() {
                return err(
                    &pointer,
                    format!("union member `{}` refers back to the union itself", v.name),
                );
            }
        }
        let takes = |k: JsonKind| {
            variants
                .iter()
                .enumerate()
                .filter(|(_, v)| v.kinds.contains(&k))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let objects: Vec<usize> = takes(JsonKind::Object);
        let dispatch = match objects.len() {
            0 => ObjectDispatch::None,
            1 => ObjectDispatch::Single(objects[0]),
            // A rule of the spec's prose comes before what the schema alone would say.
            _ => match super::spec_rules::object_dispatch(module, &variants, &objects)
                .or_else(|| tagged(module, &variants, &objects))
            {
                Some(dispatch) => dispatch,
                None => keyed(module, &variants, &objects, &pointer)?,
            },
        };
        if let TypeKind::Union(u) = &mut module.types[index].kind {
            u.variants = variants;
            u.objects = dispatch;
        }
    }
    Ok(())
}

/// Deciding member names (declared by exactly one object member) and the structural fallback.
fn keyed(
    module: &Module,
    variants: &[crate::ir::Variant],
    objects: &[usize],
    pointer: &str,
) -> Result<ObjectDispatch, SchemaError> {
    let fallback: Vec<StructuralCase> = objects
        .iter()
        .map(|&i| {
            let (required, declared) = match struct_of(module, &variants[i].ty) {
                Some(s) => (
                    // A member a spec rule fills in is not needed to match the shape: the type
                    // decodes without it (a 2025-11-25 result read as a 2026-07-28 one).
                    s.must_carry_names()
                        .into_iter()
                        .map(str::to_owned)
                        .collect(),
                    s.wire_names().map(str::to_owned).collect(),
                ),
                None => (Vec::new(), Vec::new()),
            };
            StructuralCase {
                variant: i,
                required,
                declared,
            }
        })
        .collect();
    let mut deciding = Vec::new();
    for case in &fallback {
        for name in &case.declared {
            let declared_elsewhere = fallback
                .iter()
                .any(|other| other.variant != case.variant && other.declared.contains(name));
            if !declared_elsewhere {
                deciding.push((name.clone(), case.variant));
            }
        }
    }
    let mut names: Vec<String> = fallback
        .iter()
        .flat_map(|case| case.declared.iter().chain(&case.required))
        .cloned()
        .collect();
    names.sort();
    names.dedup();
    // The runtime matches an object against the members, and the members against it, as bit
    // sets of at most 64.
    if names.len() > 64 || fallback.len() > 64 {
        return err(
            pointer,
            format!(
                "this union has {} object members declaring {} member names; structural matching handles at most 64 of each",
                fallback.len(),
                names.len()
            ),
        );
    }
    let partition = partition(module, variants, &fallback);
    Ok(ObjectDispatch::Keyed {
        deciding,
        fallback,
        names,
        partition,
    })
}

/// The first member name (in name order) that every case requires with a string from a fixed
/// set, and whose value leaves fewer cases than all of them for at least one value.
fn partition(
    module: &Module,
    variants: &[crate::ir::Variant],
    fallback: &[StructuralCase],
) -> Option<Partition> {
    let structs: Vec<&crate::ir::Struct> = fallback
        .iter()
        .map(|case| struct_of(module, &variants[case.variant].ty))
        .collect::<Option<_>>()?;
    let mut names: Vec<&str> = structs[0].wire_names().collect();
    names.sort_unstable();
    'names: for tag in names {
        let mut by_value: Vec<(String, Vec<usize>)> = Vec::new();
        for (position, s) in structs.iter().enumerate() {
            let Some(values) = string_values(module, s, tag) else {
                continue 'names;
            };
            for value in values {
                match by_value.iter_mut().find(|(v, _)| *v == value) {
                    Some((_, cases)) => cases.push(position),
                    None => by_value.push((value, vec![position])),
                }
            }
        }
        if by_value
            .iter()
            .any(|(_, cases)| cases.len() < fallback.len())
        {
            by_value.sort();
            return Some(Partition {
                tag: tag.to_owned(),
                cases: by_value,
            });
        }
    }
    None
}

/// The strings a struct allows for its member `name`, where it requires the member (no spec
/// rule fills it in) and fixes it to a constant or to a string enum.
fn string_values(module: &Module, s: &crate::ir::Struct, name: &str) -> Option<Vec<String>> {
    if !s.must_carry_names().contains(&name) {
        return None;
    }
    if let Some(c) = s.consts.iter().find(|c| c.json_name == name) {
        return match &c.value {
            ConstValue::String(value) => Some(vec![value.clone()]),
            _ => None,
        };
    }
    let field = s
        .fields
        .iter()
        .find(|f| f.json_name == name && f.required)?;
    match named_kind(module, &field.ty)? {
        TypeKind::StringEnum(values) => Some(values.iter().map(|v| v.value.clone()).collect()),
        _ => None,
    }
}

/// A member name that every object member fixes to its own string constant (at most one of
/// them leaving it optional: that one is the default when the member is absent).
fn tagged(
    module: &Module,
    variants: &[crate::ir::Variant],
    objects: &[usize],
) -> Option<ObjectDispatch> {
    let structs: Vec<&crate::ir::Struct> = objects
        .iter()
        .map(|&i| struct_of(module, &variants[i].ty))
        .collect::<Option<_>>()?;
    let mut candidates: Vec<&str> = structs[0]
        .consts
        .iter()
        .filter(|c| matches!(c.value, ConstValue::String(_)))
        .map(|c| c.json_name.as_str())
        .collect();
    candidates.extend(
        structs[0]
            .fields
            .iter()
            .filter(|f| f.implied_const.is_some())
            .map(|f| f.json_name.as_str()),
    );
    'candidates: for tag in candidates {
        let mut cases = Vec::new();
        let mut default = None;
        for (s, &variant) in structs.iter().zip(objects) {
            if let Some(c) = s.consts.iter().find(|c| c.json_name == tag) {
                let ConstValue::String(value) = &c.value else {
                    continue 'candidates;
                };
                cases.push((value.clone(), variant));
            } else if let Some(f) = s
                .fields
                .iter()
                .find(|f| f.json_name == tag && f.implied_const.is_some())
            {
                if default.is_some() {
                    continue 'candidates;
                }
                default = Some(variant);
                cases.push((f.implied_const.as_ref()?.value.clone(), variant));
            } else {
                continue 'candidates;
            }
        }
        let distinct: BTreeSet<&String> = cases.iter().map(|(v, _)| v).collect();
        if distinct.len() == cases.len() {
            return Some(ObjectDispatch::Tagged {
                tag: tag.to_owned(),
                cases,
                default,
            });
        }
    }
    None
}

//! Which enum members to box. An enum is as large as its largest member, and a decoded value is
//! moved through several layers (`Ok`, `map`, the envelope) before the caller has it: a 700-byte
//! `InitializeRequestParams` inline in `ClientRequest` made every `tools/call` message 776 bytes
//! and the copies dominated decode time. Members estimated above [`BOX_ABOVE`] bytes are boxed.

use std::collections::BTreeSet;

use crate::ir::{Additional, Module, TypeExpr, TypeKind};

/// Estimated payload size (bytes, 64-bit) above which an enum member is boxed.
pub const BOX_ABOVE: usize = 96;

/// Marks large union members and call params as boxed.
pub(super) fn box_large_members(module: &mut Module) {
    let mut marks = Vec::new();
    for (ti, t) in module.types.iter().enumerate() {
        match &t.kind {
            TypeKind::Union(u) if u.variants.len() > 1 => {
                for (vi, v) in u.variants.iter().enumerate() {
                    if size_of_expr(module, &v.ty, &mut BTreeSet::new()) > BOX_ABOVE {
                        marks.push((ti, vi));
                    }
                }
            }
            TypeKind::Calls(set) => {
                for (ci, c) in set.calls.iter().enumerate() {
                    if c.params
                        .as_ref()
                        .is_some_and(|p| size_of_expr(module, p, &mut BTreeSet::new()) > BOX_ABOVE)
                    {
                        marks.push((ti, ci));
                    }
                }
            }
            _ => {}
        }
    }
    for (ti, i) in marks {
        match &mut module.types[ti].kind {
            TypeKind::Union(u) => u.variants[i].boxed = true,
            TypeKind::Calls(set) => set.calls[i].boxed = true,
            _ => {}
        }
    }
}

/// An estimate of `size_of` for the Rust type of `ty`: exact for the std types, a sum of fields
/// (no padding, `Option` free for pointer-like types) for structs.
fn size_of_expr(module: &Module, ty: &TypeExpr, visiting: &mut BTreeSet<String>) -> usize {
    match ty {
        TypeExpr::String | TypeExpr::Array(_) | TypeExpr::Map(_) => 24,
        TypeExpr::Integer => 8,
        TypeExpr::Number => 16,
        TypeExpr::Boolean => 1,
        TypeExpr::Any => 32,
        TypeExpr::Nullable(inner) => size_of_expr(module, inner, visiting) + 8,
        TypeExpr::Named(name) => {
            if !visiting.insert(name.clone()) {
                return 8;
            }
            let size = match module.get(name).map(|t| &t.kind) {
                Some(TypeKind::Struct(s)) => {
                    let fields: usize = s
                        .fields
                        .iter()
                        .map(|f| {
                            let inner = if f.boxed {
                                8
                            } else {
                                size_of_expr(module, &f.ty, visiting)
                            };
                            let pointer_like = f.boxed
                                || matches!(
                                    f.ty,
                                    TypeExpr::String | TypeExpr::Array(_) | TypeExpr::Map(_)
                                );
                            if f.required || pointer_like {
                                inner
                            } else {
                                inner + 8
                            }
                        })
                        .sum();
                    fields
                        + if s.additional == Additional::Forbidden {
                            0
                        } else {
                            24
                        }
                }
                Some(TypeKind::StringEnum(_)) => 1,
                Some(TypeKind::Alias(inner)) => size_of_expr(module, inner, visiting),
                Some(TypeKind::Union(u)) => {
                    8 + u
                        .variants
                        .iter()
                        .map(|v| {
                            if v.boxed {
                                8
                            } else {
                                size_of_expr(module, &v.ty, visiting)
                            }
                        })
                        .max()
                        .unwrap_or(0)
                }
                Some(TypeKind::Calls(set)) => {
                    8 + set
                        .calls
                        .iter()
                        .filter_map(|c| c.params.as_ref())
                        .map(|p| size_of_expr(module, p, visiting))
                        .max()
                        .unwrap_or(0)
                }
                None => 8,
            };
            visiting.remove(name);
            size
        }
    }
}

//! Recursive structs: the fields through which a struct contains itself are boxed, so that it has
//! a finite size.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Module, TypeExpr, TypeKind};

/// A struct that contains itself through plain or optional fields has infinite size: box the
/// fields that close such a cycle. `Vec` and maps already add the indirection.
pub(super) fn mark_boxed_fields(module: &mut Module) {
    fn direct_target(ty: &TypeExpr) -> Option<&str> {
        match ty {
            TypeExpr::Named(n) => Some(n),
            TypeExpr::Nullable(inner) => direct_target(inner),
            _ => None,
        }
    }
    let edges: HashMap<String, Vec<String>> = module
        .types
        .iter()
        .map(|t| {
            let targets = match &t.kind {
                TypeKind::Struct(s) => s
                    .fields
                    .iter()
                    .filter_map(|f| direct_target(&f.ty))
                    .map(str::to_owned)
                    .collect(),
                TypeKind::Union(u) => u
                    .variants
                    .iter()
                    .filter_map(|v| direct_target(&v.ty))
                    .map(str::to_owned)
                    .collect(),
                TypeKind::Alias(ty) => direct_target(ty).map(str::to_owned).into_iter().collect(),
                TypeKind::StringEnum(_) | TypeKind::Calls(_) => Vec::new(),
            };
            (t.name.clone(), targets)
        })
        .collect();
    let reaches = |from: &str, to: &str| -> bool {
        let mut stack = vec![from.to_owned()];
        let mut seen = BTreeSet::new();
        while let Some(n) = stack.pop() {
            if n == to {
                return true;
            }
            if seen.insert(n.clone()) {
                stack.extend(edges.get(&n).into_iter().flatten().cloned());
            }
        }
        false
    };
    let mut boxes = Vec::new();
    for (ti, t) in module.types.iter().enumerate() {
        if let TypeKind::Struct(s) = &t.kind {
            for (fi, f) in s.fields.iter().enumerate() {
                if direct_target(&f.ty).is_some_and(|target| reaches(target, &t.name)) {
                    boxes.push((ti, fi));
                }
            }
        }
    }
    for (ti, fi) in boxes {
        if let TypeKind::Struct(s) = &mut module.types[ti].kind {
            s.fields[fi].boxed = true;
        }
    }
}

//! Alias cycles: `type A = B; type B = A;` has no Rust meaning, so such schemas are refused.

use std::collections::{BTreeSet, HashMap};

use crate::ir::{Module, TypeDef, TypeExpr, TypeKind};
use crate::schema_error::{err, SchemaError};

/// `type A = B; type B = A;` does not compile: refuse alias cycles with the pointer.
pub(super) fn check_alias_cycles(module: &Module) -> Result<(), SchemaError> {
    let aliases: HashMap<&str, &TypeDef> = module
        .types
        .iter()
        .filter(|t| matches!(t.kind, TypeKind::Alias(_)))
        .map(|t| (t.name.as_str(), t))
        .collect();
    for start in aliases.values() {
        let mut seen = BTreeSet::new();
        let mut current = *start;
        while let TypeKind::Alias(TypeExpr::Named(next)) = &current.kind {
            if !seen.insert(current.name.as_str()) {
                return err(
                    &start.pointer,
                    format!(
                        "`$ref` cycle through alias `{}`",
                        start.schema_name.as_deref().unwrap_or(&start.name)
                    ),
                );
            }
            match aliases.get(next.as_str()) {
                Some(t) => current = t,
                None => break,
            }
        }
    }
    Ok(())
}

//! Before loading: the definitions that tools nest inside a definition, moved up to the root.

use serde_json::Value;

use super::{err, SchemaError};
use mcp_typed_json::pointer::escape;

/// Moves the `$defs` (or `definitions`) that tools leave inside a root definition (zod's
/// `z.toJSONSchema` of each definition on its own keeps the schemas it shares, `__schema0`, in
/// its own `$defs`, referred to as `#/$defs/__schema0`) up to the root's, where those references
/// find them. A name already at the root must hold the same schema.
///
/// The generator does this before it reads a schema; do it too before validating instances
/// against such a schema as a whole document (as its own references mean).
pub fn hoist_nested_definitions(root: &mut Value) -> Result<(), SchemaError> {
    let Some(root_obj) = root.as_object_mut() else {
        return Ok(());
    };
    for defs_key in ["$defs", "definitions"] {
        let Some(Value::Object(defs)) = root_obj.get_mut(defs_key) else {
            continue;
        };
        let mut hoisted: Vec<(String, String, Value)> = Vec::new();
        for (owner, schema) in defs.iter_mut() {
            let Some(schema) = schema.as_object_mut() else {
                continue;
            };
            for inner_key in ["$defs", "definitions"] {
                // Only where the references inside point at the root's key.
                if inner_key != defs_key {
                    continue;
                }
                if let Some(Value::Object(inner)) = schema.remove(inner_key) {
                    for (name, value) in inner {
                        hoisted.push((owner.clone(), name, value));
                    }
                }
            }
        }
        for (owner, name, value) in hoisted {
            match defs.get(&name) {
                None => {
                    defs.insert(name, value);
                }
                Some(existing) if *existing == value => {}
                Some(_) => {
                    return err(
                        &format!(
                            "/{defs_key}/{}/{defs_key}/{}",
                            escape(&owner),
                            escape(&name)
                        ),
                        format!(
                            "`{name}` is defined inside `{owner}` and differently at the root: \
                             definitions below the root are moved to the root's `{defs_key}`"
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

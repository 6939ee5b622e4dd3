//! Loading a schema file into the [`ir`](crate::ir): both JSON Schema dialects, `$ref`
//! resolution, `allOf` merging, nullable forms, and deterministic names for inline types.
//!
//! Every keyword is turned into the type, accepted as an annotation, carried into the rustdoc
//! as a validation keyword the types do not enforce, or refused with the JSON pointer of the
//! schema that uses it and the reason (see [`keywords`]). Nothing is skipped silently and
//! nothing panics. Besides the official MCP schemas, it reads what common tools write: zod,
//! typescript-json-schema, schemars and pydantic (`$schema`/`$id` on every definition, a root
//! that is itself a type, `type: [T, "null"]`, `anyOf: [T, {type: null}]`, enums written as
//! `anyOf` of constants, `$ref` with sibling keywords, `allOf` of one `$ref`).

pub mod errata;
pub mod keywords;
mod layout;
mod messages;
mod unions;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Map, Value};

use self::keywords::{ANNOTATIONS, DOCUMENTED, STRUCTURAL};
use crate::ir::{
    Additional, ConstField, ConstValue, EnumValue, Field, ImpliedConst, Module, Struct, TypeDef,
    TypeExpr, TypeKind, Union, Variant,
};
use crate::naming;
use crate::pointer::{escape, unescape};
use crate::revisions::Dialect;

/// Validation keywords the generated types do not enforce: a value that breaks them still
/// decodes. They are documented on the field instead (see [`keywords::DOCUMENTED`]).
pub const VALIDATION_ONLY: &[&str] = DOCUMENTED;

/// What [`load_with`] does besides building types.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// Carry the validation keywords the types do not enforce (bounds, lengths, `pattern`,
    /// `format`, …) into the rustdoc of the field or type that has them.
    pub constraint_docs: bool,
    /// For a schema without direction unions: request definitions paired with the result
    /// definition their naming does not give (`("FooRequest", "BarResult")`, schema names).
    pub results: Vec<(String, String)>,
    /// For a schema without direction unions: message enums to generate, each a Rust name and
    /// the request (or notification) definitions it dispatches on `method`.
    pub message_enums: Vec<(String, Vec<String>)>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        Self {
            constraint_docs: true,
            results: Vec::new(),
            message_enums: Vec::new(),
        }
    }
}

/// A schema the generator cannot turn into Rust, with the place it happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct SchemaError {
    /// JSON pointer into the schema file (`/$defs/Tool/properties/name`).
    pub pointer: String,
    /// What was found and what was expected.
    pub message: String,
}

fn err<T>(pointer: &str, message: impl Into<String>) -> Result<T, SchemaError> {
    Err(SchemaError {
        pointer: pointer.to_owned(),
        message: message.into(),
    })
}

/// Refuses a Rust name that cannot be written as an identifier. Naming keeps every alphanumeric
/// character, and some are not identifier characters (`x²`: `²` is numeric): emitting such a
/// name made `proc_macro2::Ident::new` panic. `Self` passes: the emitter writes it as `Self_`.
pub(crate) fn check_identifier(name: &str, pointer: &str, what: &str) -> Result<(), SchemaError> {
    if name == "Self" || syn::parse_str::<syn::Ident>(name).is_ok() {
        return Ok(());
    }
    err(
        pointer,
        format!("{what} `{name}` is not a valid Rust identifier"),
    )
}

/// Detects the dialect from the root's `$schema`; without one (pydantic writes none), from
/// where the definitions are, else 2020-12 for a root that is itself a schema.
pub fn detect_dialect(root: &Value) -> Result<Dialect, SchemaError> {
    let Some(root) = root.as_object() else {
        return err("", "the schema root must be an object");
    };
    match root.get("$schema").and_then(Value::as_str) {
        Some(s) if s.contains("draft-07") => Ok(Dialect::Draft07),
        // 2019-09 keeps its definitions under `$defs` too; its `$recursiveRef` is refused.
        Some(s) if s.contains("2020-12") || s.contains("2019-09") => Ok(Dialect::Draft2020_12),
        Some(s) => err(
            "/$schema",
            format!("unsupported JSON Schema dialect `{s}` (expected draft-07 or 2020-12)"),
        ),
        None if root.contains_key("$defs") => Ok(Dialect::Draft2020_12),
        None if root.contains_key("definitions") => Ok(Dialect::Draft07),
        None if root.keys().any(|k| STRUCTURAL.contains(&k.as_str())) => Ok(Dialect::Draft2020_12),
        None => err(
            "",
            "no `$schema`, `$defs` or `definitions`, and the root is not a schema of a type: \
             nothing to generate",
        ),
    }
}

/// Loads a whole schema into a [`Module`], constraints documented.
pub fn load(root: &Value, dialect: Dialect) -> Result<Module, SchemaError> {
    load_with(root, dialect, &LoadOptions::default())
}

/// Loads a whole schema into a [`Module`]: a type for each definition, and one for the root when
/// the root is itself the schema of a type (schemars, pydantic and zod write a type so, its
/// definitions beside it), named after its `title` (else `Root`).
pub fn load_with(
    root: &Value,
    dialect: Dialect,
    options: &LoadOptions,
) -> Result<Module, SchemaError> {
    let Some(root_obj) = root.as_object() else {
        return err(
            "",
            format!("the schema root must be an object, found {}", kind_of(root)),
        );
    };
    // Tools do not always keep to their dialect's key (pydantic writes `$defs` without a
    // `$schema`; zod and schemars can target draft-07 with either): take the one present.
    let defs_key = match (
        root_obj.contains_key("$defs"),
        root_obj.contains_key("definitions"),
    ) {
        (true, true) => {
            return err(
                "/definitions",
                "both `$defs` and `definitions`: keep every definition under one of them",
            )
        }
        (true, false) => "$defs",
        (false, true) => "definitions",
        (false, false) => dialect.definitions_key(),
    };
    let empty = Map::new();
    let defs = match root_obj.get(defs_key) {
        None => &empty,
        Some(Value::Object(defs)) => defs,
        Some(_) => return err(&format!("/{defs_key}"), "definitions must be an object"),
    };
    // The root without its definitions: the schema of the root type, if it is one. A root that
    // only refers to a definition (typescript-json-schema's `"$ref": "#/definitions/Main"`)
    // names no type of its own.
    let root_schema: Map<String, Value> = root_obj
        .iter()
        .filter(|(k, _)| *k != defs_key)
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let structural: Vec<&str> = root_schema
        .keys()
        .map(String::as_str)
        .filter(|k| STRUCTURAL.contains(k))
        .collect();
    let root_is_type = !structural.is_empty() && structural != ["$ref"];
    if !root_is_type && defs.is_empty() {
        return err(
            "",
            format!("no `{defs_key}` and the root is not a schema of a type: nothing to generate"),
        );
    }
    let root_name = root_is_type.then(|| match root_obj.get("title").and_then(Value::as_str) {
        Some(title) => naming::type_name(title),
        None => "Root".to_owned(),
    });
    let root_value = Value::Object(root_schema);
    // TypeScript-generated schemas sometimes repeat a definition as a union member (2025-03-26
    // spells out JSONRPCBatchRequest inside JSONRPCMessage): such a copy names the definition.
    let defs_by_shape = defs
        .iter()
        .filter(|(_, schema)| !is_primitive(schema))
        .map(|(name, schema)| (schema.to_string(), name.as_str()))
        .collect();
    let mut loader = Loader {
        defs,
        defs_key,
        root: &root_value,
        root_name: root_name.clone(),
        defs_by_shape,
        names: HashMap::new(),
        types: Vec::new(),
        options,
    };
    // Reserve every definition's name first, so inline names can never take one.
    for name in defs.keys() {
        let rust = naming::type_name(name);
        loader.claim(&rust, &format!("/{defs_key}/{}", escape(name)))?;
    }
    let mut entries: Vec<(String, &Value, String, String)> = Vec::new();
    if let Some(rust) = &root_name {
        loader.claim(rust, "")?;
        let schema_name = root_obj
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("Root")
            .to_owned();
        entries.push((schema_name, &root_value, String::new(), rust.clone()));
    } else if let Some(reference) = root_obj.get("$ref") {
        // Nothing is generated for it, but a dangling reference is still an error.
        loader.check_keywords(root_obj, "")?;
        loader.resolve_ref(reference, "")?;
    } else {
        loader.check_root_keywords(root_obj, defs_key)?;
    }
    for (name, schema) in defs {
        let pointer = format!("/{defs_key}/{}", escape(name));
        entries.push((name.clone(), schema, pointer, naming::type_name(name)));
    }
    for (name, schema, pointer, rust) in entries {
        let index = loader.types.len();
        loader.types.push(TypeDef {
            name: rust.clone(),
            schema_name: Some(name),
            pointer: pointer.clone(),
            doc: None,
            errata: Vec::new(),
            kind: TypeKind::Alias(TypeExpr::Any),
        });
        let (doc, kind) = loader.definition(schema, &pointer, &rust)?;
        loader.types[index].doc = doc;
        loader.types[index].kind = kind;
    }
    let mut module = Module {
        types: loader.types,
        messages: None,
        extension_requests: Vec::new(),
    };
    check_alias_cycles(&module)?;
    // Before the unions: a member a spec rule fills in does not decide a shape.
    spec_rules(&mut module);
    unions::finalize(&mut module)?;
    messages::derive(&mut module, options)?;
    layout::box_large_members(&mut module);
    mark_boxed_fields(&mut module);
    Ok(module)
}

struct Loader<'a> {
    defs: &'a Map<String, Value>,
    defs_key: &'a str,
    /// The root's schema without its definitions, which `"$ref": "#"` refers to.
    root: &'a Value,
    /// The Rust name of the root type, when the root is the schema of a type.
    root_name: Option<String>,
    /// A definition's schema text → its name, for inline copies of definitions.
    defs_by_shape: HashMap<String, &'a str>,
    /// Rust name → pointer of the schema that took it.
    names: HashMap<String, String>,
    types: Vec<TypeDef>,
    options: &'a LoadOptions,
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl<'a> Loader<'a> {
    fn claim(&mut self, rust: &str, pointer: &str) -> Result<(), SchemaError> {
        check_identifier(rust, pointer, "type name")?;
        if let Some(first) = self.names.get(rust) {
            return err(
                pointer,
                format!("duplicate Rust type name `{rust}` after renaming (also used by {first})"),
            );
        }
        self.names.insert(rust.to_owned(), pointer.to_owned());
        Ok(())
    }

    /// Adds an inline type under a fresh name.
    fn add_inline(
        &mut self,
        name: String,
        pointer: &str,
        doc: Option<String>,
        kind: TypeKind,
    ) -> Result<TypeExpr, SchemaError> {
        self.claim(&name, pointer)?;
        self.types.push(TypeDef {
            name: name.clone(),
            schema_name: None,
            pointer: pointer.to_owned(),
            doc,
            errata: Vec::new(),
            kind,
        });
        Ok(TypeExpr::Named(name))
    }

    /// Reserves an inline name before its type is built (it may refer to itself).
    fn reserve_inline(&mut self, name: &str, pointer: &str) -> Result<usize, SchemaError> {
        self.claim(name, pointer)?;
        self.types.push(TypeDef {
            name: name.to_owned(),
            schema_name: None,
            pointer: pointer.to_owned(),
            doc: None,
            errata: Vec::new(),
            kind: TypeKind::Alias(TypeExpr::Any),
        });
        Ok(self.types.len() - 1)
    }

    fn as_object<'v>(
        &self,
        schema: &'v Value,
        pointer: &str,
    ) -> Result<Option<&'v Map<String, Value>>, SchemaError> {
        match schema {
            Value::Object(o) => Ok(Some(o)),
            Value::Bool(true) => Ok(None),
            Value::Bool(false) => err(
                pointer,
                "the schema `false` (no value allowed) is not supported here",
            ),
            other => err(
                pointer,
                format!(
                    "expected a schema (object or boolean), found {}",
                    kind_of(other)
                ),
            ),
        }
    }

    /// Refuses every keyword of `obj` that is neither structural, an annotation, documented nor
    /// a vendor extension, with the reason when the keyword is a known one.
    fn check_keywords(&self, obj: &Map<String, Value>, pointer: &str) -> Result<(), SchemaError> {
        for (key, value) in obj {
            let k = key.as_str();
            let at = format!("{pointer}/{}", escape(key));
            if let Some(reason) = keywords::refusal(k, value) {
                return err(&at, format!("`{key}` is not supported: {reason}"));
            }
            let known = ANNOTATIONS.contains(&k)
                || DOCUMENTED.contains(&k)
                || STRUCTURAL.contains(&k)
                || k == "dependencies"
                || keywords::is_extension(k);
            if !known {
                return err(
                    &at,
                    format!(
                        "unsupported keyword `{key}`: not a keyword of JSON Schema 2020-12 or \
                         draft-07 (a vendor extension must start with `x-` to be ignored)"
                    ),
                );
            }
        }
        Ok(())
    }

    /// The keywords of a root that holds only definitions: annotations and identifiers.
    fn check_root_keywords(
        &self,
        root: &Map<String, Value>,
        defs_key: &str,
    ) -> Result<(), SchemaError> {
        for key in root.keys() {
            let k = key.as_str();
            if k != defs_key && !ANNOTATIONS.contains(&k) && !keywords::is_extension(k) {
                return err(
                    &format!("/{}", escape(key)),
                    format!(
                        "unsupported top-level keyword `{key}` beside `{defs_key}` (a root that \
                         is the schema of a type has `type`, `properties`, `anyOf`, …)"
                    ),
                );
            }
        }
        Ok(())
    }

    fn description(obj: &Map<String, Value>) -> Option<String> {
        obj.get("description")
            .and_then(Value::as_str)
            .map(str::to_owned)
    }

    /// The rustdoc of a type or member: its description, then the constraints it states that
    /// the types do not enforce (when [`LoadOptions::constraint_docs`] is on).
    fn doc_of(&self, obj: &Map<String, Value>) -> Option<String> {
        let description = Self::description(obj);
        let constraints = self
            .options
            .constraint_docs
            .then(|| keywords::constraints_doc(obj))
            .flatten();
        match (description, constraints) {
            (Some(d), Some(c)) => Some(format!("{d}\n\n{c}")),
            (d, c) => d.or(c),
        }
    }

    /// Resolves a `$ref` (`#/$defs/<Name>`, or `#` for the root type) to the Rust name of its
    /// type and its schema.
    fn resolve_ref(
        &self,
        reference: &Value,
        pointer: &str,
    ) -> Result<(String, &'a Value), SchemaError> {
        let ptr = format!("{pointer}/$ref");
        let Some(reference) = reference.as_str() else {
            return err(&ptr, "`$ref` must be a string");
        };
        if reference == "#" {
            return match &self.root_name {
                Some(name) => Ok((name.clone(), self.root)),
                None => err(
                    &ptr,
                    "`#` refers to the root, which is not the schema of a type here",
                ),
            };
        }
        let prefix = format!("#/{}/", self.defs_key);
        let Some(name) = reference.strip_prefix(&prefix) else {
            return err(
                &ptr,
                format!(
                    "unsupported reference `{reference}` (expected `{prefix}<Name>`, or `#` for \
                     the root)"
                ),
            );
        };
        let name = unescape(name);
        match self.defs.get_key_value(&name) {
            Some((k, v)) => Ok((naming::type_name(k), v)),
            None => err(
                &ptr,
                format!("dangling reference `{reference}`: no such definition"),
            ),
        }
    }

    /// A top-level definition: its doc and kind.
    fn definition(
        &mut self,
        schema: &Value,
        pointer: &str,
        rust: &str,
    ) -> Result<(Option<String>, TypeKind), SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok((None, TypeKind::Alias(TypeExpr::Any)));
        };
        self.check_keywords(obj, pointer)?;
        let doc = self.doc_of(obj);
        let kind = self.kind(obj, pointer, rust)?;
        Ok((doc, kind))
    }

    /// The kind of the named type `rust` whose schema is `schema` (already checked or not).
    fn kind_of_value(
        &mut self,
        schema: &Value,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok(TypeKind::Alias(TypeExpr::Any));
        };
        self.check_keywords(obj, pointer)?;
        self.kind(obj, pointer, rust)
    }

    /// The kind of a named type whose schema is `obj`.
    fn kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        // A nullable definition is `Option` of its other part, which gets a name of its own
        // (`<Name>Inner`) where it needs one.
        if let Some(inner) = non_null(obj) {
            let ty = self.non_null_expr(inner, pointer, &format!("{rust}Inner"))?;
            return Ok(TypeKind::Alias(TypeExpr::Nullable(Box::new(ty))));
        }
        if obj.contains_key("$ref") && has_structural_siblings(obj, "$ref") {
            let merged = self.merge_ref_siblings(obj, pointer)?;
            return self.struct_kind(&merged, pointer, rust);
        }
        if let Some(expanded) = distribute_all_of_unions(obj) {
            return self.union_kind(&expanded, pointer, rust);
        }
        if let Some(members) = obj.get("allOf") {
            if let Some(member) = single_all_of(obj) {
                return self.kind_of_value(member, &format!("{pointer}/allOf/0"), rust);
            }
            let merged = self.merge_all_of(obj, members, pointer)?;
            return self.struct_kind(&merged, pointer, rust);
        }
        if let Some(distributed) = distribute_object_siblings(obj) {
            return self.union_kind(&distributed, pointer, rust);
        }
        if obj.contains_key("anyOf") || obj.contains_key("oneOf") {
            if let Some(values) = self.const_enum(obj, pointer)? {
                return Ok(TypeKind::StringEnum(values));
            }
            if let Some((key, i, member)) = single_live_member(obj) {
                return self.kind_of_value(member, &format!("{pointer}/{key}/{i}"), rust);
            }
            return self.union_kind(obj, pointer, rust);
        }
        if let Some(values) = obj.get("enum") {
            return Ok(TypeKind::StringEnum(
                self.enum_values(values, obj, pointer)?,
            ));
        }
        if let Some(value) = obj.get("const") {
            if !obj.contains_key("properties") {
                let ConstValue::String(s) = self.const_value(value, pointer)? else {
                    return err(
                        &format!("{pointer}/const"),
                        "a non-string `const` is supported only as an object member",
                    );
                };
                let variant = naming::pascal(&s, "V");
                check_identifier(&variant, &format!("{pointer}/const"), "enum variant")?;
                return Ok(TypeKind::StringEnum(vec![EnumValue {
                    variant,
                    value: s,
                    doc: None,
                }]));
            }
        }
        if is_object_with_properties(obj) || is_closed_empty_object(obj) {
            return self.struct_kind(obj, pointer, rust);
        }
        if let Some(Value::Array(types)) = obj.get("type") {
            if types.iter().filter(|t| t.as_str() != Some("null")).count() > 1 {
                return self.union_kind(obj, pointer, rust);
            }
        }
        Ok(TypeKind::Alias(self.expr_of_object(obj, pointer, rust)?))
    }

    /// The type of the non-null part of a nullable schema (`inner`, from [`non_null`]): its one
    /// remaining `anyOf`/`oneOf` member, with that member's pointer, or the rest of the schema.
    fn non_null_expr(
        &mut self,
        inner: Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<TypeExpr, SchemaError> {
        match single_live_member(&inner) {
            Some((key, i, member)) => {
                let member = member.clone();
                self.expr(&member, &format!("{pointer}/{key}/{i}"), hint)
            }
            None => self.expr(&Value::Object(inner), pointer, hint),
        }
    }

    /// An `anyOf`/`oneOf` whose every member is a string constant (zod's `z.union` of
    /// literals, schemars' documented unit variants): a string enum, each value documented by
    /// its member's description. `None` when it is not one.
    fn const_enum(
        &self,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Option<Vec<EnumValue>>, SchemaError> {
        let key = if obj.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        let Some(Value::Array(members)) = obj.get(key) else {
            return Ok(None);
        };
        let mut values: Vec<EnumValue> = Vec::new();
        for (i, member) in members.iter().enumerate() {
            if *member == Value::Bool(false) {
                continue;
            }
            let Some(m) = member.as_object() else {
                return Ok(None);
            };
            let is_const = matches!(m.get("const"), Some(Value::String(_)))
                && m.get("type").is_none_or(|t| t == "string")
                && m.keys()
                    .all(|k| k == "const" || k == "type" || ANNOTATIONS.contains(&k.as_str()));
            if !is_const {
                return Ok(None);
            }
            let mptr = format!("{pointer}/{key}/{i}");
            self.check_keywords(m, &mptr)?;
            let value = m["const"].as_str().unwrap_or_default().to_owned();
            let variant = naming::pascal(&value, "V");
            check_identifier(&variant, &format!("{mptr}/const"), "enum variant")?;
            if values.iter().any(|e| e.variant == variant) {
                return err(
                    &format!("{mptr}/const"),
                    format!("enum values collide as Rust variant `{variant}`"),
                );
            }
            values.push(EnumValue {
                value,
                variant,
                doc: self.doc_of(m),
            });
        }
        Ok((!values.is_empty()).then_some(values))
    }

    fn enum_values(
        &self,
        values: &Value,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Vec<EnumValue>, SchemaError> {
        let ptr = format!("{pointer}/enum");
        if let Some(t) = obj.get("type") {
            if t.as_str() != Some("string") {
                return err(
                    &format!("{pointer}/type"),
                    "only string enums are supported (`type` must be \"string\")",
                );
            }
        }
        let Some(values) = values.as_array() else {
            return err(&ptr, "`enum` must be an array");
        };
        if values.is_empty() {
            return err(&ptr, "`enum` must not be empty");
        }
        let mut out: Vec<EnumValue> = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let Some(s) = v.as_str() else {
                return err(
                    &format!("{ptr}/{i}"),
                    format!(
                        "only string enum values are supported, found {}",
                        kind_of(v)
                    ),
                );
            };
            let variant = naming::pascal(s, "V");
            check_identifier(&variant, &format!("{ptr}/{i}"), "enum variant")?;
            if out.iter().any(|e| e.variant == variant) {
                return err(
                    &format!("{ptr}/{i}"),
                    format!("enum values collide as Rust variant `{variant}`"),
                );
            }
            out.push(EnumValue {
                value: s.to_owned(),
                variant,
                doc: None,
            });
        }
        Ok(out)
    }

    fn const_value(&self, value: &Value, pointer: &str) -> Result<ConstValue, SchemaError> {
        match value {
            Value::String(s) => Ok(ConstValue::String(s.clone())),
            Value::Bool(b) => Ok(ConstValue::Bool(*b)),
            Value::Number(n) => match n.as_i64() {
                Some(i) => Ok(ConstValue::Integer(i)),
                None => err(
                    &format!("{pointer}/const"),
                    "only integer numeric constants are supported",
                ),
            },
            other => err(
                &format!("{pointer}/const"),
                format!("unsupported `const` of {}", kind_of(other)),
            ),
        }
    }

    /// Merges `allOf` members (each an object schema, or a `$ref` to one) into one object schema.
    fn merge_all_of(
        &self,
        obj: &Map<String, Value>,
        members: &Value,
        pointer: &str,
    ) -> Result<Map<String, Value>, SchemaError> {
        let ptr = format!("{pointer}/allOf");
        let Some(members) = members.as_array() else {
            return err(&ptr, "`allOf` must be an array");
        };
        // Object keywords beside `allOf` apply together with its members (schemars writes an
        // internally tagged newtype variant as the tag's `properties` beside `allOf: [$ref]`):
        // they are merged as one more member.
        let sibling_keys = ["properties", "required", "additionalProperties"];
        for key in obj.keys() {
            // `unevaluatedProperties` beside `allOf` speaks of the merged object (schemars).
            if STRUCTURAL.contains(&key.as_str())
                && !matches!(key.as_str(), "allOf" | "type" | "unevaluatedProperties")
                && !sibling_keys.contains(&key.as_str())
            {
                return err(
                    &format!("{pointer}/{}", escape(key)),
                    format!("`{key}` beside `allOf` is not supported"),
                );
            }
        }
        let mut members: Vec<(Value, String)> = members
            .iter()
            .enumerate()
            .map(|(i, m)| (m.clone(), format!("{ptr}/{i}")))
            .collect();
        let siblings: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| sibling_keys.contains(&k.as_str()) || *k == "type")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if siblings.keys().any(|k| k != "type") {
            members.push((Value::Object(siblings), pointer.to_owned()));
        }
        let mut merged = self.merge_members(Self::description(obj), &members)?;
        match obj.get("unevaluatedProperties") {
            None => {}
            Some(Value::Bool(false)) => {
                merged.insert("additionalProperties".into(), Value::Bool(false));
            }
            Some(other) => {
                merged
                    .entry("additionalProperties")
                    .or_insert_with(|| other.clone());
            }
        }
        Ok(merged)
    }

    /// `$ref` with structural keywords beside it (2020-12 allows them; they apply together): the
    /// referenced object schema merged with the rest, as `allOf` would merge them.
    fn merge_ref_siblings(
        &self,
        obj: &Map<String, Value>,
        pointer: &str,
    ) -> Result<Map<String, Value>, SchemaError> {
        let reference = Value::Object(
            [("$ref".to_owned(), obj["$ref"].clone())]
                .into_iter()
                .collect(),
        );
        let rest: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "$ref")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let members = [
            (reference, pointer.to_owned()),
            (Value::Object(rest), pointer.to_owned()),
        ];
        self.merge_members(Self::description(obj), &members)
            .map_err(|e| SchemaError {
                message: format!(
                    "`$ref` with sibling keywords is merged as `allOf` would be: {}",
                    e.message
                ),
                ..e
            })
    }

    /// Merges object schemas (or `$ref`s to them), each with its pointer, into one.
    fn merge_members(
        &self,
        mut doc: Option<String>,
        members: &[(Value, String)],
    ) -> Result<Map<String, Value>, SchemaError> {
        let mut properties = Map::new();
        let mut required: BTreeSet<String> = BTreeSet::new();
        let mut additional: Option<Value> = None;
        for (member, mptr) in members {
            let mptr = mptr.as_str();
            let mut member_obj = self.as_object(member, mptr)?.cloned().unwrap_or_default();
            let mut seen = BTreeSet::new();
            while let Some(reference) = member_obj.get("$ref").cloned() {
                let (name, target) = self.resolve_ref(&reference, mptr)?;
                if !seen.insert(name.clone()) {
                    return err(mptr, format!("`$ref` cycle through `{name}`"));
                }
                let Some(target) = target.as_object() else {
                    return err(
                        mptr,
                        format!("`allOf` member `{name}` is not an object schema"),
                    );
                };
                member_obj = target.clone();
            }
            self.check_keywords(&member_obj, mptr)?;
            for key in ["patternProperties", "unevaluatedProperties"] {
                if member_obj.contains_key(key) {
                    return err(
                        &format!("{mptr}/{key}"),
                        format!("`{key}` inside a merged (`allOf`) member is not supported"),
                    );
                }
            }
            if member_obj.contains_key("allOf")
                || member_obj.contains_key("anyOf")
                || member_obj.contains_key("oneOf")
            {
                return err(
                    mptr,
                    "nested `allOf`/`anyOf` inside `allOf` is not supported",
                );
            }
            if let Some(t) = member_obj.get("type") {
                if t.as_str() != Some("object") {
                    return err(
                        &format!("{mptr}/type"),
                        "every `allOf` member must be an object schema",
                    );
                }
            }
            if doc.is_none() {
                doc = Self::description(&member_obj);
            }
            if let Some(Value::Object(props)) = member_obj.get("properties") {
                for (name, schema) in props {
                    match properties.get(name) {
                        None => {
                            properties.insert(name.clone(), schema.clone());
                        }
                        Some(existing) if existing == schema => {}
                        Some(existing) => {
                            let refined = refine(existing, schema).ok_or_else(|| SchemaError {
                                pointer: format!("{mptr}/properties/{}", escape(name)),
                                message: format!("`allOf` members disagree on member `{name}`"),
                            })?;
                            properties.insert(name.clone(), refined);
                        }
                    }
                }
            }
            if let Some(Value::Array(req)) = member_obj.get("required") {
                required.extend(req.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            match (member_obj.get("additionalProperties"), &additional) {
                (None, _) => {}
                (Some(Value::Bool(false)), _) => additional = Some(Value::Bool(false)),
                (Some(_), Some(Value::Bool(false))) => {}
                (Some(a), _) => additional = Some(a.clone()),
            }
        }
        let mut merged = Map::new();
        merged.insert("type".into(), Value::from("object"));
        if let Some(doc) = doc {
            merged.insert("description".into(), Value::from(doc));
        }
        merged.insert("properties".into(), Value::Object(properties));
        merged.insert(
            "required".into(),
            Value::from(required.into_iter().collect::<Vec<_>>()),
        );
        if let Some(a) = additional {
            merged.insert("additionalProperties".into(), a);
        }
        Ok(merged)
    }

    fn struct_kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        if let Some(t) = obj.get("type") {
            if t.as_str() != Some("object") {
                return err(
                    &format!("{pointer}/type"),
                    format!("an object with `properties` must have `type: \"object\"`, found {t}"),
                );
            }
        }
        let empty = Map::new();
        let props = match obj.get("properties") {
            None => &empty,
            Some(Value::Object(p)) => p,
            Some(_) => {
                return err(
                    &format!("{pointer}/properties"),
                    "`properties` must be an object",
                )
            }
        };
        let required: Vec<&str> = match obj.get("required") {
            None => Vec::new(),
            Some(Value::Array(r)) => {
                let mut out = Vec::new();
                for (i, name) in r.iter().enumerate() {
                    let Some(name) = name.as_str() else {
                        return err(
                            &format!("{pointer}/required/{i}"),
                            "`required` entries must be strings",
                        );
                    };
                    if !props.contains_key(name) {
                        return err(
                            &format!("{pointer}/required/{i}"),
                            format!("`required` names `{name}`, which is not in `properties`"),
                        );
                    }
                    out.push(name);
                }
                out
            }
            Some(_) => {
                return err(
                    &format!("{pointer}/required"),
                    "`required` must be an array",
                )
            }
        };
        let mut fields: Vec<Field> = Vec::new();
        let mut consts = Vec::new();
        for (json_name, schema) in props {
            let fptr = format!("{pointer}/properties/{}", escape(json_name));
            let is_required = required.contains(&json_name.as_str());
            // A member no value satisfies (`false`, or zod's `z.never()`: `{"not": {}}`) is one
            // the object must not have: no field.
            if is_never(schema) {
                if is_required {
                    return err(&fptr, "a required member that no value satisfies");
                }
                continue;
            }
            let field_obj = self.as_object(schema, &fptr)?;
            let doc = field_obj.and_then(|o| self.doc_of(o));
            if let Some(fobj) = field_obj {
                self.check_keywords(fobj, &fptr)?;
                if let Some(value) = fobj.get("const") {
                    let value = self.const_value(value, &fptr)?;
                    if let Some(t) = fobj.get("type") {
                        let ok = matches!(
                            (t.as_str(), &value),
                            (Some("string"), ConstValue::String(_))
                                | (Some("integer" | "number"), ConstValue::Integer(_))
                                | (Some("boolean"), ConstValue::Bool(_))
                        );
                        if !ok {
                            return err(
                                &format!("{fptr}/type"),
                                format!("`const` value does not have the declared type {t}"),
                            );
                        }
                    }
                    if is_required {
                        consts.push(ConstField {
                            rust_const: naming::const_name(json_name),
                            json_name: json_name.clone(),
                            value,
                            doc,
                        });
                        continue;
                    }
                    let ConstValue::String(s) = value else {
                        return err(
                            &format!("{fptr}/const"),
                            "an optional non-string constant is not supported",
                        );
                    };
                    let variant = naming::pascal(&s, "V");
                    check_identifier(&variant, &format!("{fptr}/const"), "enum variant")?;
                    let name = format!("{rust}{}", naming::pascal(json_name, "F"));
                    let ty = self.add_inline(
                        name,
                        &fptr,
                        doc.clone(),
                        TypeKind::StringEnum(vec![EnumValue {
                            value: s.clone(),
                            variant: variant.clone(),
                            doc: None,
                        }]),
                    )?;
                    fields.push(Field {
                        rust_name: naming::field_name(json_name),
                        json_name: json_name.clone(),
                        doc,
                        ty,
                        required: false,
                        implied_const: Some(ImpliedConst { value: s, variant }),
                        boxed: false,
                        default_when_absent: None,
                    });
                    continue;
                }
            }
            let hint = format!("{rust}{}", naming::pascal(json_name, "F"));
            let ty = self.expr(schema, &fptr, &hint)?;
            fields.push(Field {
                rust_name: naming::field_name(json_name),
                json_name: json_name.clone(),
                doc,
                ty,
                required: is_required,
                implied_const: None,
                boxed: false,
                default_when_absent: None,
            });
        }
        let additional = self.extra_members(obj, pointer, rust)?;
        let mut rust_names: BTreeMap<&str, &str> = BTreeMap::new();
        for f in &fields {
            check_identifier(
                &f.rust_name,
                &format!("{pointer}/properties/{}", escape(&f.json_name)),
                "field name",
            )?;
            if f.rust_name == "extra" && additional != Additional::Forbidden {
                return err(
                    &format!("{pointer}/properties/extra"),
                    "member `extra` collides with the field that keeps additional members",
                );
            }
            if let Some(other) = rust_names.insert(&f.rust_name, &f.json_name) {
                return err(
                    &format!("{pointer}/properties/{}", escape(&f.json_name)),
                    format!(
                        "members `{other}` and `{}` both become Rust field `{}`",
                        f.json_name, f.rust_name
                    ),
                );
            }
        }
        let mut const_names = BTreeSet::new();
        for c in &consts {
            check_identifier(
                &c.rust_const,
                &format!("{pointer}/properties/{}", escape(&c.json_name)),
                "constant name",
            )?;
            if !const_names.insert(&c.rust_const) {
                return err(
                    &format!("{pointer}/properties/{}", escape(&c.json_name)),
                    format!("constants collide as `{}`", c.rust_const),
                );
            }
        }
        Ok(TypeKind::Struct(Struct {
            fields,
            consts,
            additional,
        }))
    }

    /// What an object does with the members it does not declare: `additionalProperties` (or
    /// `unevaluatedProperties`, the same once `allOf` is merged, as schemars writes it), with
    /// `patternProperties` folded in. A pattern only documents where any other member is
    /// allowed anyway (the extras keep any JSON value); where no other member is allowed, the
    /// pattern's schema types the extras; patterns that would need a type of their own beside
    /// `additionalProperties` are refused.
    fn extra_members(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<Additional, SchemaError> {
        let (key, schema) = match (
            obj.get("additionalProperties"),
            obj.get("unevaluatedProperties"),
        ) {
            (None, Some(schema)) => ("unevaluatedProperties", Some(schema)),
            (schema, _) => ("additionalProperties", schema),
        };
        let base = match schema {
            None | Some(Value::Bool(true)) => Additional::Any,
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(schema) => {
                match self.expr(schema, &format!("{pointer}/{key}"), &format!("{hint}Value"))? {
                    TypeExpr::Any => Additional::Any,
                    ty => Additional::Typed(ty),
                }
            }
        };
        let Some(patterns) = obj.get("patternProperties") else {
            return Ok(base);
        };
        let pptr = format!("{pointer}/patternProperties");
        let Some(patterns) = patterns.as_object() else {
            return err(&pptr, "`patternProperties` must be an object");
        };
        let Some((pattern, first)) = patterns.iter().next() else {
            return Ok(base);
        };
        let same = patterns.values().all(|p| p == first);
        match base {
            Additional::Any => Ok(base),
            Additional::Forbidden if same => {
                let ptr = format!("{pptr}/{}", escape(pattern));
                Ok(match self.expr(first, &ptr, &format!("{hint}Value"))? {
                    TypeExpr::Any => Additional::Any,
                    ty => Additional::Typed(ty),
                })
            }
            Additional::Typed(_) if same && schema == Some(first) => Ok(base),
            _ => err(
                &pptr,
                format!(
                    "members matching `patternProperties` and the other undeclared members \
                     would need different Rust types; give every pattern the schema of `{key}` \
                     (or allow any other member)"
                ),
            ),
        }
    }

    fn union_kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        let mut variants: Vec<(TypeExpr, String)> = Vec::new();
        let key = if obj.contains_key("anyOf") {
            "anyOf"
        } else {
            "oneOf"
        };
        if obj.contains_key("anyOf") && obj.contains_key("oneOf") {
            return err(pointer, "`anyOf` together with `oneOf` is not supported");
        }
        if let Some(members) = obj.get(key) {
            for k in [
                "properties",
                "enum",
                "const",
                "items",
                "additionalProperties",
                "unevaluatedProperties",
                "patternProperties",
                "$ref",
            ] {
                if obj.contains_key(k) {
                    return err(
                        &format!("{pointer}/{k}"),
                        format!("`{k}` beside `{key}` is not supported"),
                    );
                }
            }
            let Some(members) = members.as_array() else {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must be an array"),
                );
            };
            if members.is_empty() {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` must not be empty"),
                );
            }
            for (i, member) in members.iter().enumerate() {
                // `false` matches nothing: a member that was `null` in a nullable union.
                if *member == Value::Bool(false) {
                    continue;
                }
                let mptr = format!("{pointer}/{key}/{i}");
                // A primitive type list inside a union adds one member per type.
                if let Some(Value::Array(types)) = member.get("type") {
                    if member.as_object().is_some_and(|m| {
                        m.len() == 1 || (m.len() == 2 && m.contains_key("description"))
                    }) {
                        for (j, t) in types.iter().enumerate() {
                            let ty = self.primitive(t, &format!("{mptr}/type/{j}"))?;
                            variants.push((ty, String::new()));
                        }
                        continue;
                    }
                }
                // A member that repeats a definition word for word is that definition.
                let is_ref = member.get("$ref").is_some();
                let copy_of = (!is_primitive(member) && !is_ref)
                    .then(|| self.defs_by_shape.get(&member.to_string()))
                    .flatten();
                let ty = match copy_of {
                    Some(name) => TypeExpr::Named(naming::type_name(name)),
                    None => self.expr(member, &mptr, &format!("{rust}Variant{i}"))?,
                };
                variants.push((ty, String::new()));
            }
        } else if let Some(Value::Array(types)) = obj.get("type") {
            for (j, t) in types.iter().enumerate() {
                variants.push((
                    self.primitive(t, &format!("{pointer}/type/{j}"))?,
                    String::new(),
                ));
            }
        }
        // `null` among the members makes the whole union nullable; that is the field's business.
        if variants
            .iter()
            .any(|(t, _)| *t == TypeExpr::Nullable(Box::new(TypeExpr::Any)))
        {
            return err(
                pointer,
                "a union with a `null` member is supported only as a nullable type of two members",
            );
        }
        let names =
            unions::variant_names(&variants.iter().map(|(t, _)| t.clone()).collect::<Vec<_>>());
        let variants = variants
            .into_iter()
            .zip(names)
            .map(|((ty, _), name)| Variant {
                name,
                ty,
                kinds: BTreeSet::new(),
                boxed: false,
            })
            .collect();
        Ok(TypeKind::Union(Union {
            variants,
            objects: crate::ir::ObjectDispatch::None,
        }))
    }

    fn primitive(&self, t: &Value, pointer: &str) -> Result<TypeExpr, SchemaError> {
        match t.as_str() {
            Some("string") => Ok(TypeExpr::String),
            Some("integer") => Ok(TypeExpr::Integer),
            Some("number") => Ok(TypeExpr::Number),
            Some("boolean") => Ok(TypeExpr::Boolean),
            Some("null") => Ok(TypeExpr::Nullable(Box::new(TypeExpr::Any))),
            Some(other @ ("object" | "array")) => err(pointer, format!("`{other}` in a list of types is not supported")),
            Some(other) => err(pointer, format!("unknown type `{other}` (expected string, integer, number, boolean, object, array or null)")),
            None => err(pointer, format!("`type` entries must be strings, found {}", kind_of(t))),
        }
    }

    /// The type of a schema in a member, item, union-member or map-value position. Inline types
    /// that need a name get `hint`.
    fn expr(&mut self, schema: &Value, pointer: &str, hint: &str) -> Result<TypeExpr, SchemaError> {
        let Some(obj) = self.as_object(schema, pointer)? else {
            return Ok(TypeExpr::Any);
        };
        self.check_keywords(obj, pointer)?;
        if let Some(Value::Array(types)) = obj.get("type") {
            if types.iter().all(|t| t.as_str() == Some("null")) {
                return err(
                    &format!("{pointer}/type"),
                    "a type list must name a type other than null",
                );
            }
        }
        // `type: [T, "null"]`, `anyOf: [T, {type: null}]`, `enum: [.., null]`: a nullable T.
        if let Some(inner) = non_null(obj) {
            let ty = self.non_null_expr(inner, pointer, hint)?;
            return Ok(TypeExpr::Nullable(Box::new(ty)));
        }
        if let Some(reference) = obj.get("$ref") {
            if !has_structural_siblings(obj, "$ref") {
                let (name, _) = self.resolve_ref(reference, pointer)?;
                return Ok(TypeExpr::Named(name));
            }
        }
        // `allOf` of one member (pydantic's way to put a description on a `$ref`) is the member.
        if let Some(member) = single_all_of(obj) {
            return self.expr(member, &format!("{pointer}/allOf/0"), hint);
        }
        if let Some((key, i, member)) = single_live_member(obj) {
            if self.const_enum(obj, pointer)?.is_none() {
                return self.expr(member, &format!("{pointer}/{key}/{i}"), hint);
            }
        }
        let needs_name = obj.contains_key("allOf")
            || obj.contains_key("anyOf")
            || obj.contains_key("oneOf")
            || obj.contains_key("enum")
            || obj.contains_key("const")
            || is_object_with_properties(obj)
            || is_closed_empty_object(obj)
            || matches!(obj.get("type"), Some(Value::Array(t)) if t.len() > 1);
        if needs_name {
            let index = self.reserve_inline(hint, pointer)?;
            let kind = self.kind(obj, pointer, hint)?;
            self.types[index].doc = self.doc_of(obj);
            self.types[index].kind = kind;
            return Ok(TypeExpr::Named(hint.to_owned()));
        }
        self.expr_of_object(obj, pointer, hint)
    }

    /// Types that need no name of their own: primitives, arrays, maps, anything.
    fn expr_of_object(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        hint: &str,
    ) -> Result<TypeExpr, SchemaError> {
        if let Some(reference) = obj.get("$ref") {
            let (name, _) = self.resolve_ref(reference, pointer)?;
            return Ok(TypeExpr::Named(name));
        }
        let type_ptr = format!("{pointer}/type");
        let ty = match obj.get("type") {
            None => {
                if obj.contains_key("items") {
                    "array"
                } else if [
                    "additionalProperties",
                    "properties",
                    "patternProperties",
                    "unevaluatedProperties",
                    "propertyNames",
                ]
                .iter()
                .any(|k| obj.contains_key(*k))
                {
                    "object"
                } else {
                    return Ok(TypeExpr::Any);
                }
            }
            Some(Value::String(t)) => t.as_str(),
            Some(Value::Array(t)) if t.len() == 1 => match t[0].as_str() {
                Some(s) => s,
                None => return err(&type_ptr, "`type` entries must be strings"),
            },
            Some(other) => {
                return err(
                    &type_ptr,
                    format!(
                        "`type` must be a string or a list of strings, found {}",
                        kind_of(other)
                    ),
                )
            }
        };
        if obj.get("properties").is_some_and(|p| !p.is_object()) {
            return err(
                &format!("{pointer}/properties"),
                "`properties` must be an object",
            );
        }
        for (key, allowed) in [
            ("items", "array"),
            ("properties", "object"),
            ("additionalProperties", "object"),
            ("unevaluatedProperties", "object"),
            ("patternProperties", "object"),
        ] {
            if obj.contains_key(key) && ty != allowed {
                return err(
                    &format!("{pointer}/{key}"),
                    format!("`{key}` on a schema of type `{ty}`"),
                );
            }
        }
        match ty {
            "array" => {
                let item = match obj.get("items") {
                    None => TypeExpr::Any,
                    Some(items) => {
                        self.expr(items, &format!("{pointer}/items"), &format!("{hint}Item"))?
                    }
                };
                Ok(TypeExpr::Array(Box::new(item)))
            }
            "object" => match self.extra_members(obj, pointer, hint)? {
                Additional::Any => Ok(TypeExpr::Map(Box::new(TypeExpr::Any))),
                Additional::Typed(value) => Ok(TypeExpr::Map(Box::new(value))),
                Additional::Forbidden => err(
                    &format!("{pointer}/additionalProperties"),
                    "an object that allows no member at all is not supported",
                ),
            },
            other => self.primitive(&Value::from(other), &type_ptr),
        }
    }
}

/// A schema of a plain string, number, boolean or an empty schema: too common to be taken for
/// an inline copy of a definition.
fn is_primitive(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return true;
    };
    let structural = obj
        .keys()
        .any(|k| STRUCTURAL.contains(&k.as_str()) && k != "type");
    !structural
        && !matches!(
            obj.get("type").and_then(Value::as_str),
            Some("object" | "array")
        )
}

/// Whether `obj` has structural keywords other than `except` (annotations and documented
/// keywords do not count).
fn has_structural_siblings(obj: &Map<String, Value>, except: &str) -> bool {
    obj.keys()
        .any(|k| k != except && STRUCTURAL.contains(&k.as_str()))
}

/// The one member of an `allOf` that has nothing structural beside it (`type` aside).
fn single_all_of(obj: &Map<String, Value>) -> Option<&Value> {
    match obj.get("allOf") {
        Some(Value::Array(members))
            if members.len() == 1
                && !obj
                    .keys()
                    .any(|k| k != "allOf" && k != "type" && STRUCTURAL.contains(&k.as_str())) =>
        {
            members.first()
        }
        _ => None,
    }
}

/// The one member of an `anyOf`/`oneOf` that can match (members `false` cannot), with its key
/// and index, when nothing structural but `type` is beside it.
fn single_live_member(obj: &Map<String, Value>) -> Option<(&'static str, usize, &Value)> {
    let key = ["anyOf", "oneOf"]
        .into_iter()
        .find(|k| obj.contains_key(*k))?;
    if obj
        .keys()
        .any(|k| k != key && k != "type" && STRUCTURAL.contains(&k.as_str()))
    {
        return None;
    }
    let members = obj.get(key)?.as_array()?;
    let mut live = members
        .iter()
        .enumerate()
        .filter(|(_, m)| **m != Value::Bool(false));
    let (i, member) = live.next()?;
    live.next().is_none().then_some((key, i, member))
}

/// A union member that only allows `null`: `{"type": "null"}`, `{"const": null}`,
/// `{"enum": [null]}`, annotations beside.
fn is_null_schema(schema: &Value) -> bool {
    let Some(obj) = schema.as_object() else {
        return false;
    };
    let null = obj.get("type").is_some_and(|t| t == "null")
        || obj.get("const").is_some_and(Value::is_null)
        || obj.get("enum") == Some(&Value::Array(vec![Value::Null]));
    null && obj.keys().all(|k| {
        matches!(k.as_str(), "type" | "const" | "enum")
            || ANNOTATIONS.contains(&k.as_str())
            || keywords::is_extension(k)
    })
}

/// The schema without its `null`, when it allows `null` besides something else: `null` taken
/// out of a `type` list and of `enum`, and each `null` member of `anyOf`/`oneOf` replaced by
/// `false` (which matches nothing), so the other members keep their index (member names and
/// pointers follow it). `None` when the schema is not nullable so.
fn non_null(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = obj.clone();
    let mut changed = false;
    if let Some(Value::Array(types)) = obj.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if !rest.is_empty() && rest.len() < types.len() {
            let rest = match <[Value; 1]>::try_from(rest) {
                Ok([single]) => single,
                Err(rest) => Value::Array(rest),
            };
            out.insert("type".into(), rest);
            changed = true;
        }
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(members)) = obj.get(key) {
            let nulls = members.iter().filter(|m| is_null_schema(m)).count();
            let live = members.iter().filter(|m| **m != Value::Bool(false)).count();
            if nulls > 0 && live > nulls {
                let members = members
                    .iter()
                    .map(|m| {
                        if is_null_schema(m) {
                            Value::Bool(false)
                        } else {
                            m.clone()
                        }
                    })
                    .collect();
                out.insert(key.into(), Value::Array(members));
                changed = true;
            }
        }
    }
    if let Some(Value::Array(values)) = obj.get("enum") {
        if values.iter().any(Value::is_null) && values.iter().any(|v| !v.is_null()) {
            let rest = values.iter().filter(|v| !v.is_null()).cloned().collect();
            out.insert("enum".into(), Value::Array(rest));
            changed = true;
        }
    }
    changed.then_some(out)
}

fn is_object_with_properties(obj: &Map<String, Value>) -> bool {
    matches!(obj.get("properties"), Some(Value::Object(p)) if !p.is_empty())
}

/// Object members beside an `anyOf`/`oneOf` of objects (schemars writes a struct that flattens
/// an enum so: `{properties: {jsonrpc}, anyOf: [$ref Notification, …]}`) apply to every member:
/// the union of each member merged with them (`allOf`), or `None` when there is nothing to
/// distribute.
fn distribute_object_siblings(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let key = match (obj.get("anyOf"), obj.get("oneOf")) {
        (Some(_), None) => "anyOf",
        (None, Some(_)) => "oneOf",
        _ => return None,
    };
    let object_keys = ["properties", "required", "additionalProperties"];
    if !obj.contains_key("properties") || obj.contains_key("allOf") || obj.contains_key("$ref") {
        return None;
    }
    let members = obj.get(key)?.as_array()?;
    // Only members that are objects (or references): a `null` or a primitive member cannot
    // carry the members.
    let objectish = |m: &Value| {
        m.as_object().is_some_and(|m| {
            m.contains_key("$ref")
                || m.get("type").and_then(Value::as_str) == Some("object")
                || m.contains_key("properties")
        })
    };
    if members.is_empty() || !members.iter().all(objectish) {
        return None;
    }
    let shared: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| object_keys.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let distributed: Vec<Value> = members
        .iter()
        .map(|m| {
            let mut member = shared.clone();
            member.insert("type".into(), Value::from("object"));
            member.insert("allOf".into(), Value::Array(vec![m.clone()]));
            Value::Object(member)
        })
        .collect();
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| !object_keys.contains(&k.as_str()) && *k != "type")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    out.insert(key.into(), Value::Array(distributed));
    Some(out)
}

/// An `allOf` some of whose members are unions of objects (zod's `z.intersection` of two
/// `z.union`s): the union of every combination, one member of each, merged (`allOf` of
/// `anyOf`s is the `anyOf` of the `allOf`s). `None` when no member is a union, or when there
/// would be more than 16 combinations.
fn distribute_all_of_unions(obj: &Map<String, Value>) -> Option<Map<String, Value>> {
    let members = obj.get("allOf")?.as_array()?;
    let mut alternatives: Vec<Vec<Value>> = Vec::new();
    let mut any_union = false;
    for member in members {
        let union = member.as_object().and_then(|m| {
            let only_union = m.keys().all(|k| {
                matches!(k.as_str(), "anyOf" | "oneOf" | "description" | "title")
                    || !STRUCTURAL.contains(&k.as_str())
            });
            let list = m.get("anyOf").or_else(|| m.get("oneOf"))?.as_array()?;
            let objects = list.iter().all(|v| {
                v.as_object().is_some_and(|v| {
                    v.get("type").and_then(Value::as_str) == Some("object")
                        && !v.contains_key("anyOf")
                        && !v.contains_key("oneOf")
                        && !v.contains_key("allOf")
                })
            });
            (only_union && objects && !list.is_empty()).then(|| list.clone())
        });
        match union {
            Some(list) => {
                any_union = true;
                alternatives.push(list);
            }
            None => alternatives.push(vec![member.clone()]),
        }
    }
    let count = alternatives.iter().map(Vec::len).product::<usize>();
    if !any_union || count > 16 {
        return None;
    }
    let mut combinations: Vec<Vec<Value>> = vec![Vec::new()];
    for list in &alternatives {
        combinations = combinations
            .into_iter()
            .flat_map(|combo| {
                list.iter().map(move |choice| {
                    let mut next = combo.clone();
                    next.push(choice.clone());
                    next
                })
            })
            .collect();
    }
    let mut out: Map<String, Value> = obj
        .iter()
        .filter(|(k, _)| *k != "allOf" && *k != "type")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let merged = combinations
        .into_iter()
        .map(|combo| {
            let mut member = Map::new();
            member.insert("type".into(), Value::from("object"));
            member.insert("allOf".into(), Value::Array(combo));
            Value::Object(member)
        })
        .collect();
    out.insert("anyOf".into(), Value::Array(merged));
    Some(out)
}

/// Moves the `$defs` (or `definitions`) that tools leave inside a root definition (zod's
/// `z.toJSONSchema` of each definition on its own keeps the schemas it shares, `__schema0`, in
/// its own `$defs`, referred to as `#/$defs/__schema0`) up to the root's, where those references
/// find them. A name already at the root must hold the same schema.
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
                            "`{name}` is defined inside `{owner}` and differently at the root:                              definitions below the root are moved to the root's `{defs_key}`"
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

/// A schema no value satisfies: `false`, or `{"not": {}}` (`{"not": true}`), annotations aside.
fn is_never(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => !b,
        Value::Object(o) => {
            let not_anything = match o.get("not") {
                Some(Value::Object(n)) => n.is_empty(),
                Some(Value::Bool(b)) => *b,
                _ => false,
            };
            not_anything
                && o.keys()
                    .all(|k| k == "not" || k == "description" || ANNOTATIONS.contains(&k.as_str()))
        }
        _ => false,
    }
}

/// An object that allows no member at all (zod's `z.object({}).strict()`, a capability flag):
/// a struct without fields, which refuses any member.
fn is_closed_empty_object(obj: &Map<String, Value>) -> bool {
    obj.get("type").is_none_or(|t| t.as_str() == Some("object"))
        && !obj.contains_key("allOf")
        && !obj.contains_key("$ref")
        && !obj.contains_key("patternProperties")
        && matches!(obj.get("properties"), None | Some(Value::Object(_)))
        && !is_object_with_properties(obj)
        && (obj.get("additionalProperties") == Some(&Value::Bool(false))
            || obj.get("unevaluatedProperties") == Some(&Value::Bool(false)))
}

/// Two `allOf` members that both describe a member: the result is the narrower one when one
/// only adds a `const` (or a description) to the other.
fn refine(a: &Value, b: &Value) -> Option<Value> {
    let (ao, bo) = (a.as_object()?, b.as_object()?);
    let strip = |o: &Map<String, Value>| -> Map<String, Value> {
        o.iter()
            .filter(|(k, _)| !matches!(k.as_str(), "description" | "const" | "title"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    };
    let (sa, sb) = (strip(ao), strip(bo));
    let compatible = sa == sb || sa.is_empty() || sb.is_empty();
    if !compatible
        || (ao.contains_key("const") && bo.contains_key("const") && ao["const"] != bo["const"])
    {
        return None;
    }
    let mut out = ao.clone();
    for (k, v) in bo {
        out.insert(k.clone(), v.clone());
    }
    Some(Value::Object(out))
}

/// Rules the spec states in prose that the schema cannot express.
fn spec_rules(module: &mut Module) {
    for t in &mut module.types {
        if let TypeKind::Struct(s) = &mut t.kind {
            for f in &mut s.fields {
                // 2026-07-28, `Result.resultType`: "when a client receives a result from a server
                // implementing an earlier protocol version (which does not include `resultType`),
                // the client MUST treat the absent field as "complete"".
                if f.json_name == "resultType" && f.required && f.ty == TypeExpr::String {
                    f.default_when_absent = Some("complete".to_owned());
                }
            }
        }
    }
}

/// `type A = B; type B = A;` does not compile: refuse alias cycles with the pointer.
fn check_alias_cycles(module: &Module) -> Result<(), SchemaError> {
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

/// A struct that contains itself through plain or optional fields has infinite size: box the
/// fields that close such a cycle. `Vec` and maps already add the indirection.
fn mark_boxed_fields(module: &mut Module) {
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

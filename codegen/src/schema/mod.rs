//! Loading a schema file into the [`ir`](crate::ir): both JSON Schema dialects, `$ref`
//! resolution, `allOf` merging, and deterministic names for inline types.
//!
//! Every keyword is either understood, accepted as an annotation, accepted as a validation
//! keyword the types do not enforce (see [`VALIDATION_ONLY`]), or refused with the JSON pointer
//! of the schema that uses it. Nothing is skipped silently and nothing panics.

pub mod errata;
mod layout;
mod messages;
mod unions;

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::{Map, Value};

use crate::ir::{
    Additional, ConstField, ConstValue, EnumValue, Field, ImpliedConst, Module, Struct, TypeDef,
    TypeExpr, TypeKind, Union, Variant,
};
use crate::naming;
use crate::pointer::{escape, unescape};
use crate::revisions::Dialect;

/// Keywords that only annotate.
const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "$comment",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
];

/// Validation keywords the generated types do not enforce: a value that breaks them still
/// decodes. They are documented on the field instead (see the README).
pub const VALIDATION_ONLY: &[&str] = &[
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
];

/// Keywords the loader turns into types.
const STRUCTURAL: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "$ref",
    "anyOf",
    "oneOf",
    "allOf",
    "const",
    "enum",
];

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

/// Detects the dialect from the root's `$schema`.
pub fn detect_dialect(root: &Value) -> Result<Dialect, SchemaError> {
    let Some(root) = root.as_object() else {
        return err("", "the schema root must be an object");
    };
    match root.get("$schema").and_then(Value::as_str) {
        Some(s) if s.contains("draft-07") => Ok(Dialect::Draft07),
        Some(s) if s.contains("2020-12") => Ok(Dialect::Draft2020_12),
        Some(s) => err(
            "/$schema",
            format!("unsupported JSON Schema dialect `{s}` (expected draft-07 or 2020-12)"),
        ),
        None if root.contains_key("$defs") => Ok(Dialect::Draft2020_12),
        None if root.contains_key("definitions") => Ok(Dialect::Draft07),
        None => err(
            "",
            "no `$schema`, `$defs` or `definitions`: not an MCP schema",
        ),
    }
}

/// Loads a whole schema into a [`Module`].
pub fn load(root: &Value, dialect: Dialect) -> Result<Module, SchemaError> {
    let Some(root_obj) = root.as_object() else {
        return err(
            "",
            format!("the schema root must be an object, found {}", kind_of(root)),
        );
    };
    let defs_key = dialect.definitions_key();
    for key in root_obj.keys() {
        if key != defs_key
            && key != "$schema"
            && key != "$id"
            && !ANNOTATIONS.contains(&key.as_str())
        {
            return err(
                &format!("/{}", escape(key)),
                format!(
                    "unsupported top-level keyword `{key}` (expected `$schema` and `{defs_key}`)"
                ),
            );
        }
    }
    let Some(defs) = root_obj.get(defs_key) else {
        return err(
            "",
            format!("no `{defs_key}`: a {dialect:?} schema keeps its definitions there"),
        );
    };
    let Some(defs) = defs.as_object() else {
        return err(&format!("/{defs_key}"), "definitions must be an object");
    };
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
        defs_by_shape,
        names: HashMap::new(),
        types: Vec::new(),
    };
    // Reserve every definition's name first, so inline names can never take one.
    for name in defs.keys() {
        let rust = naming::type_name(name);
        loader.claim(&rust, &format!("/{defs_key}/{}", escape(name)))?;
    }
    for (name, schema) in defs {
        let pointer = format!("/{defs_key}/{}", escape(name));
        let rust = naming::type_name(name);
        let index = loader.types.len();
        loader.types.push(TypeDef {
            name: rust.clone(),
            schema_name: Some(name.clone()),
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
    };
    check_alias_cycles(&module)?;
    // Before the unions: a member a spec rule fills in does not decide a shape.
    spec_rules(&mut module);
    unions::finalize(&mut module)?;
    messages::derive(&mut module)?;
    layout::box_large_members(&mut module);
    mark_boxed_fields(&mut module);
    Ok(module)
}

struct Loader<'a> {
    defs: &'a Map<String, Value>,
    defs_key: &'a str,
    /// A definition's schema text → its name, for inline copies of definitions.
    defs_by_shape: HashMap<String, &'a str>,
    /// Rust name → pointer of the schema that took it.
    names: HashMap<String, String>,
    types: Vec<TypeDef>,
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

    fn check_keywords(&self, obj: &Map<String, Value>, pointer: &str) -> Result<(), SchemaError> {
        for key in obj.keys() {
            let k = key.as_str();
            if !(ANNOTATIONS.contains(&k)
                || VALIDATION_ONLY.contains(&k)
                || STRUCTURAL.contains(&k))
            {
                return err(
                    &format!("{pointer}/{}", escape(key)),
                    format!("unsupported keyword `{key}`"),
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

    /// Resolves a `$ref` to the definition's name and schema.
    fn resolve_ref(
        &self,
        reference: &Value,
        pointer: &str,
    ) -> Result<(&'a str, &'a Value), SchemaError> {
        let ptr = format!("{pointer}/$ref");
        let Some(reference) = reference.as_str() else {
            return err(&ptr, "`$ref` must be a string");
        };
        let prefix = format!("#/{}/", self.defs_key);
        let Some(name) = reference.strip_prefix(&prefix) else {
            return err(
                &ptr,
                format!("unsupported reference `{reference}` (expected `{prefix}<Name>`)"),
            );
        };
        let name = unescape(name);
        match self.defs.get_key_value(&name) {
            Some((k, v)) => Ok((k.as_str(), v)),
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
        let doc = Self::description(obj);
        let kind = self.kind(obj, pointer, rust)?;
        Ok((doc, kind))
    }

    /// The kind of a named type whose schema is `obj`.
    fn kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        if let Some(members) = obj.get("allOf") {
            let merged = self.merge_all_of(obj, members, pointer)?;
            return self.struct_kind(&merged, pointer, rust);
        }
        if obj.contains_key("anyOf") || obj.contains_key("oneOf") {
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
                return Ok(TypeKind::StringEnum(vec![EnumValue { variant, value: s }]));
            }
        }
        if is_object_with_properties(obj) {
            return self.struct_kind(obj, pointer, rust);
        }
        if let Some(Value::Array(types)) = obj.get("type") {
            if types.iter().filter(|t| t.as_str() != Some("null")).count() > 1 {
                return self.union_kind(obj, pointer, rust);
            }
        }
        Ok(TypeKind::Alias(self.expr_of_object(obj, pointer, rust)?))
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
        for key in obj.keys() {
            if STRUCTURAL.contains(&key.as_str()) && key != "allOf" && key != "type" {
                return err(
                    &format!("{pointer}/{}", escape(key)),
                    format!("`{key}` beside `allOf` is not supported"),
                );
            }
        }
        let mut properties = Map::new();
        let mut required: BTreeSet<String> = BTreeSet::new();
        let mut additional: Option<Value> = None;
        let mut doc = Self::description(obj);
        for (i, member) in members.iter().enumerate() {
            let mptr = format!("{ptr}/{i}");
            let mut member_obj = self.as_object(member, &mptr)?.cloned().unwrap_or_default();
            let mut seen = BTreeSet::new();
            while let Some(reference) = member_obj.get("$ref").cloned() {
                let (name, target) = self.resolve_ref(&reference, &mptr)?;
                if !seen.insert(name) {
                    return err(&mptr, format!("`$ref` cycle through `{name}`"));
                }
                let Some(target) = target.as_object() else {
                    return err(
                        &mptr,
                        format!("`allOf` member `{name}` is not an object schema"),
                    );
                };
                member_obj = target.clone();
            }
            self.check_keywords(&member_obj, &mptr)?;
            if member_obj.contains_key("allOf")
                || member_obj.contains_key("anyOf")
                || member_obj.contains_key("oneOf")
            {
                return err(
                    &mptr,
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
            let field_obj = self.as_object(schema, &fptr)?;
            let doc = field_obj.and_then(Self::description);
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
        let additional = match obj.get("additionalProperties") {
            None | Some(Value::Bool(true)) => Additional::Any,
            Some(Value::Bool(false)) => Additional::Forbidden,
            Some(schema) => match self.expr(
                schema,
                &format!("{pointer}/additionalProperties"),
                &format!("{rust}Value"),
            )? {
                TypeExpr::Any => Additional::Any,
                ty => Additional::Typed(ty),
            },
        };
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
        if let Some(reference) = obj.get("$ref") {
            for key in obj.keys() {
                if STRUCTURAL.contains(&key.as_str()) && key != "$ref" {
                    return err(
                        &format!("{pointer}/{}", escape(key)),
                        format!("`{key}` beside `$ref` is not supported"),
                    );
                }
            }
            let (name, _) = self.resolve_ref(reference, pointer)?;
            return Ok(TypeExpr::Named(naming::type_name(name)));
        }
        // `type: [T, "null"]` is a nullable T.
        if let Some(Value::Array(types)) = obj.get("type") {
            let non_null: Vec<&Value> = types
                .iter()
                .filter(|t| t.as_str() != Some("null"))
                .collect();
            if non_null.is_empty() {
                return err(
                    &format!("{pointer}/type"),
                    "a type list must name a type other than null",
                );
            }
            if non_null.len() < types.len() {
                let mut inner = obj.clone();
                let inner_type = if non_null.len() == 1 {
                    non_null[0].clone()
                } else {
                    Value::Array(non_null.into_iter().cloned().collect())
                };
                inner.insert("type".into(), inner_type);
                let ty = self.expr(&Value::Object(inner), pointer, hint)?;
                return Ok(TypeExpr::Nullable(Box::new(ty)));
            }
        }
        let needs_name = obj.contains_key("allOf")
            || obj.contains_key("anyOf")
            || obj.contains_key("oneOf")
            || obj.contains_key("enum")
            || obj.contains_key("const")
            || is_object_with_properties(obj)
            || matches!(obj.get("type"), Some(Value::Array(t)) if t.len() > 1);
        if needs_name {
            let index = self.reserve_inline(hint, pointer)?;
            let kind = self.kind(obj, pointer, hint)?;
            self.types[index].doc = Self::description(obj);
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
            return Ok(TypeExpr::Named(naming::type_name(name)));
        }
        let type_ptr = format!("{pointer}/type");
        let ty = match obj.get("type") {
            None => {
                if obj.contains_key("items") {
                    "array"
                } else if obj.contains_key("additionalProperties") || obj.contains_key("properties")
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
            "object" => match obj.get("additionalProperties") {
                None | Some(Value::Bool(true)) => Ok(TypeExpr::Map(Box::new(TypeExpr::Any))),
                Some(Value::Bool(false)) => err(
                    &format!("{pointer}/additionalProperties"),
                    "an object that allows no member at all is not supported",
                ),
                Some(schema) => {
                    let value = self.expr(
                        schema,
                        &format!("{pointer}/additionalProperties"),
                        &format!("{hint}Value"),
                    )?;
                    Ok(TypeExpr::Map(Box::new(value)))
                }
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

fn is_object_with_properties(obj: &Map<String, Value>) -> bool {
    matches!(obj.get("properties"), Some(Value::Object(p)) if !p.is_empty())
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

//! Object schemas → structs: declared members become fields (or constants), `required` makes
//! them required, and `additionalProperties`/`patternProperties` decide what happens to the
//! members an object does not declare.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::keywords::{constraints, ANNOTATIONS};
use super::loader::Loader;
use super::{check_identifier, err, SchemaError};
use crate::ir::{
    Additional, ConstField, ConstValue, EnumValue, Field, ImpliedConst, Struct, TypeExpr, TypeKind,
};
use crate::naming;
use mcp_typed_json::pointer::escape;

impl Loader<'_> {
    /// The struct of an object schema: its declared members in schema order, then what it does
    /// with the others, then the checks that the Rust names it gets are usable.
    pub(super) fn struct_kind(
        &mut self,
        obj: &Map<String, Value>,
        pointer: &str,
        rust: &str,
    ) -> Result<TypeKind, SchemaError> {
        let empty = Map::new();
        let props = declared_members(obj, pointer)?.unwrap_or(&empty);
        let required = required_members(obj, props, pointer)?;
        let mut fields: Vec<Field> = Vec::new();
        let mut consts = Vec::new();
        for (json_name, schema) in props {
            let is_required = required.contains(&json_name.as_str());
            match self.member(json_name, schema, is_required, pointer, rust)? {
                Member::Field(field) => fields.push(field),
                Member::Const(c) => consts.push(c),
                Member::Never => {}
            }
        }
        let additional = self.extra_members(obj, pointer, rust)?;
        check_field_names(&fields, &additional, pointer)?;
        check_const_names(&consts, pointer)?;
        let extra_constraints = match additional {
            Additional::Typed(_) => (obj.get("additionalProperties"))
                .or(obj.get("unevaluatedProperties"))
                .and_then(Value::as_object)
                .map(constraints)
                .unwrap_or_default(),
            Additional::Any | Additional::Forbidden => Vec::new(),
        };
        Ok(TypeKind::Struct(Struct {
            fields,
            consts,
            additional,
            extra_constraints,
        }))
    }

    /// One declared member of the struct `rust`: a field, a constant, or nothing.
    fn member(
        &mut self,
        json_name: &str,
        schema: &Value,
        is_required: bool,
        pointer: &str,
        rust: &str,
    ) -> Result<Member, SchemaError> {
        let fptr = format!("{pointer}/properties/{}", escape(json_name));
        // A member no value satisfies (`false`, or zod's `z.never()`: `{"not": {}}`) is one
        // the object must not have: no field.
        if is_never(schema) {
            if is_required {
                return err(&fptr, "a required member that no value satisfies");
            }
            return Ok(Member::Never);
        }
        let field_obj = self.as_object(schema, &fptr)?;
        let doc = field_obj.and_then(|o| self.doc_of(o));
        if let Some(fobj) = field_obj {
            self.check_keywords(fobj, &fptr)?;
            if fobj.contains_key("const") {
                return self.const_member(json_name, fobj, doc, is_required, &fptr, rust);
            }
        }
        let hint = format!("{rust}{}", naming::pascal(json_name, "F"));
        let ty = self.expr(schema, &fptr, &hint)?;
        Ok(Member::Field(Field {
            rust_name: naming::field_name(json_name),
            json_name: json_name.to_owned(),
            doc,
            ty,
            required: is_required,
            constraints: field_obj.map(constraints).unwrap_or_default(),
            implied_const: None,
            boxed: false,
            default_when_absent: None,
            fixed: None,
        }))
    }

    /// A member with a `const`: a required one is a constant of the struct; an optional one is a
    /// field of a one-value string enum of its own (`<Struct><Member>`), its value implied.
    fn const_member(
        &mut self,
        json_name: &str,
        fobj: &Map<String, Value>,
        doc: Option<String>,
        is_required: bool,
        fptr: &str,
        rust: &str,
    ) -> Result<Member, SchemaError> {
        let value = self.const_value(&fobj["const"], fptr)?;
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
        if is_required || is_defaulted_method(json_name, fobj) {
            return Ok(Member::Const(ConstField {
                rust_const: naming::const_name(json_name),
                json_name: json_name.to_owned(),
                value,
                doc,
            }));
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
            fptr,
            doc.clone(),
            TypeKind::StringEnum(vec![EnumValue {
                value: s.clone(),
                variant: variant.clone(),
                doc: None,
            }]),
        )?;
        Ok(Member::Field(Field {
            rust_name: naming::field_name(json_name),
            json_name: json_name.to_owned(),
            doc,
            ty,
            required: false,
            constraints: Vec::new(),
            implied_const: Some(ImpliedConst { value: s, variant }),
            boxed: false,
            default_when_absent: None,
            fixed: None,
        }))
    }

    /// What an object does with the members it does not declare: `additionalProperties` (or
    /// `unevaluatedProperties`, the same once `allOf` is merged, as schemars writes it), with
    /// `patternProperties` folded in. A pattern only documents where any other member is
    /// allowed anyway (the extras keep any JSON value); where no other member is allowed, the
    /// pattern's schema types the extras; patterns that would need a type of their own beside
    /// `additionalProperties` are refused.
    pub(super) fn extra_members(
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

/// What one declared member of an object becomes.
enum Member {
    Field(Field),
    /// A required member with a constant value.
    Const(ConstField),
    /// A member no value satisfies: the object must not have it.
    Never,
}

/// The `properties` of an object schema (`None` when absent), refusing a `type` other than
/// `object`.
fn declared_members<'o>(
    obj: &'o Map<String, Value>,
    pointer: &str,
) -> Result<Option<&'o Map<String, Value>>, SchemaError> {
    if let Some(t) = obj.get("type") {
        if t.as_str() != Some("object") {
            return err(
                &format!("{pointer}/type"),
                format!("an object with `properties` must have `type: \"object\"`, found {t}"),
            );
        }
    }
    match obj.get("properties") {
        None => Ok(None),
        Some(Value::Object(p)) => Ok(Some(p)),
        Some(_) => err(
            &format!("{pointer}/properties"),
            "`properties` must be an object",
        ),
    }
}

/// The names in `required`, each of which must be a declared member.
fn required_members<'o>(
    obj: &'o Map<String, Value>,
    props: &Map<String, Value>,
    pointer: &str,
) -> Result<Vec<&'o str>, SchemaError> {
    match obj.get("required") {
        None => Ok(Vec::new()),
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
            Ok(out)
        }
        Some(_) => err(
            &format!("{pointer}/required"),
            "`required` must be an array",
        ),
    }
}

/// Every field name must be an identifier, distinct from the others and, where the struct keeps
/// undeclared members, from `extra`, the field that keeps them.
fn check_field_names(
    fields: &[Field],
    additional: &Additional,
    pointer: &str,
) -> Result<(), SchemaError> {
    let mut rust_names: BTreeMap<&str, &str> = BTreeMap::new();
    for f in fields {
        check_identifier(
            &f.rust_name,
            &format!("{pointer}/properties/{}", escape(&f.json_name)),
            "field name",
        )?;
        if f.rust_name == "extra" && *additional != Additional::Forbidden {
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
    Ok(())
}

/// Every constant name must be an identifier, distinct from the others.
fn check_const_names(consts: &[ConstField], pointer: &str) -> Result<(), SchemaError> {
    let mut const_names = BTreeSet::new();
    for c in consts {
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
    Ok(())
}

/// A `method` that is optional with a `default` equal to its `const`: pydantic's form of a
/// message's `Literal` method (`method: Literal["ping"] = "ping"`, left out of `required`), which
/// names the message exactly as a required constant does, so it is one. The generated type
/// therefore requires `method` on decode, as for the official schemas, where pydantic would fill
/// the default: on the wire a message always has it (the SDK's JSON-RPC envelopes declare
/// `method: str` without a default, and a message is dispatched on it), and a constant member
/// has one form, required, in the generated code. Any other optional constant stays a field.
fn is_defaulted_method(json_name: &str, fobj: &Map<String, Value>) -> bool {
    json_name == "method"
        && fobj
            .get("default")
            .is_some_and(|d| Some(d) == fobj.get("const"))
}

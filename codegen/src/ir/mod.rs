//! The protocol model the generator works on: a list of named Rust types, built from the schema
//! by the loader ([`crate::load_schema`]) and turned into Rust by the emitter.
//!
//! The model is deliberately small. The MCP schemas use about fifteen JSON Schema keywords and
//! need only these kinds of type: structs (objects with declared members), string enums,
//! unions, and aliases, over the type expressions of [`TypeExpr`].

pub(crate) mod passes;

use std::collections::BTreeSet;

use serde_json::Value;

/// Everything generated for one schema.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// The named types, in a deterministic order: each definition in schema order, followed by
    /// the inline types named after it.
    pub types: Vec<TypeDef>,
    /// The message layer derived from the schema's direction unions, when it has them.
    pub messages: Option<Messages>,
    /// Without direction unions (an extension's schema): its requests, each paired with its
    /// result, which get their `jsonrpc::Request` impls.
    pub extension_requests: Vec<Call>,
}

impl Module {
    /// The type named `name` (Rust name).
    pub fn get(&self, name: &str) -> Option<&TypeDef> {
        self.types.iter().find(|t| t.name == name)
    }

    /// `ty` with the aliases it names replaced by what they stand for, at its top (`Cursor` →
    /// `String`; an array of `Cursor` stays one). Alias cycles are refused by the loader; the
    /// bound only keeps this total.
    pub fn resolve_alias<'a>(&'a self, mut ty: &'a TypeExpr) -> &'a TypeExpr {
        for _ in 0..16 {
            let TypeExpr::Named(name) = ty else { break };
            match self.get(name).map(|t| &t.kind) {
                Some(TypeKind::Alias(target)) => ty = target,
                _ => break,
            }
        }
        ty
    }

    /// The type generated for the schema definition `schema_name`.
    pub fn by_schema_name(&self, schema_name: &str) -> Option<&TypeDef> {
        self.types
            .iter()
            .find(|t| t.schema_name.as_deref() == Some(schema_name))
    }
}

/// One named Rust type.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeDef {
    /// The Rust name (`JsonRpcRequest`).
    pub name: String,
    /// The definition's name in the schema (`JSONRPCRequest`); `None` for inline types.
    pub schema_name: Option<String>,
    /// JSON pointer of the schema this type comes from.
    pub pointer: String,
    /// The schema's `description`.
    pub doc: Option<String>,
    /// The errata (`schema/errata.toml`) that changed this type's schema: one line each, added
    /// to its rustdoc.
    pub errata: Vec<String>,
    /// The constraint keywords its own schema states (what `validate()` checks of an alias's
    /// values, and of a struct's member count); empty for types the passes make.
    pub constraints: Vec<Constraint>,
    /// What kind of type it is.
    pub kind: TypeKind,
}

/// The kinds of named type.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeKind {
    /// An object with declared members.
    Struct(Struct),
    /// A string with a fixed set of values.
    StringEnum(Vec<EnumValue>),
    /// One of several types (`anyOf`, `type: [..]`).
    Union(Union),
    /// Another name for a type expression.
    Alias(TypeExpr),
    /// The requests or notifications of one direction, by method (`ClientRequest`).
    Calls(CallSet),
}

/// The requests or notifications one side sends: the schema's `ClientRequest`, … unions, as
/// enums of params types dispatched on `method`.
#[derive(Debug, Clone, PartialEq)]
pub struct CallSet {
    /// Requests (answered with a result) or notifications.
    pub kind: CallKind,
    /// One per member of the schema's union.
    pub calls: Vec<Call>,
}

/// Requests or notifications.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallKind {
    /// Carry an `id` and get a response.
    Request,
    /// Carry no `id`.
    Notification,
}

/// One method.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// The method name (`tools/call`).
    pub method: String,
    /// The enum variant (`CallTool`).
    pub variant: String,
    /// The schema's type for the whole request (`CallToolRequest`).
    pub message_type: String,
    /// The params type, if the method has params.
    pub params: Option<TypeExpr>,
    /// Whether `params` is required.
    pub params_required: bool,
    /// For a request: the type of the result of a successful response.
    pub result: Option<TypeExpr>,
    /// Whether the params are boxed (large params types; see `crate::ir::passes::layout`).
    pub boxed: bool,
}

/// The message layer of a revision.
#[derive(Debug, Clone, PartialEq)]
pub struct Messages {
    /// `ClientMessage` and `ServerMessage`.
    pub directions: Vec<DirectionModel>,
    /// The `id` type (`RequestId`).
    pub id: TypeExpr,
    /// The `error` type of error responses.
    pub error: TypeExpr,
    /// Error codes the schema defines as constants: (definition name, code).
    pub error_codes: Vec<(String, i64)>,
    /// Whether a JSON-RPC batch is a message (the schema defines `JSONRPCBatchRequest`).
    pub batches: bool,
}

/// Everything one side sends.
#[derive(Debug, Clone, PartialEq)]
pub struct DirectionModel {
    /// `ClientMessage` / `ServerMessage`.
    pub name: String,
    /// `Client` / `Server`.
    pub side: String,
    /// The call set of its requests (`None`: it sends none in this revision).
    pub requests: Option<String>,
    /// The call set of its notifications.
    pub notifications: Option<String>,
    /// Its result type (`ClientResult`).
    pub results: TypeExpr,
    /// Whether it answers requests of the other side.
    pub responds: bool,
}

impl Union {
    /// The members a value converts from with `From` (the emitter writes the impls, `diff`
    /// judges their changes): those whose type, aliases resolved, no other member has, that are
    /// not nullable and not the union `name` itself; each with that resolved type.
    pub fn from_members<'a>(
        &'a self,
        module: &'a Module,
        name: &str,
    ) -> Vec<(&'a Variant, &'a TypeExpr)> {
        let resolved: Vec<&TypeExpr> = (self.variants.iter())
            .map(|v| module.resolve_alias(&v.ty))
            .collect();
        let unique = |t: &TypeExpr| resolved.iter().filter(|r| **r == t).count() == 1;
        (self.variants.iter().zip(resolved.iter().copied()))
            .filter(|(_, member)| unique(member))
            .filter(|(_, member)| !matches!(member, TypeExpr::Nullable(_)))
            .filter(|(_, member)| !matches!(member, TypeExpr::Named(n) if n == name))
            .collect()
    }
}

impl Field {
    /// Whether `new` takes this member as an argument: required, and not a value the spec
    /// fixes (`Field::fixed`).
    pub fn is_new_param(&self) -> bool {
        self.required && self.fixed.is_none()
    }
}

/// An object type with declared members.
#[derive(Debug, Clone, PartialEq)]
pub struct Struct {
    /// The members a user reads and writes, in schema order.
    pub fields: Vec<Field>,
    /// Required members with a `const` value: checked on decode, written on encode, not stored.
    pub consts: Vec<ConstField>,
    /// What the schema says of members it does not declare.
    pub additional: Additional,
    /// The constraint keywords of the schema of those members (when they are typed).
    pub extra_constraints: Vec<Constraint>,
}

impl Struct {
    /// Every member name on the wire, constants first.
    pub fn wire_names(&self) -> impl Iterator<Item = &str> {
        self.consts
            .iter()
            .map(|c| c.json_name.as_str())
            .chain(self.fields.iter().map(|f| f.json_name.as_str()))
    }

    /// The members a value must carry to decode: the required ones, less those a spec rule
    /// fills in when absent (`resultType` of 2026-07-28).
    pub fn must_carry_names(&self) -> Vec<&str> {
        let implied: Vec<&str> = (self.fields.iter())
            .filter(|f| f.default_when_absent.is_some())
            .map(|f| f.json_name.as_str())
            .collect();
        let mut names = self.required_names();
        names.retain(|name| !implied.contains(name));
        names
    }

    /// Names of the members the schema requires.
    pub fn required_names(&self) -> Vec<&str> {
        self.consts
            .iter()
            .map(|c| c.json_name.as_str())
            .chain(
                self.fields
                    .iter()
                    .filter(|f| f.required)
                    .map(|f| f.json_name.as_str()),
            )
            .collect()
    }
}

/// A declared member of an object.
#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    /// The member's name on the wire.
    pub json_name: String,
    /// The Rust field name (`mime_type`, `r#type`, `meta` for `_meta`).
    pub rust_name: String,
    /// The member's `description`.
    pub doc: Option<String>,
    /// Its type (without the `Option` of an optional member).
    pub ty: TypeExpr,
    /// Whether the schema lists it in `required`.
    pub required: bool,
    /// The constraint keywords its schema states (those of the aliases its type names are the
    /// aliases' own [`TypeDef::constraints`]).
    pub constraints: Vec<Constraint>,
    /// For an optional member whose schema is a single `const`: its value. The field's type is
    /// then a one-value string enum, so an absent member and a present one both round-trip.
    pub implied_const: Option<ImpliedConst>,
    /// Whether the field must be boxed to break a cycle of directly nested structs.
    pub boxed: bool,
    /// A value the spec says an absent required member has (2026-07-28: a result without
    /// `resultType` is `"complete"`): decoding fills it in, encoding always writes it.
    pub default_when_absent: Option<String>,
    /// The value the spec fixes for this required member on this type, which the constructors
    /// fill in (`resultType`: `"input_required"` on `InputRequiredResult`, `"complete"` on every
    /// other result; see `ir::passes::spec_rules`).
    pub fixed: Option<String>,
}

/// The one value of an optional constant member, and the Rust path of that value.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpliedConst {
    /// The constant's value.
    pub value: String,
    /// The enum variant that stands for it.
    pub variant: String,
}

/// A required member with a constant value.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstField {
    /// The member's name on the wire.
    pub json_name: String,
    /// The constant.
    pub value: ConstValue,
    /// Rust name of the associated constant (`TYPE`, `METHOD`, `JSONRPC`).
    pub rust_const: String,
    /// The member's `description`.
    pub doc: Option<String>,
}

/// The constant values the generator supports.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstValue {
    /// A string constant (`"2.0"`, `"tools/call"`, `"text"`).
    String(String),
    /// An integer constant (error codes).
    Integer(i64),
    /// A boolean constant.
    Bool(bool),
}

impl ConstValue {
    /// The constant as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            ConstValue::String(s) => Value::String(s.clone()),
            ConstValue::Integer(i) => Value::from(*i),
            ConstValue::Bool(b) => Value::Bool(*b),
        }
    }
}

/// What an object does with members it does not declare.
#[derive(Debug, Clone, PartialEq)]
pub enum Additional {
    /// `additionalProperties: false`: an undeclared member is a decode error.
    Forbidden,
    /// Allowed, any value: kept in a `serde_json::Map` so a round trip loses nothing.
    Any,
    /// Allowed with a schema: kept in an `IndexMap<String, T>` (insertion order).
    Typed(TypeExpr),
}

/// A value of a string enum.
#[derive(Debug, Clone, PartialEq)]
pub struct EnumValue {
    /// The value on the wire.
    pub value: String,
    /// The Rust variant name.
    pub variant: String,
    /// The value's own description, when the schema gives one (an `anyOf` of constants).
    pub doc: Option<String>,
}

/// A union: the value is one of several types.
#[derive(Debug, Clone, PartialEq)]
pub struct Union {
    /// The members, in schema order.
    pub variants: Vec<Variant>,
    /// How an object value finds its member.
    pub objects: ObjectDispatch,
}

/// One member of a union.
#[derive(Debug, Clone, PartialEq)]
pub struct Variant {
    /// The Rust variant name.
    pub name: String,
    /// The member's type.
    pub ty: TypeExpr,
    /// The constraint keywords of an inline member's schema (`{"type": "string", "maxLength":
    /// 8}`); a member naming a definition has that definition's.
    pub constraints: Vec<Constraint>,
    /// The JSON kinds of value this member accepts.
    pub kinds: BTreeSet<JsonKind>,
    /// Whether the member is boxed: its type is much larger than an enum should carry inline
    /// (see `crate::ir::passes::layout`).
    pub boxed: bool,
}

/// How a union decodes an object value.
#[derive(Debug, Clone, PartialEq)]
pub enum ObjectDispatch {
    /// No member accepts an object.
    None,
    /// Exactly one member (index into `variants`) accepts an object.
    Single(usize),
    /// Every object member has a constant `tag` member with its own value.
    Tagged {
        /// The discriminating member's name on the wire.
        tag: String,
        /// Tag value → variant index.
        cases: Vec<(String, usize)>,
        /// The member that an object without the tag belongs to (its tag is optional).
        default: Option<usize>,
    },
    /// The value of a string member that every object member declares decides, by a rule the
    /// spec states in prose (2026-07-28 `resultType`: see `ir::passes::spec_rules`). Unlike
    /// `Tagged`, the member is no constant checked and dropped: the chosen member decodes it
    /// as one of its own.
    ByValue {
        /// The deciding member's name on the wire.
        tag: String,
        /// Value → variant index.
        cases: Vec<(String, usize)>,
        /// The member that every other object takes: any other value, a value that is not a
        /// string, or no such member (where it fails, its own error says why).
        otherwise: usize,
    },
    /// No discriminating constant. The first member name that only one union member declares
    /// decides (`tools` → `ListToolsResult`); an object with no such member is matched
    /// structurally against every object member: by the members they require and declare (see
    /// `mcp_typed::__private::structural`).
    Keyed {
        /// Member name → variant index, for names exactly one object member declares.
        deciding: Vec<(String, usize)>,
        /// Every object member, for objects without a deciding member.
        fallback: Vec<StructuralCase>,
        /// Every member name the object members declare or require, sorted (at most 64): the
        /// bit positions of the runtime's member sets.
        names: Vec<String>,
        /// A member whose value narrows the structural match, where there is one.
        partition: Option<Partition>,
    },
}

/// A member that every object member of a structurally matched union requires with a string
/// from a set of its own (`type` of a form field: `"string"` for four members, `"number" |
/// "integer"` for one, …). Its value leaves only the members that allow it: where one is left,
/// the object streams into it; where several are, the structural match runs among them.
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    /// The member's name on the wire.
    pub tag: String,
    /// Each value the members allow → the positions in `fallback` of the members that allow it.
    pub cases: Vec<(String, Vec<usize>)>,
}

/// One object member of a structurally decoded union.
#[derive(Debug, Clone, PartialEq)]
pub struct StructuralCase {
    /// Index into `variants`.
    pub variant: usize,
    /// Member names it requires.
    pub required: Vec<String>,
    /// Member names it declares.
    pub declared: Vec<String>,
}

/// The kinds of JSON value, for dispatching unions on what the input holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JsonKind {
    /// `null`
    Null,
    /// `true` / `false`
    Boolean,
    /// a number without fraction or exponent
    Integer,
    /// any other number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
}

/// A type as it appears in a field, alias or union member.
#[derive(Debug, Clone, PartialEq)]
pub enum TypeExpr {
    /// `string` → `String`.
    String,
    /// `integer` → `i64`.
    Integer,
    /// `number` → `serde_json::Number`, which keeps `50` and `50.0` apart so a round trip is exact.
    Number,
    /// `boolean` → `bool`.
    Boolean,
    /// No constraint at all (`{}`, `true`) → `serde_json::Value`.
    Any,
    /// `array` with `items` → `Vec<T>`.
    Array(Box<TypeExpr>),
    /// An object without declared members whose values all have one type → `IndexMap<String, T>`
    /// (`mcp_typed::RawObject`, the object's text, when the values are [`TypeExpr::Any`]).
    Map(Box<TypeExpr>),
    /// `T` or `null` → `Option<T>`.
    Nullable(Box<TypeExpr>),
    /// A named type of the module.
    Named(String),
}

/// A constraint keyword of a schema, as validation checks it (see `mcp_typed::validate`); read by
/// `schema::keywords::constraints`. Decoding never checks them.
#[derive(Debug, Clone, PartialEq)]
pub enum Constraint {
    /// `format`: asserted for the formats the runtime knows, an annotation for the others.
    Format(String),
    /// `pattern`: an ECMA-262 regular expression searched anywhere in the string.
    Pattern(String),
    /// `minLength`, in code points.
    MinLength(u64),
    /// `maxLength`, in code points.
    MaxLength(u64),
    /// `minimum`.
    Minimum(f64),
    /// `maximum`.
    Maximum(f64),
    /// `exclusiveMinimum` (the number of 2020-12 and draft-07).
    ExclusiveMinimum(f64),
    /// `exclusiveMaximum`.
    ExclusiveMaximum(f64),
    /// `multipleOf`.
    MultipleOf(f64),
    /// `minItems`.
    MinItems(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `minProperties`.
    MinProperties(u64),
    /// `maxProperties`.
    MaxProperties(u64),
    /// The constraints of every item of an array (`items`).
    Items(Vec<Constraint>),
    /// The constraints of every value of a map (`additionalProperties`).
    Values(Vec<Constraint>),
}

//! What changed between two schemas, in the terms of the Rust code that uses the generated types.
//!
//! [`diff`] compares two [`Module`]s (the IR, not the JSON, so a reordered or reformatted schema
//! shows no change) and lists every change as a [`Change`]: its [`Kind`] (named in the manner of
//! cargo-semver-checks' lints: `struct_field_added`, `enum_variant_added`, …), the Rust item
//! (`Implementation::keywords`), its Rust type or value before and after, the schema's JSON
//! pointer, and which ways of writing code it breaks ([`Style`]): struct literals, the generated
//! constructors (`new`, `with_*`, `From`, named constructors), and code that reads values
//! (exhaustive `match`, field access). A change can also break the wire: JSON the old types
//! accepted stops decoding, or the old types write what the new ones refuse.
//!
//! [`render_text`], [`render_markdown`] and [`render_json`] write the report; [`Gate`] decides
//! whether it fails a check.

mod compare;
mod render;
mod rust;

use std::collections::BTreeSet;

pub use self::render::{render_json, render_markdown, render_text, Names, JSON_VERSION};
pub use self::rust::{field_type, rust_type};
use crate::ir::Module;

/// A way callers write code against the generated types; a change breaks some of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Style {
    /// Struct literals (`Implementation { name, version, … }`) and enum variants built by hand
    /// (`ContentBlock::TextContent(Box::new(text))`).
    Literals,
    /// The generated constructors: `T::new(required…)`, `with_<field>`, union `From`s and named
    /// constructors (`ContentBlock::text`), call-set constructors (`ClientRequest::call_tool`).
    Constructors,
    /// Code that reads values: an exhaustive `match` on an enum, a field access, an associated
    /// constant named.
    Match,
}

impl Style {
    /// Every style, in report order.
    pub const ALL: [Style; 3] = [Style::Literals, Style::Constructors, Style::Match];

    /// The style's name in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Style::Literals => "literals",
            Style::Constructors => "constructors",
            Style::Match => "match",
        }
    }
}

macro_rules! kinds {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// What a change is, named as cargo-semver-checks names its lints.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $($(#[$doc])* $variant,)*
        }

        impl Kind {
            /// Every kind, in report order.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The kind's name in reports and for `--allow`: `struct_field_added`.
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)*
                }
            }
        }
    };
}

kinds! {
    /// A type was removed (a definition, or an inline type whose parent changed).
    TypeRemoved = "type_removed",
    /// A type has another name and the same shape (members, their names, whether each is
    /// required, and their types, renamed or not): the Rust name breaks, not the wire.
    TypeRenamed = "type_renamed",
    /// A type changed kind (struct ↔ enum ↔ alias).
    TypeKindChanged = "type_kind_changed",
    /// An alias stands for another type.
    TypeAliasChanged = "type_alias_changed",
    /// A struct field was removed.
    StructFieldRemoved = "struct_field_removed",
    /// A struct field has another type.
    StructFieldTypeChanged = "struct_field_type_changed",
    /// A struct field turned required: `Option<T>` → `T`, and `new` takes it.
    StructFieldNowRequired = "struct_field_now_required",
    /// A struct field turned optional: `T` → `Option<T>`, and `new` no longer takes it.
    StructFieldNowOptional = "struct_field_now_optional",
    /// A struct field became a constant member (an associated constant, no longer a field).
    StructFieldBecameConstant = "struct_field_became_constant",
    /// A constant member became a field.
    StructConstantBecameField = "struct_constant_became_field",
    /// A required field was added: `new` takes one more argument.
    StructFieldAddedRequired = "struct_field_added_required",
    /// An optional field (or one `new` fills) was added: only struct literals miss it.
    StructFieldAdded = "struct_field_added",
    /// A field is boxed, or no longer: `T` ↔ `Box<T>` in struct literals.
    StructFieldBoxingChanged = "struct_field_boxing_changed",
    /// What the struct does with members the schema does not declare (its `extra` field).
    StructExtraChanged = "struct_extra_changed",
    /// A constant member was removed (its associated constant with it).
    StructConstantRemoved = "struct_constant_removed",
    /// A constant member has another value.
    StructConstantValueChanged = "struct_constant_value_changed",
    /// A constant member was added: JSON without it stops decoding.
    StructConstantAdded = "struct_constant_added",
    /// A value of a string enum was removed.
    EnumVariantRemoved = "enum_variant_removed",
    /// A value of a string enum was added.
    EnumVariantAdded = "enum_variant_added",
    /// A member of a union was removed.
    UnionMemberRemoved = "union_member_removed",
    /// A member of a union has another type.
    UnionMemberTypeChanged = "union_member_type_changed",
    /// A member of a union was added.
    UnionMemberAdded = "union_member_added",
    /// A union member is boxed, or no longer.
    UnionMemberBoxingChanged = "union_member_boxing_changed",
    /// A method was removed from a call set (`ClientRequest`).
    MethodRemoved = "method_removed",
    /// A method's params have another type, or turned required or optional.
    MethodParamsChanged = "method_params_changed",
    /// A method was added to a call set.
    MethodAdded = "method_added",
    /// An error code constant was removed (`error_codes::…`).
    ErrorCodeRemoved = "error_code_removed",
    /// An error code constant has another value.
    ErrorCodeValueChanged = "error_code_value_changed",
    /// An error code constant was added.
    ErrorCodeAdded = "error_code_added",
    /// A type was added.
    TypeAdded = "type_added",
    /// Only the documentation (the schema's `description`) changed.
    DocsChanged = "docs_changed",
}

impl Kind {
    /// The kind named `name` ([`Kind::name`]).
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

/// The Rust item a change is about, by its names in the module that has it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Item {
    /// A type (`Implementation`).
    Type {
        /// The Rust type name.
        name: String,
    },
    /// A field of a struct.
    Field {
        /// The struct's Rust name.
        owner: String,
        /// The member's name on the wire.
        json_name: String,
        /// The Rust field name (of the side that has it; the new one if both).
        rust_name: String,
    },
    /// The `extra` field of a struct (the members the schema does not declare).
    Extra {
        /// The struct's Rust name.
        owner: String,
    },
    /// An associated constant of a struct (a constant member).
    Const {
        /// The struct's Rust name.
        owner: String,
        /// The member's name on the wire.
        json_name: String,
        /// The associated constant (`METHOD`).
        rust_const: String,
    },
    /// A variant of a string enum.
    EnumValue {
        /// The enum's Rust name.
        owner: String,
        /// The value on the wire.
        value: String,
        /// The Rust variant.
        variant: String,
    },
    /// A variant of a union.
    UnionMember {
        /// The union's Rust name.
        owner: String,
        /// The Rust variant.
        variant: String,
    },
    /// A variant of a call set (`ClientRequest::CallTool`).
    Method {
        /// The call set's Rust name.
        owner: String,
        /// The method (`tools/call`).
        method: String,
        /// The Rust variant.
        variant: String,
    },
    /// A constant of the module's `error_codes`.
    ErrorCode {
        /// The constant's name.
        name: String,
    },
}

impl Item {
    /// The Rust path inside the module: `Implementation::keywords`, `ClientRequest::CallTool`,
    /// `error_codes::URL_ELICITATION_REQUIRED_ERROR`.
    pub fn path(&self) -> String {
        match self {
            Item::Type { name } => name.clone(),
            Item::Field {
                owner, rust_name, ..
            } => format!("{owner}::{rust_name}"),
            Item::Extra { owner } => format!("{owner}::extra"),
            Item::Const {
                owner, rust_const, ..
            } => format!("{owner}::{rust_const}"),
            Item::EnumValue { owner, variant, .. }
            | Item::UnionMember { owner, variant }
            | Item::Method { owner, variant, .. } => format!("{owner}::{variant}"),
            Item::ErrorCode { name } => format!("error_codes::{name}"),
        }
    }

    /// The Rust type the item belongs to (`None` for an error code).
    pub fn owner(&self) -> Option<&str> {
        match self {
            Item::Type { name: owner }
            | Item::Field { owner, .. }
            | Item::Extra { owner }
            | Item::Const { owner, .. }
            | Item::EnumValue { owner, .. }
            | Item::UnionMember { owner, .. }
            | Item::Method { owner, .. } => Some(owner),
            Item::ErrorCode { .. } => None,
        }
    }
}

/// One difference between two schemas, for Rust code.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Change {
    /// What happened.
    pub kind: Kind,
    /// The Rust item.
    pub item: Item,
    /// Its Rust type or value before (`None` where the item did not exist).
    pub before: Option<String>,
    /// Its Rust type or value after (`None` where it no longer exists).
    pub after: Option<String>,
    /// The JSON pointer of the schema it comes from (the new schema's, where it still exists).
    pub pointer: String,
    /// The ways of writing code it breaks.
    pub breaks: BTreeSet<Style>,
    /// Whether it breaks the wire: JSON the old types accepted stops decoding, or the old types
    /// write what the new ones refuse.
    pub wire: bool,
    /// What the report says of it besides the types: the method, the member, the wire rule.
    pub note: Option<String>,
}

impl Change {
    /// Whether the change breaks code written in any of `styles`, or the wire.
    pub fn breaks_any(&self, styles: &BTreeSet<Style>) -> bool {
        self.wire || self.breaks.iter().any(|s| styles.contains(s))
    }

    /// Whether it breaks anything at all.
    pub fn is_breaking(&self) -> bool {
        self.wire || !self.breaks.is_empty()
    }
}

/// Which changes fail a check: those that break a style the team writes, or the wire, unless
/// their kind is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gate {
    /// The ways the team writes code (all of them by default).
    pub styles: BTreeSet<Style>,
    /// Kinds that never fail the check.
    pub allowed: BTreeSet<Kind>,
}

impl Default for Gate {
    fn default() -> Self {
        Gate {
            styles: Style::ALL.into_iter().collect(),
            allowed: BTreeSet::new(),
        }
    }
}

impl Gate {
    /// Whether `change` fails the check.
    pub fn fails(&self, change: &Change) -> bool {
        !self.allowed.contains(&change.kind) && change.breaks_any(&self.styles)
    }

    /// Whether any of `changes` fails the check.
    pub fn fails_any(&self, changes: &[Change]) -> bool {
        changes.iter().any(|c| self.fails(c))
    }
}

/// Every difference from `old` to `new`, sorted by kind, then item.
pub fn diff(old: &Module, new: &Module) -> Vec<Change> {
    let mut changes = compare::Found::new(old, new).run();
    changes.sort();
    changes.dedup();
    changes
}

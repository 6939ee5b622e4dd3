//! The comparison itself: each Rust item of the old module against its namesake in the new one,
//! each difference judged against each [`Style`] and the wire.

use std::collections::{BTreeMap, BTreeSet};

use super::rust::{extra_type, field_type, from_variants, kind_name, resolve, rust_type};
use super::{Change, Item, Kind, Style};
use crate::ir::{
    Additional, CallSet, ConstField, EnumValue, Field, Module, Struct, TypeDef, TypeExpr, TypeKind,
    Union,
};
use mcp_typed_json::pointer::escape;

use Style::{Constructors, Literals, Match};

/// The styles a change breaks.
fn breaks(styles: &[Style]) -> BTreeSet<Style> {
    styles.iter().copied().collect()
}

/// A change being built: kind and item first, the rest set by the helpers.
struct Draft(Change);

impl Draft {
    fn new(kind: Kind, item: Item, pointer: String) -> Self {
        Draft(Change {
            kind,
            item,
            before: None,
            after: None,
            pointer,
            breaks: BTreeSet::new(),
            wire: false,
            note: None,
        })
    }
    fn types(mut self, before: Option<String>, after: Option<String>) -> Self {
        self.0.before = before;
        self.0.after = after;
        self
    }
    fn breaks(mut self, styles: &[Style]) -> Self {
        self.0.breaks = breaks(styles);
        self
    }
    fn wire(mut self, wire: bool) -> Self {
        self.0.wire = wire;
        self
    }
    fn note(mut self, note: impl Into<String>) -> Self {
        self.0.note = Some(note.into());
        self
    }
}

/// The two modules compared and the changes found so far.
pub(super) struct Found<'a> {
    old: &'a Module,
    new: &'a Module,
    out: Vec<Change>,
}

impl<'a> Found<'a> {
    pub(super) fn new(old: &'a Module, new: &'a Module) -> Self {
        Found {
            old,
            new,
            out: Vec::new(),
        }
    }

    fn push(&mut self, draft: Draft) {
        self.out.push(draft.0);
    }

    /// Every change, in the order found.
    pub(super) fn run(mut self) -> Vec<Change> {
        let renames = self.renames();
        for old_type in &self.old.types {
            match self.new.get(&old_type.name) {
                None => {
                    let item = Item::Type {
                        name: old_type.name.clone(),
                    };
                    let draft = match renames.iter().find(|(old, _)| *old == old_type.name) {
                        Some((_, new_name)) => {
                            Draft::new(Kind::TypeRenamed, item, old_type.pointer.clone())
                                .types(Some(old_type.name.clone()), Some(new_name.clone()))
                                .note("the same members: the JSON is unchanged")
                        }
                        None => Draft::new(Kind::TypeRemoved, item, old_type.pointer.clone())
                            .types(Some(kind_name(&old_type.kind).to_owned()), None),
                    };
                    self.push(draft.breaks(&Style::ALL));
                }
                Some(new_type) => self.type_changes(old_type, new_type),
            }
        }
        for new_type in &self.new.types {
            let renamed = renames.iter().any(|(_, new)| *new == new_type.name);
            if self.old.get(&new_type.name).is_none() && !renamed {
                let item = Item::Type {
                    name: new_type.name.clone(),
                };
                let after = Some(kind_name(&new_type.kind).to_owned());
                self.push(
                    Draft::new(Kind::TypeAdded, item, new_type.pointer.clone()).types(None, after),
                );
            }
        }
        self.error_codes();
        self.out
    }

    /// The types of the old side gone from the new one that reappear there under another name
    /// with the same shape ([`same_shape`](Self::same_shape)) where the old one was held: a
    /// field of the same struct held the old type and now holds the new one. (old name, new
    /// name). Two unrelated types of one shape (two structs of a lone `_meta`) are no rename;
    /// nor is a type with two or more candidates, or a candidate that two old types match: the
    /// report does not guess.
    fn renames(&self) -> Vec<(String, String)> {
        let (old_holders, new_holders) = (holders(self.old), holders(self.new));
        let moved = |old: &str, new: &str| {
            let (Some(a), Some(b)) = (old_holders.get(old), new_holders.get(new)) else {
                return false;
            };
            !a.is_disjoint(b)
        };
        let gone = (self.old.types.iter()).filter(|t| self.new.get(&t.name).is_none());
        let added: Vec<&TypeDef> = (self.new.types.iter())
            .filter(|t| self.old.get(&t.name).is_none())
            .collect();
        let candidates: Vec<(String, Vec<&str>)> = gone
            .map(|old| {
                let x = TypeExpr::Named(old.name.clone());
                let matching = (added.iter())
                    .filter(|new| moved(&old.name, &new.name))
                    .filter(|new| self.same_shape(&x, &TypeExpr::Named(new.name.clone()), 0))
                    .map(|new| new.name.as_str())
                    .collect();
                (old.name.clone(), matching)
            })
            .collect();
        let claimed = |name: &str| {
            (candidates.iter())
                .filter(|(_, matching)| matching.contains(&name))
                .count()
        };
        (candidates.iter())
            .filter_map(|(old, matching)| match matching[..] {
                [new] if claimed(new) == 1 => Some((old.clone(), new.to_owned())),
                _ => None,
            })
            .collect()
    }

    /// A type present on both sides.
    fn type_changes(&mut self, a: &TypeDef, b: &TypeDef) {
        let name = b.name.clone();
        if a.doc != b.doc {
            let item = Item::Type { name: name.clone() };
            self.push(Draft::new(Kind::DocsChanged, item, b.pointer.clone()));
        }
        match (&a.kind, &b.kind) {
            (TypeKind::Struct(x), TypeKind::Struct(y)) => self.structs(b, x, y),
            (TypeKind::StringEnum(x), TypeKind::StringEnum(y)) => self.enum_values(b, x, y),
            (TypeKind::Union(x), TypeKind::Union(y)) => self.union_members(b, x, y),
            (TypeKind::Calls(x), TypeKind::Calls(y)) => self.calls(b, x, y),
            (TypeKind::Alias(x), TypeKind::Alias(y)) => {
                if resolve(self.old, x) != resolve(self.new, y) {
                    let (before, after) = (rust_type(x), rust_type(y));
                    let wire = !self.wire_compatible(x, y);
                    self.push(
                        Draft::new(
                            Kind::TypeAliasChanged,
                            Item::Type { name },
                            b.pointer.clone(),
                        )
                        .types(Some(format!("= {before}")), Some(format!("= {after}")))
                        .breaks(&Style::ALL)
                        .wire(wire),
                    );
                }
            }
            (x, y) => {
                let (before, after) = (kind_name(x).to_owned(), kind_name(y).to_owned());
                self.push(
                    Draft::new(
                        Kind::TypeKindChanged,
                        Item::Type { name },
                        b.pointer.clone(),
                    )
                    .types(Some(before), Some(after))
                    .breaks(&Style::ALL)
                    .wire(true),
                );
            }
        }
    }

    /// Whether a value of the old type `x` converts (`Into`) into the new type `y` and old JSON
    /// of `x` decodes as `y`: the same type, `i64` into `serde_json::Number`, a scalar into
    /// `serde_json::Value`, a type into a union with a `From` it.
    fn converts(&self, x: &TypeExpr, y: &TypeExpr) -> bool {
        let (x, y) = (resolve(self.old, x), resolve(self.new, y));
        if x == y {
            return true;
        }

        match (&x, &y) {
            (TypeExpr::Integer, TypeExpr::Number) => true,
            (
                TypeExpr::String | TypeExpr::Integer | TypeExpr::Number | TypeExpr::Boolean,
                TypeExpr::Any,
            ) => true,
            (_, TypeExpr::Named(union)) => match self.new.get(union).map(|t| &t.kind) {
                Some(TypeKind::Union(u)) => from_variants(self.new, union, u).iter().any(|v| {
                    let member = u.variants.iter().find(|m| m.name == *v);
                    member.is_some_and(|m| resolve(self.new, &m.ty) == x)
                }),
                _ => false,
            },
            _ => false,
        }
    }

    /// Whether old JSON of type `x` still decodes as `y` (and `y` writes what `x` read).
    fn wire_compatible(&self, x: &TypeExpr, y: &TypeExpr) -> bool {
        self.converts(x, y) || self.same_shape(x, y, 0)
    }

    /// Whether two types, each in its module, read and write the same JSON: an inline type
    /// that became a named definition of the same members (`PingRequestParams` →
    /// `RequestParams`) changes the Rust name, not the wire. Three levels deep at most;
    /// deeper, assumed different.
    fn same_shape(&self, x: &TypeExpr, y: &TypeExpr, depth: usize) -> bool {
        let (x, y) = (resolve(self.old, x), resolve(self.new, y));
        match (&x, &y) {
            _ if depth > 3 => false,
            (TypeExpr::Array(a), TypeExpr::Array(b))
            | (TypeExpr::Map(a), TypeExpr::Map(b))
            | (TypeExpr::Nullable(a), TypeExpr::Nullable(b)) => self.same_shape(a, b, depth + 1),
            (TypeExpr::Named(a), TypeExpr::Named(b)) => {
                let kinds = (
                    self.old.get(a).map(|t| &t.kind),
                    self.new.get(b).map(|t| &t.kind),
                );
                match kinds {
                    (Some(TypeKind::Struct(a)), Some(TypeKind::Struct(b))) => {
                        a.consts == b.consts
                            && a.fields.len() == b.fields.len()
                            && std::mem::discriminant(&a.additional)
                                == std::mem::discriminant(&b.additional)
                            && a.fields.iter().all(|f| {
                                b.fields.iter().any(|g| {
                                    g.json_name == f.json_name
                                        && g.required == f.required
                                        && self.same_shape(&f.ty, &g.ty, depth + 1)
                                })
                            })
                    }
                    (Some(TypeKind::StringEnum(a)), Some(TypeKind::StringEnum(b))) => {
                        a.iter().map(|v| &v.value).eq(b.iter().map(|v| &v.value))
                    }
                    _ => false,
                }
            }
            _ => x == y,
        }
    }

    fn structs(&mut self, t: &TypeDef, a: &Struct, b: &Struct) {
        for f in &a.fields {
            match b.fields.iter().find(|g| g.json_name == f.json_name) {
                Some(g) => self.field_changes(t, f, g),
                None => self.field_gone(t, f, b),
            }
        }
        for g in &b.fields {
            if !a.fields.iter().any(|f| f.json_name == g.json_name) {
                self.field_added(t, a, g);
            }
        }
        self.consts(t, a, b);
        self.extra(t, a, b);
    }

    fn field_item(t: &TypeDef, f: &Field) -> (Item, String) {
        let item = Item::Field {
            owner: t.name.clone(),
            json_name: f.json_name.clone(),
            rust_name: f.rust_name.clone(),
        };
        (
            item,
            format!("{}/properties/{}", t.pointer, escape(&f.json_name)),
        )
    }

    /// A field of the old struct that the new one lacks (or has as a constant).
    fn field_gone(&mut self, t: &TypeDef, f: &Field, b: &Struct) {
        let (item, pointer) = Self::field_item(t, f);
        let before = Some(field_type(f));
        let draft = match b.consts.iter().find(|c| c.json_name == f.json_name) {
            Some(c) => Draft::new(Kind::StructFieldBecameConstant, item, pointer)
                .types(before, Some(const_type(c)))
                .wire(true),
            // Without `additionalProperties: false` old JSON's member lands in `extra`.
            None => Draft::new(Kind::StructFieldRemoved, item, pointer)
                .types(before, None)
                .wire(b.additional == Additional::Forbidden),
        };
        self.push(draft.breaks(&Style::ALL));
    }

    /// A field present on both sides.
    fn field_changes(&mut self, t: &TypeDef, f: &Field, g: &Field) {
        let (item, pointer) = Self::field_item(t, g);
        let types = (Some(field_type(f)), Some(field_type(g)));
        if f.doc != g.doc {
            self.push(Draft::new(Kind::DocsChanged, item.clone(), pointer.clone()));
        }
        if resolve(self.old, &f.ty) != resolve(self.new, &g.ty) {
            // `new` and `with_` take `impl Into<…>`: a value of the old type may still do.
            let converts = self.converts(&f.ty, &g.ty);
            let styles: &[Style] = if converts {
                &[Literals, Match]
            } else {
                &Style::ALL
            };
            self.push(
                Draft::new(Kind::StructFieldTypeChanged, item.clone(), pointer.clone())
                    .types(types.0.clone(), types.1.clone())
                    .breaks(styles)
                    .wire(!self.wire_compatible(&f.ty, &g.ty)),
            );
        }
        if f.required != g.required {
            let (kind, wire) = if g.required {
                let absent_ok = g.default_when_absent.is_some();
                (Kind::StructFieldNowRequired, !absent_ok)
            } else {
                // Old types always write it; new ones accept it.
                (Kind::StructFieldNowOptional, false)
            };
            self.push(
                Draft::new(kind, item, pointer)
                    .types(types.0, types.1)
                    .breaks(&Style::ALL)
                    .wire(wire),
            );
        } else if f.boxed != g.boxed {
            // Constructors hide the box; a required field reads through it by deref coercion,
            // an optional one (`Option<Box<T>>` ↔ `Option<T>`) does not.
            let styles: &[Style] = if g.required {
                &[Literals]
            } else {
                &[Literals, Match]
            };
            self.push(
                Draft::new(Kind::StructFieldBoxingChanged, item, pointer)
                    .types(types.0, types.1)
                    .breaks(styles),
            );
        }
    }

    /// A field of the new struct that the old one lacks.
    fn field_added(&mut self, t: &TypeDef, a: &Struct, g: &Field) {
        let (item, pointer) = Self::field_item(t, g);
        let after = Some(field_type(g));
        // Old JSON lacks it: fine where it is optional or the spec says what its absence means.
        let wire = g.required && g.default_when_absent.is_none();
        let draft = if let Some(c) = a.consts.iter().find(|c| c.json_name == g.json_name) {
            Draft::new(Kind::StructConstantBecameField, item, pointer)
                .types(Some(const_type(c)), after)
                .breaks(&Style::ALL)
        } else if g.is_new_param() {
            Draft::new(Kind::StructFieldAddedRequired, item, pointer)
                .types(None, after)
                .breaks(&[Literals, Constructors])
                .wire(wire)
        } else {
            let draft = Draft::new(Kind::StructFieldAdded, item, pointer)
                .types(None, after)
                .breaks(&[Literals])
                .wire(wire);
            match &g.fixed {
                Some(value) => draft.note(format!("`new` fills it with {value:?}")),
                None => draft,
            }
        };
        self.push(draft);
    }

    fn consts(&mut self, t: &TypeDef, a: &Struct, b: &Struct) {
        let item = |c: &ConstField| Item::Const {
            owner: t.name.clone(),
            json_name: c.json_name.clone(),
            rust_const: c.rust_const.clone(),
        };
        let pointer = |c: &ConstField| format!("{}/properties/{}", t.pointer, escape(&c.json_name));
        for c in &a.consts {
            match b.consts.iter().find(|n| n.json_name == c.json_name) {
                Some(now) => {
                    if now.value != c.value {
                        self.push(
                            Draft::new(Kind::StructConstantValueChanged, item(now), pointer(now))
                                .types(Some(const_type(c)), Some(const_type(now)))
                                .wire(true),
                        );
                    }
                    if now.doc != c.doc {
                        self.push(Draft::new(Kind::DocsChanged, item(now), pointer(now)));
                    }
                }
                // Reported as `struct_constant_became_field`.
                None if b.fields.iter().any(|f| f.json_name == c.json_name) => {}
                None => self.push(
                    Draft::new(Kind::StructConstantRemoved, item(c), pointer(c))
                        .types(Some(const_type(c)), None)
                        .breaks(&[Match])
                        .wire(b.additional == Additional::Forbidden),
                ),
            }
        }
        for c in &b.consts {
            let known = a.consts.iter().any(|o| o.json_name == c.json_name)
                || a.fields.iter().any(|f| f.json_name == c.json_name);
            if !known {
                self.push(
                    Draft::new(Kind::StructConstantAdded, item(c), pointer(c))
                        .types(None, Some(const_type(c)))
                        .wire(true),
                );
            }
        }
    }

    /// The `extra` field: added, removed or retyped with what the schema says of undeclared
    /// members.
    fn extra(&mut self, t: &TypeDef, a: &Struct, b: &Struct) {
        if resolve_additional(self.old, &a.additional)
            == resolve_additional(self.new, &b.additional)
        {
            return;
        }
        let (before, after) = (extra_type(&a.additional), extra_type(&b.additional));
        let (styles, wire): (&[Style], bool) = match (&a.additional, &b.additional) {
            // `new` fills the new `extra`; only a literal misses it.
            (Additional::Forbidden, _) => (&[Literals], false),
            (_, Additional::Forbidden) => (&Style::ALL, true),
            (_, Additional::Any) => (&Style::ALL, false),
            _ => (&Style::ALL, true),
        };
        let item = Item::Extra {
            owner: t.name.clone(),
        };
        let none = || Some("none (undeclared members refused)".to_owned());
        self.push(
            Draft::new(Kind::StructExtraChanged, item, t.pointer.clone())
                .types(before.or_else(none), after.or_else(none))
                .breaks(styles)
                .wire(wire),
        );
    }

    fn enum_values(&mut self, t: &TypeDef, a: &[EnumValue], b: &[EnumValue]) {
        let item = |v: &EnumValue| Item::EnumValue {
            owner: t.name.clone(),
            value: v.value.clone(),
            variant: v.variant.clone(),
        };
        let value = |v: &EnumValue| Some(format!("{:?}", v.value));
        for v in a {
            match b.iter().find(|w| w.value == v.value) {
                None => self.push(
                    Draft::new(Kind::EnumVariantRemoved, item(v), t.pointer.clone())
                        .types(value(v), None)
                        .breaks(&Style::ALL)
                        .wire(true),
                ),
                Some(w) if w.doc != v.doc => {
                    self.push(Draft::new(Kind::DocsChanged, item(w), t.pointer.clone()))
                }
                Some(_) => {}
            }
        }
        for w in b.iter().filter(|w| !a.iter().any(|v| v.value == w.value)) {
            self.push(
                Draft::new(Kind::EnumVariantAdded, item(w), t.pointer.clone())
                    .types(None, value(w))
                    .breaks(&[Match]),
            );
        }
    }

    fn union_members(&mut self, t: &TypeDef, a: &Union, b: &Union) {
        let item = |variant: &str| Item::UnionMember {
            owner: t.name.clone(),
            variant: variant.to_owned(),
        };
        let member = |ty: &TypeExpr, boxed: bool| {
            let ty = rust_type(ty);
            Some(if boxed { format!("Box<{ty}>") } else { ty })
        };
        for v in &a.variants {
            let Some(w) = b.variants.iter().find(|w| w.name == v.name) else {
                self.push(
                    Draft::new(Kind::UnionMemberRemoved, item(&v.name), t.pointer.clone())
                        .types(member(&v.ty, v.boxed), None)
                        .breaks(&Style::ALL)
                        .wire(true),
                );
                continue;
            };
            let (before, after) = (member(&v.ty, v.boxed), member(&w.ty, w.boxed));
            if resolve(self.old, &v.ty) != resolve(self.new, &w.ty) {
                self.push(
                    Draft::new(
                        Kind::UnionMemberTypeChanged,
                        item(&v.name),
                        t.pointer.clone(),
                    )
                    .types(before, after)
                    .breaks(&Style::ALL)
                    .wire(!self.wire_compatible(&v.ty, &w.ty)),
                );
            } else if v.boxed != w.boxed {
                // `From` hides the box, and a match binds through it.
                self.push(
                    Draft::new(
                        Kind::UnionMemberBoxingChanged,
                        item(&v.name),
                        t.pointer.clone(),
                    )
                    .types(before, after)
                    .breaks(&[Literals]),
                );
            }
        }
        // A new member of the same type as an old one takes that one's `From` away.
        let (was, is) = (
            from_variants(self.old, &t.name, a),
            from_variants(self.new, &t.name, b),
        );
        let lost: Vec<&str> = was
            .iter()
            .filter(|v| b.variants.iter().any(|w| w.name == **v) && !is.contains(v))
            .copied()
            .collect();
        for w in b.variants.iter() {
            if a.variants.iter().any(|v| v.name == w.name) {
                continue;
            }
            let draft = Draft::new(Kind::UnionMemberAdded, item(&w.name), t.pointer.clone())
                .types(None, member(&w.ty, w.boxed));
            self.push(if lost.is_empty() {
                draft.breaks(&[Match])
            } else {
                let lost = lost.join(", ");
                draft
                    .breaks(&[Constructors, Match])
                    .note(format!("no more `From` for {lost}: the same type"))
            });
        }
    }

    fn calls(&mut self, t: &TypeDef, a: &CallSet, b: &CallSet) {
        let pointer = |module: &Module, message_type: &str| {
            module
                .by_schema_name(message_type)
                .map_or_else(|| t.pointer.clone(), |d| d.pointer.clone())
        };
        let params = |c: &crate::ir::Call| {
            let ty = c.params.as_ref().map_or("()".to_owned(), rust_type);
            let ty = if c.boxed { format!("Box<{ty}>") } else { ty };
            Some(if c.params.is_some() && !c.params_required {
                format!("Option<{ty}>")
            } else {
                ty
            })
        };
        for c in &a.calls {
            let item = Item::Method {
                owner: t.name.clone(),
                method: c.method.clone(),
                variant: c.variant.clone(),
            };
            let Some(d) = b.calls.iter().find(|d| d.method == c.method) else {
                self.push(
                    Draft::new(
                        Kind::MethodRemoved,
                        item,
                        pointer(self.old, &c.message_type),
                    )
                    .types(params(c), None)
                    .breaks(&Style::ALL)
                    .wire(true),
                );
                continue;
            };
            let p = pointer(self.new, &d.message_type);
            let (x, y) = (c.params.as_ref(), d.params.as_ref());
            let same = match (x, y) {
                (Some(x), Some(y)) => resolve(self.old, x) == resolve(self.new, y),
                (None, None) => true,
                _ => false,
            };
            if !same || c.params_required != d.params_required || c.variant != d.variant {
                self.push(
                    Draft::new(Kind::MethodParamsChanged, item, p)
                        .types(params(c), params(d))
                        .breaks(&Style::ALL)
                        .wire(true),
                );
            } else if c.boxed != d.boxed {
                self.push(
                    Draft::new(Kind::UnionMemberBoxingChanged, item, p)
                        .types(params(c), params(d))
                        .breaks(&[Literals]),
                );
            }
        }
        for d in b.calls.iter() {
            if a.calls.iter().any(|c| c.method == d.method) {
                continue;
            }
            let item = Item::Method {
                owner: t.name.clone(),
                method: d.method.clone(),
                variant: d.variant.clone(),
            };
            // `From<Params>` exists only where one method takes those params.
            let lost = d.params.as_ref().is_some_and(|p| {
                let shared = |set: &CallSet| {
                    (set.calls.iter())
                        .filter(|c| c.params.as_ref() == Some(p))
                        .count()
                };
                shared(a) == 1 && shared(b) > 1
            });
            let styles: &[Style] = if lost {
                &[Constructors, Match]
            } else {
                &[Match]
            };
            self.push(
                Draft::new(Kind::MethodAdded, item, pointer(self.new, &d.message_type))
                    .types(None, params(d))
                    .breaks(styles)
                    .note(d.method.clone()),
            );
        }
    }

    /// The constants of `error_codes`.
    fn error_codes(&mut self) {
        let codes = |m: &Module| -> Vec<(String, String, i64)> {
            let Some(messages) = &m.messages else {
                return Vec::new();
            };
            (messages.error_codes.iter())
                .map(|(owner, code)| (crate::naming::const_name(owner), owner.clone(), *code))
                .collect()
        };
        let (was, is) = (codes(self.old), codes(self.new));
        let pointer = |m: &Module, owner: &str| {
            m.by_schema_name(owner)
                .map_or_else(String::new, |d| d.pointer.clone())
        };
        let value = |code: i64| Some(format!("i64 = {code}"));
        for (name, owner, code) in &was {
            let item = Item::ErrorCode { name: name.clone() };
            match is.iter().find(|(n, _, _)| n == name) {
                None => self.push(
                    Draft::new(Kind::ErrorCodeRemoved, item, pointer(self.old, owner))
                        .types(value(*code), None)
                        .breaks(&[Match]),
                ),
                Some((_, owner, now)) if now != code => self.push(
                    Draft::new(Kind::ErrorCodeValueChanged, item, pointer(self.new, owner))
                        .types(value(*code), value(*now))
                        .wire(true),
                ),
                Some(_) => {}
            }
        }
        for (name, owner, code) in is.iter().filter(|(n, _, _)| !was.iter().any(|w| w.0 == *n)) {
            let item = Item::ErrorCode { name: name.clone() };
            self.push(
                Draft::new(Kind::ErrorCodeAdded, item, pointer(self.new, owner))
                    .types(None, value(*code)),
            );
        }
    }
}

/// The associated constant's type and value: `&str = "tools/call"`, `i64 = -32042`.
/// For each named type, the struct fields that hold it (directly, or in a list, map or
/// `Option`): (struct, field's JSON name).
fn holders(module: &Module) -> BTreeMap<&str, BTreeSet<(&str, &str)>> {
    fn named(ty: &TypeExpr) -> Option<&str> {
        match ty {
            TypeExpr::Named(name) => Some(name),
            TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
                named(inner)
            }
            _ => None,
        }
    }
    let mut out: BTreeMap<&str, BTreeSet<(&str, &str)>> = BTreeMap::new();
    for t in &module.types {
        if let TypeKind::Struct(s) = &t.kind {
            for f in &s.fields {
                if let Some(held) = named(&f.ty) {
                    out.entry(held)
                        .or_default()
                        .insert((t.name.as_str(), f.json_name.as_str()));
                }
            }
        }
    }
    out
}

fn const_type(c: &ConstField) -> String {
    match &c.value {
        crate::ir::ConstValue::String(s) => format!("&str = {s:?}"),
        crate::ir::ConstValue::Integer(i) => format!("i64 = {i}"),
        crate::ir::ConstValue::Bool(b) => format!("bool = {b}"),
    }
}

/// What a struct does with undeclared members, aliases resolved.
fn resolve_additional(module: &Module, a: &Additional) -> Additional {
    match a {
        Additional::Typed(t) => Additional::Typed(resolve(module, t)),
        other => other.clone(),
    }
}

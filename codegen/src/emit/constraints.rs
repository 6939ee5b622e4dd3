//! Which constraint keywords apply where, read once from the IR for the two parts that check
//! them: `validate` (the `Validate` impls) and `check` (the verdict path). The constraints are
//! those the loader captured in the IR (`Field::constraints`, `TypeDef::constraints` of aliases
//! and structs, `Struct::extra_constraints`), joined along the aliases a member's type goes
//! through; each place's are written as a `&[Rule]` list by [`rule_list`].

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::ir::{Additional, Constraint, Module, TypeExpr, TypeKind};

/// What validation needs to know of a module: the constraints of each struct member and of
/// each alias, and which named types reach a constraint.
pub(super) struct Analysis<'m> {
    module: &'m Module,
    /// (type, member's wire name) → its constraints, including those of the aliases its type
    /// goes through.
    pub(super) members: BTreeMap<(&'m str, &'m str), Vec<Constraint>>,
    /// (type) → the constraints of the values of its undeclared members.
    pub(super) extra: BTreeMap<&'m str, Vec<Constraint>>,
    /// Alias name → the constraints its own schema states.
    pub(super) aliases: BTreeMap<&'m str, Vec<Constraint>>,
    /// Struct name → its own `minProperties`/`maxProperties`.
    pub(super) objects: BTreeMap<&'m str, Vec<Constraint>>,
    /// (union, variant) → the constraints of its value: the union's own, the member's inline
    /// ones and those of the aliases its type goes through.
    pub(super) variants: BTreeMap<(&'m str, &'m str), Vec<Constraint>>,
    /// The named types whose `validate` has something to check.
    pub(super) reaching: BTreeSet<&'m str>,
}

/// `&[Rule::MaxLength(256), …]`, a constant the compiler promotes to a static.
pub(super) fn rule_list(rules: &[Constraint]) -> TokenStream {
    let rules = rules.iter().map(rule);
    quote!(&[#(#rules),*])
}

fn rule(c: &Constraint) -> TokenStream {
    let float = |n: f64| Literal::f64_unsuffixed(n);
    let count = |n: u64| Literal::u64_unsuffixed(n);
    let body = match c {
        Constraint::Format(f) => quote!(Format(#f)),
        Constraint::Pattern(p) => quote!(Pattern(#p)),
        Constraint::MinLength(n) => {
            let n = count(*n);
            quote!(MinLength(#n))
        }
        Constraint::MaxLength(n) => {
            let n = count(*n);
            quote!(MaxLength(#n))
        }
        Constraint::Minimum(n) => {
            let n = float(*n);
            quote!(Minimum(#n))
        }
        Constraint::Maximum(n) => {
            let n = float(*n);
            quote!(Maximum(#n))
        }
        Constraint::ExclusiveMinimum(n) => {
            let n = float(*n);
            quote!(ExclusiveMinimum(#n))
        }
        Constraint::ExclusiveMaximum(n) => {
            let n = float(*n);
            quote!(ExclusiveMaximum(#n))
        }
        Constraint::MultipleOf(n) => {
            let n = float(*n);
            quote!(MultipleOf(#n))
        }
        Constraint::MinItems(n) => {
            let n = count(*n);
            quote!(MinItems(#n))
        }
        Constraint::MaxItems(n) => {
            let n = count(*n);
            quote!(MaxItems(#n))
        }
        Constraint::UniqueItems => quote!(UniqueItems),
        Constraint::MinProperties(n) => {
            let n = count(*n);
            quote!(MinProperties(#n))
        }
        Constraint::MaxProperties(n) => {
            let n = count(*n);
            quote!(MaxProperties(#n))
        }
        Constraint::Items(inner) => {
            let inner = rule_list(inner);
            quote!(Items(#inner))
        }
        Constraint::Values(inner) => {
            let inner = rule_list(inner);
            quote!(Values(#inner))
        }
    };
    quote!(__rt::validate::Rule::#body)
}

impl<'m> Analysis<'m> {
    pub(super) fn new(module: &'m Module) -> Self {
        let mut analysis = Analysis {
            module,
            members: BTreeMap::new(),
            extra: BTreeMap::new(),
            aliases: BTreeMap::new(),
            objects: BTreeMap::new(),
            variants: BTreeMap::new(),
            reaching: BTreeSet::new(),
        };
        for t in &module.types {
            if matches!(t.kind, TypeKind::Alias(_)) && !t.constraints.is_empty() {
                analysis.aliases.insert(&t.name, t.constraints.clone());
            }
        }
        for t in &module.types {
            let TypeKind::Union(u) = &t.kind else {
                continue;
            };
            for v in &u.variants {
                let mut found = t.constraints.clone();
                merge(&mut found, v.constraints.clone());
                merge(&mut found, analysis.expr_constraints(&v.ty));
                if !found.is_empty() {
                    analysis.variants.insert((&t.name, &v.name), found);
                }
            }
        }
        for t in &module.types {
            let TypeKind::Struct(s) = &t.kind else {
                continue;
            };
            let mut own = t.constraints.clone();
            own.retain(|c| {
                matches!(
                    c,
                    Constraint::MinProperties(_) | Constraint::MaxProperties(_)
                )
            });
            if !own.is_empty() {
                analysis.objects.insert(&t.name, own);
            }
            for f in &s.fields {
                let mut found = f.constraints.clone();
                merge(&mut found, analysis.expr_constraints(&f.ty));
                if !found.is_empty() {
                    analysis.members.insert((&t.name, &f.json_name), found);
                }
            }
            if let Additional::Typed(values) = &s.additional {
                let mut found = s.extra_constraints.clone();
                merge(&mut found, analysis.expr_constraints(values));
                if !found.is_empty() {
                    analysis.extra.insert(&t.name, found);
                }
            }
        }
        analysis.find_reaching();
        analysis
    }

    /// The constraints a type expression carries through the aliases it names.
    fn expr_constraints(&self, ty: &TypeExpr) -> Vec<Constraint> {
        self.expr_constraints_at(ty, 0)
    }

    fn expr_constraints_at(&self, ty: &TypeExpr, depth: usize) -> Vec<Constraint> {
        // Alias cycles are refused by the loader; the bound only keeps this total.
        if depth > 16 {
            return Vec::new();
        }
        match ty {
            TypeExpr::Named(n) => match self.module.get(n).map(|t| &t.kind) {
                Some(TypeKind::Alias(target)) => {
                    let mut found = self.aliases.get(n.as_str()).cloned().unwrap_or_default();
                    merge(&mut found, self.expr_constraints_at(target, depth + 1));
                    found
                }
                _ => Vec::new(),
            },
            TypeExpr::Nullable(inner) => self.expr_constraints_at(inner, depth + 1),
            TypeExpr::Array(inner) => wrap(
                Constraint::Items,
                self.expr_constraints_at(inner, depth + 1),
            ),
            TypeExpr::Map(inner) => wrap(
                Constraint::Values,
                self.expr_constraints_at(inner, depth + 1),
            ),
            _ => Vec::new(),
        }
    }

    /// Marks every named type from which a constraint is reachable, until nothing changes.
    fn find_reaching(&mut self) {
        loop {
            let mut changed = false;
            for t in &self.module.types {
                if self.reaching.contains(t.name.as_str()) {
                    continue;
                }
                let reaches = match &t.kind {
                    TypeKind::Struct(s) => {
                        s.fields.iter().any(|f| {
                            self.members
                                .contains_key(&(t.name.as_str(), f.json_name.as_str()))
                                || self.expr_reaches(&f.ty)
                        }) || self.extra.contains_key(t.name.as_str())
                            || self.objects.contains_key(t.name.as_str())
                            || matches!(&s.additional, Additional::Typed(v) if self.expr_reaches(v))
                    }
                    TypeKind::Union(u) => u.variants.iter().any(|v| {
                        self.variants
                            .contains_key(&(t.name.as_str(), v.name.as_str()))
                            || self.expr_reaches(&v.ty)
                    }),
                    TypeKind::Calls(set) => (set.calls.iter())
                        .any(|c| c.params.as_ref().is_some_and(|p| self.expr_reaches(p))),
                    TypeKind::Alias(target) => self.expr_reaches(target),
                    TypeKind::StringEnum(_) => false,
                };
                if reaches {
                    self.reaching.insert(&t.name);
                    changed = true;
                }
            }
            if !changed {
                return;
            }
        }
    }

    pub(super) fn reaches(&self, name: &str) -> bool {
        self.reaching.contains(name)
    }

    /// Whether a value of `ty` holds a named type with something to check.
    pub(super) fn expr_reaches(&self, ty: &TypeExpr) -> bool {
        match ty {
            TypeExpr::Named(n) => self.reaches(n),
            TypeExpr::Array(inner) | TypeExpr::Map(inner) | TypeExpr::Nullable(inner) => {
                self.expr_reaches(inner)
            }
            _ => false,
        }
    }
}

/// Adds `more` to `found`, joining the item (and value) constraints into one rule each.
fn merge(found: &mut Vec<Constraint>, more: Vec<Constraint>) {
    for c in more {
        let same = found.iter().position(|f| {
            matches!(
                (f, &c),
                (Constraint::Items(_), Constraint::Items(_))
                    | (Constraint::Values(_), Constraint::Values(_))
            )
        });
        match (same.map(|i| &mut found[i]), c) {
            (Some(Constraint::Items(a)), Constraint::Items(b))
            | (Some(Constraint::Values(a)), Constraint::Values(b)) => merge(a, b),
            (_, c) => {
                if !found.contains(&c) {
                    found.push(c);
                }
            }
        }
    }
}

fn wrap(make: fn(Vec<Constraint>) -> Constraint, inner: Vec<Constraint>) -> Vec<Constraint> {
    if inner.is_empty() {
        Vec::new()
    } else {
        vec![make(inner)]
    }
}

//! `mcp_typed::validate::Validate` for every type of both families: the constraint keywords
//! of each member's schema (`format`, bounds, lengths, `pattern`, counts, `uniqueItems`,
//! `multipleOf`), checked where they are stated and wherever a value holds a value with some.
//!
//! Schemas state few constraints (2026-07-28: about thirty), so the code is sized by them, not
//! by the types: a type from which no constraint is reachable gets the trait's default method,
//! one line (`impl __rt::Validate for Icon {}`); the others visit only the members, variants
//! and params through which a constraint is reached. The constraints are those the loader
//! captured in the IR (`Field::constraints`, `TypeDef::constraints` of aliases and structs,
//! `Struct::extra_constraints`), joined along the aliases a member's type goes through.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{ident, Scope};
use crate::ir::{
    Additional, Constraint, DirectionModel, Messages, Module, Struct, TypeExpr, TypeKind,
};

/// What validation needs to know of a module: the constraints of each struct member and of
/// each alias, and which named types reach a constraint.
struct Analysis<'m> {
    module: &'m Module,
    /// (type, member's wire name) → its constraints, including those of the aliases its type
    /// goes through.
    members: BTreeMap<(&'m str, &'m str), Vec<Constraint>>,
    /// (type) → the constraints of the values of its undeclared members.
    extra: BTreeMap<&'m str, Vec<Constraint>>,
    /// Alias name → the constraints its own schema states.
    aliases: BTreeMap<&'m str, Vec<Constraint>>,
    /// Struct name → its own `minProperties`/`maxProperties`.
    objects: BTreeMap<&'m str, Vec<Constraint>>,
    /// (union, variant) → the constraints of its value: the union's own, the member's inline
    /// ones and those of the aliases its type goes through.
    variants: BTreeMap<(&'m str, &'m str), Vec<Constraint>>,
    /// The named types whose `validate` has something to check.
    reaching: BTreeSet<&'m str>,
}

/// The `Validate` impls of every type of the module and of its message envelopes, in `scope`'s
/// family: in the borrowed one, for each type with a form of its own (`XRef<'de>`: the same
/// members, variants and checks; the others are the owned types, which have theirs).
pub(super) fn emit_validation(module: &Module, scope: &Scope) -> TokenStream {
    let analysis = Analysis::new(module);
    let types = module.types.iter().map(|t| {
        if !scope.has_form(&t.name) {
            return TokenStream::new();
        }
        let name = Defined::new(scope, &t.name);
        let reaching = analysis.reaching.contains(t.name.as_str());
        match &t.kind {
            TypeKind::Alias(_) => TokenStream::new(),
            TypeKind::Struct(s) if reaching => struct_impl(&analysis, &name, &t.name, s),
            TypeKind::Union(u) if reaching => {
                let arms = u.variants.iter().map(|v| {
                    let variant = ident(&v.name);
                    let rules = analysis.variants.get(&(t.name.as_str(), v.name.as_str()));
                    (rules.is_some() || analysis.expr_reaches(&v.ty)).then(|| {
                        let rules = rule_list(rules.map_or(&[][..], Vec::as_slice));
                        (
                            quote!(Self::#variant(value)),
                            quote!(__rt::Validate::validate_at(value, cx, #rules)),
                        )
                    })
                });
                enum_impl(&name, arms.flatten().collect(), u.variants.len())
            }
            TypeKind::Calls(set) if reaching => {
                let arms = set.calls.iter().map(|c| {
                    let variant = ident(&c.variant);
                    c.params
                        .as_ref()
                        .filter(|p| analysis.expr_reaches(p))
                        .map(|_| {
                            (
                                quote!(Self::#variant(params)),
                                quote!(cx.member("params", params, &[])),
                            )
                        })
                });
                enum_impl(&name, arms.flatten().collect(), set.calls.len())
            }
            _ => name.implement(TokenStream::new()),
        }
    });
    let types: Vec<TokenStream> = types.collect();
    let analysis = &analysis;
    let envelopes = module.messages.iter().flat_map(|m| {
        m.directions
            .iter()
            .map(move |d| envelope_impl(analysis, scope, m, d))
    });
    quote! {
        #(#types)*
        #(#envelopes)*
    }
}

/// A type of the family, as its `Validate` impl names it.
struct Defined {
    /// `X`, or `XRef<'de>`.
    ty: TokenStream,
    /// Empty, or `<'de>`.
    generics: TokenStream,
}

impl Defined {
    fn new(scope: &Scope, name: &str) -> Self {
        let (ty, _, generics) = scope.defined(name);
        Defined { ty, generics }
    }

    /// `impl Validate for X`, with `body` as `validate_at`'s (none: the default method).
    fn implement(&self, body: TokenStream) -> TokenStream {
        let Defined { ty, generics } = self;
        if body.is_empty() {
            return quote!(impl #generics __rt::Validate for #ty {});
        }
        quote! {
            impl #generics __rt::Validate for #ty {
                fn validate_at(&self, cx: &mut __rt::validate::Cx, _: &[__rt::validate::Rule]) {
                    #body
                }
            }
        }
    }
}

/// A struct's impl: each member with constraints or reaching a type with some, and the
/// undeclared members when their values do.
fn struct_impl(analysis: &Analysis, ty: &Defined, name: &str, s: &Struct) -> TokenStream {
    let members = s.fields.iter().filter_map(|f| {
        let rules = analysis.members.get(&(name, f.json_name.as_str()));
        if rules.is_none() && !analysis.expr_reaches(&f.ty) {
            return None;
        }
        let key = &f.json_name;
        let field = ident(&f.rust_name);
        let rules = rule_list(rules.map_or(&[][..], Vec::as_slice));
        Some(quote!(cx.member(#key, &self.#field, #rules);))
    });
    let extra = match &s.additional {
        Additional::Typed(values) => {
            let rules = analysis.extra.get(name);
            (rules.is_some() || analysis.expr_reaches(values)).then(|| {
                let rules = rule_list(rules.map_or(&[][..], Vec::as_slice));
                quote!(cx.members(self.extra.iter(), #rules);)
            })
        }
        Additional::Forbidden | Additional::Any => None,
    };
    let properties = analysis.objects.get(name).map(|rules| {
        // The members the value writes: constants and required members always, optional ones
        // when present, and the undeclared ones.
        let always = s.consts.len() + s.fields.iter().filter(|f| f.required).count();
        let always = Literal::usize_unsuffixed(always);
        let optional = s.fields.iter().filter(|f| !f.required).map(|f| {
            let field = ident(&f.rust_name);
            quote!(+ usize::from(self.#field.is_some()))
        });
        let extra = (s.additional != Additional::Forbidden).then(|| quote!(+ self.extra.len()));
        let rules = rule_list(rules);
        quote!(cx.properties(#always #(#optional)* #extra, #rules);)
    });
    ty.implement(quote! {
        #properties
        #(#members)*
        #extra
    })
}

/// An enum's impl from the (pattern, check) arms of the variants that reach a constraint, out
/// of `variants`: an `if let` for one, a `match` (with `_` for the others, if any) for more.
fn enum_impl(ty: &Defined, arms: Vec<(TokenStream, TokenStream)>, variants: usize) -> TokenStream {
    let body = match arms.as_slice() {
        [(pattern, check)] if variants > 1 => quote!(if let #pattern = self { #check; }),
        _ => {
            let rest = (arms.len() < variants).then(|| quote!(_ => {}));
            let arms = arms
                .iter()
                .map(|(pattern, check)| quote!(#pattern => #check,));
            quote!(match self { #(#arms)* #rest })
        }
    };
    ty.implement(body)
}

/// `ClientMessage`/`ServerMessage`: a request or notification is validated as its call (its
/// `params` member), a response at `result`, an error at `error`, a batch item by item; the
/// pointers are those of the message's JSON.
fn envelope_impl(
    analysis: &Analysis,
    scope: &Scope,
    messages: &Messages,
    d: &DirectionModel,
) -> TokenStream {
    let name = Defined::new(scope, &d.name);
    let named = |n: &Option<String>| n.as_deref().is_some_and(|n| analysis.reaches(n));
    let mut arms = Vec::new();
    if named(&d.requests) {
        arms.push((
            quote!(Self::Request { request, .. }),
            quote!(__rt::Validate::validate_at(request, cx, &[])),
        ));
    }
    if named(&d.notifications) {
        arms.push((
            quote!(Self::Notification(notification)),
            quote!(__rt::Validate::validate_at(notification, cx, &[])),
        ));
    }
    if d.responds && analysis.expr_reaches(&d.results) {
        arms.push((
            quote!(Self::Response { result, .. }),
            quote!(cx.member("result", result, &[])),
        ));
    }
    if d.responds && analysis.expr_reaches(&messages.error) {
        arms.push((
            quote!(Self::Error { error, .. }),
            quote!(cx.member("error", error, &[])),
        ));
    }
    if arms.is_empty() {
        return name.implement(TokenStream::new());
    }
    if messages.batches {
        arms.push((
            quote!(Self::Batch(items)),
            quote!(__rt::Validate::validate_at(items, cx, &[])),
        ));
    }
    let variants = usize::from(d.requests.is_some())
        + usize::from(d.notifications.is_some())
        + 2 * usize::from(d.responds)
        + usize::from(messages.batches);
    enum_impl(&name, arms, variants)
}

/// `&[Rule::MaxLength(256), …]`, a constant the compiler promotes to a static.
fn rule_list(rules: &[Constraint]) -> TokenStream {
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
    fn new(module: &'m Module) -> Self {
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

    fn reaches(&self, name: &str) -> bool {
        self.reaching.contains(name)
    }

    /// Whether a value of `ty` holds a named type with something to check.
    fn expr_reaches(&self, ty: &TypeExpr) -> bool {
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

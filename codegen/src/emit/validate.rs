//! `mcp_typed::validate::Validate` for every type of both families: the constraint keywords
//! of each member's schema (`format`, bounds, lengths, `pattern`, counts, `uniqueItems`,
//! `multipleOf`), checked where they are stated and wherever a value holds a value with some.
//!
//! Schemas state few constraints (2026-07-28: about thirty), so the code is sized by them, not
//! by the types: a type from which no constraint is reachable gets the trait's default method,
//! one line (`impl __rt::Validate for Icon {}`); the others visit only the members, variants
//! and params through which a constraint is reached. Which constraints apply where is
//! `constraints::Analysis`'s (shared with the verdict path, `check`).

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::constraints::{rule_list, Analysis};
use super::{ident, Scope};
use crate::ir::{Additional, DirectionModel, Messages, Module, Struct, TypeKind};

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

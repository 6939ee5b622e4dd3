//! Parsing of `#[elicit(...)]`, `#[serde(...)]` and doc-comment attributes into plain values.

use mcp_elicit::Keyword;
use proc_macro2::{Span, TokenStream};
use syn::spanned::Spanned as _;
use syn::{Attribute, Expr, Lit, Token, UnOp};

use crate::ctxt::Ctxt;

/// The keys of `#[elicit(...)]` that are keywords of the schema: the key and its keyword (whose
/// name in the JSON is what the pointers of `mcp-elicit`'s problems name).
pub const KEYS: [(&str, Keyword); 11] = [
    ("title", Keyword::Title),
    ("description", Keyword::Description),
    ("min_length", Keyword::MinLength),
    ("max_length", Keyword::MaxLength),
    ("pattern", Keyword::Pattern),
    ("format", Keyword::Format),
    ("minimum", Keyword::Minimum),
    ("maximum", Keyword::Maximum),
    ("min_items", Keyword::MinItems),
    ("max_items", Keyword::MaxItems),
    ("default", Keyword::Default),
];

/// A value with the span of where it was written (`key` is the attribute name).
#[derive(Debug, Clone)]
pub struct Sp<T> {
    pub value: T,
    pub span: Span,
    pub key: Span,
}

/// A number literal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Int(i128),
    Float(f64),
}

/// A `default = ...` literal.
#[derive(Debug, Clone)]
pub enum DefaultValue {
    Str(String),
    Num(Num),
    Bool(bool),
    /// The values of a multi select's default, each with its span.
    List(Vec<(String, Span)>),
}

impl DefaultValue {
    pub fn describe(&self) -> &'static str {
        match self {
            DefaultValue::Str(_) => "a string",
            DefaultValue::Num(Num::Int(_)) => "an integer",
            DefaultValue::Num(Num::Float(_)) => "a number",
            DefaultValue::Bool(_) => "a boolean",
            DefaultValue::List(_) => "a list",
        }
    }
}

/// The attributes of one field.
#[derive(Debug, Default)]
pub struct FieldAttrs {
    pub title: Option<Sp<String>>,
    pub description: Option<Sp<String>>,
    pub doc: Option<Sp<String>>,
    pub min_length: Option<Sp<u64>>,
    pub max_length: Option<Sp<u64>>,
    pub pattern: Option<Sp<String>>,
    pub format: Option<Sp<String>>,
    pub minimum: Option<Sp<Num>>,
    pub maximum: Option<Sp<Num>>,
    pub min_items: Option<Sp<u64>>,
    pub max_items: Option<Sp<u64>>,
    pub default: Option<Sp<DefaultValue>>,
    pub not_sensitive: bool,
    /// `#[elicit(enum_names)]`: a titled single select written as `enum` + `enumNames`.
    pub enum_names: Option<Span>,
    pub rename: Option<String>,
    /// The keys of `#[elicit(...)]` in the order they are written: the schema writes its
    /// keywords in this order (then the others in the canonical order), so a form can match a
    /// given JSON text byte for byte.
    pub order: Vec<String>,
}

impl FieldAttrs {
    /// The span of the value of `#[elicit(key = ...)]`, when it was written.
    pub fn value_span(&self, key: &str) -> Option<Span> {
        fn span<T>(attr: &Option<Sp<T>>) -> Option<Span> {
            attr.as_ref().map(|attr| attr.span)
        }
        match key {
            "title" => span(&self.title),
            "description" => span(&self.description).or(span(&self.doc)),
            "min_length" => span(&self.min_length),
            "max_length" => span(&self.max_length),
            "pattern" => span(&self.pattern),
            "format" => span(&self.format),
            "minimum" => span(&self.minimum),
            "maximum" => span(&self.maximum),
            "min_items" => span(&self.min_items),
            "max_items" => span(&self.max_items),
            "default" => span(&self.default),
            _ => None,
        }
    }
}

/// The attributes of a variant.
#[derive(Debug, Default)]
pub struct VariantAttrs {
    pub title: Option<Sp<String>>,
    pub rename: Option<String>,
}

/// The attributes of the struct or enum itself.
#[derive(Debug, Default)]
pub struct ContainerAttrs {
    pub rename_all: Option<Sp<String>>,
    /// `#[serde(deny_unknown_fields)]`: the schema forbids undeclared members.
    pub deny_unknown_fields: bool,
}

fn set<T>(cx: &Ctxt, slot: &mut Option<Sp<T>>, value: Sp<T>, name: &str) {
    if slot.is_some() {
        cx.error(value.key, format!("duplicate `{name}` attribute"));
    } else {
        *slot = Some(value);
    }
}

fn lit_str(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        Expr::Group(g) => lit_str(&g.expr),
        _ => None,
    }
}

fn lit_num(expr: &Expr) -> Option<Num> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Int(i) => i.base10_parse::<i128>().ok().map(Num::Int),
            Lit::Float(f) => f.base10_parse::<f64>().ok().map(Num::Float),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => match lit_num(&u.expr)? {
            Num::Int(i) => Some(Num::Int(-i)),
            Num::Float(f) => Some(Num::Float(-f)),
        },
        Expr::Group(g) => lit_num(&g.expr),
        _ => None,
    }
}

fn lit_default(expr: &Expr) -> Option<DefaultValue> {
    if let Some(s) = lit_str(expr) {
        return Some(DefaultValue::Str(s));
    }
    if let Some(n) = lit_num(expr) {
        return Some(DefaultValue::Num(n));
    }
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Bool(b) => Some(DefaultValue::Bool(b.value)),
            _ => None,
        },
        Expr::Array(array) => array
            .elems
            .iter()
            .map(|elem| Some((lit_str(elem)?, elem.span())))
            .collect::<Option<Vec<_>>>()
            .map(DefaultValue::List),
        _ => None,
    }
}

/// Skips the value of an attribute key we do not interpret (`= expr` or `(...)`).
fn skip_value(input: syn::parse::ParseStream) -> syn::Result<()> {
    if input.peek(Token![=]) {
        input.parse::<Token![=]>()?;
        input.parse::<Expr>()?;
    } else if input.peek(syn::token::Paren) {
        let content;
        syn::parenthesized!(content in input);
        content.parse::<TokenStream>()?;
    }
    Ok(())
}

/// Collects the doc comment of an item as one string: lines of a paragraph joined by a space,
/// paragraphs by a blank line.
fn doc(attrs: &[Attribute]) -> Option<Sp<String>> {
    let mut lines = Vec::new();
    let mut span = None;
    for attr in attrs {
        if !attr.path().is_ident("doc") {
            continue;
        }
        if let syn::Meta::NameValue(nv) = &attr.meta {
            if let Some(s) = lit_str(&nv.value) {
                span.get_or_insert(attr.span());
                lines.push(s);
            }
        }
    }
    let span = span?;
    let mut paragraphs: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines.iter().flat_map(|l| l.split('\n')) {
        let line = line.trim();
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
        } else {
            if !current.is_empty() {
                current.push(' ');
            }
            current.push_str(line);
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    if paragraphs.is_empty() {
        return None;
    }
    Some(Sp {
        value: paragraphs.join("\n\n"),
        span,
        key: span,
    })
}

/// Reads `rename = "..."` / `rename_all = "..."` and the flag `deny_unknown_fields` (passed with
/// an empty value) out of `#[serde(...)]`, ignoring the rest.
fn serde_attrs(cx: &Ctxt, attrs: &[Attribute], mut on: impl FnMut(&str, Sp<String>)) {
    for attr in attrs {
        if !attr.path().is_ident("serde") {
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            if (key == "rename" || key == "rename_all") && meta.input.peek(Token![=]) {
                let expr: Expr = meta.value()?.parse()?;
                match lit_str(&expr) {
                    Some(value) => on(
                        &key,
                        Sp {
                            value,
                            span: expr.span(),
                            key: meta.path.span(),
                        },
                    ),
                    None => cx.error(expr.span(), format!("`{key}` expects a string literal")),
                }
                Ok(())
            } else if key == "deny_unknown_fields"
                && !meta.input.peek(Token![=])
                && !meta.input.peek(syn::token::Paren)
            {
                on(
                    &key,
                    Sp {
                        value: String::new(),
                        span: meta.path.span(),
                        key: meta.path.span(),
                    },
                );
                Ok(())
            } else if key == "rename" || key == "rename_all" {
                cx.error(
                    meta.path.span(),
                    format!(
                        "#[derive(Elicit)] supports only `#[serde({key} = \"...\")]`: the form \
                         reads and writes the same name"
                    ),
                );
                skip_value(meta.input)
            } else {
                skip_value(meta.input)
            }
        });
        if let Err(error) = result {
            cx.push(error);
        }
    }
}

pub fn container(cx: &Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    serde_attrs(cx, attrs, |key, value| {
        if key == "rename_all" {
            set(cx, &mut out.rename_all, value, "rename_all");
        } else if key == "deny_unknown_fields" {
            out.deny_unknown_fields = true;
        }
    });
    out
}

/// `#[elicit(crate = "path")]` on the struct or enum: the path the expansion names the types
/// crate by (`::mcp_typed` by default), for a crate that reaches `mcp_typed` through a
/// re-export or a renamed dependency, as `#[serde(crate = "...")]` does for serde. Any other
/// `#[elicit(...)]` there is an error: the other keys go on fields and variants.
pub fn crate_path(cx: &Ctxt, attrs: &[Attribute]) -> Option<syn::Path> {
    let mut path = None;
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("elicit")) {
        let result = attr.parse_nested_meta(|meta| {
            if !meta.path.is_ident("crate") {
                cx.error(
                    meta.path.span(),
                    "only `crate = \"...\"` goes on the struct or enum itself; the other \
                     #[elicit(...)] keys go on fields and enum variants",
                );
                return skip_value(meta.input);
            }
            let expr: Expr = meta.value()?.parse()?;
            let parsed = lit_str(&expr).map(|text| syn::parse_str::<syn::Path>(&text));
            match parsed {
                Some(Ok(parsed)) if path.is_none() => path = Some(parsed),
                Some(Ok(_)) => cx.error(meta.path.span(), "duplicate `crate` attribute"),
                _ => cx.error_spanned(
                    &expr,
                    "`crate` takes the path of mcp_typed as a string: \
                     `#[elicit(crate = \"my_sdk::mcp_typed\")]`",
                ),
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.error(error.span(), error);
        }
    }
    path
}

/// `#[serde(rename = "...")]` of a field or variant.
fn serde_rename(cx: &Ctxt, attrs: &[Attribute]) -> Option<String> {
    let mut rename = None;
    serde_attrs(cx, attrs, |key, value| {
        if key == "rename" {
            set(cx, &mut rename, value, "rename");
        }
    });
    rename.map(|r| r.value)
}

pub fn variant(cx: &Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs {
        rename: serde_rename(cx, attrs),
        ..VariantAttrs::default()
    };
    for attr in attrs {
        if !attr.path().is_ident("elicit") {
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let key = meta.path.span();
            if meta.path.is_ident("title") {
                let expr: Expr = meta.value()?.parse()?;
                match lit_str(&expr) {
                    Some(value) => set(
                        cx,
                        &mut out.title,
                        Sp {
                            value,
                            span: expr.span(),
                            key,
                        },
                        "title",
                    ),
                    None => cx.error(expr.span(), "`title` expects a string literal"),
                }
                Ok(())
            } else {
                cx.error(
                    key,
                    "unknown #[elicit] attribute on an enum variant: only `title` is allowed",
                );
                skip_value(meta.input)
            }
        });
        if let Err(error) = result {
            cx.push(error);
        }
    }
    out
}

pub fn field(cx: &Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs {
        doc: doc(attrs),
        rename: serde_rename(cx, attrs),
        ..FieldAttrs::default()
    };
    for attr in attrs {
        if !attr.path().is_ident("elicit") {
            continue;
        }
        let result = attr.parse_nested_meta(|meta| {
            let key = meta.path.span();
            let name = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_default();
            if name == "not_sensitive" {
                if out.not_sensitive {
                    cx.error(key, "duplicate `not_sensitive` attribute");
                }
                out.not_sensitive = true;
                return Ok(());
            }
            if name == "enum_names" {
                if out.enum_names.is_some() {
                    cx.error(key, "duplicate `enum_names` attribute");
                }
                out.enum_names = Some(key);
                return Ok(());
            }
            if !KEYS.iter().any(|(known, ..)| *known == name) {
                let known: Vec<&str> = KEYS.iter().map(|(known, ..)| *known).collect();
                cx.error(
                    key,
                    format!(
                        "unknown #[elicit] attribute `{name}`: expected one of {}, not_sensitive, \
                         enum_names",
                        known.join(", ")
                    ),
                );
                return skip_value(meta.input);
            }
            if !out.order.contains(&name) {
                out.order.push(name.clone());
            }
            let expr: Expr = meta.value()?.parse()?;
            let span = expr.span();
            fn sp<T>(value: T, span: Span, key: Span) -> Sp<T> {
                Sp { value, span, key }
            }
            match name.as_str() {
                "title" | "description" | "pattern" | "format" => match lit_str(&expr) {
                    Some(s) => {
                        let slot = match name.as_str() {
                            "title" => &mut out.title,
                            "description" => &mut out.description,
                            "pattern" => &mut out.pattern,
                            _ => &mut out.format,
                        };
                        set(cx, slot, sp(s, span, key), &name);
                    }
                    None => cx.error(span, format!("`{name}` expects a string literal")),
                },
                "min_length" | "max_length" | "min_items" | "max_items" => match lit_num(&expr) {
                    Some(Num::Int(i)) if (0..=i128::from(u64::MAX)).contains(&i) => {
                        let slot = match name.as_str() {
                            "min_length" => &mut out.min_length,
                            "max_length" => &mut out.max_length,
                            "min_items" => &mut out.min_items,
                            _ => &mut out.max_items,
                        };
                        set(cx, slot, sp(i as u64, span, key), &name);
                    }
                    _ => cx.error(
                        span,
                        format!("`{name}` expects a non-negative integer literal"),
                    ),
                },
                "minimum" | "maximum" => match lit_num(&expr) {
                    Some(Num::Float(f)) if !f.is_finite() => {
                        cx.error(span, format!("`{name}` must be a finite number"))
                    }
                    Some(n) => {
                        let slot = if name == "minimum" {
                            &mut out.minimum
                        } else {
                            &mut out.maximum
                        };
                        set(cx, slot, sp(n, span, key), &name);
                    }
                    None => cx.error(span, format!("`{name}` expects a number literal")),
                },
                _ => match lit_default(&expr) {
                    Some(d) => set(cx, &mut out.default, sp(d, span, key), "default"),
                    None => cx.error(
                        span,
                        "`default` expects a literal (string, number, boolean) or a list of \
                         string literals",
                    ),
                },
            }
            Ok(())
        });
        if let Err(error) = result {
            cx.push(error);
        }
    }
    out
}

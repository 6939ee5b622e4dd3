//! The file around an emitted body: the header and module docs, the re-exports of a revision
//! whose schema is another's, and the escapes rustc needs in doc comments.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::docs;

/// The public items of a rendered body, grouped by the `#[cfg]`s they are defined under, in the
/// order first seen. Text only, so that bodies rendered on other threads can bring it back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublicItems {
    /// (the `#[cfg]` attributes as written, the names of the items under them)
    groups: Vec<(String, Vec<String>)>,
}

impl PublicItems {
    /// The public items of a rendered body, read from its text (what the items collected while
    /// printing must equal).
    #[cfg(test)]
    pub fn of_body(body: &str) -> syn::Result<Self> {
        let mut public = Self::default();
        public.collect(&syn::parse_file(body)?.items)?;
        Ok(public)
    }

    /// Adds the public items among `items`; an item of a kind it cannot list is an error, as
    /// it could be public API a re-export would silently leave out.
    pub(super) fn collect(&mut self, items: &[syn::Item]) -> syn::Result<()> {
        for item in items {
            let Some((name, attrs)) = public_item(item)? else {
                continue;
            };
            let cfgs = attrs.iter().filter(|a| a.path().is_ident("cfg"));
            let key = quote!(#(#cfgs)*).to_string();
            let name = name.to_string();
            match self.groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, names)) => names.push(name),
                None => self.groups.push((key, vec![name])),
            }
        }
        Ok(())
    }

    /// Adds the public item `name`, defined under `cfg` (`#[cfg(…)]` attributes).
    pub(super) fn add(&mut self, cfg: &TokenStream, name: &str) {
        let key = cfg.to_string();
        match self.groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, names)) => names.push(name.to_owned()),
            None => self.groups.push((key, vec![name.to_owned()])),
        }
    }

    /// A `pub use` of every item from `crate::<module>`, under its `#[cfg]`s.
    #[cfg(feature = "tools")] // for `workspace`
    pub fn reexports(&self, module: &str) -> syn::Result<String> {
        let module = super::ident(module);
        let mut uses = TokenStream::new();
        for (cfgs, names) in &self.groups {
            let cfgs: TokenStream = cfgs.parse()?;
            let names = names.iter().map(|name| super::ident(name));
            uses.extend(quote!(#cfgs pub use crate::#module::{#(#names),*};));
        }
        Ok(prettyplease::unparse(&syn::parse2::<syn::File>(uses)?))
    }
}

/// The name and attributes of `item` when it is public and a re-export can name it.
fn public_item(item: &syn::Item) -> syn::Result<Option<(&Ident, &[syn::Attribute])>> {
    let (vis, name, attrs) = match item {
        syn::Item::Struct(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Enum(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Type(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Const(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Static(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Fn(i) => (&i.vis, &i.sig.ident, &i.attrs),
        syn::Item::Mod(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Trait(i) => (&i.vis, &i.ident, &i.attrs),
        syn::Item::Union(i) => (&i.vis, &i.ident, &i.attrs),
        // Impls come with their types; private imports and macros stay inside.
        syn::Item::Impl(_) => return Ok(None),
        syn::Item::Use(i) if !matches!(i.vis, syn::Visibility::Public(_)) => return Ok(None),
        syn::Item::Macro(i) if !i.attrs.iter().any(|a| a.path().is_ident("macro_export")) => {
            return Ok(None)
        }
        other => {
            return Err(syn::Error::new_spanned(
                other,
                "an item the re-exporting module does not know how to re-export",
            ))
        }
    };
    Ok(matches!(vis, syn::Visibility::Public(_)).then_some((name, &attrs[..])))
}

/// Writes the Unicode text-direction controls (U+202A–U+202E, U+2066–U+2069) that schema text
/// brings into doc comments as `\u{…}`: rustc refuses them in comments (the deny-by-default
/// `text_direction_codepoint_in_comment`). Literals already escape them and identifiers cannot
/// hold them, so every one left in the printed file is in a comment.
pub(super) fn escape_text_direction(source: &str) -> String {
    let is_control = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if !source.contains(is_control) {
        return source.to_owned();
    }
    let mut out = String::with_capacity(source.len() + 64);
    for c in source.chars() {
        if is_control(c) {
            out.push_str(&format!("\\u{{{:04X}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A complete file: the `// @generated` header line, the module's `//!` docs, then the body.
pub fn assemble(header: &str, module_doc: Option<&str>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 512);
    out.push_str(header);
    out.push('\n');
    for line in module_doc.map(docs::sanitize).unwrap_or_default() {
        out.push_str("//!");
        if !line.is_empty() {
            out.push(' ');
            out.push_str(&line);
        }
        out.push('\n');
    }
    out.push('\n');
    out.push_str(body);
    out
}

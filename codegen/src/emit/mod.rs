//! IR → Rust source: `quote!` token streams, printed with `prettyplease`.
//!
//! The serde impls are written out rather than derived: constant members are checked and
//! written without being stored, undeclared members are kept, and unions dispatch on the kind
//! of JSON value and on their tag member instead of trying each variant in turn. The shared
//! logic lives in `mcp_schema::__private`, so each type emits only its own member list.

mod docs;
mod types;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::ir::Module;

/// What the emitted file says about where it came from, and what extra items it carries.
#[derive(Debug, Clone)]
pub struct EmitOptions {
    /// The first line of the file, a `// @generated …` comment.
    pub header: String,
    /// Rustdoc for the module (inner doc lines).
    pub module_doc: Option<String>,
    /// Emit `__roundtrip(name, json)` behind `#[cfg(feature = "<this>")]`, used by the tests to
    /// decode an instance as the definition a string names.
    pub registry_feature: Option<String>,
}

/// Renders a module to formatted Rust source.
pub fn emit(module: &Module, options: &EmitOptions) -> String {
    let items = module.types.iter().map(|t| types::emit_type(module, t));
    let registry = options
        .registry_feature
        .as_deref()
        .map(|feature| registry(module, feature));
    let module_doc = options.module_doc.as_deref().map(|doc| {
        let lines = docs::sanitize(doc).into_iter().map(|l| {
            let l = if l.is_empty() { l } else { format!(" {l}") };
            quote!(#![doc = #l])
        });
        quote!(#(#lines)*)
    });
    let file = quote! {
        #module_doc
        // The unions mirror the schema's; boxing their large members would cost an allocation
        // on every decode.
        #![allow(clippy::large_enum_variant)]

        #[allow(unused_imports)]
        use ::mcp_schema::__private as __rt;

        #(#items)*
        #registry
    };
    let syntax: syn::File = match syn::parse2(file) {
        Ok(f) => f,
        // The token streams above are built by this crate; a parse failure is a generator bug.
        Err(e) => {
            return format!(
                "compile_error!({:?});\n",
                format!("mcp-codegen produced invalid Rust: {e}")
            )
        }
    };
    format!("{}\n\n{}", options.header, prettyplease::unparse(&syntax))
}

fn registry(module: &Module, feature: &str) -> TokenStream {
    let arms = module.types.iter().filter_map(|t| {
        let schema_name = t.schema_name.as_ref()?;
        let ty = ident(&t.name);
        Some(quote!(#schema_name => roundtrip::<#ty>(json),))
    });
    quote! {
        /// Decodes `json` as the definition named `definition` (schema spelling) and encodes it
        /// again; `None` for an unknown name. For tests.
        #[doc(hidden)]
        #[cfg(feature = #feature)]
        pub fn __roundtrip(
            definition: &str,
            json: &str,
        ) -> ::core::option::Option<::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error>> {
            fn roundtrip<T: __rt::serde::Serialize + __rt::serde::de::DeserializeOwned>(
                json: &str,
            ) -> ::core::result::Result<__rt::serde_json::Value, __rt::serde_json::Error> {
                let value: T = __rt::serde_json::from_str(json)?;
                __rt::serde_json::to_value(&value)
            }
            ::core::option::Option::Some(match definition {
                #(#arms)*
                _ => return ::core::option::Option::None,
            })
        }
    }
}

/// An identifier; `r#type` style names become raw identifiers.
pub(crate) fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

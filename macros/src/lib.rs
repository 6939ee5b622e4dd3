//! `#[derive(Elicit)]` for `mcp-schema`: use it through `mcp_schema::Elicit`.
#![warn(missing_docs)]

use proc_macro::TokenStream;

/// Derives `mcp_schema::elicit::Elicit` (not yet implemented: a compile error says so).
#[proc_macro_derive(Elicit, attributes(elicit))]
pub fn derive_elicit(input: TokenStream) -> TokenStream {
    let input = proc_macro2::TokenStream::from(input);
    let error = syn::Error::new_spanned(input, "#[derive(Elicit)] is not implemented yet");
    error.to_compile_error().into()
}

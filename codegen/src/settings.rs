//! What shapes the generated code, held once: [`crate::Config`] sets it, and the loader
//! (`schema`, `ir::passes`) and the emitter (`emit`) read it as it is, so that a setting is
//! never copied into a second options struct on its way.

use proc_macro2::TokenStream;

/// The settings a generation reads. A leaf module: the loader and the emitter depend on it,
/// it on neither.
#[derive(Debug, Clone)]
pub(crate) struct Settings {
    /// Carry the validation keywords the types do not enforce (bounds, lengths, `pattern`,
    /// `format`, …) into the rustdoc of the field or type that has them.
    pub constraint_docs: bool,
    /// For a schema without direction unions: request definitions paired with the result
    /// definition their naming does not give (`("FooRequest", "BarResult")`, schema names).
    pub results: Vec<(String, String)>,
    /// For a schema without direction unions: message enums to generate, each a Rust name and
    /// the request (or notification) definitions it dispatches on `method`.
    pub message_enums: Vec<(String, Vec<String>)>,
    /// Emit `__roundtrip(name, json)` behind `#[cfg(feature = "<this>")]`, used by the tests to
    /// decode an instance as the definition a string names.
    pub registry_feature: Option<String>,
    /// Implement `schemars::JsonSchema` for every type behind `#[cfg(feature = "<this>")]`
    /// (with `mcp-typed`'s feature `schemars` enabled).
    pub schemars_feature: Option<String>,
    /// The path by which the generated code names the `mcp-typed` crate, as the user wrote it
    /// (`None`: `::mcp_typed`); read through [`Settings::types_crate_path`].
    pub types_crate: Option<String>,
    /// The file is a module of its own (`#[path] mod`), with inner `//!` docs and attributes;
    /// an `include!`d file may carry neither.
    pub module_file: bool,
    /// Whether to emit the borrowed family (`mod borrowed`: `ClientMessageRef<'de>`, …).
    pub borrowed: Borrowed,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            constraint_docs: true,
            results: Vec::new(),
            message_enums: Vec::new(),
            registry_feature: None,
            schemars_feature: None,
            types_crate: None,
            module_file: false,
            borrowed: Borrowed::No,
        }
    }
}

impl Settings {
    /// The tokens of [`Settings::types_crate`] (default `::mcp_typed`); a text that is not a
    /// Rust path is refused with the reason.
    pub fn types_crate_path(&self) -> Result<TokenStream, String> {
        let Some(text) = &self.types_crate else {
            return Ok(quote::quote!(::mcp_typed));
        };
        match syn::parse_str::<syn::Path>(text) {
            Ok(path) => Ok(quote::ToTokens::into_token_stream(path)),
            Err(e) => Err(format!(
                "types_crate `{text}` is not a Rust path (e.g. `::mcp_typed`): {e}"
            )),
        }
    }
}

/// Whether, and under which `#[cfg]`, the borrowed family is emitted: a `borrowed` submodule
/// with a `…Ref<'de>` type for every type that holds a string, a free-form object or
/// undeclared members, decoded by the same dispatch, borrowing from the text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) enum Borrowed {
    /// Not emitted.
    #[default]
    No,
    /// Emitted, always compiled.
    Always,
    /// Emitted behind `#[cfg(feature = "<this>")]` (`mcp-typed`'s own: `borrowed`).
    Feature(String),
}

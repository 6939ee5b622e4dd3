//! Spec rules stated in prose that the schema cannot express, as methods on generated types.

macro_rules! elicitation_modes {
    ($($module:ident: $cfg:meta),*) => {$(
        #[cfg($cfg)]
        impl crate::$module::ClientCapabilitiesElicitation {
            /// Whether the client accepts form-mode elicitation. The spec: an empty
            /// `elicitation: {}` (neither `form` nor `url` declared) means form mode only.
            pub fn supports_form(&self) -> bool {
                self.form.is_some() || self.url.is_none()
            }

            /// Whether the client accepts URL-mode elicitation (only when it declares `url`).
            pub fn supports_url(&self) -> bool {
                self.url.is_some()
            }
        }
    )*};
}

// The draft's types are 2026-07-28's (re-exported, the schemas being the same).
elicitation_modes!(
    v2025_11_25: feature = "v2025_11_25",
    v2026_07_28: any(feature = "v2026_07_28", feature = "draft")
);

//! Spec rules stated in prose that the schema cannot express, as methods on generated types.

macro_rules! elicitation_modes {
    ($($module:ident: $feature:literal),*) => {$(
        #[cfg(feature = $feature)]
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

elicitation_modes!(v2025_11_25: "v2025_11_25", v2026_07_28: "v2026_07_28", draft: "draft");

//! Error accumulation: every problem of one item is reported together.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

/// Collects errors; `check` turns them into one combined `syn::Error`.
#[derive(Debug, Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    pub fn error(&self, span: Span, message: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    pub fn error_spanned(&self, tokens: impl quote::ToTokens, message: impl Display) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens, message));
    }

    pub fn push(&self, error: syn::Error) {
        self.errors.borrow_mut().push(error);
    }

    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            first.combine(error);
        }
        Err(first)
    }
}

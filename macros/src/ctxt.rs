//! Error accumulation: every problem of one item is reported together.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::Span;

/// Collects errors; `check` turns them into one combined `syn::Error`. A `Ctxt` dropped without
/// `check` panics (outside a panic already under way): errors collected and never reported
/// would let a wrong expansion through silently.
#[derive(Debug)]
pub struct Ctxt {
    /// `None` once checked.
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Default for Ctxt {
    fn default() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }
}

impl Ctxt {
    pub fn error(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    pub fn error_spanned(&self, tokens: impl quote::ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("an error pushed after `Ctxt::check`")
            .push(error);
    }

    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take();
        let mut errors = errors.expect("`Ctxt::check` once").into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            first.combine(error);
        }
        Err(first)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("a `Ctxt` was dropped without `check`: its errors would be lost");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Ctxt;

    #[test]
    fn errors_are_combined_and_a_checked_ctxt_drops_quietly() {
        let cx = Ctxt::default();
        cx.error(proc_macro2::Span::call_site(), "one");
        cx.error(proc_macro2::Span::call_site(), "two");
        let error = cx.check().expect_err("two errors");
        assert_eq!(error.into_iter().count(), 2);
        assert!(Ctxt::default().check().is_ok());
    }

    #[test]
    #[should_panic(expected = "dropped without `check`")]
    fn an_unchecked_ctxt_panics_when_dropped() {
        let cx = Ctxt::default();
        cx.error(proc_macro2::Span::call_site(), "lost");
    }
}

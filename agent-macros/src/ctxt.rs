//! The error collector every stage reports to (serde_derive's `internals/ctxt.rs`): a stage
//! records a mistake and keeps going, so one compile shows every mistake once, each at the
//! user's own tokens. Only `expand` decides what to emit once all stages have run.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;

/// The errors of one expansion. Must be consumed with [`Ctxt::check`].
pub(crate) struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
    /// Set when rustc reports the mistake itself on the user's fn (a parameter name bound
    /// twice, E0415): the expansion falls back without an error of its own, so that the user
    /// sees rustc's error once instead of ours next to it.
    rustc_reports: RefCell<bool>,
}

/// What [`Ctxt::check`] found.
pub(crate) enum Checked {
    /// No error: generate the tool.
    Clean,
    /// Emit the fallback with these `compile_error!`s (empty when rustc reports the mistake).
    Failed(TokenStream),
}

impl Ctxt {
    pub(crate) fn new() -> Self {
        Self {
            errors: RefCell::new(Some(Vec::new())),
            rustc_reports: RefCell::new(false),
        }
    }

    /// An error covering all of `tokens` (a `Span` of a multi-token node only covers its
    /// first token on stable Rust).
    pub(crate) fn error_spanned_by(&self, tokens: impl ToTokens, message: impl Display) {
        self.push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// An error at one span.
    pub(crate) fn error_at(&self, span: Span, message: impl Display) {
        self.push(syn::Error::new(span, message));
    }

    /// An error from `syn` (a parse error).
    pub(crate) fn syn_error(&self, error: syn::Error) {
        self.push(error);
    }

    /// The mistake is one rustc reports on the user's own tokens: fall back silently.
    pub(crate) fn leave_to_rustc(&self) {
        *self.rustc_reports.borrow_mut() = true;
    }

    fn push(&self, error: syn::Error) {
        self.errors
            .borrow_mut()
            .as_mut()
            .expect("Ctxt used after check")
            .push(error);
    }

    /// Consumes the collector.
    pub(crate) fn check(self) -> Checked {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        if errors.is_empty() && !*self.rustc_reports.borrow() {
            return Checked::Clean;
        }
        Checked::Failed(errors.iter().map(syn::Error::to_compile_error).collect())
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}

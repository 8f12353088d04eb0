//! The model of an annotated fn: its description, its parameters (arguments the model fills
//! in, or dependencies the runtime injects) and what it returns.
//!
//! Building the model strips the parameter attributes (`///`, `#[schemars]`, `#[serde]`) from
//! the fn that is emitted again, since rustc accepts none of them on parameters; they move to
//! the generated argument struct instead.

use proc_macro2::Span;
use syn::{Attribute, FnArg, Ident, ItemFn, LitStr, Pat, ReturnType, Type};

use crate::docs;

/// Collects errors so one compile reports all of them (serde's `Ctxt`).
#[derive(Default)]
pub(crate) struct Errors(Option<syn::Error>);

impl Errors {
    pub(crate) fn push(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }

    pub(crate) fn at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push(syn::Error::new(span, message));
    }

    /// An error covering all of `tokens` (a `Span` of a multi-token node only covers its
    /// first token on stable Rust).
    pub(crate) fn spanned(
        &mut self,
        tokens: impl quote::ToTokens,
        message: impl std::fmt::Display,
    ) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub(crate) fn into_result(self) -> Result<(), syn::Error> {
        self.0.map_or(Ok(()), Err)
    }
}

/// One parameter of the tool fn.
pub(crate) struct Param {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    pub(crate) kind: ParamKind,
    /// From the parameter's `///`, or else filled from the fn's `# Arguments` list.
    pub(crate) description: Option<String>,
    /// `#[schemars(...)]` and `#[serde(...)]`, moved to the argument struct's field.
    pub(crate) passthrough: Vec<Attribute>,
    /// The JSON key (`#[serde(rename = "…")]`, or the ident without `r#`).
    pub(crate) wire_name: String,
    /// `#[values(provider)]`: what restricts the values a model may write.
    pub(crate) values: Option<syn::Expr>,
    /// `#[from_request]`: the model copies this text from the user's message.
    pub(crate) from_request: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ParamKind {
    /// Part of the schema: the model provides it.
    Argument,
    /// A `Dep<T>`: the runtime injects it.
    Injected,
}

/// What the fn returns, as far as the expansion cares.
pub(crate) enum Output {
    /// No return type: the result data is `{}`.
    Unit,
    /// `Result<T, E>` or `ToolResult`: converted by `IntoToolResult`.
    Direct(Type),
    /// Any other `T`, which must be `Serialize`.
    Plain(Type),
}

/// The annotated fn.
pub(crate) struct ToolFn {
    /// The fn as it is emitted again (parameter attributes removed).
    pub(crate) item: ItemFn,
    pub(crate) description: String,
    pub(crate) arguments_docs: Vec<(String, String)>,
    pub(crate) params: Vec<Param>,
    pub(crate) output: Output,
}

impl ToolFn {
    pub(crate) fn from_item(mut item: ItemFn, errors: &mut Errors) -> Self {
        let fn_docs = docs::split_arguments(&docs::to_text(&docs::doc_lines(&item.attrs)));
        let mut params = Vec::new();
        for input in &mut item.sig.inputs {
            match input {
                FnArg::Receiver(receiver) => errors.spanned(
                    &*receiver,
                    "`self` is not supported: #[tool] fns are free functions; take shared state as a `Dep<T>` parameter",
                ),
                FnArg::Typed(pat_type) => {
                    let attrs = std::mem::take(&mut pat_type.attrs);
                    if let Some(param) = Param::new(&pat_type.pat, &pat_type.ty, attrs, errors) {
                        params.push(param);
                    }
                }
            }
        }
        for param in &mut params {
            if param.description.is_none() {
                param.description = fn_docs
                    .arguments
                    .iter()
                    .find(|(name, _)| *name == param.ident.to_string().trim_start_matches("r#"))
                    .map(|(_, text)| text.clone());
            }
        }
        let output = match &item.sig.output {
            ReturnType::Default => Output::Unit,
            ReturnType::Type(_, ty) => {
                let last = match &**ty {
                    Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
                    _ => None,
                };
                match last.as_deref() {
                    Some("Result" | "ToolResult") => Output::Direct((**ty).clone()),
                    _ => Output::Plain((**ty).clone()),
                }
            }
        };
        Self {
            item,
            description: fn_docs.description,
            arguments_docs: fn_docs.arguments,
            params,
            output,
        }
    }

    pub(crate) fn arguments(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.kind == ParamKind::Argument)
    }

    pub(crate) fn injected(&self) -> impl Iterator<Item = &Param> {
        self.params.iter().filter(|p| p.kind == ParamKind::Injected)
    }
}

impl Param {
    fn new(pat: &Pat, ty: &Type, attrs: Vec<Attribute>, errors: &mut Errors) -> Option<Self> {
        let ident = match pat {
            Pat::Ident(pat_ident) if pat_ident.by_ref.is_none() && pat_ident.subpat.is_none() => {
                pat_ident.ident.clone()
            }
            _ => {
                errors.spanned(
                    pat,
                    "patterns are not supported in #[tool] parameters: use a plain name, e.g. `point: Point`; its name becomes the argument's JSON key",
                );
                return None;
            }
        };
        let kind = if is_dep(ty) {
            ParamKind::Injected
        } else {
            ParamKind::Argument
        };
        match ty {
            Type::ImplTrait(_) => errors.spanned(
                ty,
                "`impl Trait` parameters are not supported: a tool parameter needs a concrete type to derive its JSON Schema",
            ),
            Type::Reference(_) if kind == ParamKind::Argument => errors.spanned(
                ty,
                "borrowed parameters are not supported: tool arguments are deserialized from the model's JSON, so use an owned type (`String` instead of `&str`)",
            ),
            _ => {}
        }
        let mut description_lines = Vec::new();
        let mut passthrough = Vec::new();
        let mut values = None;
        let mut from_request = false;
        let mut wire_name = ident.to_string().trim_start_matches("r#").to_owned();
        for attr in attrs {
            if attr.path().is_ident("doc") {
                description_lines.extend(docs::doc_lines(std::slice::from_ref(&attr)));
            } else if attr.path().is_ident("from_request") && kind == ParamKind::Argument {
                match attr.meta.require_path_only() {
                    Ok(_) if !from_request => from_request = true,
                    Ok(_) => errors.spanned(&attr, "duplicate `#[from_request]`"),
                    Err(_) => errors.spanned(&attr, "`#[from_request]` takes no arguments"),
                }
            } else if attr.path().is_ident("values") && kind == ParamKind::Argument {
                match attr.parse_args::<syn::Expr>() {
                    Ok(provider) if values.is_none() => values = Some(provider),
                    Ok(_) => errors.spanned(&attr, "duplicate `#[values(...)]`; give one provider"),
                    Err(_) => errors.spanned(
                        &attr,
                        "expected a value provider: `#[values(active_habit_ids)]`, a fn returning the values this parameter may take",
                    ),
                }
            } else if (attr.path().is_ident("schemars") || attr.path().is_ident("serde"))
                && kind == ParamKind::Argument
            {
                if attr.path().is_ident("serde")
                    && let Some(rename) = serde_rename(&attr)
                {
                    wire_name = rename;
                }
                passthrough.push(attr);
            } else if kind == ParamKind::Injected {
                errors.spanned(
                    &attr,
                    "an injected `Dep<T>` parameter is not part of the schema and takes no attributes",
                );
            } else {
                errors.spanned(
                    &attr,
                    "unsupported attribute on a #[tool] parameter: only `///` docs, `#[values(...)]`, `#[from_request]`, `#[schemars(...)]` and `#[serde(...)]` are allowed",
                );
            }
        }
        let description = Some(docs::to_text(&description_lines)).filter(|d| !d.is_empty());
        Some(Self {
            ident,
            ty: ty.clone(),
            kind,
            description,
            passthrough,
            wire_name,
            values,
            from_request,
        })
    }
}

/// A parameter whose type is `Dep<…>` (any path ending in `Dep`) is injected.
fn is_dep(ty: &Type) -> bool {
    matches!(ty, Type::Path(path)
        if path.qself.is_none()
            && path.path.segments.last().is_some_and(|s| s.ident == "Dep"))
}

/// The `rename = "…"` of a `#[serde(...)]` attribute, if any.
fn serde_rename(attr: &Attribute) -> Option<String> {
    let mut rename = None;
    let _ = attr.parse_nested_meta(|meta| {
        if meta.path.is_ident("rename") {
            rename = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.input.peek(syn::Token![=]) {
            // Skip other `key = value` entries.
            meta.value()?.parse::<syn::Expr>()?;
        } else if meta.input.peek(syn::token::Paren) {
            meta.parse_nested_meta(|_| Ok(()))?;
        }
        Ok(())
    });
    rename
}

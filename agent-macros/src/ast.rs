//! The model of an annotated fn: its description, its parameters (arguments the model fills
//! in, or dependencies the runtime injects, as [`classify`](crate::classify) decides) and what
//! it returns.
//!
//! Each argument's JSON name is computed here, once (`#[serde(rename = "…")]`, or the ident
//! without `r#`), and every later stage — the summary and example checks, the `# Arguments`
//! lookup, the schema, the deserializer, `#[values]` and `#[from_request]` — reads it from
//! [`Param::json_name`].
//!
//! Building the model strips the parameter attributes (`///`, `#[schemars]`, `#[serde]`, …)
//! from the fn that is emitted again, since rustc accepts none of them on parameters; they
//! move to the generated argument struct instead.

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::{Attribute, FnArg, Ident, ItemFn, Pat, ReturnType, Type};

use crate::classify::{self, ParamKind, ReturnSpelling};
use crate::ctxt::Ctxt;
use crate::docs;
use crate::param_attr::ParamAttrs;

/// Where a parameter's description comes from.
pub(crate) enum Description {
    /// Its `///` lines, or its entry under the fn's `# Arguments`.
    Text(String),
    /// `#[schemars(description = …)]`, which schemars puts in the schema.
    Schemars,
    /// None: an error for an argument.
    Missing,
}

/// One parameter of the tool fn.
pub(crate) struct Param {
    pub(crate) ident: Ident,
    pub(crate) ty: Type,
    pub(crate) kind: ParamKind,
    /// The JSON key of an argument: `#[serde(rename = "…")]`, or the ident without `r#`.
    pub(crate) json_name: String,
    /// Where a mistake about the JSON name points: the `rename` literal, or the ident.
    pub(crate) json_span: Span,
    pub(crate) description: Description,
    pub(crate) attrs: ParamAttrs,
}

impl Param {
    /// The parameter's Rust name without `r#`, as docs and messages write it.
    pub(crate) fn rust_name(&self) -> String {
        self.ident.unraw().to_string()
    }
}

/// What the fn returns, as far as the expansion cares.
pub(crate) enum Output {
    /// No return type (or `()`): the result data is `{}`.
    Unit,
    /// A value, converted by whichever conversion its type allows.
    Value {
        ty: Box<Type>,
        spelling: ReturnSpelling,
    },
}

/// The annotated fn.
pub(crate) struct ToolFn {
    /// The fn as it is emitted again (parameter attributes removed).
    pub(crate) item: ItemFn,
    pub(crate) description: String,
    /// The fn's `# Arguments` entries: (name as written, text).
    pub(crate) arguments_docs: Vec<(String, String)>,
    pub(crate) params: Vec<Param>,
    pub(crate) output: Output,
}

impl ToolFn {
    pub(crate) fn from_item(cx: &Ctxt, mut item: ItemFn, krate: &syn::Path) -> Self {
        remove_repeated_tool_attr(cx, &mut item.attrs);
        for computed in docs::computed_docs(&item.attrs) {
            cx.error_spanned_by(
                computed,
                "#[tool] reads the tool's description when it expands, before the macro in this `#[doc = …]` is expanded; write the description as `///` lines (or `#[doc = \"…\"]` with a string literal)",
            );
        }
        let fn_docs = docs::split_arguments(&docs::to_text(&docs::doc_lines(&item.attrs)));
        let mut params = Vec::new();
        for input in &mut item.sig.inputs {
            match input {
                FnArg::Receiver(receiver) => cx.error_spanned_by(
                    &*receiver,
                    "`self` is not supported: #[tool] fns are free functions; take shared state as a `Dep<T>` parameter",
                ),
                FnArg::Typed(pat_type) => {
                    let attrs = ParamAttrs::parse(cx, std::mem::take(&mut pat_type.attrs));
                    // rustc's own lint attributes stay on the fn.
                    pat_type.attrs.clone_from(&attrs.lints);
                    if let Some(param) = Param::new(cx, &pat_type.pat, &pat_type.ty, attrs, krate)
                    {
                        params.push(param);
                    }
                }
            }
        }
        for param in &mut params {
            if matches!(param.description, Description::Missing) {
                let rust_name = param.rust_name();
                if let Some((_, text)) = fn_docs
                    .arguments
                    .iter()
                    .find(|(name, _)| *name == param.json_name || *name == rust_name)
                {
                    param.description = Description::Text(text.clone());
                }
            }
        }
        let output = match &item.sig.output {
            ReturnType::Default => Output::Unit,
            ReturnType::Type(_, ty) if classify::is_unit(ty) => Output::Unit,
            ReturnType::Type(_, ty) => Output::Value {
                ty: ty.clone(),
                spelling: classify::return_spelling(ty),
            },
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

    /// The tool name: `name = "…"` or the fn ident (without `r#`).
    pub(crate) fn default_name(&self) -> String {
        self.item.sig.ident.unraw().to_string()
    }
}

/// A second `#[tool]` on the same fn (the outer one expands first and sees it): one error at
/// it, and it is dropped, so it does not expand into a second set of items.
fn remove_repeated_tool_attr(cx: &Ctxt, attrs: &mut Vec<Attribute>) {
    attrs.retain(|attr| {
        let path = attr.path();
        let is_tool = path.is_ident("tool")
            || (path.segments.len() == 2
                && path.segments[0].ident == "agent_core"
                && path.segments[1].ident == "tool");
        if is_tool {
            cx.error_spanned_by(
                attr,
                "#[tool] is applied twice to this fn; remove one (put every key in one attribute: `#[tool(destructive, label = \"…\")]`)",
            );
        }
        !is_tool
    });
}

impl Param {
    fn new(cx: &Ctxt, pat: &Pat, ty: &Type, attrs: ParamAttrs, krate: &syn::Path) -> Option<Self> {
        let ident = match pat {
            Pat::Ident(pat_ident) if pat_ident.by_ref.is_none() && pat_ident.subpat.is_none() => {
                pat_ident.ident.clone()
            }
            _ => {
                cx.error_spanned_by(
                    pat,
                    "patterns are not supported in #[tool] parameters: use a plain name, e.g. `point: Point`; its name becomes the argument's JSON key",
                );
                return None;
            }
        };
        let mut kind = classify::param_kind(ty, attrs.dep.is_some(), krate);
        match ty {
            Type::ImplTrait(_) => cx.error_spanned_by(
                ty,
                "`impl Trait` parameters are not supported: a tool parameter needs a concrete type to derive its JSON Schema",
            ),
            Type::Reference(_) if kind == ParamKind::Argument => cx.error_spanned_by(
                ty,
                "borrowed parameters are not supported: tool arguments are deserialized from the model's JSON, so use an owned type (`String` instead of `&str`)",
            ),
            _ if kind == ParamKind::Argument && classify::is_unit(ty) => cx.error_spanned_by(
                ty,
                "a `()` parameter carries no value, yet the schema would require the model to send `null` for it; remove the parameter",
            ),
            _ => {}
        }
        if let Some(inner) = classify::optional_dep(ty, krate) {
            cx.error_spanned_by(
                ty,
                format!(
                    "a dependency cannot be optional: the registry checks at start-up that every `Dep<T>` is provided; take `{}` and provide it with `RegistryBuilder::dependency`",
                    quote::ToTokens::to_token_stream(inner).to_string().replace(" < ", "<").replace(" >", ">"),
                ),
            );
            // It is meant as a dependency: no "undocumented argument" error on top.
            kind = ParamKind::Injected;
        }
        if kind == ParamKind::Injected {
            for attr in &attrs.argument_only {
                cx.error_spanned_by(
                    attr,
                    "an injected `Dep<T>` parameter is not part of the schema: it takes no `#[serde]`, `#[schemars]`, `#[values]`, `#[from_request]` or `#[composed]`",
                );
            }
        }
        let (json_name, json_span) = match &attrs.rename {
            Some(lit) => (lit.value(), lit.span()),
            None => (ident.unraw().to_string(), ident.span()),
        };
        let description = if !attrs.doc_lines.is_empty() {
            let text = docs::to_text(&attrs.doc_lines);
            if text.is_empty() {
                Description::Missing
            } else {
                Description::Text(text)
            }
        } else if attrs.schemars_description || attrs.computed_doc {
            // (A computed `#[doc]` is an error of its own; not "undocumented" as well.)
            Description::Schemars
        } else {
            Description::Missing
        };
        Some(Self {
            ident,
            ty: ty.clone(),
            kind,
            json_name,
            json_span,
            description,
            attrs,
        })
    }
}

//! The attributes on one parameter: `///` docs, `#[serde(...)]`, `#[schemars(...)]`,
//! `#[values(...)]`, `#[from_request]`, `#[composed]` and `#[dep]`.
//!
//! Every key of `#[serde]` and `#[schemars]` is checked here, on its own tokens, against what
//! the tool can keep true: the summary check, the `# Arguments` lookup, the schema the model
//! sees and the deserializer must all agree on one JSON name and one notion of "optional".
//! A key that would make them disagree (`alias`, `flatten`, `rename(deserialize = …)`,
//! `#[schemars(rename)]`, …) is refused with what to write instead; a key schemars would
//! reject is refused here too, so its error is not followed by errors in generated code.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, Lit, LitStr};

use crate::attr::skip_value;
use crate::ctxt::Ctxt;
use crate::docs;
use crate::suggest;

/// `#[serde(...)]` keys a parameter may use.
const SERDE_KEYS: &[&str] = &["rename", "default", "deserialize_with", "with"];

/// `#[schemars(...)]` keys a parameter may use: descriptions, examples, validation keywords
/// the gate enforces, and schema overrides.
const SCHEMARS_KEYS: &[&str] = &[
    "description",
    "title",
    "example",
    "extend",
    "transform",
    "with",
    "schema_with",
    "length",
    "range",
    "required",
    "pattern",
    "regex",
    "contains",
    "email",
    "url",
    "ip",
    "ipv4",
    "ipv6",
    "inner",
];

/// What the attributes of one parameter say.
#[derive(Default)]
pub(crate) struct ParamAttrs {
    /// The literal `///` lines.
    pub(crate) doc_lines: Vec<String>,
    /// `#[schemars(description = …)]`: the parameter is documented by an expression.
    pub(crate) schemars_description: bool,
    /// A `#[doc = …]` that is not a literal (refused).
    pub(crate) computed_doc: bool,
    /// `#[serde(rename = "…")]`.
    pub(crate) rename: Option<LitStr>,
    /// `#[serde(default)]` / `#[serde(default = "path")]`, as written (for the schema) and
    /// as the expression the handler calls when the argument is missing.
    pub(crate) default: Option<(TokenStream, TokenStream)>,
    /// `deserialize_with = "…"` / `with = "…"`, as written: the handler reads the argument
    /// through a newtype carrying it.
    pub(crate) deserialize_with: Option<TokenStream>,
    /// The `#[schemars(...)]` attributes, passed on as they are.
    pub(crate) schemars: Vec<Attribute>,
    /// `#[schemars(with = …)]` or `schema_with`: the schema is not derived from the type.
    pub(crate) schemars_with: bool,
    /// `#[values(provider)]`.
    pub(crate) values: Option<Expr>,
    /// `#[from_request]`.
    pub(crate) from_request: Option<Span>,
    /// `#[composed]`.
    pub(crate) composed: Option<Span>,
    /// `#[dep]`: injected, whatever the type is spelled.
    pub(crate) dep: Option<Span>,
    /// Every attribute other than docs, lints and `#[dep]`, to refuse on an injected
    /// parameter.
    pub(crate) argument_only: Vec<Attribute>,
    /// `#[allow(...)]` and the other lint attributes: rustc's own, kept on the fn.
    pub(crate) lints: Vec<Attribute>,
    /// The validation keys given (`range`, `length`, `regex`, …): the definition checks at
    /// start-up that each left its keyword in the schema (schemars drops one that does not
    /// apply to the type, such as `range` on a `String`).
    pub(crate) constraints: Vec<String>,
}

/// The attributes rustc itself accepts on a fn parameter (besides `cfg`, which would change
/// the schema and is refused).
const LINT_ATTRS: &[&str] = &["allow", "warn", "deny", "forbid", "expect"];

impl ParamAttrs {
    pub(crate) fn parse(cx: &Ctxt, attrs: Vec<Attribute>) -> Self {
        let mut out = Self::default();
        let mut deserialize_with: Option<syn::Path> = None;
        for attr in attrs {
            let path = attr.path();
            if path.is_ident("doc") {
                if let Some(computed) = docs::computed_docs(std::slice::from_ref(&attr)).next() {
                    out.computed_doc = true;
                    cx.error_spanned_by(
                        computed,
                        "#[tool] reads parameter docs when it expands, before the macro in this `#[doc = …]` is expanded; write `///` lines, or `#[schemars(description = include_str!(\"…\"))]`",
                    );
                }
                out.doc_lines
                    .extend(docs::doc_lines(std::slice::from_ref(&attr)));
                continue;
            }
            if LINT_ATTRS.iter().any(|lint| path.is_ident(lint)) {
                out.lints.push(attr);
                continue;
            }
            if path.is_ident("dep") {
                match attr.meta.require_path_only() {
                    Ok(path) if out.dep.is_none() => out.dep = Some(path.span()),
                    Ok(_) => cx.error_spanned_by(&attr, "duplicate `#[dep]`"),
                    Err(_) => cx.error_spanned_by(&attr, "`#[dep]` takes no arguments"),
                }
                continue;
            }
            if path.is_ident("from_request") {
                match attr.meta.require_path_only() {
                    Ok(path) if out.from_request.is_none() => {
                        out.from_request = Some(path.span());
                    }
                    Ok(_) => cx.error_spanned_by(&attr, "duplicate `#[from_request]`"),
                    Err(_) => cx.error_spanned_by(&attr, "`#[from_request]` takes no arguments"),
                }
            } else if path.is_ident("composed") {
                match attr.meta.require_path_only() {
                    Ok(path) if out.composed.is_none() => out.composed = Some(path.span()),
                    Ok(_) => cx.error_spanned_by(&attr, "duplicate `#[composed]`"),
                    Err(_) => cx.error_spanned_by(&attr, "`#[composed]` takes no arguments"),
                }
            } else if path.is_ident("values") {
                match attr.parse_args::<Expr>() {
                    Ok(provider) if out.values.is_none() => out.values = Some(provider),
                    Ok(_) => cx.error_spanned_by(&attr, "duplicate `#[values(...)]`; give one provider"),
                    Err(_) => cx.error_spanned_by(
                        &attr,
                        "expected a value provider: `#[values(active_habit_ids)]`, a fn returning the values this parameter may take",
                    ),
                }
            } else if path.is_ident("serde") {
                let result =
                    attr.parse_nested_meta(|meta| out.serde_key(cx, &meta, &mut deserialize_with));
                if let Err(error) = result {
                    cx.syn_error(error);
                }
            } else if path.is_ident("schemars") {
                let result = attr.parse_nested_meta(|meta| {
                    let key = key_text(&meta.path);
                    if matches!(key.as_str(), "with" | "schema_with") {
                        out.schemars_with = true;
                    }
                    if key == "description" {
                        out.schemars_description = true;
                    }
                    if matches!(
                        key.as_str(),
                        "range" | "length" | "regex" | "pattern" | "contains"
                    ) && !out.constraints.contains(&key)
                    {
                        out.constraints.push(key.clone());
                    }
                    schemars_key(cx, &meta, &key)
                });
                if let Err(error) = result {
                    cx.syn_error(error);
                }
                out.schemars.push(attr.clone());
            } else {
                cx.error_spanned_by(
                    &attr,
                    "unsupported attribute on a #[tool] parameter: only `///` docs, `#[values(...)]`, `#[from_request]`, `#[composed]`, `#[dep]`, `#[schemars(...)]` and `#[serde(...)]` are allowed",
                );
                continue;
            }
            out.argument_only.push(attr);
        }
        if let Some(path) = deserialize_with
            && !out.schemars_with
        {
            cx.error_spanned_by(
                path,
                "with a custom deserializer the derived schema describes the Rust type, not the JSON it reads: add `#[schemars(with = \"T\")]` naming a type whose schema is that JSON (e.g. `String`)",
            );
        }
        out
    }

    fn serde_key(
        &mut self,
        cx: &Ctxt,
        meta: &ParseNestedMeta<'_>,
        deserialize_with: &mut Option<syn::Path>,
    ) -> syn::Result<()> {
        let key = key_text(&meta.path);
        match key.as_str() {
            "rename" if meta.input.peek(syn::Token![=]) => {
                let value: Expr = meta.value()?.parse()?;
                match value {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }) if self.rename.is_none() => self.rename = Some(lit),
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(_), ..
                    }) => cx.error_spanned_by(&meta.path, "duplicate `rename`; give it once"),
                    other => {
                        cx.error_spanned_by(other, "expected the JSON name: `rename = \"max\"`")
                    }
                }
            }
            "rename" => {
                cx.error_spanned_by(
                    &meta.path,
                    "`rename(serialize = …, deserialize = …)` is not supported on a #[tool] parameter: arguments are only deserialized, under one name the model also sees; write `#[serde(rename = \"…\")]`",
                );
                skip_value(meta)?;
            }
            "default" => {
                let path = meta.path.clone();
                let call = if meta.input.peek(syn::Token![=]) {
                    let lit: LitStr = meta.value()?.parse()?;
                    match lit.parse::<syn::ExprPath>() {
                        Ok(function) => {
                            let tokens = quote::quote!(#path = #lit);
                            Some((tokens, function.into_token_stream()))
                        }
                        Err(_) => {
                            cx.error_spanned_by(&lit, "expected the path of a fn returning the default: `default = \"default_unit\"`");
                            None
                        }
                    }
                } else {
                    Some((
                        path.to_token_stream(),
                        quote::quote!(::core::default::Default::default),
                    ))
                };
                match call {
                    Some(_) if self.default.is_some() => {
                        cx.error_spanned_by(&path, "duplicate `default`; give it once");
                    }
                    Some(call) => self.default = Some(call),
                    None => {}
                }
            }
            "deserialize_with" | "with" => {
                let path = meta.path.clone();
                let value: Expr = meta.value()?.parse()?;
                if self.deserialize_with.is_some() {
                    cx.error_spanned_by(&path, "give one of `deserialize_with` and `with`, once");
                } else {
                    self.deserialize_with = Some(quote::quote!(#path = #value));
                }
                *deserialize_with = Some(path);
            }
            "alias" => {
                cx.error_spanned_by(
                    &meta.path,
                    "`alias` is not supported on a #[tool] parameter: the model is only shown the argument's one JSON name, so it would never send the alias; rename the argument with `#[serde(rename = \"…\")]`",
                );
                skip_value(meta)?;
            }
            "flatten" => {
                cx.error_spanned_by(
                    &meta.path,
                    "`flatten` is not supported on a #[tool] parameter: each parameter is one argument; take the struct as a parameter (a nested object), or make its fields parameters",
                );
                skip_value(meta)?;
            }
            "skip" | "skip_deserializing" => {
                cx.error_spanned_by(
                    &meta.path,
                    format!("`{key}` is not supported on a #[tool] parameter: a parameter the model cannot set is not an argument; take it as a `Dep<T>` or compute it in the fn"),
                );
                skip_value(meta)?;
            }
            "skip_serializing" | "skip_serializing_if" | "serialize_with" | "getter" => {
                cx.error_spanned_by(
                    &meta.path,
                    format!("`{key}` has no effect on a #[tool] parameter: arguments are only deserialized; remove it"),
                );
                skip_value(meta)?;
            }
            other => {
                cx.error_spanned_by(
                    &meta.path,
                    format!(
                        "unsupported `#[serde({other})]` on a #[tool] parameter{}; supported: `rename = \"…\"`, `default`, `default = \"path\"`, and `deserialize_with`/`with` together with `#[schemars(with = …)]`",
                        suggest::did_you_mean(other, SERDE_KEYS),
                    ),
                );
                skip_value(meta)?;
            }
        }
        Ok(())
    }
}

/// Checks one `#[schemars(...)]` key, and the keys inside `range(...)`/`length(...)`.
fn schemars_key(cx: &Ctxt, meta: &ParseNestedMeta<'_>, key: &str) -> syn::Result<()> {
    let refuse = |message: String| {
        cx.error_spanned_by(&meta.path, message);
        skip_value(meta)
    };
    match key {
        "range" | "length" => {
            if !meta.input.peek(syn::token::Paren) {
                return refuse(format!(
                    "expected `{key}(min = …, max = …)` (or `equal = …`)"
                ));
            }
            meta.parse_nested_meta(|inner| {
                let inner_key = key_text(&inner.path);
                if !matches!(inner_key.as_str(), "min" | "max" | "equal") {
                    cx.error_spanned_by(
                        &inner.path,
                        format!(
                            "unknown key `{inner_key}` in `{key}(...)`{}; expected `min`, `max` or `equal`",
                            suggest::did_you_mean(&inner_key, &["min", "max", "equal"])
                        ),
                    );
                }
                skip_value(&inner)
            })
        }
        "rename" => refuse(
            "`#[schemars(rename)]` renames the argument in the schema only, so the model would send a name serde does not read; write `#[serde(rename = \"…\")]`, which renames both".to_owned(),
        ),
        "default" => refuse(
            "`#[schemars(default)]` makes the argument optional in the schema only, so a call without it would still fail; write `#[serde(default)]`, which both read".to_owned(),
        ),
        "skip" | "skip_deserializing" | "flatten" | "alias" => refuse(format!(
            "`#[schemars({key})]` changes the schema without changing what is deserialized; a #[tool] parameter is one argument the model sets"
        )),
        "crate" => refuse(
            "the schemars crate is chosen by #[tool] for its generated struct; for a renamed `agent_core` write `#[tool(crate = …)]`".to_owned(),
        ),
        key if SCHEMARS_KEYS.contains(&key) => skip_value(meta),
        other => refuse(format!(
            "unknown `#[schemars(...)]` key `{other}` on a #[tool] parameter{}; expected one of {}",
            suggest::did_you_mean(other, SCHEMARS_KEYS),
            suggest::listed(SCHEMARS_KEYS)
        )),
    }
}

fn key_text(path: &syn::Path) -> String {
    path.to_token_stream().to_string().replace(' ', "")
}

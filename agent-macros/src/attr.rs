//! Parsing of the attribute's own arguments: `#[tool(destructive, label = "…", …)]`.
//!
//! One branch per key; unknown keys list the valid ones, a key given twice is reported at
//! its second occurrence, and every value keeps its span for later errors.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, LitBool, LitInt, LitStr};

/// The keys `#[tool]` accepts, in the order error messages list them.
pub(crate) const KEYS: &[&str] = &[
    "name",
    "label",
    "summary",
    "destructive",
    "confirm_if",
    "timeout_ms",
];

/// The parsed `#[tool(...)]` arguments.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) label: Option<LitStr>,
    pub(crate) summary: Option<LitStr>,
    /// `Some((value, span))` when `destructive` was written.
    pub(crate) destructive: Option<(bool, Span)>,
    pub(crate) confirm_if: Option<Expr>,
    pub(crate) timeout_ms: Option<LitInt>,
}

impl ToolAttr {
    pub(crate) fn parse(args: TokenStream) -> syn::Result<Self> {
        let mut attr = Self::default();
        let parser = syn::meta::parser(|meta| attr.parse_one(meta));
        syn::parse::Parser::parse2(parser, args)?;
        Ok(attr)
    }

    pub(crate) fn is_destructive(&self) -> bool {
        self.destructive.is_some_and(|(value, _)| value)
    }

    fn parse_one(&mut self, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        let Some(ident) = meta.path.get_ident() else {
            return Err(meta.error(unknown_key_message(&path_text(&meta.path))));
        };
        let key = ident.to_string();
        let span = ident.span();
        match key.as_str() {
            "name" => set(
                &mut self.name,
                string_value(&meta, "name", "add_habit")?,
                &key,
                span,
            ),
            "label" => set(
                &mut self.label,
                string_value(&meta, "label", "습관 추가")?,
                &key,
                span,
            ),
            "summary" => set(
                &mut self.summary,
                string_value(&meta, "summary", "'{framed_text}' 습관을 추가합니다")?,
                &key,
                span,
            ),
            "destructive" => {
                let value = if meta.input.peek(syn::Token![=]) {
                    let value = meta.value()?;
                    match value.parse::<LitBool>() {
                        Ok(lit) => lit.value,
                        Err(_) => {
                            return Err(syn::Error::new(
                                value.span(),
                                "expected `true` or `false`: write `#[tool(destructive)]` or `#[tool(destructive = false)]`",
                            ));
                        }
                    }
                } else {
                    true
                };
                set(&mut self.destructive, (value, span), &key, span)
            }
            "confirm_if" => {
                let expr: Expr = meta.value()?.parse().map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "expected an expression over the tool's parameters, e.g. `confirm_if = value != TrackerValue::Blank`",
                    )
                })?;
                set(&mut self.confirm_if, expr, &key, span)
            }
            "timeout_ms" => {
                let value = meta.value()?;
                let lit = value.parse::<LitInt>().map_err(|_| {
                    syn::Error::new(
                        value.span(),
                        "expected an integer number of milliseconds: `timeout_ms = 5000`",
                    )
                })?;
                set(&mut self.timeout_ms, lit, &key, span)
            }
            other => Err(syn::Error::new(span, unknown_key_message(other))),
        }
    }
}

fn set<T>(slot: &mut Option<T>, value: T, key: &str, span: Span) -> syn::Result<()> {
    if slot.is_some() {
        return Err(syn::Error::new(
            span,
            format!("duplicate #[tool] argument `{key}`; give it once"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

fn string_value(meta: &ParseNestedMeta<'_>, key: &str, example: &str) -> syn::Result<LitStr> {
    let value = meta
        .value()
        .map_err(|_| meta.error(format!("`{key}` needs a value: `{key} = \"{example}\"`")))?;
    value.parse::<LitStr>().map_err(|_| {
        syn::Error::new(
            value.span(),
            format!("expected a string literal: `{key} = \"{example}\"`"),
        )
    })
}

fn unknown_key_message(key: &str) -> String {
    let expected = KEYS
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    format!("unknown #[tool] argument `{key}`; expected one of {expected}")
}

fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

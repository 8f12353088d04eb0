//! Parsing of the attribute's own arguments: `#[tool(destructive, label = "…", …)]`.
//!
//! One branch per key; unknown keys list the valid ones, a key given twice is reported at
//! its second occurrence, and every value keeps its span for later errors.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, Lit, LitBool, LitInt, LitStr};

/// The keys `#[tool]` accepts, in the order error messages list them.
pub(crate) const KEYS: &[&str] = &[
    "name",
    "label",
    "summary",
    "destructive",
    "confirm_if",
    "timeout_ms",
];

/// `summary = "…{param}…"` (a template) or `summary = expr` (computed from the arguments).
pub(crate) enum Summary {
    Template(LitStr),
    Expr(Expr),
}

/// The parsed `#[tool(...)]` arguments.
#[derive(Default)]
pub(crate) struct ToolAttr {
    pub(crate) name: Option<LitStr>,
    pub(crate) label: Option<LitStr>,
    pub(crate) summary: Option<Summary>,
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
            "summary" => {
                let summary = match meta.value()?.parse::<Expr>()? {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => Summary::Template(lit),
                    Expr::Lit(other) => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "expected a template string (`summary = \"'{framed_text}' 습관을 추가합니다\"`) or an expression over the parameters (`summary = describe(habit_id, date)`)",
                        ));
                    }
                    expr => Summary::Expr(expr),
                };
                set(&mut self.summary, summary, &key, span)
            }
            "destructive" => {
                let value = if meta.input.peek(syn::Token![=]) {
                    match meta.value()?.parse::<Expr>()? {
                        Expr::Lit(ExprLit {
                            lit: Lit::Bool(LitBool { value, .. }),
                            ..
                        }) => value,
                        other => {
                            return Err(syn::Error::new_spanned(
                                other,
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
                let lit = match meta.value()?.parse::<Expr>()? {
                    Expr::Lit(ExprLit {
                        lit: Lit::Int(lit), ..
                    }) => lit,
                    other => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "expected an integer number of milliseconds: `timeout_ms = 5000`",
                        ));
                    }
                };
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
    match value.parse::<Expr>()? {
        Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        }) => Ok(lit),
        other => Err(syn::Error::new_spanned(
            other,
            format!("expected a string literal: `{key} = \"{example}\"`"),
        )),
    }
}

fn unknown_key_message(key: &str) -> String {
    let expected = KEYS
        .iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ");
    let suggestion = KEYS
        .iter()
        .map(|k| (edit_distance(key, k), k))
        .filter(|(distance, _)| *distance <= 2)
        .min()
        .map(|(_, k)| format!(" (did you mean `{k}`?)"))
        .unwrap_or_default();
    format!("unknown #[tool] argument `{key}`{suggestion}; expected one of {expected}")
}

/// Levenshtein distance, for "did you mean" on misspelled keys.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(row[j]).min(above)
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

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
    "access",
    "example",
    "reply",
];

/// The access levels `access = …` accepts, with the runtime's variant names.
pub(crate) const ACCESS_LEVELS: &[(&str, &str)] = &[
    ("self_only", "SelfOnly"),
    ("system", "System"),
    ("trusted", "Trusted"),
];

/// One `example(request = "…", args = { … })`.
pub(crate) struct ExampleAttr {
    pub(crate) request: LitStr,
    /// The `{ … }` group, handed to `serde_json::json!` as it is.
    pub(crate) args: Option<proc_macro2::Group>,
    /// Every top-level key of `args`, for the compile-time check.
    pub(crate) keys: Vec<LitStr>,
}

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
    /// `access = self_only | system | trusted`: the variant name and the span.
    pub(crate) access: Option<(&'static str, Span)>,
    pub(crate) examples: Vec<ExampleAttr>,
    /// `reply = fn_path`: the tool's own sentence about a successful result.
    pub(crate) reply: Option<Expr>,
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
            "access" => {
                let value = meta.value()?.parse::<syn::Ident>().map_err(|e| {
                    syn::Error::new(e.span(), "expected an access level: `access = self_only`, `access = system` or `access = trusted`")
                })?;
                let text = value.to_string();
                let Some((_, variant)) = ACCESS_LEVELS.iter().find(|(name, _)| *name == text)
                else {
                    return Err(syn::Error::new(
                        value.span(),
                        format!(
                            "unknown access level `{text}`; expected `self_only` (only the app's agent, the default), `system` or `trusted`"
                        ),
                    ));
                };
                set(&mut self.access, (*variant, value.span()), &key, span)
            }
            "example" => {
                let example = parse_example(&meta, span)?;
                self.examples.push(example);
                Ok(())
            }
            "reply" => {
                let expr: Expr = meta.value()?.parse().map_err(|e| {
                    syn::Error::new(
                        e.span(),
                        "expected a fn over the result data: `reply = describe_result` with `fn(&serde_json::Value) -> Option<String>`",
                    )
                })?;
                set(&mut self.reply, expr, &key, span)
            }
            other => Err(syn::Error::new(span, unknown_key_message(other))),
        }
    }
}

/// `example(request = "…", args = { "key": value, … })`; `args` may be left out for a tool
/// without arguments.
fn parse_example(meta: &ParseNestedMeta<'_>, span: Span) -> syn::Result<ExampleAttr> {
    let mut request: Option<LitStr> = None;
    let mut args: Option<proc_macro2::Group> = None;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("request") {
            let lit = string_value(&inner, "request", "아침 운동 습관 찾아줘")?;
            if request.is_some() {
                return Err(inner.error("duplicate `request` in `example(...)`"));
            }
            request = Some(lit);
            Ok(())
        } else if inner.path.is_ident("args") {
            let tree: proc_macro2::TokenTree = inner.value()?.parse()?;
            match tree {
                proc_macro2::TokenTree::Group(group)
                    if group.delimiter() == proc_macro2::Delimiter::Brace =>
                {
                    if args.is_some() {
                        return Err(inner.error("duplicate `args` in `example(...)`"));
                    }
                    args = Some(group);
                    Ok(())
                }
                other => Err(syn::Error::new_spanned(
                    other,
                    "expected a JSON object: `args = { \"keyword\": \"운동\" }`",
                )),
            }
        } else {
            Err(inner.error(
                "unknown key in `example(...)`; expected `request = \"…\"` and `args = { … }`",
            ))
        }
    })
    .map_err(|e| {
        if e.to_string().starts_with("expected parentheses") {
            syn::Error::new(
                span,
                "write examples as `example(request = \"…\", args = { … })`",
            )
        } else {
            e
        }
    })?;
    let Some(request) = request else {
        return Err(syn::Error::new(
            span,
            "`example(...)` needs `request = \"…\"`: what a person would say",
        ));
    };
    if request.value().trim().is_empty() {
        return Err(syn::Error::new(
            request.span(),
            "the example's request is empty",
        ));
    }
    let keys = match &args {
        Some(group) => object_keys(group)?,
        None => Vec::new(),
    };
    Ok(ExampleAttr {
        request,
        args,
        keys,
    })
}

/// The top-level keys of a `{ "key": value, … }` group: each entry must start with a string
/// literal and a `:`.
fn object_keys(group: &proc_macro2::Group) -> syn::Result<Vec<LitStr>> {
    use proc_macro2::TokenTree;
    let mut keys = Vec::new();
    let mut expect_key = true;
    let mut tokens = group.stream().into_iter().peekable();
    while let Some(token) = tokens.next() {
        if expect_key {
            let key = match &token {
                TokenTree::Literal(lit) => {
                    syn::parse2::<LitStr>(TokenTree::Literal(lit.clone()).into()).ok()
                }
                _ => None,
            };
            let Some(key) = key else {
                return Err(syn::Error::new_spanned(
                    token,
                    "example arguments are a JSON object: each key is a string literal, `\"keyword\": \"운동\"`",
                ));
            };
            match tokens.next() {
                Some(TokenTree::Punct(p)) if p.as_char() == ':' => {}
                _ => return Err(syn::Error::new(key.span(), "expected `:` after the key")),
            }
            keys.push(key);
            expect_key = false;
        } else if matches!(&token, TokenTree::Punct(p) if p.as_char() == ',') {
            expect_key = true;
        }
    }
    Ok(keys)
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

//! Parsing of the attribute's own arguments: `#[tool(destructive, label = "…", …)]`.
//!
//! One branch per key; unknown keys list the valid ones, a key given twice is reported at
//! its second occurrence, and every value keeps its span for later errors. A wrong value is
//! recorded in the [`Ctxt`] and parsing goes on with the next key, so every mistake in the
//! attribute shows in one compile; only a value that is not even an expression stops it.

use proc_macro2::{Span, TokenStream};
use syn::meta::ParseNestedMeta;
use syn::{Expr, ExprLit, Lit, LitBool, LitInt, LitStr};

use crate::ctxt::Ctxt;
use crate::suggest;

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
    "undo",
    "crate",
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

/// `timeout_ms = 5000` (an integer literal, any suffix) or `timeout_ms = DB_TIMEOUT_MS` (a
/// constant expression of type `u64`, checked to be above 0 at compile time).
pub(crate) enum Timeout {
    Literal(LitInt),
    Const(Expr),
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
    pub(crate) timeout_ms: Option<Timeout>,
    /// `access = self_only | system | trusted`: the variant name and the span.
    pub(crate) access: Option<(&'static str, Span)>,
    pub(crate) examples: Vec<ExampleAttr>,
    /// `reply = fn_path`: the tool's own sentence about a successful result.
    pub(crate) reply: Option<Expr>,
    /// `undo = fn_path`: how a call that ran is undone.
    pub(crate) undo: Option<Expr>,
    /// `crate = path`: where `agent_core` is, for a renamed dependency.
    pub(crate) krate: Option<syn::Path>,
}

impl ToolAttr {
    pub(crate) fn parse(cx: &Ctxt, args: TokenStream) -> Self {
        let mut attr = Self::default();
        let parser = syn::meta::parser(|meta| attr.parse_one(cx, meta));
        if let Err(error) = syn::parse::Parser::parse2(parser, args) {
            cx.syn_error(error);
        }
        attr
    }

    pub(crate) fn is_destructive(&self) -> bool {
        self.destructive.is_some_and(|(value, _)| value)
    }

    /// Each branch records a wrong value in `cx` and returns `Ok`, so the next key is still
    /// read; `Err` (the value is not an expression at all) ends the attribute.
    fn parse_one(&mut self, cx: &Ctxt, meta: ParseNestedMeta<'_>) -> syn::Result<()> {
        let Some(ident) = meta.path.get_ident() else {
            cx.error_spanned_by(&meta.path, unknown_key_message(&path_text(&meta.path)));
            return skip_value(&meta);
        };
        let key = ident.to_string();
        let span = ident.span();
        match key.as_str() {
            "name" => {
                if let Some(lit) = string_value(cx, &meta, "name", "add_habit")? {
                    set(cx, &mut self.name, lit, &key, span);
                }
            }
            "label" => {
                if let Some(lit) = string_value(cx, &meta, "label", "습관 추가")? {
                    set(cx, &mut self.label, lit, &key, span);
                }
            }
            "summary" => {
                let Some(expr) = required_value(cx, &meta, SUMMARY_EXPECTED)? else {
                    return Ok(());
                };
                let summary = match expr {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    }) => Summary::Template(lit),
                    Expr::Lit(other) => {
                        cx.error_spanned_by(other, SUMMARY_EXPECTED);
                        return Ok(());
                    }
                    expr => Summary::Expr(expr),
                };
                set(cx, &mut self.summary, summary, &key, span);
            }
            "destructive" => {
                let value = if meta.input.peek(syn::Token![=]) {
                    match meta.value()?.parse::<Expr>()? {
                        Expr::Lit(ExprLit {
                            lit: Lit::Bool(LitBool { value, .. }),
                            ..
                        }) => value,
                        other => {
                            cx.error_spanned_by(
                                other,
                                "expected `true` or `false`: write `#[tool(destructive)]` or `#[tool(destructive = false)]`",
                            );
                            return Ok(());
                        }
                    }
                } else {
                    true
                };
                set(cx, &mut self.destructive, (value, span), &key, span);
            }
            "confirm_if" => {
                if let Some(expr) = required_value(
                    cx,
                    &meta,
                    "`confirm_if` needs an expression over the tool's parameters, e.g. `confirm_if = *value != TrackerValue::Blank`",
                )? {
                    set(cx, &mut self.confirm_if, expr, &key, span);
                }
            }
            "timeout_ms" => {
                const EXPECTED: &str = "expected a number of milliseconds: an integer (`timeout_ms = 5000`) or a `u64` constant (`timeout_ms = DB_TIMEOUT_MS`)";
                match required_value(cx, &meta, EXPECTED)? {
                    Some(Expr::Lit(ExprLit {
                        lit: Lit::Int(lit), ..
                    })) => set(cx, &mut self.timeout_ms, Timeout::Literal(lit), &key, span),
                    Some(Expr::Lit(other)) => cx.error_spanned_by(other, EXPECTED),
                    Some(expr @ (Expr::Path(_) | Expr::Binary(_) | Expr::Paren(_))) => {
                        set(cx, &mut self.timeout_ms, Timeout::Const(expr), &key, span);
                    }
                    Some(other) => cx.error_spanned_by(other, EXPECTED),
                    None => {}
                }
            }
            "access" => {
                const EXPECTED: &str = "expected an access level: `access = self_only`, `access = system` or `access = trusted`";
                let Some(expr) = required_value(cx, &meta, EXPECTED)? else {
                    return Ok(());
                };
                let Expr::Path(path) = &expr else {
                    cx.error_spanned_by(&expr, EXPECTED);
                    return Ok(());
                };
                let Some(value) = path.path.get_ident() else {
                    cx.error_spanned_by(&expr, EXPECTED);
                    return Ok(());
                };
                let text = value.to_string();
                match ACCESS_LEVELS.iter().find(|(name, _)| *name == text) {
                    Some((_, variant)) => {
                        set(cx, &mut self.access, (*variant, value.span()), &key, span);
                    }
                    None => cx.error_at(
                        value.span(),
                        format!(
                            "unknown access level `{text}`; expected `self_only` (only the app's agent, the default), `system` or `trusted`"
                        ),
                    ),
                }
            }
            "example" => {
                if let Some(example) = parse_example(cx, &meta, span)? {
                    self.examples.push(example);
                }
            }
            "reply" => {
                if let Some(expr) = required_value(
                    cx,
                    &meta,
                    "`reply` needs a fn over the result data: `reply = describe_result` with `fn(&serde_json::Value) -> Option<String>`",
                )? {
                    set(cx, &mut self.reply, expr, &key, span);
                }
            }
            "undo" => {
                if let Some(expr) = required_value(
                    cx,
                    &meta,
                    "`undo` needs an async fn that reverses one journaled call: `undo = undo_add` with `async fn(UndoCall, Dep<T>) -> Result<T, E>`",
                )? {
                    set(cx, &mut self.undo, expr, &key, span);
                }
            }
            "crate" => {
                const EXPECTED: &str = "expected the path of `agent_core` as this crate names it: `crate = my_agent_core` or `crate = \"::my_agent_core\"`";
                let path = match required_value(cx, &meta, EXPECTED)? {
                    Some(Expr::Path(path)) if path.qself.is_none() => Some(path.path),
                    Some(Expr::Lit(ExprLit {
                        lit: Lit::Str(lit), ..
                    })) => match lit.parse::<syn::Path>() {
                        Ok(path) => Some(path),
                        Err(_) => {
                            cx.error_spanned_by(&lit, EXPECTED);
                            None
                        }
                    },
                    Some(other) => {
                        cx.error_spanned_by(other, EXPECTED);
                        None
                    }
                    None => None,
                };
                if let Some(path) = path {
                    set(cx, &mut self.krate, path, &key, span);
                }
            }
            other => {
                cx.error_at(span, unknown_key_message(other));
                return skip_value(&meta);
            }
        }
        Ok(())
    }
}

const SUMMARY_EXPECTED: &str = "expected a template string (`summary = \"'{framed_text}' 습관을 추가합니다\"`) or an expression over the parameters (`summary = describe(habit_id, date)`)";

/// The `= expr` of a key that needs one; a missing `=` is recorded with `expected`.
fn required_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    expected: &str,
) -> syn::Result<Option<Expr>> {
    if !meta.input.peek(syn::Token![=]) {
        cx.error_spanned_by(&meta.path, expected);
        return skip_value(meta).map(|()| None);
    }
    meta.value()?.parse().map(Some)
}

/// Consumes whatever follows a key (`= expr` or `(...)`), so parsing can go on after it.
pub(crate) fn skip_value(meta: &ParseNestedMeta<'_>) -> syn::Result<()> {
    if meta.input.peek(syn::Token![=]) {
        meta.value()?.parse::<Expr>()?;
    } else if meta.input.peek(syn::token::Paren) {
        meta.input.parse::<proc_macro2::Group>()?;
    }
    Ok(())
}

/// `example(request = "…", args = { "key": value, … })`; `args` may be left out for a tool
/// without arguments. `None` when the example is wrong (the error is in `cx`).
fn parse_example(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    span: Span,
) -> syn::Result<Option<ExampleAttr>> {
    if !meta.input.peek(syn::token::Paren) {
        cx.error_at(
            span,
            "write examples as `example(request = \"…\", args = { … })`",
        );
        return skip_value(meta).map(|()| None);
    }
    let mut request: Option<LitStr> = None;
    let mut args: Option<proc_macro2::Group> = None;
    let mut valid = true;
    meta.parse_nested_meta(|inner| {
        if inner.path.is_ident("request") {
            match string_value(cx, &inner, "request", "아침 운동 습관 찾아줘")? {
                Some(_) if request.is_some() => {
                    cx.error_spanned_by(&inner.path, "duplicate `request` in `example(...)`");
                }
                Some(lit) => request = Some(lit),
                None => valid = false,
            }
        } else if inner.path.is_ident("args") {
            let tree: proc_macro2::TokenTree = inner.value()?.parse()?;
            match tree {
                proc_macro2::TokenTree::Group(group)
                    if group.delimiter() == proc_macro2::Delimiter::Brace =>
                {
                    if args.is_some() {
                        cx.error_spanned_by(&inner.path, "duplicate `args` in `example(...)`");
                    } else {
                        args = Some(group);
                    }
                }
                other => {
                    valid = false;
                    cx.error_spanned_by(
                        other,
                        "expected a JSON object: `args = { \"keyword\": \"운동\" }`",
                    );
                }
            }
        } else {
            valid = false;
            cx.error_spanned_by(
                &inner.path,
                "unknown key in `example(...)`; expected `request = \"…\"` and `args = { … }`",
            );
            skip_value(&inner)?;
        }
        Ok(())
    })?;
    let Some(request) = request else {
        if valid {
            cx.error_at(
                span,
                "`example(...)` needs `request = \"…\"`: what a person would say",
            );
        }
        return Ok(None);
    };
    if request.value().trim().is_empty() {
        cx.error_spanned_by(&request, "the example's request is empty");
        return Ok(None);
    }
    let keys = match &args {
        Some(group) => match object_keys(group) {
            Ok(keys) => keys,
            Err(error) => {
                cx.syn_error(error);
                return Ok(None);
            }
        },
        None => Vec::new(),
    };
    Ok(valid.then_some(ExampleAttr {
        request,
        args,
        keys,
    }))
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

/// Keeps the first value of a key; a second one is an error at its own key (serde's
/// `Attr::set`).
fn set<T>(cx: &Ctxt, slot: &mut Option<T>, value: T, key: &str, span: Span) {
    if slot.is_some() {
        cx.error_at(
            span,
            format!("duplicate #[tool] argument `{key}`; give it once"),
        );
    } else {
        *slot = Some(value);
    }
}

/// The string literal after `key =`; a wrong value is recorded and gives `None`.
fn string_value(
    cx: &Ctxt,
    meta: &ParseNestedMeta<'_>,
    key: &str,
    example: &str,
) -> syn::Result<Option<LitStr>> {
    let needs = format!("`{key}` needs a value: `{key} = \"{example}\"`");
    match required_value(cx, meta, &needs)? {
        Some(Expr::Lit(ExprLit {
            lit: Lit::Str(lit), ..
        })) => Ok(Some(lit)),
        Some(other) => {
            cx.error_spanned_by(
                other,
                format!("expected a string literal: `{key} = \"{example}\"`"),
            );
            Ok(None)
        }
        None => Ok(None),
    }
}

fn unknown_key_message(key: &str) -> String {
    format!(
        "unknown #[tool] argument `{key}`{}; expected one of {}",
        suggest::did_you_mean(key, KEYS),
        suggest::listed(KEYS)
    )
}

fn path_text(path: &syn::Path) -> String {
    quote::quote!(#path).to_string().replace(' ', "")
}

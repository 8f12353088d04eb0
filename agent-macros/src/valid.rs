//! Checks on the parsed attribute and fn model, each reported at the span that is wrong,
//! all of them in one compile.

use proc_macro2::{Span, TokenStream, TokenTree};
use syn::spanned::Spanned;

use crate::ast::{Description, ToolFn};
use crate::attr::{Summary, Timeout, ToolAttr};
use crate::classify::ParamKind;
use crate::ctxt::Ctxt;

/// The tool name: `name = "…"` or the fn ident (without `r#`), with the span to blame.
pub(crate) fn tool_name(attr: &ToolAttr, tool: &ToolFn) -> (String, Span) {
    match &attr.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (tool.default_name(), tool.item.sig.ident.span()),
    }
}

pub(crate) fn check(cx: &Ctxt, attr: &ToolAttr, tool: &ToolFn) {
    check_signature(cx, tool);
    check_names(cx, tool);
    check_docs(cx, tool);
    check_attr(cx, attr, tool);
}

fn check_signature(cx: &Ctxt, tool: &ToolFn) {
    let sig = &tool.item.sig;
    if sig.asyncness.is_none() {
        cx.error_at(
            sig.fn_token.span(),
            "#[tool] fns must be `async`: write `async fn`",
        );
    }
    if sig.generics.params.is_empty()
        && let Some(where_clause) = &sig.generics.where_clause
    {
        cx.error_spanned_by(
            where_clause,
            "a `where` clause on a #[tool] fn is not supported: its parameter types are concrete already, so the bounds say nothing the compiler does not check; remove it",
        );
    } else if !sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &sig.generics,
            "generic #[tool] fns are not supported: a tool's JSON Schema must be known when the binary is built; use concrete types",
        );
    }
    if let Some(constness) = &sig.constness {
        cx.error_at(constness.span(), "#[tool] fns cannot be `const`");
    }
    if let Some(unsafety) = &sig.unsafety {
        cx.error_at(
            unsafety.span(),
            "#[tool] fns cannot be `unsafe`: a model must not be able to cause undefined behaviour",
        );
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, "#[tool] fns cannot have an explicit ABI");
    }
    if let Some(variadic) = &sig.variadic {
        cx.error_spanned_by(variadic, "#[tool] fns cannot be variadic");
    }
}

/// Two parameters with one Rust name are rustc's error (E0415, on the user's fn); two
/// arguments with one JSON name are ours, at the second.
fn check_names(cx: &Ctxt, tool: &ToolFn) {
    for (i, param) in tool.params.iter().enumerate() {
        let earlier = &tool.params[..i];
        if earlier.iter().any(|p| p.ident == param.ident) {
            cx.leave_to_rustc();
            continue;
        }
        if param.kind != ParamKind::Argument {
            continue;
        }
        if let Some(first) = earlier
            .iter()
            .find(|p| p.kind == ParamKind::Argument && p.json_name == param.json_name)
        {
            cx.error_at(
                param.json_span,
                format!(
                    "`{}` and `{}` both have the JSON name `{}`, so the model could not tell them apart; rename one with `#[serde(rename = \"…\")]`",
                    first.ident, param.ident, param.json_name
                ),
            );
        }
    }
}

fn check_docs(cx: &Ctxt, tool: &ToolFn) {
    let ident = &tool.item.sig.ident;
    let computed = crate::docs::computed_docs(&tool.item.attrs)
        .next()
        .is_some();
    if tool.description.trim().is_empty() && !computed {
        cx.error_at(
            ident.span(),
            format!(
                "tool `{ident}` has no description: add a `///` doc comment saying what it does; small models choose tools by these words"
            ),
        );
    }
    for param in tool.arguments() {
        if matches!(param.description, Description::Missing) {
            let rust_name = param.rust_name();
            let entry = if rust_name == param.json_name {
                format!("a `{rust_name}` entry")
            } else {
                format!("a `{}` (or `{rust_name}`) entry", param.json_name)
            };
            cx.error_at(
                param.ident.span(),
                format!(
                    "parameter `{}` has no description: add a `///` doc comment on it (or {entry} under `# Arguments` in the fn docs)",
                    param.ident
                ),
            );
        }
    }
    for (name, _) in &tool.arguments_docs {
        let names_one = tool
            .arguments()
            .any(|p| p.json_name == *name || p.rust_name() == *name);
        // rustdoc's convention documents every parameter, an injected one too: its entry is
        // for readers of the code, and the model never sees it.
        let injected = tool.injected().any(|p| p.rust_name() == *name);
        if !names_one && !injected {
            cx.error_at(
                ident.span(),
                format!("the `# Arguments` docs describe `{name}`, which is not a parameter of this tool"),
            );
        }
    }
}

fn check_attr(cx: &Ctxt, attr: &ToolAttr, tool: &ToolFn) {
    let (name, span) = tool_name(attr, tool);
    if !is_valid_tool_name(&name) {
        cx.error_at(
            span,
            format!("invalid tool name `{name}`: use 1 to 64 ASCII letters, digits, `_`, `-` or `.`, starting with a letter or `_`"),
        );
    }
    if let Some(label) = &attr.label
        && label.value().trim().is_empty()
    {
        cx.error_at(
            label.span(),
            "the label is empty: write the name people see, e.g. `label = \"습관 추가\"`",
        );
    }
    match &attr.summary {
        Some(summary) if !attr.is_destructive() => {
            let message = "`summary` is the sentence of a destructive call's confirmation, which this tool never asks for; add `destructive`, or describe the tool in its doc comment";
            match summary {
                Summary::Template(template) => cx.error_at(template.span(), message),
                Summary::Expr(expr) => cx.error_spanned_by(expr, message),
            }
        }
        Some(Summary::Template(template)) => check_summary(cx, template, tool),
        Some(Summary::Expr(expr)) => check_reads_arguments(cx, "summary", expr, tool),
        None => {}
    }
    if let Some(expr) = &attr.confirm_if {
        if attr.is_destructive() {
            check_reads_arguments(cx, "confirm_if", expr, tool);
            check_compares_references(cx, expr, tool);
        } else {
            cx.error_spanned_by(
                expr,
                "`confirm_if` decides which calls of a destructive tool need confirmation; add `destructive`",
            );
        }
    }
    if let Some(expr) = &attr.undo
        && !attr.is_destructive()
    {
        cx.error_spanned_by(
            expr,
            "`undo` reverses a call that changed something; only a destructive tool's calls are journaled and undone — add `destructive`",
        );
    }
    for example in &attr.examples {
        check_example(cx, example, tool);
    }
    if let Some(Timeout::Literal(timeout)) = &attr.timeout_ms {
        match timeout.base10_parse::<u64>() {
            Ok(0) => cx.error_at(timeout.span(), "`timeout_ms` must be greater than 0"),
            Ok(_) => {}
            Err(error) => cx.syn_error(error),
        }
    }
}

/// In `confirm_if`, each parameter is a reference to the argument: a comparison of a bare
/// parameter with a number, `bool` or `char` literal (`amount > 10_000`) never compiles, and
/// rustc says only "mismatched types". Said here, with what to write.
fn check_compares_references(cx: &Ctxt, expr: &syn::Expr, tool: &ToolFn) {
    use syn::{BinOp, Expr, ExprLit, Lit};
    let literal = |e: &Expr| {
        matches!(
            e,
            Expr::Lit(ExprLit {
                lit: Lit::Int(_) | Lit::Float(_) | Lit::Bool(_) | Lit::Char(_),
                ..
            })
        )
    };
    fn parameter<'e>(e: &'e Expr, tool: &ToolFn) -> Option<&'e syn::Ident> {
        let Expr::Path(path) = e else { return None };
        path.path
            .get_ident()
            .filter(|ident| tool.arguments().any(|p| p.ident == **ident))
    }
    match expr {
        Expr::Binary(binary) => {
            let compares = matches!(
                binary.op,
                BinOp::Eq(_)
                    | BinOp::Ne(_)
                    | BinOp::Lt(_)
                    | BinOp::Le(_)
                    | BinOp::Gt(_)
                    | BinOp::Ge(_)
            );
            let bare = if literal(&binary.right) {
                parameter(&binary.left, tool)
            } else if literal(&binary.left) {
                parameter(&binary.right, tool)
            } else {
                None
            };
            if let (true, Some(ident)) = (compares, bare) {
                cx.error_at(
                    ident.span(),
                    format!(
                        "in `confirm_if` each parameter is a reference to its argument: compare `*{ident}`, not `{ident}`, with a literal"
                    ),
                );
            }
            check_compares_references(cx, &binary.left, tool);
            check_compares_references(cx, &binary.right, tool);
        }
        Expr::Paren(paren) => check_compares_references(cx, &paren.expr, tool),
        Expr::Unary(unary) => check_compares_references(cx, &unary.expr, tool),
        _ => {}
    }
}

/// `summary = expr` and `confirm_if = expr` see the call's arguments only: a name of an
/// injected parameter in them is an error here, not "cannot find value" in generated code.
fn check_reads_arguments(cx: &Ctxt, key: &str, expr: &syn::Expr, tool: &ToolFn) {
    let tokens = quote::ToTokens::to_token_stream(expr);
    let mut seen = Vec::new();
    for ident in free_idents(tokens) {
        if seen.contains(&ident.to_string()) {
            continue;
        }
        if let Some(param) = tool.injected().find(|p| p.ident == ident) {
            seen.push(ident.to_string());
            cx.error_at(
                ident.span(),
                format!(
                    "`{key}` cannot read `{}`, an injected dependency: it is computed from the call's arguments alone (before the tool runs); {}",
                    param.ident,
                    arguments_listed(tool)
                ),
            );
        }
    }
}

/// The identifiers of an expression that could name a local: not after `.` (fields and
/// methods) or `::` (paths), not followed by `::` or `!`.
fn free_idents(tokens: TokenStream) -> Vec<proc_macro2::Ident> {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        match token {
            TokenTree::Group(group) => out.extend(free_idents(group.stream())),
            TokenTree::Ident(ident) => {
                let after_punct = |c: char| {
                    i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == c)
                };
                let before_punct = |c: char| matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == c);
                if !after_punct('.')
                    && !after_punct(':')
                    && !before_punct(':')
                    && !before_punct('!')
                {
                    out.push(ident.clone());
                }
            }
            _ => {}
        }
    }
    out
}

fn arguments_listed(tool: &ToolFn) -> String {
    let arguments: Vec<String> = tool
        .arguments()
        .map(|p| format!("`{}`", p.json_name))
        .collect();
    if arguments.is_empty() {
        "this tool has no arguments".to_owned()
    } else {
        format!("the arguments are {}", arguments.join(", "))
    }
}

/// An example's keys must name arguments of the tool, each once. (Whether its values satisfy
/// the schema is checked when the registry is built.)
fn check_example(cx: &Ctxt, example: &crate::attr::ExampleAttr, tool: &ToolFn) {
    let mut seen: Vec<String> = Vec::new();
    for key in &example.keys {
        let name = key.value();
        if seen.contains(&name) {
            cx.error_at(
                key.span(),
                format!("`{name}` is given twice in this example"),
            );
        } else if !tool.arguments().any(|p| p.json_name == name) {
            let renamed = tool.arguments().find(|p| p.rust_name() == name);
            let hint = match renamed {
                Some(param) => format!(
                    "; `{}` is sent as `{}` (its `#[serde(rename)]`)",
                    param.ident, param.json_name
                ),
                None => format!("; {}", arguments_listed(tool)),
            };
            cx.error_at(
                key.span(),
                format!("the example sets `{name}`, which is not an argument of this tool{hint}"),
            );
        }
        seen.push(name);
    }
}

/// Every `{placeholder}` must name an argument of the tool, by its JSON name (what the
/// runtime's template reads).
fn check_summary(cx: &Ctxt, summary: &syn::LitStr, tool: &ToolFn) {
    let text = summary.value();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
            }
            '{' => {
                let mut name = String::new();
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '}' {
                        closed = true;
                        break;
                    }
                    name.push(c);
                }
                let name = name.trim();
                let rust_name = |p: &&crate::ast::Param| p.rust_name() == name;
                if !closed {
                    cx.error_at(summary.span(), format!("unclosed placeholder `{{{name}` in summary; write `{{{{` for a literal brace"));
                } else if tool.arguments().any(|p| p.json_name == name) {
                    // Fine.
                } else if let Some(param) = tool.injected().find(rust_name) {
                    cx.error_at(
                        summary.span(),
                        format!("summary placeholder `{{{name}}}` names `{}`, an injected dependency, not an argument; {}", param.ident, arguments_listed(tool)),
                    );
                } else if let Some(param) = tool.arguments().find(rust_name) {
                    cx.error_at(
                        summary.span(),
                        format!("summary placeholder `{{{name}}}` uses the Rust name of `{}`; placeholders use the JSON name: write `{{{}}}`", param.ident, param.json_name),
                    );
                } else {
                    cx.error_at(
                        summary.span(),
                        format!(
                            "unknown summary placeholder `{{{name}}}`; {}",
                            arguments_listed(tool)
                        ),
                    );
                }
            }
            '}' => cx.error_at(
                summary.span(),
                "unmatched `}` in summary; write `}}` for a literal brace",
            ),
            _ => {}
        }
    }
}

/// `[a-zA-Z_][a-zA-Z0-9_.-]{0,63}` (the same rule the runtime applies: MCP's characters).
fn is_valid_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

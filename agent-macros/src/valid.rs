//! Checks on the parsed attribute and fn model, each reported at the span that is wrong,
//! all of them in one compile.

use proc_macro2::Span;
use syn::spanned::Spanned;

use crate::ast::{Errors, ParamKind, ToolFn};
use crate::attr::{Summary, ToolAttr};

/// The tool name: `name = "…"` or the fn ident (without `r#`), with the span to blame.
pub(crate) fn tool_name(attr: &ToolAttr, tool: &ToolFn) -> (String, Span) {
    match &attr.name {
        Some(lit) => (lit.value(), lit.span()),
        None => (
            tool.item
                .sig
                .ident
                .to_string()
                .trim_start_matches("r#")
                .to_owned(),
            tool.item.sig.ident.span(),
        ),
    }
}

pub(crate) fn check(attr: &ToolAttr, tool: &ToolFn, errors: &mut Errors) {
    check_signature(tool, errors);
    check_docs(tool, errors);
    check_attr(attr, tool, errors);
}

fn check_signature(tool: &ToolFn, errors: &mut Errors) {
    let sig = &tool.item.sig;
    if sig.asyncness.is_none() {
        errors.at(
            sig.fn_token.span(),
            "#[tool] fns must be `async`: write `async fn`",
        );
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.spanned(
            &sig.generics,
            "generic #[tool] fns are not supported: a tool's JSON Schema must be known when the binary is built; use concrete types",
        );
    }
    if let Some(constness) = &sig.constness {
        errors.at(constness.span(), "#[tool] fns cannot be `const`");
    }
    if let Some(unsafety) = &sig.unsafety {
        errors.at(
            unsafety.span(),
            "#[tool] fns cannot be `unsafe`: a model must not be able to cause undefined behaviour",
        );
    }
    if let Some(abi) = &sig.abi {
        errors.spanned(abi, "#[tool] fns cannot have an explicit ABI");
    }
    if let Some(variadic) = &sig.variadic {
        errors.spanned(variadic, "#[tool] fns cannot be variadic");
    }
}

fn check_docs(tool: &ToolFn, errors: &mut Errors) {
    let ident = &tool.item.sig.ident;
    if tool.description.trim().is_empty() {
        errors.at(
            ident.span(),
            format!(
                "tool `{ident}` has no description: add a `///` doc comment saying what it does; small models choose tools by these words"
            ),
        );
    }
    for param in tool.arguments() {
        if param.description.is_none() {
            errors.at(
                param.ident.span(),
                format!(
                    "parameter `{}` has no description: add a `///` doc comment on it (or a `{}` entry under `# Arguments` in the fn docs)",
                    param.ident, param.wire_name
                ),
            );
        }
    }
    for (name, _) in &tool.arguments_docs {
        if !tool.arguments().any(|p| p.wire_name == *name) {
            errors.at(
                ident.span(),
                format!("the `# Arguments` docs describe `{name}`, which is not a parameter of this tool"),
            );
        }
    }
}

fn check_attr(attr: &ToolAttr, tool: &ToolFn, errors: &mut Errors) {
    let (name, span) = tool_name(attr, tool);
    if !is_valid_tool_name(&name) {
        errors.at(
            span,
            format!("invalid tool name `{name}`: use 1 to 64 ASCII letters, digits or `_`, not starting with a digit"),
        );
    }
    if let Some(label) = &attr.label
        && label.value().trim().is_empty()
    {
        errors.at(
            label.span(),
            "the label is empty: write the name people see, e.g. `label = \"습관 추가\"`",
        );
    }
    if let Some(Summary::Template(template)) = &attr.summary {
        check_summary(template, tool, errors);
    }
    if let Some(expr) = &attr.confirm_if
        && !attr.is_destructive()
    {
        errors.spanned(
            expr,
            "`confirm_if` decides which calls of a destructive tool need confirmation; add `destructive`",
        );
    }
    for example in &attr.examples {
        check_example(example, tool, errors);
    }
    if let Some(timeout) = &attr.timeout_ms {
        match timeout.base10_parse::<u64>() {
            Ok(0) => errors.at(timeout.span(), "`timeout_ms` must be greater than 0"),
            Ok(_) => {}
            Err(error) => errors.push(error),
        }
    }
}

/// An example's keys must name arguments of the tool, each once. (Whether its values satisfy
/// the schema is checked when the registry is built.)
fn check_example(example: &crate::attr::ExampleAttr, tool: &ToolFn, errors: &mut Errors) {
    let arguments: Vec<&str> = tool.arguments().map(|p| p.wire_name.as_str()).collect();
    let mut seen: Vec<String> = Vec::new();
    for key in &example.keys {
        let name = key.value();
        if seen.contains(&name) {
            errors.at(
                key.span(),
                format!("`{name}` is given twice in this example"),
            );
        } else if !arguments.contains(&name.as_str()) {
            let listed = if arguments.is_empty() {
                "this tool has no arguments".to_owned()
            } else {
                format!(
                    "the arguments are {}",
                    arguments
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            errors.at(
                key.span(),
                format!(
                    "the example sets `{name}`, which is not an argument of this tool; {listed}"
                ),
            );
        }
        seen.push(name);
    }
}

/// Every `{placeholder}` must name an argument of the tool.
fn check_summary(summary: &syn::LitStr, tool: &ToolFn, errors: &mut Errors) {
    let arguments: Vec<&str> = tool.arguments().map(|p| p.wire_name.as_str()).collect();
    let listed = || {
        if arguments.is_empty() {
            "this tool has no arguments".to_owned()
        } else {
            let names = arguments
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>();
            format!("the arguments are {}", names.join(", "))
        }
    };
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
                if !closed {
                    errors.at(summary.span(), format!("unclosed placeholder `{{{name}` in summary; write `{{{{` for a literal brace"));
                } else if let Some(param) = tool
                    .params
                    .iter()
                    .find(|p| p.wire_name == name && p.kind == ParamKind::Injected)
                {
                    errors.at(
                        summary.span(),
                        format!("summary placeholder `{{{name}}}` names `{}`, an injected dependency, not an argument; {}", param.ident, listed()),
                    );
                } else if !arguments.contains(&name) {
                    errors.at(
                        summary.span(),
                        format!("unknown summary placeholder `{{{name}}}`; {}", listed()),
                    );
                }
            }
            '}' => errors.at(
                summary.span(),
                "unmatched `}` in summary; write `}}` for a literal brace",
            ),
            _ => {}
        }
    }
}

/// `[a-zA-Z_][a-zA-Z0-9_]{0,63}` (the same rule the runtime applies).
fn is_valid_tool_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.len() <= 64
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

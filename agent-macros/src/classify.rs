//! The one place that decides what a parameter or a return type is (rig's
//! `tool/classify.rs`).
//!
//! A macro sees tokens, not types, so it cannot know that `CoachDep` is an alias of
//! `Dep<Coach>` or that `model::Dep` is not agent_core's. Matching any path whose last
//! segment is `Dep` (what this crate once did) steals application types that happen to share
//! the name, and misses aliases. So:
//!
//! - **Injected** is decided by a marker or the real path: a parameter marked `#[dep]`, or
//!   typed `Dep<…>` (the name as `agent_core` exports it, imported) or `agent_core::Dep<…>` /
//!   `<crate>::Dep<…>` with the `crate = …` override. Everything else — `model::Dep`, an alias
//!   without `#[dep]` — is an ordinary argument. The type system then checks the decision both
//!   ways, on that parameter's type, so a wrong guess is one compile error, never a silent
//!   misreading: an injected parameter must implement `Injected` (only `Dep<T>` does), and an
//!   argument must not be a `Dep` — `Dep<T>: JsonSchema` requires a trait no type implements,
//!   whose message says to mark the parameter `#[dep]` (agent-core's `tool/deps.rs`).
//! - **The return type** is not decided here at all: the generated handler lets the type
//!   system pick the conversion (see agent-core's `tool/returns.rs`), so `HabitResult<T>`
//!   behaves as the `Result` it is. The spelling only picks which compile error explains a
//!   return type that converts to nothing.

use syn::{GenericArgument, PathArguments, Type};

/// What a parameter is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum ParamKind {
    /// Part of the schema: the model provides it.
    Argument,
    /// A `Dep<T>`: the runtime injects it.
    Injected,
}

/// Decides a parameter's kind from its `#[dep]` marker and its type as written.
pub(crate) fn param_kind(ty: &Type, marked: bool, krate: &syn::Path) -> ParamKind {
    if marked || is_agent_dep(ty, krate) {
        ParamKind::Injected
    } else {
        ParamKind::Argument
    }
}

/// `Option<Dep<…>>` (or `Option<agent_core::Dep<…>>`): a dependency cannot be optional.
pub(crate) fn optional_dep<'a>(ty: &'a Type, krate: &syn::Path) -> Option<&'a Type> {
    let inner = single_generic(ty, "Option")?;
    is_agent_dep(inner, krate).then_some(inner)
}

/// `()`: a parameter that carries no value.
pub(crate) fn is_unit(ty: &Type) -> bool {
    matches!(peel(ty), Type::Tuple(tuple) if tuple.elems.is_empty())
}

/// What a fn's return type looks like, which only chooses the wording of an error.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum ReturnSpelling {
    /// Written `Result<…>`, `ToolResult` or a path ending in them.
    ResultLike,
    /// Anything else.
    Plain,
}

pub(crate) fn return_spelling(ty: &Type) -> ReturnSpelling {
    match peel(ty) {
        Type::Path(path)
            if path
                .path
                .segments
                .last()
                .is_some_and(|s| s.ident == "Result" || s.ident == "ToolResult") =>
        {
            ReturnSpelling::ResultLike
        }
        _ => ReturnSpelling::Plain,
    }
}

/// `Dep<…>` as agent_core exports it: a single segment `Dep` (imported), or a path rooted at
/// `agent_core` (or the `crate = …` override) whose last segment is `Dep`.
fn is_agent_dep(ty: &Type, krate: &syn::Path) -> bool {
    let Type::Path(path) = peel(ty) else {
        return false;
    };
    if path.qself.is_some() {
        return false;
    }
    let segments: Vec<String> = path
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    if segments.last().map(String::as_str) != Some("Dep") {
        return false;
    }
    if segments.len() == 1 {
        return path.path.leading_colon.is_none();
    }
    let root: Vec<String> = krate.segments.iter().map(|s| s.ident.to_string()).collect();
    let prefix = &segments[..segments.len() - 1];
    prefix == root.as_slice() || prefix == ["agent_core"]
}

/// The `T` of `Name<T>` (by last segment).
fn single_generic<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(path) = peel(ty) else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(inner) if args.args.len() == 1 => Some(inner),
        _ => None,
    }
}

/// Grouping (`Group`/`Paren`) wrappers off a type.
fn peel(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => peel(&group.elem),
        Type::Paren(paren) => peel(&paren.elem),
        ty => ty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(ty: &str) -> ParamKind {
        let ty: Type = syn::parse_str(ty).expect("type");
        let krate: syn::Path = syn::parse_str("agent_core").expect("path");
        param_kind(&ty, false, &krate)
    }

    #[test]
    fn only_agent_cores_dep_is_injected() {
        assert_eq!(kind("Dep<Coach>"), ParamKind::Injected);
        assert_eq!(kind("agent_core::Dep<Coach>"), ParamKind::Injected);
        assert_eq!(kind("::agent_core::Dep<Coach>"), ParamKind::Injected);
        assert_eq!(kind("model::Dep"), ParamKind::Argument);
        assert_eq!(kind("crate::model::Dep<u8>"), ParamKind::Argument);
        assert_eq!(kind("CoachDep"), ParamKind::Argument);
        assert_eq!(kind("Option<Dep<Coach>>"), ParamKind::Argument);
    }

    #[test]
    fn return_spelling_only_names_the_error() {
        let spelled = |ty: &str| return_spelling(&syn::parse_str(ty).expect("type"));
        assert!(spelled("Result<u8, ToolError>") == ReturnSpelling::ResultLike);
        assert!(spelled("std::io::Result<u8>") == ReturnSpelling::ResultLike);
        assert!(spelled("HabitResult<u8>") == ReturnSpelling::Plain);
    }
}

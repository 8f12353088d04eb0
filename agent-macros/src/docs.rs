//! Doc comments: the tool's description, and parameter descriptions from a rustdoc
//! `# Arguments` list.
//!
//! A parameter is described by its own `///` comment, or by an entry of the fn's
//! `# Arguments` section (`` * `name` - description `` or `- name: description`). The section
//! itself is left out of the tool description the model reads.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

/// The text of every `#[doc = "…"]` (`///` and `/** */`) attribute, one entry per line.
pub(crate) fn doc_lines(attrs: &[Attribute]) -> Vec<String> {
    let mut lines = Vec::new();
    for attr in attrs {
        if let Meta::NameValue(nv) = &attr.meta
            && nv.path.is_ident("doc")
            && let Expr::Lit(ExprLit {
                lit: Lit::Str(text),
                ..
            }) = &nv.value
        {
            lines.extend(text.value().lines().map(str::to_owned));
        }
    }
    lines
}

/// The `#[doc = …]` attributes whose value is not a string literal (`include_str!(…)`,
/// `concat!(…)`): their text is not known yet when `#[tool]` expands, so it cannot be the
/// description or be checked.
pub(crate) fn computed_docs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|attr| {
        matches!(&attr.meta, Meta::NameValue(nv)
            if nv.path.is_ident("doc")
                && !matches!(&nv.value, Expr::Lit(ExprLit { lit: Lit::Str(_), .. })))
    })
}

/// Joins doc lines into text: the indentation they share is removed (rustdoc's leading
/// space), blank lines at either end dropped.
pub(crate) fn to_text(lines: &[String]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let lines: Vec<&str> = lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end())
        .collect();
    lines.join("\n").trim_matches('\n').to_owned()
}

/// A fn's docs split into the tool description and its `# Arguments` entries.
pub(crate) struct FnDocs {
    pub(crate) description: String,
    pub(crate) arguments: Vec<(String, String)>,
}

pub(crate) fn split_arguments(text: &str) -> FnDocs {
    let mut description = Vec::new();
    let mut arguments: Vec<(String, String)> = Vec::new();
    let mut in_arguments = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if let Some(heading) = trimmed.strip_prefix('#') {
            let heading = heading.trim_start_matches('#').trim();
            in_arguments = heading.eq_ignore_ascii_case("arguments")
                || heading.eq_ignore_ascii_case("parameters");
            if in_arguments {
                continue;
            }
        }
        if !in_arguments {
            description.push(line);
            continue;
        }
        if let Some(item) = trimmed
            .strip_prefix("* ")
            .or_else(|| trimmed.strip_prefix("- "))
            .or_else(|| trimmed.strip_prefix("+ "))
        {
            if let Some(entry) = parse_item(item) {
                arguments.push(entry);
            }
        } else if !trimmed.is_empty()
            && let Some((_, text)) = arguments.last_mut()
        {
            // A continuation line of the previous entry.
            text.push(' ');
            text.push_str(trimmed);
        }
    }
    FnDocs {
        description: description.join("\n").trim().to_owned(),
        arguments,
    }
}

/// `` `name` - text ``, `name: text`, `` `name`: text ``, `name — text`.
fn parse_item(item: &str) -> Option<(String, String)> {
    let (name, rest) = if let Some(rest) = item.strip_prefix('`') {
        let end = rest.find('`')?;
        (&rest[..end], &rest[end + 1..])
    } else {
        let end = item.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
        (&item[..end], &item[end..])
    };
    let text = rest
        .trim_start()
        .trim_start_matches([':', '-', '—', '–'])
        .trim();
    (!name.is_empty() && !text.is_empty()).then(|| (name.to_owned(), text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_sections_are_split_out() {
        let docs = split_arguments(
            "Adds a habit.\n\nMore text.\n\n# Arguments\n\n* `protocol_id` - the catalog id\n  (e.g. build.walk)\n- frame_level: 1 to 3\n\n# Errors\n\nNone.",
        );
        assert_eq!(
            docs.description,
            "Adds a habit.\n\nMore text.\n\n# Errors\n\nNone."
        );
        assert_eq!(
            docs.arguments,
            vec![
                (
                    "protocol_id".to_owned(),
                    "the catalog id (e.g. build.walk)".to_owned()
                ),
                ("frame_level".to_owned(), "1 to 3".to_owned()),
            ]
        );
    }

    #[test]
    fn shared_indentation_is_removed() {
        let lines = vec![" first".to_owned(), "".to_owned(), "   indented".to_owned()];
        assert_eq!(to_text(&lines), "first\n\n  indented");
    }
}

//! Confirmation summaries: the one line a human reads before approving a destructive call,
//! e.g. `'아침 7시에 10분 걷기' 습관을 추가합니다`.
//!
//! A summary is a template with `{param}` placeholders (checked at compile time by `#[tool]`,
//! and again when the definition is built), a custom function, or — when a tool gives
//! neither — a readable default listing the arguments: `protocol_id: build.walk, frame_level: 2`.

use std::sync::Arc;

use serde_json::Value;

/// How a tool's summary is produced.
#[derive(Clone)]
pub(crate) enum Summary {
    Default,
    Template(Arc<SummaryTemplate>),
    Custom(Arc<dyn Fn(&Value) -> String + Send + Sync>),
}

impl Summary {
    pub(crate) fn render(&self, parameters: &Value, args: &Value) -> String {
        match self {
            Self::Default => default_summary(parameters, args),
            Self::Template(template) => template.render(args),
            Self::Custom(summarize) => summarize(args),
        }
    }
}

/// A parsed summary template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SummaryTemplate {
    segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Text(String),
    Arg(String),
}

impl SummaryTemplate {
    /// Parses `template`; every placeholder must name a property of `parameters`.
    pub(crate) fn parse(template: &str, parameters: &Value) -> Result<Self, String> {
        let known = parameters.get("properties").and_then(Value::as_object);
        let mut segments = Vec::new();
        let mut text = String::new();
        let mut chars = template.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '{' if chars.peek() == Some(&'{') => {
                    chars.next();
                    text.push('{');
                }
                '}' if chars.peek() == Some(&'}') => {
                    chars.next();
                    text.push('}');
                }
                '{' => {
                    let mut name = String::new();
                    loop {
                        match chars.next() {
                            Some('}') => break,
                            Some(c) => name.push(c),
                            None => return Err(format!("unclosed placeholder `{{{name}`")),
                        }
                    }
                    let name = name.trim().to_owned();
                    if !known.is_some_and(|props| props.contains_key(&name)) {
                        return Err(format!("placeholder `{{{name}}}` names no parameter"));
                    }
                    if !text.is_empty() {
                        segments.push(Segment::Text(std::mem::take(&mut text)));
                    }
                    segments.push(Segment::Arg(name));
                }
                '}' => return Err("unmatched `}`; write `}}` for a literal brace".into()),
                c => text.push(c),
            }
        }
        if !text.is_empty() {
            segments.push(Segment::Text(text));
        }
        Ok(Self { segments })
    }

    pub(crate) fn render(&self, args: &Value) -> String {
        let mut out = String::new();
        for segment in &self.segments {
            match segment {
                Segment::Text(text) => out.push_str(text),
                Segment::Arg(name) => out.push_str(&display_value(args.get(name))),
            }
        }
        out
    }
}

/// Renders one argument for a human: strings as they are, absent values as `-`, anything
/// else as compact JSON.
pub(crate) fn display_value(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) => "-".to_owned(),
        Some(Value::String(text)) => text.clone(),
        Some(other) => other.to_string(),
    }
}

/// `name: value, name: value` over the arguments present, in schema order.
fn default_summary(parameters: &Value, args: &Value) -> String {
    let Some(args) = args.as_object() else {
        return String::new();
    };
    let schema_order = parameters
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|props| props.keys());
    let extra = args.keys().filter(|key| {
        !parameters
            .get("properties")
            .and_then(Value::as_object)
            .is_some_and(|props| props.contains_key(*key))
    });
    schema_order
        .chain(extra)
        .filter_map(|key| match args.get(key) {
            None | Some(Value::Null) => None,
            value => Some(format!("{key}: {}", display_value(value))),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn params() -> Value {
        json!({"type": "object", "properties": {
            "framed_text": {"type": "string"},
            "frame_level": {"type": "integer"},
            "anchor_when": {"type": "string"}
        }})
    }

    #[test]
    fn templates_interpolate_arguments() {
        let template = SummaryTemplate::parse(
            "'{framed_text}' 습관을 추가합니다 ({frame_level}단계, {anchor_when}) {{x}}",
            &params(),
        )
        .unwrap();
        let rendered = template.render(&json!({"framed_text": "아침에 걷기", "frame_level": 2}));
        assert_eq!(rendered, "'아침에 걷기' 습관을 추가합니다 (2단계, -) {x}");
    }

    #[test]
    fn bad_templates_are_explained() {
        let err = SummaryTemplate::parse("{nope}", &params()).unwrap_err();
        assert!(err.contains("`{nope}`"), "{err}");
        assert!(
            SummaryTemplate::parse("{framed_text", &params())
                .unwrap_err()
                .contains("unclosed")
        );
        assert!(
            SummaryTemplate::parse("a } b", &params())
                .unwrap_err()
                .contains("`}}`")
        );
    }

    #[test]
    fn default_summary_lists_present_arguments_in_schema_order() {
        let args = json!({"anchor_when": "아침", "framed_text": "걷기", "extra": [1], "frame_level": null});
        assert_eq!(
            default_summary(&params(), &args),
            "framed_text: 걷기, anchor_when: 아침, extra: [1]"
        );
        assert_eq!(default_summary(&params(), &json!({})), "");
    }
}

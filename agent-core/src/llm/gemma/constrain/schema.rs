//! From a tool's JSON Schema to the [`Node`] of its arguments, in a format's own syntax — and
//! the way back: rendering arguments in that syntax (for few-shot examples) and parsing what
//! the model wrote.
//!
//! An [`ArgStyle`] is a format's surface: how the argument list opens and closes, how a key
//! is written, what separates arguments, how a string is delimited, how `true` is spelled.
//! Nested objects and arrays are written as JSON in every style.
//!
//! Supported schema keywords: `type` (object, string, integer, number, boolean, array, and
//! nullable unions, whose `null` is never written), `properties` in their declared order,
//! `required`, `enum`, `const`, `anyOf`/`oneOf`, `minLength`/`maxLength`, `minimum`/`maximum`
//! (integers), `format: date`, `minItems`/`maxItems` (up to four items are unrolled; an array
//! of scalars that declares no `maxItems` holds at most `DEFAULT_MAX_ITEMS`), and free-form
//! objects (no `properties`) among the arguments, whose keys and text values are stretches
//! of the request (nested ones are `{}`). Other constraints (patterns,
//! number bounds) are left to the validation gate after decoding.
//!
//! Arguments the app restricts at run time ([`ParamValues`], from value providers) replace
//! the parameter's own schema with the list of allowed values.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::node::{DEFAULT_MAX_CHARS, Node, StrSpec};
use crate::tool::schema::{admits_type, is_free_object};

/// The allowed values of restricted parameters of one tool, by parameter name.
pub(crate) type ParamValues = BTreeMap<String, Vec<Value>>;

/// A format's argument syntax; see the module doc.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArgStyle {
    /// Opens the argument list: `{`, `(`.
    pub(crate) open: &'static str,
    /// Closes it: `}`, `)`.
    pub(crate) close: &'static str,
    /// Before a key: `"` in JSON.
    pub(crate) key_before: &'static str,
    /// After a key: `":`, `=`, `:`.
    pub(crate) key_after: &'static str,
    /// Between two arguments: `,`, `, `.
    pub(crate) separator: &'static str,
    /// Opens a top-level string value.
    pub(crate) string_open: &'static str,
    /// Closes it.
    pub(crate) string_close: &'static str,
    /// Characters a top-level string may not contain unescaped.
    pub(crate) string_forbid: &'static [char],
    /// Whether top-level strings use JSON escapes.
    pub(crate) string_escapes: bool,
    /// `true` / `True`.
    pub(crate) true_text: &'static str,
    /// `false` / `False`.
    pub(crate) false_text: &'static str,
}

impl ArgStyle {
    /// JSON: `{"keyword":"운동","limit":3}`.
    pub(crate) const JSON: Self = Self {
        open: "{",
        close: "}",
        key_before: "\"",
        key_after: "\":",
        separator: ",",
        string_open: "\"",
        string_close: "\"",
        string_forbid: &['"', '\\'],
        string_escapes: true,
        true_text: "true",
        false_text: "false",
    };

    fn string_spec(&self, min: u32, max: u32) -> StrSpec {
        StrSpec {
            min,
            max,
            forbid: self.string_forbid,
            escapes: self.string_escapes,
        }
    }

    /// Renders one top-level value exactly as [`arguments`] admits it.
    pub(crate) fn render_value(&self, value: &Value) -> String {
        match value {
            Value::String(text) if self.string_escapes => {
                let json = Value::String(text.clone()).to_string();
                let inner = json
                    .get(1..json.len().saturating_sub(1))
                    .unwrap_or_default();
                format!("{}{inner}{}", self.string_open, self.string_close)
            }
            Value::String(text) => format!("{}{text}{}", self.string_open, self.string_close),
            Value::Bool(true) => self.true_text.to_owned(),
            Value::Bool(false) => self.false_text.to_owned(),
            other => other.to_string(),
        }
    }

    /// Renders an argument object in schema order (keys the schema does not know last).
    pub(crate) fn render_arguments(&self, schema: &Value, args: &Value) -> String {
        let empty = Map::new();
        let args = args.as_object().unwrap_or(&empty);
        let mut keys: Vec<&String> = properties(schema)
            .map(|(key, _)| key)
            .filter(|key| args.get(*key).is_some_and(|v| !v.is_null()))
            .collect();
        let extra: Vec<&String> = args
            .keys()
            .filter(|key| !keys.contains(key) && !args[*key].is_null())
            .collect();
        keys.extend(extra);
        let mut out = String::from(self.open);
        for (i, key) in keys.iter().enumerate() {
            if i > 0 {
                out.push_str(self.separator);
            }
            out.push_str(self.key_before);
            out.push_str(key);
            out.push_str(self.key_after);
            out.push_str(&self.render_value(&args[*key]));
        }
        out.push_str(self.close);
        out
    }
}

fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
}

fn required(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Parameters whose text is copied from a source, and the source.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Copies<'a> {
    /// The parameters.
    pub(crate) params: &'a [String],
    /// The text they copy from.
    pub(crate) source: &'a str,
    /// Per parameter, a narrower text it copies from instead (NUL where words are blanked).
    pub(crate) narrowed: Option<&'a std::collections::BTreeMap<String, String>>,
}

impl<'a> Copies<'a> {
    /// The text parameter `key` copies from.
    fn source_of(&self, key: &str) -> &'a str {
        self.narrowed
            .and_then(|narrowed| narrowed.get(key))
            .map_or(self.source, String::as_str)
    }
}

/// The node of a whole argument list: `open`, the properties in schema order (required ones
/// always, optional ones or not), separators between them, `close`. Restricted parameters
/// take one of their `values` (an optional one with none is left out); string parameters in
/// `copies` a stretch of its source.
pub(crate) fn arguments(schema: &Value, style: &ArgStyle, values: &ParamValues) -> Node {
    arguments_with(schema, style, values, Copies::default())
}

/// [`arguments`], with copied parameters.
pub(crate) fn arguments_with(
    schema: &Value,
    style: &ArgStyle,
    values: &ParamValues,
    copies: Copies<'_>,
) -> Node {
    let required = required(schema);
    let entries: Vec<(Node, bool)> = properties(schema)
        // An optional parameter with no allowed value this turn is left out.
        .filter(|(key, _)| {
            required.contains(&key.as_str()) || values.get(*key).is_none_or(|v| !v.is_empty())
        })
        .map(|(key, prop)| {
            let copied = copies.params.iter().any(|p| p == key) && is_string(prop);
            let value = match values.get(key).filter(|allowed| !allowed.is_empty()) {
                Some(allowed) => Node::alt(
                    allowed
                        .iter()
                        .map(|v| Node::lit(style.render_value(v)))
                        .collect(),
                ),
                None if is_free_object(prop) => free_object_node(prop, copies.source),
                None if copied => {
                    let max = prop
                        .get("maxLength")
                        .and_then(Value::as_u64)
                        .map_or(DEFAULT_MAX_CHARS, |n| u32::try_from(n).unwrap_or(u32::MAX));
                    Node::seq(vec![
                        Node::lit(style.string_open),
                        Node::copy(copies.source_of(key), &style.string_spec(1, max)),
                        Node::lit(style.string_close),
                    ])
                }
                None => value_node(prop, Some(style)),
            };
            let entry = Node::seq(vec![
                Node::lit(style.key_before),
                Node::lit(key.as_str()),
                Node::lit(style.key_after),
                value,
            ]);
            (entry, required.contains(&key.as_str()))
        })
        .collect();
    Node::seq(vec![
        Node::lit(style.open),
        entry_list(&entries, style.separator),
        Node::lit(style.close),
    ])
}

/// `entries` in order, each present (required) or optional, with `separator` between the
/// present ones. Built by choosing the first present entry — every entry before it must be
/// optional — which keeps the tree quadratic in the number of entries rather than
/// exponential.
fn entry_list(entries: &[(Node, bool)], separator: &str) -> Node {
    let mut firsts = Vec::new();
    for (i, (entry, is_required)) in entries.iter().enumerate() {
        let mut seq = vec![entry.clone()];
        for (later, later_required) in &entries[i + 1..] {
            let item = Node::seq(vec![Node::lit(separator), later.clone()]);
            seq.push(if *later_required {
                item
            } else {
                Node::Opt(Box::new(item))
            });
        }
        firsts.push(Node::seq(seq));
        if *is_required {
            return Node::alt(firsts);
        }
    }
    // Every entry is optional: none at all is fine too.
    firsts.push(Node::lit(""));
    Node::alt(firsts)
}

/// Whether a property is a string (or a nullable one).
fn is_string(schema: &Value) -> bool {
    match schema.get("type") {
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        _ => false,
    }
}

/// Integer ranges up to this size are written as alternatives, which lets forced-text
/// detection see single choices.
const ENUMERATED_RANGE: i64 = 32;
/// The most items of an array whose schema declares no `maxItems`.
const DEFAULT_MAX_ITEMS: u64 = 8;

/// Arrays up to this many items at most are bounded in the grammar; longer bounds are left
/// to validation.
const BOUNDED_ITEMS: u64 = 32;

/// Arrays up to this many items are unrolled, so `minItems`/`maxItems` hold exactly.
const UNROLLED_ITEMS: u64 = 4;

/// The node of one value. `style` is the top-level style, `None` inside nested JSON.
fn value_node(schema: &Value, style: Option<&ArgStyle>) -> Node {
    let json = ArgStyle::JSON;
    let style = style.unwrap_or(&json);
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Node::alt(
            values
                .iter()
                .filter(|v| !v.is_null())
                .map(|v| Node::lit(style.render_value(v)))
                .collect(),
        );
    }
    if let Some(value) = schema.get("const") {
        return Node::lit(style.render_value(value));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(options) = schema.get(key).and_then(Value::as_array) {
            let options: Vec<Node> = options
                .iter()
                .filter(|o| o.get("type") != Some(&Value::from("null")))
                .map(|o| value_node(&merge_parent(schema, o, key), Some(style)))
                .collect();
            if !options.is_empty() {
                return Node::alt(options);
            }
        }
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    let types: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
    if types.is_empty() {
        // No type: any scalar.
        return Node::alt(
            ["string", "integer", "boolean"]
                .iter()
                .map(|t| typed_node(schema, t, style))
                .collect(),
        );
    }
    Node::alt(types.iter().map(|t| typed_node(schema, t, style)).collect())
}

/// The subschema of an `anyOf` member, keeping the parent's own length and range keywords.
fn merge_parent(parent: &Value, member: &Value, union_key: &str) -> Value {
    let mut merged = member.as_object().cloned().unwrap_or_default();
    if let Some(parent) = parent.as_object() {
        for (key, value) in parent {
            if key != union_key && key != "description" {
                merged.entry(key.clone()).or_insert_with(|| value.clone());
            }
        }
    }
    Value::Object(merged)
}

fn typed_node(schema: &Value, ty: &str, style: &ArgStyle) -> Node {
    let int = |key: &str| schema.get(key).and_then(Value::as_i64);
    let uint = |key: &str| schema.get(key).and_then(Value::as_u64);
    match ty {
        "string" => {
            if schema.get("format").and_then(Value::as_str) == Some("date") {
                let d = || Node::Digit;
                return Node::seq(vec![
                    Node::lit(style.string_open),
                    d(),
                    d(),
                    d(),
                    d(),
                    Node::lit("-"),
                    d(),
                    d(),
                    Node::lit("-"),
                    d(),
                    d(),
                    Node::lit(style.string_close),
                ]);
            }
            let min = uint("minLength").map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
            let max = uint("maxLength").map_or(DEFAULT_MAX_CHARS, |n| {
                u32::try_from(n)
                    .unwrap_or(u32::MAX)
                    .min(DEFAULT_MAX_CHARS.max(min))
            });
            Node::seq(vec![
                Node::lit(style.string_open),
                Node::Str(style.string_spec(min, max)),
                Node::lit(style.string_close),
            ])
        }
        "integer" => {
            let (min, max) = (int("minimum"), int("maximum"));
            match (min, max) {
                (Some(lo), Some(hi)) if hi >= lo && hi - lo < ENUMERATED_RANGE => {
                    Node::alt((lo..=hi).map(|n| Node::lit(n.to_string())).collect())
                }
                _ => Node::Int { min, max },
            }
        }
        "number" => number_node(),
        "boolean" => Node::alt(vec![
            Node::lit(style.true_text),
            Node::lit(style.false_text),
        ]),
        "array" => array_node(schema),
        "object" => object_node(schema),
        _ => Node::alt(vec![
            typed_node(schema, "string", style),
            typed_node(schema, "integer", style),
        ]),
    }
}

/// A JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?`.
fn number_node() -> Node {
    let digits = || Node::seq(vec![Node::Digit, Node::Star(Box::new(Node::Digit))]);
    Node::seq(vec![
        Node::Opt(Box::new(Node::lit("-"))),
        Node::alt(vec![
            Node::lit("0"),
            Node::seq(vec![
                Node::alt(('1'..='9').map(|c| Node::lit(c.to_string())).collect()),
                Node::Star(Box::new(Node::Digit)),
            ]),
        ]),
        Node::Opt(Box::new(Node::seq(vec![Node::lit("."), digits()]))),
    ])
}

fn array_node(schema: &Value) -> Node {
    let item = value_node(schema.get("items").unwrap_or(&Value::Null), None);
    let min = schema.get("minItems").and_then(Value::as_u64).unwrap_or(0);
    let max = schema.get("maxItems").and_then(Value::as_u64);
    let body = match max {
        Some(max) if max <= UNROLLED_ITEMS && min <= max => {
            // Exactly min..=max items, unrolled.
            let mut options = Vec::new();
            for n in min..=max {
                let mut seq = Vec::new();
                for i in 0..n {
                    if i > 0 {
                        seq.push(Node::lit(","));
                    }
                    seq.push(item.clone());
                }
                options.push(Node::seq(seq));
            }
            Node::alt(options)
        }
        _ => {
            // Beyond the unrolled range: at least `min` items (left to validation), at most
            // `maxItems` or, when none is declared, DEFAULT_MAX_ITEMS — a small model left
            // unbounded goes on inventing items.
            let most = max.unwrap_or(DEFAULT_MAX_ITEMS.max(min)).max(1);
            let mut tail = Node::Star(Box::new(Node::seq(vec![Node::lit(","), item.clone()])));
            // Items that hold arrays or objects of their own are left to validation: their
            // copies would multiply with each level.
            let nested = ["array", "object"]
                .iter()
                .any(|t| admits_type(schema.get("items").unwrap_or(&Value::Null), t));
            if most <= BOUNDED_ITEMS && !nested {
                // Items 2..=most, each optional after the one before.
                tail = Node::seq(Vec::new());
                for _ in 1..most {
                    tail = Node::Opt(Box::new(Node::seq(vec![
                        Node::lit(","),
                        item.clone(),
                        tail,
                    ])));
                }
            }
            let list = Node::seq(vec![item, tail]);
            if min == 0 {
                Node::Opt(Box::new(list))
            } else {
                list
            }
        }
    };
    Node::seq(vec![Node::lit("["), body, Node::lit("]")])
}

/// The most key/value pairs of a free-form object.
const FREE_PAIRS: usize = 4;

/// A free-form object (see [`is_free_object`]) written as JSON: up to [`FREE_PAIRS`] pairs
/// whose keys — and text values — are stretches of `source` (the request), so a pair says
/// what the request says ("header Content-Type json" → `{"Content-Type":"json"}`); a value is
/// a number where `additionalProperties` allows one. With no source it is `{}`.
fn free_object_node(schema: &Value, source: &str) -> Node {
    let style = ArgStyle::JSON;
    let copy = |max: u32| {
        Node::seq(vec![
            Node::lit(style.string_open),
            Node::copy(source, &style.string_spec(1, max)),
            Node::lit(style.string_close),
        ])
    };
    let admits = |t: &str| match schema.get("additionalProperties") {
        Some(values) if values.get("type").is_some() => admits_type(values, t),
        _ => true,
    };
    let mut values = Vec::new();
    if admits("string") {
        values.push(copy(DEFAULT_MAX_CHARS));
    }
    if admits("number") {
        values.push(number_node());
    } else if admits("integer") {
        values.push(Node::Int {
            min: None,
            max: None,
        });
    }
    if source.trim().is_empty() || values.is_empty() {
        return Node::seq(vec![Node::lit(style.open), Node::lit(style.close)]);
    }
    let pair = Node::seq(vec![
        Node::lit(style.key_before),
        Node::copy(source, &style.string_spec(1, 64)),
        Node::lit(style.key_after),
        Node::alt(values),
    ]);
    let mut pairs = Node::seq(Vec::new());
    for _ in 1..FREE_PAIRS {
        pairs = Node::Opt(Box::new(Node::seq(vec![
            Node::lit(style.separator),
            pair.clone(),
            pairs,
        ])));
    }
    Node::seq(vec![
        Node::lit(style.open),
        Node::Opt(Box::new(Node::seq(vec![pair, pairs]))),
        Node::lit(style.close),
    ])
}

fn object_node(schema: &Value) -> Node {
    arguments(schema, &ArgStyle::JSON, &ParamValues::new())
}

/// Parses an argument list written in `style` (text the node of [`arguments`] accepted).
pub(crate) fn parse_arguments(text: &str, style: &ArgStyle) -> Result<Value, String> {
    if *style == ArgStyle::JSON {
        return serde_json::from_str::<Value>(text)
            .map_err(|e| format!("arguments are not JSON: {e}"))
            .and_then(|v| {
                if v.is_object() {
                    Ok(v)
                } else {
                    Err("arguments are not an object".to_owned())
                }
            });
    }
    let mut rest = text
        .strip_prefix(style.open)
        .and_then(|t| t.strip_suffix(style.close))
        .ok_or_else(|| {
            format!(
                "arguments must be enclosed in `{}…{}`",
                style.open, style.close
            )
        })?;
    let mut args = Map::new();
    while !rest.is_empty() {
        if !args.is_empty() {
            rest = rest
                .strip_prefix(style.separator)
                .ok_or_else(|| format!("expected `{}` between arguments", style.separator))?;
        }
        rest = rest.strip_prefix(style.key_before).unwrap_or(rest);
        let end = rest
            .find(style.key_after)
            .ok_or_else(|| format!("expected `{}` after a key", style.key_after))?;
        let key = rest[..end].to_owned();
        rest = &rest[end + style.key_after.len()..];
        let (value, after) = parse_value(rest, style)?;
        args.insert(key, value);
        rest = after;
    }
    Ok(Value::Object(args))
}

/// One value at the start of `text`, and what follows it.
fn parse_value<'t>(text: &'t str, style: &ArgStyle) -> Result<(Value, &'t str), String> {
    if let Some(rest) = text.strip_prefix(style.string_open) {
        if style.string_escapes {
            // Find the closing quote that is not escaped, then let serde_json decode.
            let mut escaped = false;
            for (i, c) in rest.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    _ if rest[i..].starts_with(style.string_close) => {
                        let literal = format!("\"{}\"", &rest[..i]);
                        let value: Value = serde_json::from_str(&literal)
                            .map_err(|e| format!("bad string: {e}"))?;
                        return Ok((value, &rest[i + style.string_close.len()..]));
                    }
                    _ => {}
                }
            }
            return Err("unterminated string".to_owned());
        }
        let end = rest
            .find(style.string_close)
            .ok_or_else(|| "unterminated string".to_owned())?;
        return Ok((
            Value::String(rest[..end].to_owned()),
            &rest[end + style.string_close.len()..],
        ));
    }
    for (spelling, value) in [
        (style.true_text, Value::Bool(true)),
        (style.false_text, Value::Bool(false)),
    ] {
        if let Some(rest) = text.strip_prefix(spelling) {
            return Ok((value, rest));
        }
    }
    // Numbers and nested JSON: let serde_json find where the value ends.
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value)) => Ok((value, &text[stream.byte_offset()..])),
        Some(Err(e)) => Err(format!("bad value: {e}")),
        None => Err("missing value".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::program::Program;
    use super::*;

    const PYTHON: ArgStyle = ArgStyle {
        open: "(",
        close: ")",
        key_before: "",
        key_after: "=",
        separator: ", ",
        string_open: "\"",
        string_close: "\"",
        string_forbid: &['"', '\\'],
        string_escapes: true,
        true_text: "True",
        false_text: "False",
    };

    fn search() -> Value {
        json!({
            "type": "object",
            "properties": {
                "category": {"type": "string", "maxLength": 100},
                "keyword": {"type": "string", "maxLength": 100},
                "limit": {"type": "integer", "minimum": 1, "maximum": 10}
            }
        })
    }

    fn log() -> Value {
        json!({
            "type": "object",
            "required": ["habit_id", "value"],
            "properties": {
                "habit_id": {"type": "integer"},
                "value": {"type": "string", "enum": ["done", "blank"]},
                "date": {"type": ["string", "null"], "format": "date"},
                "note": {"type": ["string", "null"], "maxLength": 5}
            }
        })
    }

    fn admits(schema: &Value, style: &ArgStyle, values: &ParamValues, text: &str) -> bool {
        let program = Program::compile(&arguments(schema, style, values));
        let mut m = program.start();
        m.feed(text.as_bytes()) && m.is_complete()
    }

    #[test]
    fn a_free_form_object_holds_pairs_the_request_writes() {
        let schema = json!({
            "type": "object",
            "properties": {
                "headers": {"type": "object", "additionalProperties": {"type": "string"}},
                "counts": {"type": "object", "additionalProperties": {"type": "integer"}}
            },
            "required": ["headers"]
        });
        // A copy is whole words: "Accept" of "Accept는" is not one (the tidy trims "Accept는").
        let source = "headers Content-Type json and Accept text, apples 3";
        let copies = Copies {
            params: &[],
            source,
            narrowed: None,
        };
        let admits = |text: &str| {
            let node = arguments_with(&schema, &PYTHON, &ParamValues::new(), copies);
            let program = Program::compile(&node);
            let mut m = program.start();
            m.feed(text.as_bytes()) && m.is_complete()
        };
        for ok in [
            r#"(headers={})"#,
            r#"(headers={"Content-Type":"json"})"#,
            r#"(headers={"Accept":"text"})"#,
            r#"(headers={"Content-Type":"json","Accept":"text"})"#,
            r#"(headers={"Accept":"text"}, counts={"apples":3})"#,
        ] {
            assert!(admits(ok), "{ok}");
        }
        for bad in [
            // Keys and text values the request does not write.
            r#"(headers={"X-Api-Key":"secret"})"#,
            r#"(headers={"Content-Type":"xml"})"#,
            // A number where only text is allowed, text where only numbers are.
            r#"(headers={"Accept":3})"#,
            r#"(headers={}, counts={"apples":"3"})"#,
            r#"(headers={}, counts={"apples":3.5})"#,
            // More pairs than the bound.
            r#"(headers={"a":"b","a":"b","a":"b","a":"b","a":"b"})"#,
        ] {
            assert!(!admits(bad), "{bad}");
        }
        // Without a request to copy from, only the empty object.
        let empty = Copies {
            params: &[],
            source: "",
            narrowed: None,
        };
        let node = arguments_with(&schema, &PYTHON, &ParamValues::new(), empty);
        let program = Program::compile(&node);
        let mut m = program.start();
        assert!(m.feed(br#"(headers={})"#) && m.is_complete());
    }

    #[test]
    fn an_array_without_max_items_holds_at_most_eight() {
        let schema = json!({
            "type": "object",
            "properties": {"tags": {"type": "array", "items": {"type": "integer"}}},
            "required": ["tags"]
        });
        let none = ParamValues::new();
        let list = |n: usize| {
            let items: Vec<String> = (0..n).map(|i| i.to_string()).collect();
            format!("{{\"tags\":[{}]}}", items.join(","))
        };
        for n in [0, 1, 8] {
            assert!(admits(&schema, &ArgStyle::JSON, &none, &list(n)), "{n}");
        }
        assert!(!admits(&schema, &ArgStyle::JSON, &none, &list(9)));
    }

    #[test]
    fn optional_arguments_in_order_with_separators() {
        let none = ParamValues::new();
        for ok in [
            "{}",
            r#"{"keyword":"운동"}"#,
            r#"{"category":"운동","limit":3}"#,
            r#"{"category":"a","keyword":"b","limit":10}"#,
        ] {
            assert!(admits(&search(), &ArgStyle::JSON, &none, ok), "{ok}");
        }
        for bad in [
            r#"{"limit":3,"keyword":"운동"}"#,
            r#"{,"keyword":"운동"}"#,
            r#"{"limit":11}"#,
            r#"{"other":1}"#,
            r#"{"keyword":"a" }"#,
        ] {
            assert!(!admits(&search(), &ArgStyle::JSON, &none, bad), "{bad}");
        }
    }

    #[test]
    fn required_arguments_enums_dates_and_value_sets() {
        let none = ParamValues::new();
        assert!(admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":12,"value":"done"}"#
        ));
        assert!(admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":1,"value":"blank","date":"2025-03-09","note":"비"}"#
        ));
        assert!(!admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"value":"done"}"#
        ));
        assert!(!admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":1,"value":"maybe"}"#
        ));
        assert!(!admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":1,"value":"done","date":"yesterday"}"#
        ));
        assert!(admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":1,"value":"done","note":"다섯글자"}"#
        ));
        assert!(!admits(
            &log(),
            &ArgStyle::JSON,
            &none,
            r#"{"habit_id":1,"value":"done","note":"여섯글자예요"}"#
        ));
        let values = ParamValues::from([
            ("habit_id".to_owned(), vec![json!(1), json!(3)]),
            ("date".to_owned(), vec![json!("today"), json!("yesterday")]),
        ]);
        assert!(admits(
            &log(),
            &ArgStyle::JSON,
            &values,
            r#"{"habit_id":3,"value":"done","date":"yesterday"}"#
        ));
        assert!(!admits(
            &log(),
            &ArgStyle::JSON,
            &values,
            r#"{"habit_id":2,"value":"done"}"#
        ));
        // With the first argument forced, the whole opening is one forced run.
        let program = Program::compile(&arguments(&log(), &ArgStyle::JSON, &values));
        assert_eq!(program.start().forced(64), r#"{"habit_id":"#);
    }

    #[test]
    fn rendering_and_parsing_round_trip_in_every_style() {
        let args = json!({"keyword": "아침 \"운동\"", "limit": 3});
        for style in [ArgStyle::JSON, PYTHON] {
            let text = style.render_arguments(&search(), &args);
            assert!(
                admits(&search(), &style, &ParamValues::new(), &text),
                "{text}"
            );
            assert_eq!(
                parse_arguments(&text, &style).expect("parses"),
                args,
                "{text}"
            );
        }
        assert_eq!(
            PYTHON.render_arguments(&search(), &json!({"limit": 2, "category": "수면"})),
            r#"(category="수면", limit=2)"#
        );
    }

    #[test]
    fn nested_objects_arrays_and_unions() {
        let schema = json!({
            "type": "object",
            "required": ["when"],
            "properties": {
                "when": {"anyOf": [{"type": "object", "required": ["hour"], "properties": {"hour": {"type": "integer", "minimum": 0, "maximum": 23}}}, {"type": "null"}]},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 4}, "maxItems": 2},
                "ok": {"type": "boolean"},
                "x": {"type": "number"}
            }
        });
        let none = ParamValues::new();
        for ok in [
            r#"{"when":{"hour":7}}"#,
            r#"{"when":{"hour":23},"tags":["a","bb"],"ok":true,"x":-1.5}"#,
            r#"{"when":{"hour":0},"tags":[]}"#,
        ] {
            assert!(admits(&schema, &ArgStyle::JSON, &none, ok), "{ok}");
        }
        for bad in [
            r#"{"when":null}"#,
            r#"{"when":{"hour":24}}"#,
            r#"{"when":{"hour":1},"tags":["a","b","c"]}"#,
            r#"{"when":{"hour":1},"x":01}"#,
        ] {
            assert!(!admits(&schema, &ArgStyle::JSON, &none, bad), "{bad}");
        }
        assert!(admits(
            &schema,
            &PYTHON,
            &none,
            r#"(when={"hour":7}, ok=False)"#
        ));
        assert_eq!(
            parse_arguments(r#"(when={"hour":7}, ok=False)"#, &PYTHON).expect("parses"),
            json!({"when": {"hour": 7}, "ok": false})
        );
    }
}

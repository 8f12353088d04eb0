//! The mapping between the runtime's types and MCP's: a [`ToolDefinition`] as an entry of
//! `tools/list`, a [`ToolResult`] as a `tools/call` result.
//!
//! Pure functions, so the wire shape is tested without a connection.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::Value;

use crate::tool::{ErrorCode, ResultCap, ToolDefinition, ToolResult};

/// The `tools/list` entry of `tool`: name, label as `title`, description, argument schema,
/// result schema where there is one, and the annotations its declaration supports.
pub(super) fn tool(tool: &ToolDefinition) -> Tool {
    let destructive = tool.is_destructive();
    // `readOnlyHint` is what the declaration says for sure; `destructiveHint` only means
    // something when the tool is not read-only (MCP's rule), and here it means "asks first".
    let annotations = ToolAnnotations::with_title(tool.label())
        .read_only(!destructive)
        .destructive(destructive);
    let mut listed = Tool::new(
        tool.name().to_owned(),
        tool.description().to_owned(),
        object(tool.parameters()),
    )
    .with_title(tool.label())
    .with_annotations(annotations);
    // A definition's output schema describes only JSON objects and has `type: object` at its
    // root (checked when the tool is built): what MCP requires of an `outputSchema`.
    if let Some(output) = tool.output_schema() {
        listed = listed.with_raw_output_schema(Arc::new(object(output)));
    }
    listed
}

/// A schema as the JSON object MCP wants. Every definition's schemas have an object root
/// (checked when the tool is built), so the fallback — an empty object — is unreachable.
fn object(schema: &Value) -> JsonObject {
    schema.as_object().cloned().unwrap_or_default()
}

/// The `tools/call` result for `result` of `tool` (`None` for a name the caller may not call),
/// cut to `cap` first — the same cap as every other caller's results.
///
/// - `ok` of a tool that lists an `outputSchema`: MCP says its `structuredContent` must
///   conform to that schema, so the data is sent as `structuredContent` (and as JSON text)
///   only when it is complete and does conform. A result over the cap is a `result_too_large`
///   error instead: cut, it would be an object the schema does not describe (the cap adds
///   `_truncated` and `_hint`, drops array items, shortens strings, or, when nothing fits,
///   leaves only the markers), and text alone is no answer either — a client validating the
///   schema refuses a result without `structuredContent`. Data that does not match the
///   schema (a hand-written `JsonSchema` or `Serialize` that disagree) is a `handler_error`.
/// - `ok` of any other tool: the data as `structuredContent` when it is an object (MCP's
///   structured content is one) and as JSON text, `isError: false`; a cut result carries the
///   cap's markers, which no schema contradicts;
/// - `error` and `cancelled`: `isError: true`, the envelope (`status`, `code`, `reason`) as
///   JSON text — and no `structuredContent`: a client may check any `structuredContent`
///   against the tool's `outputSchema` even on an error (the TypeScript SDK 1.x does, and then
///   throws instead of showing the error), and the envelope is no result the schema
///   describes. The text is what every client shows the calling model, with the stable code.
pub(super) fn call_result(
    tool: Option<&ToolDefinition>,
    result: &ToolResult,
    cap: &ResultCap,
) -> CallToolResult {
    let capped = cap.apply(result);
    if let (Some(tool), ToolResult::Ok { data }) = (tool, result)
        && tool.output_schema().is_some()
    {
        return promised(tool, data, capped.truncated, cap);
    }
    match (result, capped.value) {
        (ToolResult::Ok { .. }, Value::Object(mut envelope)) => {
            let data = envelope.remove("data").unwrap_or(Value::Null);
            if data.is_object() {
                CallToolResult::structured(data)
            } else {
                CallToolResult::success(vec![ContentBlock::text(data.to_string())])
            }
        }
        (_, envelope) => error_text(&envelope),
    }
}

/// An `isError` result carrying `envelope` as its JSON text only (see [`call_result`]).
fn error_text(envelope: &Value) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(envelope.to_string())])
}

/// The result of `tool`, which lists an `outputSchema`, for its `ok` data (see
/// [`call_result`]): the data, complete and conforming, or an error saying why not.
fn promised(
    tool: &ToolDefinition,
    data: &Value,
    truncated: bool,
    cap: &ResultCap,
) -> CallToolResult {
    if truncated {
        let reason = format!(
            "the result is {} bytes, over this server's limit of {} bytes, and a cut result would not match the tool's output schema, so none was sent: ask for less (fewer items, or one item)",
            data.to_string().len(),
            cap.max_bytes()
        );
        return error(ErrorCode::ResultTooLarge, reason, cap);
    }
    match tool.check_output(data) {
        Ok(()) => CallToolResult::structured(data.clone()),
        Err(mismatch) => error(
            ErrorCode::HandlerError,
            format!("the tool's result does not match its output schema: {mismatch}"),
            cap,
        ),
    }
}

/// A tool error of the server's own, within `cap` like any other.
fn error(code: ErrorCode, reason: String, cap: &ResultCap) -> CallToolResult {
    error_text(&cap.apply(&ToolResult::error(code, reason)).value)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::tool::{CallContext, ToolSchema};
    use serde_json::json;

    fn noop(_: CallContext) -> std::future::Ready<ToolResult> {
        std::future::ready(ToolResult::ok(json!({})))
    }

    fn wire(value: &impl serde::Serialize) -> Value {
        serde_json::to_value(value).unwrap()
    }

    /// An error's envelope: its JSON text, with no `structuredContent` beside it.
    fn envelope(result: &Value) -> Value {
        assert!(result.get("structuredContent").is_none(), "{result}");
        serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap()
    }

    #[test]
    fn a_read_only_tool_is_listed_with_its_label_schema_and_hints() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Args {
            /// What to look for
            keyword: String,
        }
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        struct Found {
            count: u32,
        }
        let definition = ToolDefinition::builder("search", "Searches.")
            .label("검색")
            .schema(ToolSchema::of::<Args>().with_output::<Found>())
            .handler(noop)
            .build()
            .unwrap();
        let listed = wire(&tool(&definition));
        assert_eq!(listed["name"], "search");
        assert_eq!(listed["title"], "검색");
        assert_eq!(listed["description"], "Searches.");
        assert_eq!(listed["inputSchema"], *definition.parameters());
        assert_eq!(listed["inputSchema"]["type"], "object");
        assert_eq!(
            listed["outputSchema"]["properties"]["count"]["type"],
            "integer"
        );
        assert_eq!(
            listed["annotations"],
            json!({"title": "검색", "readOnlyHint": true, "destructiveHint": false})
        );
    }

    #[test]
    fn a_destructive_tool_is_hinted_destructive_and_has_no_output_schema_unless_declared() {
        let definition = ToolDefinition::builder("write", "Writes.")
            .destructive(true)
            .handler(noop)
            .build()
            .unwrap();
        let listed = wire(&tool(&definition));
        assert_eq!(listed["title"], "write", "the label defaults to the name");
        assert_eq!(listed["annotations"]["readOnlyHint"], false);
        assert_eq!(listed["annotations"]["destructiveHint"], true);
        assert!(listed.get("outputSchema").is_none(), "{listed}");
        assert_eq!(
            listed["inputSchema"],
            json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn ok_data_is_structured_content_and_text() {
        let result = call_result(
            None,
            &ToolResult::ok(json!({"count": 2})),
            &ResultCap::default(),
        );
        let result = wire(&result);
        assert_eq!(result["isError"], false);
        assert_eq!(result["structuredContent"], json!({"count": 2}));
        assert_eq!(result["content"][0]["type"], "text");
        assert_eq!(result["content"][0]["text"], r#"{"count":2}"#);
    }

    #[test]
    fn data_that_is_not_an_object_is_text_only() {
        let result = wire(&call_result(
            None,
            &ToolResult::ok(json!(3)),
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], false);
        assert!(result.get("structuredContent").is_none(), "{result}");
        assert_eq!(result["content"][0]["text"], "3");
    }

    #[test]
    fn errors_and_cancellations_are_tool_errors_with_the_envelope() {
        let error = ToolResult::error("validation", "`limit`: must be at most 10");
        let result = wire(&call_result(None, &error, &ResultCap::default()));
        assert_eq!(result["isError"], true);
        assert_eq!(
            envelope(&result),
            json!({"status": "error", "code": "validation", "reason": "`limit`: must be at most 10"})
        );

        let result = wire(&call_result(
            None,
            &ToolResult::cancelled(),
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], true);
        assert_eq!(
            envelope(&result),
            json!({"status": "cancelled", "reason": "user did not confirm"})
        );
    }

    #[test]
    fn results_pass_the_cap() {
        let items: Vec<Value> = (0..100)
            .map(|i| json!({"id": i, "text": "가나다라"}))
            .collect();
        let result = call_result(
            None,
            &ToolResult::ok(json!({"items": items})),
            &ResultCap::new(256),
        );
        let result = wire(&result);
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(text.len() <= 256, "{} bytes", text.len());
        assert!(
            result["structuredContent"]["_truncated"].is_object(),
            "{result}"
        );
    }

    #[derive(serde::Serialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Item {
        id: u32,
        text: String,
    }

    #[derive(serde::Serialize, schemars::JsonSchema)]
    #[allow(dead_code)]
    struct Items {
        count: u32,
        items: Vec<Item>,
    }

    #[derive(schemars::JsonSchema)]
    struct NoArgs {}

    /// A read-only tool whose result schema is `Items`.
    fn listing() -> ToolDefinition {
        ToolDefinition::builder("list", "Lists.")
            .schema(ToolSchema::of::<NoArgs>().with_output::<Items>())
            .handler(noop)
            .build()
            .unwrap()
    }

    fn items(n: u32) -> Value {
        let items: Vec<Value> = (0..n)
            .map(|id| json!({"id": id, "text": "가나다라"}))
            .collect();
        json!({"count": n, "items": items})
    }

    #[test]
    fn only_object_result_schemas_are_listed() {
        #[derive(schemars::JsonSchema)]
        #[allow(dead_code)]
        #[serde(tag = "kind")]
        enum Tagged {
            A { a: u8 },
            B { b: String },
        }
        let listed = |schema: ToolSchema| {
            let definition = ToolDefinition::builder("t", "T.")
                .schema(schema)
                .handler(noop)
                .build()
                .unwrap();
            wire(&tool(&definition)).get("outputSchema").cloned()
        };
        let schema = || ToolSchema::of::<NoArgs>();
        let tagged = listed(schema().with_output::<Tagged>()).unwrap();
        assert_eq!(
            tagged["type"], "object",
            "a union of objects is an object: {tagged}"
        );
        for (what, output) in [
            ("a string", listed(schema().with_output::<String>())),
            ("a list", listed(schema().with_output::<Vec<Item>>())),
            (
                "null or an object",
                listed(schema().with_output::<Option<Items>>()),
            ),
        ] {
            assert_eq!(output, None, "{what}");
        }
        let listed = listed(schema().with_output::<Items>()).unwrap();
        assert_eq!(listed["type"], "object");
        assert_eq!(listed["required"], json!(["count", "items"]));
        assert_eq!(
            listed["properties"]["items"]["items"]["properties"]["id"]["type"],
            "integer"
        );
    }

    #[test]
    fn a_result_within_the_cap_is_structured_content_conforming_to_the_schema() {
        let definition = listing();
        let data = items(2);
        let result = wire(&call_result(
            Some(&definition),
            &ToolResult::ok(data.clone()),
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], false);
        assert_eq!(result["structuredContent"], data);
        let text: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(
            text, data,
            "the text is the same JSON, for clients that read only text"
        );
        let schema = &wire(&tool(&definition))["outputSchema"];
        assert!(jsonschema::is_valid(schema, &result["structuredContent"]));
    }

    #[test]
    fn a_result_over_the_cap_is_an_error_rather_than_content_the_schema_does_not_describe() {
        let cap = ResultCap::new(256);
        let result = wire(&call_result(
            Some(&listing()),
            &ToolResult::ok(items(100)),
            &cap,
        ));
        assert_eq!(result["isError"], true, "{result}");
        let error = &envelope(&result);
        assert_eq!(error["status"], "error");
        assert_eq!(error["code"], "result_too_large");
        let reason = error["reason"].as_str().unwrap();
        assert!(reason.contains("256 bytes"), "{reason}");
        assert!(result["content"][0]["text"].as_str().unwrap().len() <= 256);

        // Without a schema nothing is promised: the cut data and its markers are sent.
        let result = wire(&call_result(None, &ToolResult::ok(items(100)), &cap));
        assert_eq!(result["isError"], false);
        assert!(
            result["structuredContent"]["_truncated"].is_object(),
            "{result}"
        );
    }

    #[test]
    fn data_that_does_not_match_its_schema_is_a_handler_error() {
        let result = wire(&call_result(
            Some(&listing()),
            &ToolResult::ok(json!({"count": "two", "items": []})),
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], true, "{result}");
        assert_eq!(envelope(&result)["code"], "handler_error");
        let reason = envelope(&result)["reason"].as_str().unwrap().to_owned();
        assert!(
            reason.contains("output schema") && reason.contains("/count"),
            "{reason}"
        );
    }

    #[test]
    fn errors_of_a_tool_with_a_schema_carry_no_structured_content_a_client_would_check() {
        // A client that checks any structuredContent against the outputSchema, even on an
        // error (the TypeScript SDK 1.x), would throw on the envelope instead of showing it.
        let error = ToolResult::error("not_found", "no such item");
        let result = wire(&call_result(
            Some(&listing()),
            &error,
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], true);
        assert_eq!(envelope(&result), error.to_value());
    }
}

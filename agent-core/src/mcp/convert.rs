//! The mapping between the runtime's types and MCP's: a [`ToolDefinition`] as an entry of
//! `tools/list`, a [`ToolResult`] as a `tools/call` result.
//!
//! Pure functions, so the wire shape is tested without a connection.

use std::sync::Arc;

use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use serde_json::Value;

use crate::tool::{ResultCap, ToolDefinition, ToolResult};

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
    if let Some(output) = tool.output_schema().filter(|schema| schema.is_object()) {
        listed = listed.with_raw_output_schema(Arc::new(object(output)));
    }
    listed
}

/// A schema as the JSON object MCP wants. Every definition's schema has an object root
/// (checked when the tool is built), so the fallback — an empty object — is unreachable.
fn object(schema: &Value) -> JsonObject {
    schema.as_object().cloned().unwrap_or_default()
}

/// The `tools/call` result for `result`, cut to `cap` first — the same cap as every other
/// caller's results.
///
/// - `ok`: the data as `structuredContent` when it is an object (MCP's structured content is
///   one) and as JSON text, `isError: false`;
/// - `error` and `cancelled`: `isError: true`, the envelope (`status`, `code`, `reason`) as
///   `structuredContent` and as JSON text, so the calling model sees the stable code.
pub(super) fn call_result(result: &ToolResult, cap: &ResultCap) -> CallToolResult {
    let capped = cap.apply(result);
    match (result, capped.value) {
        (ToolResult::Ok { .. }, Value::Object(mut envelope)) => {
            let data = envelope.remove("data").unwrap_or(Value::Null);
            if data.is_object() {
                CallToolResult::structured(data)
            } else {
                CallToolResult::success(vec![ContentBlock::text(data.to_string())])
            }
        }
        (_, envelope) => CallToolResult::structured_error(envelope),
    }
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
        let result = call_result(&ToolResult::ok(json!({"count": 2})), &ResultCap::default());
        let result = wire(&result);
        assert_eq!(result["isError"], false);
        assert_eq!(result["structuredContent"], json!({"count": 2}));
        assert_eq!(result["content"][0]["type"], "text");
        assert_eq!(result["content"][0]["text"], r#"{"count":2}"#);
    }

    #[test]
    fn data_that_is_not_an_object_is_text_only() {
        let result = wire(&call_result(
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
        let result = wire(&call_result(&error, &ResultCap::default()));
        assert_eq!(result["isError"], true);
        assert_eq!(
            result["structuredContent"],
            json!({"status": "error", "code": "validation", "reason": "`limit`: must be at most 10"})
        );
        let text: Value =
            serde_json::from_str(result["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(text, result["structuredContent"]);

        let result = wire(&call_result(
            &ToolResult::cancelled(),
            &ResultCap::default(),
        ));
        assert_eq!(result["isError"], true);
        assert_eq!(
            result["structuredContent"],
            json!({"status": "cancelled", "reason": "user did not confirm"})
        );
    }

    #[test]
    fn results_pass_the_cap() {
        let items: Vec<Value> = (0..100)
            .map(|i| json!({"id": i, "text": "가나다라"}))
            .collect();
        let result = call_result(
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
}

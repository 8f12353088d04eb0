//! Parameters described by a rustdoc `# Arguments` list instead of `///` on each parameter.

use agent_core::tool;
use serde_json::json;

/// Finds a protocol in the catalog.
///
/// # Arguments
///
/// * `id` - the protocol id, e.g. `build.morning-walk`
/// * `detailed` - include the long description
#[tool(label = "프로토콜 조회")]
async fn query_protocol(id: String, detailed: Option<bool>) -> String {
    format!("{id} {detailed:?}")
}

fn main() {
    let tool = <query_protocol as agent_core::Tool>::definition().expect("definition");
    assert_eq!(tool.description(), "Finds a protocol in the catalog.");
    assert_eq!(
        tool.parameters()["properties"]["id"]["description"],
        json!("the protocol id, e.g. `build.morning-walk`")
    );
    assert_eq!(tool.parameters()["required"], json!(["id"]));
}

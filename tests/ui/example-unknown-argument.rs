use agent_core::tool;

/// Finds habits.
#[tool(example(request = "운동 습관 찾아줘", args = { "keyword": "운동", "kind": "build" }))]
async fn search(
    /// A keyword.
    keyword: String,
) -> String {
    keyword
}

fn main() {}

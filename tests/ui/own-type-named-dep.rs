use agent_core::tool;

mod model {
    #[derive(serde::Deserialize, schemars::JsonSchema)]
    pub struct Dep {
        pub code: String,
    }
}

use model::Dep;

/// Files a request with a department.
#[tool]
async fn file_request(
    /// The department.
    department: Dep,
) -> String {
    department.code
}

fn main() {}

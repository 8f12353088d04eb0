use agent_core::tool;

type IoResult<T> = Result<T, std::io::Error>;

/// Lists the habits.
#[tool]
async fn list_habits() -> IoResult<Vec<String>> {
    Ok(Vec::new())
}

fn main() {}

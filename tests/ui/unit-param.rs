use agent_core::tool;

/// Does nothing.
#[tool]
async fn nothing(
    /// Nothing at all.
    nothing: (),
) -> u8 {
    let () = nothing;
    0
}

fn main() {}

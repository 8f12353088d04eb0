use agent_core::tool;

/// Reads raw memory.
#[tool]
async unsafe fn peek(
    /// An address.
    address: usize,
) -> usize {
    address
}

fn main() {}

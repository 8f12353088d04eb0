use agent_core::tool;

/// Records a payment.
#[tool(destructive, confirm_if = amount > 10_000 && !(urgent == true))]
async fn pay(
    /// The amount in won.
    amount: i64,
    /// Whether it must go out today.
    urgent: bool,
) -> i64 {
    let _ = urgent;
    amount
}

fn main() {}

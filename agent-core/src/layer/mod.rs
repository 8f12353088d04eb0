//! Decorators around a tool's handler, applied by the dispatcher when it is built: the
//! time limit innermost, the confirmation gate outside it (tower's layering, specialised to
//! tools).
//!
//! | file | owns |
//! |---|---|
//! | `confirm.rs` | the confirmation gate and confirmers: where a destructive call is confirmed |
//! | `timeout.rs` | the per-call time limit |

pub(crate) mod confirm;
pub(crate) mod timeout;

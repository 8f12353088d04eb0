//! Decorators around a tool's handler, applied by the dispatcher when it is built: the
//! time limit innermost, the journal around it, the confirmation gate outside (tower's
//! layering, specialised to tools).
//!
//! | file | owns |
//! |---|---|
//! | `confirm.rs` | the confirmation gate and confirmers: where a destructive call is confirmed |
//! | `journal.rs` | the journal gate: where a destructive call that ran is journaled |
//! | `timeout.rs` | the per-call time limit |

pub(crate) mod confirm;
pub(crate) mod journal;
pub(crate) mod timeout;

//! agent-core: the runtime (being written).

pub mod llm;
pub mod tool;

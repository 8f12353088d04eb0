//! agent-core: placeholder while the runtime is written.

//! habit-tools: placeholder.

//! habit-demo: placeholder.

fn main() {}

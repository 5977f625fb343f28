//! The `neverc` driver: gcc-compatible command line, orchestration of the stages, linking.
fn main() {}

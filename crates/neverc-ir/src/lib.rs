//! neverc-ir (being written)

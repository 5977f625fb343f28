//! neverc-irgen (being written)

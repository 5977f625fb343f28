//! neverc-abi: C type layout and every platform calling convention as call plans.

//! Register schemas: for each architecture, register names and the numbers call plans use.

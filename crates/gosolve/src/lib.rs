//! Exact Go solver under positional superko (being written).

//! The reference Go board (being written).

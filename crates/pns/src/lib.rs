//! The proof-number search family over [`games::Game`] (being written).

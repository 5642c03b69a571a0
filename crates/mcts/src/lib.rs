//! Monte Carlo players over [`games::Game`] (being written).

//! Local region games (Sanko paper, Section 4 and Appendix A.4). (Being written: issue 4.)

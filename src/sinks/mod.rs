//! See the crate docs; filled in by its issue.

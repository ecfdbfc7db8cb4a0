//! Reports: text renderings of what the core found. No terminal code here either.

pub mod profile_text;

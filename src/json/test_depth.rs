//! How deep the library's own property tests go (test builds only). It sits in the lowest
//! layer so every module's tests may use it.
//!
//! The default `cargo test` runs each property at a depth sized to the whole run's time; a
//! nightly-style job or a developer before a release sets `HANDOFF_DEEP_TESTS=1` (to anything
//! but `0`) for the full depth, as the integration tests do (tests/common).

/// `default` cases, or `deep` when `HANDOFF_DEEP_TESTS` asks for the full depth.
pub(crate) fn property_cases(default: u32, deep: u32) -> u32 {
    let deep_run = std::env::var_os("HANDOFF_DEEP_TESTS")
        .is_some_and(|value| !value.is_empty() && value != "0");
    if deep_run {
        deep
    } else {
        default
    }
}

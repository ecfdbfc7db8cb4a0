//! handoff-inspector's core: everything the CLI and the TUI show, with no terminal code.
//!
//! # Layers
//!
//! Bottom to top. A module imports only modules on a lower layer; modules on one layer do not
//! import each other. The unit tests in `src/layering/` read this table and every `crate::`
//! path under `src/`, and fail on an import against it; ARCHITECTURE.md shows the same table.
//!
//! | layer | modules | what they hold |
//! |---|---|---|
//! | 1 | `json` | canonical bytes and digests, RFC 8785 (JCS), JSON paths, the duplicate-key scan, terminal-safe text |
//! | 2 | `input`, `persist`, `rules` | the one door every file is read through (caps, special files refused, the walk); the one door every file is written through (atomic, the umask, removed on interrupt, the writers' lock); the rule-row type |
//! | 3 | `a2a` | the reference adapter conversion |
//! | 4 | `freeze` | the K1-A freeze as data: explanations, audits, coverage |
//! | 5 | `migrate`, `profiles` | A2A v0.3 <-> v1.0 migration; the other handoff profiles |
//! | 6 | `bundle` | assay evidence bundles: reading, upstream's verification, the report, the writer |
//! | 7 | `packet` | what every layer above knows about a packet: source, bytes, kind, load error |
//! | 8 | `golden` | the golden manifest, object goldens, diffs, bless planning |
//! | 9 | `corpus` | walking, reading, the one classifier, evaluation, the check of a packet and of a corpus |
//! | 10 | `compare` | two runs paired at the handoff seam |
//! | 11 | `report` | every text and document a command prints |
//! | 12 | `tui` | face: the inspector |
//! | 13 | `cli`, `fuzzing` | faces: the command line (which starts the inspector); the fuzz targets' bodies (which drive it) |

/// Declares a field-less enum with its `ALL`: every variant in declaration order, written by
/// the macro from the declaration itself, so a variant added cannot be missing from it (the
/// tables, filters and catalogues that list "every status", "every code" read `ALL`).
macro_rules! enum_with_all {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$variant_meta])* $variant ),*
        }

        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: [$name; [$(stringify!($variant)),*].len()] = [$($name::$variant),*];
        }
    };
}

pub mod a2a;
pub mod bundle;
pub mod compare;
pub mod corpus;
pub mod freeze;
pub mod golden;
pub mod input;
pub mod json;
pub mod migrate;
pub mod packet;
pub mod persist;
pub mod profiles;
pub mod report;
pub mod rules;

// Faces over the core. The core modules above never import these.
pub mod cli;
/// Fuzz target bodies (see fuzz/README.md); replayed by tests/hostile/fuzz_replay.rs. A face: it
/// drives the inspector (`tui::runtime::drive`).
pub mod fuzzing;
pub mod tui;

#[cfg(test)]
mod layering;

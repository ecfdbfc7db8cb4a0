//! The README (and the pages it points to) against the code: generated tables are what the
//! code generates, the newcomer's part is there, and every pointed-at file exists.

mod ci_writes;
mod generated;
mod keymap;
mod newcomer;
mod profile_tables;

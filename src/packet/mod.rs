//! What every layer above knows about a packet: where it came from ([`Source`], and how its
//! file holds packets, [`FileFormat`]), its bytes ([`RawPacket`]), the kinds it can be
//! ([`PacketKind`], one table), and an input that yielded none ([`LoadError`]).
//!
//! It sits above `bundle` (a bundle's packet carries its verification report) and below
//! `golden` (a golden records a packet's kind) and `corpus` (which reads and classifies
//! packets), so those three form a line.

mod kind;
mod raw;
mod source;

pub use kind::{kind_table_markdown, KindRow, PacketKind, KIND_TABLE};
pub use raw::{LoadError, RawPacket};
pub use source::{FileFormat, Source};

//! The reference A2A adapter conversion (`spec/a2a-adapter-conversion.md`): raw packet bytes
//! -> canonical payload, evidence event and batch, or an error as data.

mod attributes;
mod checks;
mod convert;
mod event;
mod fields;
mod flags;
mod options;
mod outcome;
mod packet;
mod payload;
mod raw;
mod unmapped;

#[cfg(test)]
mod equivalence;
#[cfg(test)]
mod reference;

pub use attributes::Attributes;
pub use checks::{limits_violation, parse_version};
pub use convert::{convert, convert_from_read, convert_keeping_read, convert_shared, ModeFreeRead};
pub use event::{canonical_type_for, CanonicalType, DEFAULT_EVENT_TIME};
pub use fields::{TypedFields, RECOGNISED_TOP_LEVEL_KEYS};
pub use options::{ConvertOptions, Mode, DEFAULT_ADAPTER_VERSION};
pub use outcome::{
    Conversion, ConversionError, Converted, ErrorKind, Lossiness, RawPayloadRef, Substitution,
};
pub use packet::Packet;
pub use raw::RawPacket;
pub use unmapped::UnmappedKeys;

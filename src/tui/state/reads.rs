//! The file reads the inspector asks for, and who answers them. `update` never reads a file:
//! it returns a [`Read`] as an effect; the runtime hands it to a reader thread (headless
//! drivers answer at once, on their own thread), and the answer comes back as an action
//! carrying the request's generation. An answer to a request the state has moved past (another
//! packet selected, the search cancelled or replaced) is dropped by `update`.
//!
//! Two kinds of read: a packet's detail (its bytes read again by offset, the paired expected
//! payloads, its golden entry from the directory's manifest, a bundle's own view), and a search
//! through the listed packets' text, which reports its progress as it goes and stops when its
//! generation is no longer the current one.

use crate::bundle::BundleReport;
use crate::corpus::{LoadError, PacketCheck, PacketChecker, PacketDetail, Source};
use crate::golden::GoldenEntry;
use crate::tui::state::list_rows::ListRequest;
use crate::tui::state::listed::ListedPacket;
use std::path::PathBuf;
use std::sync::Arc;

/// A read `update` asks for.
#[derive(Clone, Debug)]
pub enum Read {
    Detail(DetailRequest),
    Search(SearchRequest),
    /// Not a file read, but answered the same way: the list built over a snapshot of the
    /// packets (`list_rows::build_list`).
    List(ListRequest),
}

/// The selected packet's detail, asked for by generation.
#[derive(Clone, Debug)]
pub struct DetailRequest {
    pub generation: u64,
    pub packet: usize,
    pub source: Source,
    pub offset: u64,
    /// A bundle's own packet: the report its load made (it is classified from that, not by
    /// opening the bundle once more).
    pub bundle: Option<Arc<BundleReport>>,
    /// A bundle's event: the report of the bundle it is in (its check says so).
    pub in_bundle: Option<Arc<BundleReport>>,
    /// What checked the packet in its load, to check it again for the detail (`None`: show
    /// no check).
    pub checker: Option<Arc<PacketChecker>>,
    /// Which load the caches belong to: manifests and bundles read for an older one are
    /// forgotten (a reload may have changed them on disk).
    pub epoch: u64,
}

/// Everything the detail pane shows of one packet that comes from files.
#[derive(Clone, Debug)]
pub struct DetailAnswer {
    pub generation: u64,
    pub packet: usize,
    pub result: Result<PacketDetail, String>,
    /// The packet checked again as its load checked it: findings with their words and
    /// diffs, digests, the object golden (the list keeps only its row).
    pub check: Option<Box<PacketCheck>>,
    /// The expected canonical payload paired with the packet, strict then lenient.
    pub expected: [Option<Result<serde_json::Value, String>>; 2],
    /// The packet's entry in its directory's golden manifest (`None`: no entry), or why the
    /// manifest could not be read.
    pub golden: Result<Option<GoldenEntry>, String>,
    /// A bundle's own packet: what the Bundle view compares, or why it could not be opened.
    pub bundle: Option<Result<Arc<crate::bundle::inspect::Inspection>, String>>,
    /// A bundle's own packet, with trusted keys: its attestation as the Bundle view says it.
    pub attestation: Option<AttestationShown>,
}

/// A bundle's attestation judged against the trusted keys, in the words every face uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttestationShown {
    /// The state's name (`attestation verified`, `attestation refused`, `not attested`...).
    pub state: &'static str,
    /// Refused or unreadable (what `check` reports as a finding).
    pub refused: bool,
    /// What was established or why it was refused, terminal-safe.
    pub lines: Vec<String>,
}

/// A search through the listed packets, in the order it goes (the list's order, starting at
/// the selection).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub generation: u64,
    /// Lower-cased.
    pub needle: String,
    /// The packets as the state holds them (a snapshot: one `Arc` per 4,096 packets), so
    /// starting a search on a million packets copies no packet on the UI thread.
    pub packets: crate::tui::state::packets::Packets,
    /// The listed packets' indices, in list order; the scan goes from `start` and wraps.
    pub listed: Vec<usize>,
    pub start: usize,
}

impl SearchRequest {
    /// Each packet to look at, in search order: its index, source and offset.
    pub fn order(&self) -> impl Iterator<Item = (usize, &Source, u64)> + '_ {
        let count = self.listed.len();
        (0..count).filter_map(move |offset| {
            let index = self.listed[(self.start + offset) % count];
            let packet = self.packets.get(index)?;
            Some((index, &packet.source, packet.offset))
        })
    }
}

/// What a search reports while it runs, and when it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// `scanned` of the packets looked at, `matches` found so far; `first` is the first match
    /// in search order (what Enter selects), as soon as it is known.
    Progress {
        scanned: usize,
        matches: usize,
        first: Option<usize>,
    },
    /// Every matching packet's index, in search order.
    Done { matches: Vec<usize> },
}

/// What a load reports, with the generation of the load, as it goes.
#[derive(Debug)]
pub enum LoaderEvent {
    /// Checked packets, each kept as its list row (see `listed`).
    Packets(Vec<ListedPacket>),
    Errors(Vec<LoadError>),
    Progress {
        packets: usize,
    },
    /// The pending goldens beside the files read (`check --write-pending`'s), for the review.
    Pending(Vec<crate::golden::PendingGoldens>),
    Done,
    FileReloaded {
        path: PathBuf,
        checks: Vec<ListedPacket>,
        errors: Vec<LoadError>,
    },
}

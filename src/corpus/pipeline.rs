//! The streaming parallel pipeline: one thread reads NDJSON streams and lists single-packet
//! files in walk order, in batches; the rayon pool reads those files (opening a file costs
//! more than converting its packet) and maps each batch in parallel; the caller's sink
//! receives the results in the original order. At most a few batches are in flight, so memory stays bounded however large
//! the corpus is, and no parsed tree outlives its packet's map.

use super::shard_plan::StreamPiece;
use super::{read_packets, FileFormat, LoadError, RawPacket, WalkItem};
use rayon::prelude::*;
use std::sync::mpsc::sync_channel;

/// Packets per batch: large enough to amortize the hand-over, small enough that a few
/// batches in flight stay a few megabytes.
pub const BATCH_PACKETS: usize = 1024;
/// A batch is also closed once its packets hold this many bytes.
const BATCH_BYTES: usize = 8 << 20;
/// Batches read ahead of the one being mapped.
const BATCHES_IN_FLIGHT: usize = 4;

/// One input of the pipeline: a packet, or a file or line that yielded none.
pub type PacketOrError = Result<RawPacket, LoadError>;

/// What the reading thread hands on: a packet read from a stream, or a single-packet file
/// for a worker to read.
enum Work {
    Ready(PacketOrError),
    File(std::path::PathBuf),
}

impl Work {
    fn into_packet(self, max_file_bytes: u64) -> PacketOrError {
        match self {
            Work::Ready(item) => item,
            Work::File(path) => {
                let mut packet = None;
                read_packets(&path, FileFormat::Json, max_file_bytes, &mut |item| {
                    packet = Some(item);
                    false
                });
                packet.unwrap_or_else(|| {
                    Err(LoadError {
                        source: super::Source::file(path),
                        reason: "no packet read".to_owned(),
                    })
                })
            }
        }
    }
}

/// What a stream's reader hands each packet to; `false` stops it.
type PacketTaker<'a> = dyn FnMut(PacketOrError) -> bool + 'a;

/// How the pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PipelineOptions {
    pub max_file_bytes: u64,
    /// Worker threads; `None` uses one per core.
    pub jobs: Option<usize>,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        PipelineOptions {
            max_file_bytes: super::DEFAULT_MAX_FILE_BYTES,
            jobs: None,
        }
    }
}

/// Reads every packet of `items` and maps each with `map` in parallel; `sink` gets the
/// results in walk order (walk errors in place). `skip` drops files before they are read.
pub fn stream_packets<T, M, S>(
    items: &[WalkItem],
    options: PipelineOptions,
    skip: &(dyn Fn(&std::path::Path) -> bool + Sync),
    map: M,
    mut sink: S,
) -> Result<(), String>
where
    T: Send,
    M: Fn(PacketOrError) -> T + Sync,
    S: FnMut(T),
{
    stream_packets_while(items, options, skip, map, |item| {
        sink(item);
        true
    })
}

/// `stream_packets` whose `sink` answers whether to go on: on `false` nothing more is handed
/// on, the mapping stops after the batch in hand and the reading at its next batch, so a
/// stopped run costs at most a few batches more.
pub fn stream_packets_while<T, M, S>(
    items: &[WalkItem],
    options: PipelineOptions,
    skip: &(dyn Fn(&std::path::Path) -> bool + Sync),
    map: M,
    sink: S,
) -> Result<(), String>
where
    T: Send,
    M: Fn(PacketOrError) -> T + Sync,
    S: FnMut(T) -> bool,
{
    let whole = items.iter().map(|item| (item, None));
    stream_parts_while(whole, options, skip, map, sink)
}

/// `stream_packets_while` over the parts of a shard plan: each walk item whole, or (a piece)
/// only the lines of a stream that start in it.
pub(super) fn stream_parts_while<'a, T, M, S>(
    parts: impl Iterator<Item = (&'a WalkItem, Option<StreamPiece>)> + Send,
    options: PipelineOptions,
    skip: &(dyn Fn(&std::path::Path) -> bool + Sync),
    map: M,
    mut sink: S,
) -> Result<(), String>
where
    T: Send,
    M: Fn(PacketOrError) -> T + Sync,
    S: FnMut(T) -> bool,
{
    let pool = match options.jobs {
        Some(jobs) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(jobs.max(1))
                .build()
                .map_err(|error| format!("cannot start worker threads: {error}"))?,
        ),
        None => None,
    };
    let (sender, receiver) = sync_channel::<Vec<Work>>(BATCHES_IN_FLIGHT);
    let (mapped_sender, mapped_receiver) = sync_channel::<Vec<T>>(BATCHES_IN_FLIGHT);
    let max_file_bytes = options.max_file_bytes;
    let map = &move |work: Work| map(work.into_packet(max_file_bytes));
    let pool = &pool;
    std::thread::scope(|scope| {
        // Reading: one thread, in walk order.
        scope.spawn(move || read_batches(parts, options.max_file_bytes, skip, &sender));
        // Mapping: each batch in parallel on the pool, handed on in order. A thread of its
        // own, so the sink below works on one batch while the pool maps the next.
        scope.spawn(move || {
            for batch in receiver {
                let mapped: Vec<T> = match pool {
                    Some(pool) => pool.install(|| batch.into_par_iter().map(map).collect()),
                    None => batch.into_par_iter().map(map).collect(),
                };
                if mapped_sender.send(mapped).is_err() {
                    return;
                }
            }
        });
        // Leaving this loop drops the receiver, which stops the mapping thread and, through
        // it, the reading thread.
        'batches: for mapped in mapped_receiver {
            for result in mapped {
                if !sink(result) {
                    break 'batches;
                }
            }
        }
    });
    Ok(())
}

fn read_batches<'a>(
    parts: impl Iterator<Item = (&'a WalkItem, Option<StreamPiece>)>,
    max_file_bytes: u64,
    skip: &(dyn Fn(&std::path::Path) -> bool + Sync),
    sender: &std::sync::mpsc::SyncSender<Vec<Work>>,
) {
    let mut batch = Vec::with_capacity(BATCH_PACKETS);
    let mut bytes = 0usize;
    let mut open = true;
    let mut push = |item: Work, batch: &mut Vec<Work>| {
        if let Work::Ready(Ok(packet)) = &item {
            bytes += packet.bytes.len();
        }
        batch.push(item);
        if batch.len() >= BATCH_PACKETS || bytes >= BATCH_BYTES {
            bytes = 0;
            let full = std::mem::replace(batch, Vec::with_capacity(BATCH_PACKETS));
            // The receiver only goes away when the other side stopped; stop reading then.
            open = sender.send(full).is_ok();
        }
        open
    };
    for (item, piece) in parts {
        // A stream read whole or a piece of it, the packets handed on as they are read.
        let mut read_stream = |read: &mut dyn FnMut(&mut PacketTaker)| {
            let mut keep_going = true;
            read(&mut |item| {
                keep_going = push(Work::Ready(item), &mut batch);
                keep_going
            });
            keep_going
        };
        let going = match (item, piece) {
            (WalkItem::Error(error), _) => push(Work::Ready(Err(error.clone())), &mut batch),
            (WalkItem::File { path, .. }, _) if skip(path) => true,
            (WalkItem::File { path, .. }, Some(piece)) => read_stream(&mut |each| {
                super::read_piece::read_piece(path, piece, max_file_bytes, each)
            }),
            (
                WalkItem::File {
                    path,
                    format: FileFormat::Json,
                },
                None,
            ) => push(Work::File(path.clone()), &mut batch),
            (
                WalkItem::File {
                    path,
                    format:
                        format @ (FileFormat::Ndjson | FileFormat::Bundle | FileFormat::BundleEvent(_)),
                },
                None,
            ) => read_stream(&mut |each| read_packets(path, *format, max_file_bytes, each)),
        };
        if !going {
            return;
        }
    }
    if !batch.is_empty() {
        let _ = sender.send(batch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::walk;
    use std::io::Write;

    #[test]
    fn results_arrive_in_walk_order_across_batches() {
        let dir = tempfile::tempdir().unwrap();
        let stream = dir.path().join("b.ndjson");
        let mut file = std::fs::File::create(&stream).unwrap();
        for index in 0..(BATCH_PACKETS * 2 + 7) {
            writeln!(file, "{{\"n\":{index}}}").unwrap();
        }
        std::fs::write(dir.path().join("a.json"), "{\"n\":-1}").unwrap();
        std::fs::write(dir.path().join("c.json"), vec![b'x'; 40]).unwrap();
        std::fs::write(dir.path().join("skipped.json"), "{}").unwrap();
        let items = walk(&[dir.path().to_path_buf()], &Default::default());
        let mut seen = Vec::new();
        stream_packets(
            &items,
            PipelineOptions {
                jobs: Some(2),
                max_file_bytes: 32,
            },
            &|path| path.ends_with("skipped.json"),
            |item| match item {
                Ok(packet) => String::from_utf8(packet.bytes).unwrap(),
                Err(error) => format!("error {}", error.reason),
            },
            |text| seen.push(text),
        )
        .unwrap();
        assert_eq!(seen.len(), BATCH_PACKETS * 2 + 7 + 2);
        assert_eq!(seen[0], "{\"n\":-1}");
        for (index, text) in seen[1..seen.len() - 1].iter().enumerate() {
            assert_eq!(*text, format!("{{\"n\":{index}}}"));
        }
        assert_eq!(
            seen.last().unwrap(),
            "error file is larger than the 32 bytes cap (--max-file-bytes)"
        );
    }
}

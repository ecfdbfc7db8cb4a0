//! What reaches `update` (`Action`: a key, a loader's or reader's answer...) and what it
//! asks of the runtime (`Effect`: a read, a reload, a copy, an accept...).

use crate::tui::state::list_rows::ListEvent;
use crate::tui::state::reads::LoaderEvent;
use crate::tui::state::reads::{DetailAnswer, Read, SearchEvent};
use ratatui::crossterm::event::{KeyEvent, MouseEvent};
use std::path::PathBuf;

#[derive(Debug)]
pub enum Action {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// A loader event with the generation of the load that sent it.
    Loader(u64, LoaderEvent),
    FilesChanged(Vec<PathBuf>),
    /// The reader's answer to a detail read.
    Detail(Box<DetailAnswer>),
    /// A search's report, with the generation of the search.
    Search(u64, SearchEvent),
    /// A list build's report, with the generation of the build.
    List(u64, ListEvent),
}

/// A job that runs off the UI thread until it ends or is cancelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    Search,
    List,
}

#[derive(Clone, Debug)]
pub enum Effect {
    /// Read from disk or build the list (answered with `Action::Detail` / `Action::Search` /
    /// `Action::List`).
    Read(Read),
    /// Stop a running job.
    Cancel(Job),
    ReloadAll,
    ReloadFiles(Vec<PathBuf>),
    Copy(String),
    /// Open this file at this line in the user's editor (`o`): the runtime hands the
    /// terminal over for it.
    OpenEditor(crate::tui::state::selection::EditorTarget),
    /// Record this check's outcome as its packet's golden (confirmed in the review). The
    /// check is the one shown when `y` was pressed: the review moves on to the next packet in
    /// the same update, so the selection no longer names the accepted one.
    AcceptGolden(Box<crate::corpus::PacketCheck>),
    /// What the state no longer holds (a reload's forgotten packets, a replaced list's rows),
    /// to be freed off the UI thread.
    Discard(Vec<crate::tui::state::app::Discarded>),
}

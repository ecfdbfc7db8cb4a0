//! The one door every file the tool writes goes through: golden manifests, bundles,
//! attestations, derived packets. So this layer
//! - writes a file as a temporary file beside it, renamed into place only when complete
//!   (`atomic.rs`): a reader, a crash or a full disk leaves the old file or the new one,
//!   never half of one;
//! - gives a file the permissions the user's other tools would: a new file is created 0666
//!   and the kernel takes the umask off; a file replaced keeps the mode it had;
//! - removes a temporary file on every exit path: a failed write and a drop remove it, and
//!   SIGINT, SIGTERM or SIGHUP removes every one still open before the process ends by that
//!   signal (`interrupt.rs`, once a face installs it);
//! - lets writers of one file take turns (`lock.rs`): an advisory lock file beside it, held
//!   while a writer reads, merges and replaces the file.

mod atomic;
mod interrupt;
mod lock;

pub use atomic::{write_atomically, AtomicFile, Replace};
pub use interrupt::{install_interrupt_cleanup, set_interrupt_hook};
pub use lock::{LockError, LockFile};

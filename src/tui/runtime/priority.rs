//! The inspector's background work (loading, searching, building the list, reading a detail)
//! runs at a lower scheduling priority than the UI thread: on a busy machine (the corpus check
//! keeps every core busy) a key is then not queued behind it. Linux keeps a nice value per
//! thread; a thread started by a lowered thread starts lowered.

/// The nice value background threads run at (at least; an inspector started under a higher
/// one keeps it).
const BACKGROUND_NICE: i32 = 10;

/// Lowers the calling thread's priority to [`BACKGROUND_NICE`]; a no-op where threads have no
/// priority of their own, and for a thread already that low.
pub fn lower_this_thread() {
    #[cfg(target_os = "linux")]
    // SAFETY: gettid and setpriority take no pointers; setpriority on the calling thread's id
    // changes only that thread's nice value (a failure leaves it as it was).
    unsafe {
        let thread = libc::gettid();
        libc::setpriority(
            libc::PRIO_PROCESS,
            thread as libc::id_t,
            nice_now(thread).max(BACKGROUND_NICE),
        );
    }
}

/// The calling thread's nice value now (0 when it cannot be read).
#[cfg(target_os = "linux")]
fn nice_now(thread: libc::pid_t) -> i32 {
    // SAFETY: getpriority takes no pointers. It returns -1 both for a nice value of -1 and
    // for an error; either way the result is a usable base to lower from.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, thread as libc::id_t) }
}

/// Lowers every thread of rayon's global pool (the corpus check's workers), which the first
/// load may have started at the UI thread's priority.
pub fn lower_check_workers() {
    rayon::broadcast(|_| lower_this_thread());
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn this_thread_nice() -> i32 {
        // SAFETY: gettid takes no arguments and cannot fail.
        let thread = unsafe { libc::gettid() };
        nice_now(thread)
    }

    #[test]
    fn a_lowered_thread_runs_at_the_background_nice_value() {
        let before = this_thread_nice();
        let lowered = std::thread::spawn(|| {
            lower_this_thread();
            this_thread_nice()
        })
        .join()
        .unwrap();
        assert_eq!(lowered, before.max(BACKGROUND_NICE));
        assert_eq!(
            this_thread_nice(),
            before,
            "only the calling thread is lowered"
        );
    }
}

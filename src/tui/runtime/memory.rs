//! Giving memory freed by the loader back to the system before the views are built. glibc
//! keeps what a thread frees in that thread's arena for reuse by the same thread: the corpus
//! check runs on worker threads and a packet's detail on the main thread, so one big packet
//! cost the peak of both phases added (its check's trees, then the detail's), not the larger.

/// Returns the free pages of every malloc arena to the system (glibc's `malloc_trim`); a
/// no-op elsewhere.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim takes no pointers; it walks glibc's own arenas under their locks
    // and is safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

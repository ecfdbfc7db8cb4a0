use std::alloc::{GlobalAlloc, Layout, System};

/// The binary's allocator: mimalloc for small blocks, the system's for large ones. The library
/// chooses no allocator; this is the binary's choice alone.
///
/// A packet is parsed, converted in both modes and summarized through dozens of small,
/// short-lived blocks on every core, where glibc's malloc and free took a fifth of `check`'s
/// samples; mimalloc's thread-local free lists cost less for those. A large block (a big
/// packet's text, a tree's vector of 400,000 members growing) stays with the system allocator:
/// glibc maps it on its own and grows it in place (`mremap`), where mimalloc copies it to a
/// new block while the old one is still held, which took a 6.8 MB packet's `explain` from 58
/// to 96 MiB at its peak (docs/performance.md gives the figures).
struct SmallBlocksFast;

/// Blocks of this many bytes or more go to the system allocator.
const LARGE_BLOCK: usize = 64 * 1024;

fn is_large(size: usize) -> bool {
    size >= LARGE_BLOCK
}

// SAFETY: every block is freed or resized by the allocator that made it: which one is decided
// by the block's size alone, and Rust hands `dealloc` and `realloc` the layout the block was
// allocated (or last resized) with. A resize that crosses LARGE_BLOCK allocates the new block
// from the other allocator, copies, and frees the old block from its own.
unsafe impl GlobalAlloc for SmallBlocksFast {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's layout, handed on unchanged to the allocator its size picks.
        unsafe {
            if is_large(layout.size()) {
                System.alloc(layout)
            } else {
                mimalloc::MiMalloc.alloc(layout)
            }
        }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        unsafe {
            if is_large(layout.size()) {
                System.alloc_zeroed(layout)
            } else {
                mimalloc::MiMalloc.alloc_zeroed(layout)
            }
        }
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: `layout` is the one the block was made with, so its size picks the
        // allocator that made it.
        unsafe {
            if is_large(layout.size()) {
                System.dealloc(block, layout)
            } else {
                mimalloc::MiMalloc.dealloc(block, layout)
            }
        }
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match (is_large(layout.size()), is_large(new_size)) {
            // SAFETY: the block stays with the allocator that made it.
            (false, false) => unsafe { mimalloc::MiMalloc.realloc(block, layout, new_size) },
            // SAFETY: as above.
            (true, true) => unsafe { System.realloc(block, layout, new_size) },
            // SAFETY: the caller guarantees that `new_size` rounded up to the alignment fits
            // an isize; the new block is made before the old one is read and freed, and the
            // copy is no longer than either.
            _ => unsafe {
                let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
                let moved = self.alloc(new_layout);
                if !moved.is_null() {
                    std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
                    self.dealloc(block, layout);
                }
                moved
            },
        }
    }
}

#[global_allocator]
static ALLOCATOR: SmallBlocksFast = SmallBlocksFast;

fn main() -> std::process::ExitCode {
    handoff_inspector::cli::main()
}

#[cfg(test)]
mod tests {
    /// A block resized across LARGE_BLOCK, both ways, moves to the other allocator with its
    /// bytes, and is freed by the one that holds it (a mismatch aborts the test binary).
    #[test]
    fn a_block_resized_across_the_threshold_keeps_its_bytes() {
        let pattern = |index: usize| (index * 31 % 251) as u8;
        let mut bytes: Vec<u8> = Vec::with_capacity(1);
        for index in 0..super::LARGE_BLOCK * 3 {
            bytes.push(pattern(index));
        }
        assert!(bytes
            .iter()
            .enumerate()
            .all(|(index, &byte)| byte == pattern(index)));
        bytes.truncate(100);
        bytes.shrink_to_fit();
        assert!(bytes.capacity() < super::LARGE_BLOCK);
        assert!(bytes
            .iter()
            .enumerate()
            .all(|(index, &byte)| byte == pattern(index)));
        let zeroed = vec![0u8; super::LARGE_BLOCK * 2];
        assert!(zeroed.iter().all(|&byte| byte == 0));
    }
}

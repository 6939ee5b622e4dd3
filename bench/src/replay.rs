//! `--features alloc-replay`: what the allocations of a decoded message cost alone. The global
//! allocator records, once before timing, every allocation, reallocation and free that
//! decoding a message and dropping it make; the codec `AllocReplay` then parses each text at the
//! floor (`IgnoredAny`) and replays its recording with the same sizes in the same order. Its
//! ratio to the floor, less one, is the allocator's share of `FromStr`'s.
// Without the feature nothing records: `record` gives no steps, and the row is not printed.
#![cfg_attr(not(feature = "alloc-replay"), allow(dead_code))]

use std::alloc::Layout;
#[cfg(feature = "alloc-replay")]
use std::alloc::{GlobalAlloc, System};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};

/// One allocator call, on a slot (the recording's index of the block).
#[derive(Debug, Clone, Copy)]
pub enum Step {
    Alloc { slot: usize, size: usize },
    Realloc { slot: usize, old: usize, new: usize },
    Free { slot: usize, size: usize },
}

/// One allocator call as made: which, the block's address and size before and after (0 where
/// there is none).
#[derive(Debug, Clone, Copy)]
struct Call {
    kind: Kind,
    before: usize,
    after: usize,
    old: usize,
    new: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Alloc,
    Realloc,
    Free,
}

/// The system allocator, recording while [`record`] runs (on its thread).
#[cfg(feature = "alloc-replay")]
pub struct Recording;

static ON: AtomicBool = AtomicBool::new(false);

thread_local! {
    static CALLS: RefCell<Vec<Call>> = const { RefCell::new(Vec::new()) };
}

#[cfg(feature = "alloc-replay")]
fn log(call: Call) {
    // A plain load when not recording, so that the other codecs pay next to nothing; off while
    // logging, since the log's own growth is not the message's (one thread records).
    if ON.load(Ordering::Relaxed) {
        ON.store(false, Ordering::Relaxed);
        CALLS.with(|calls| calls.borrow_mut().push(call));
        ON.store(true, Ordering::Relaxed);
    }
}

#[cfg(feature = "alloc-replay")]
unsafe impl GlobalAlloc for Recording {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let block = System.alloc(layout);
        log(Call {
            kind: Kind::Alloc,
            before: 0,
            after: block as usize,
            old: 0,
            new: layout.size(),
        });
        block
    }
    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        log(Call {
            kind: Kind::Free,
            before: block as usize,
            after: 0,
            old: layout.size(),
            new: 0,
        });
        System.dealloc(block, layout)
    }
    unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        let moved = System.realloc(block, layout, size);
        log(Call {
            kind: Kind::Realloc,
            before: block as usize,
            after: moved as usize,
            old: layout.size(),
            new: size,
        });
        moved
    }
}

/// The allocator calls that `f` and the drop of its result make, as steps on slots.
pub fn record<T>(f: impl FnOnce() -> T) -> Vec<Step> {
    CALLS.with(|calls| calls.borrow_mut().reserve(1 << 16));
    ON.store(true, Ordering::Relaxed);
    drop(std::hint::black_box(f()));
    ON.store(false, Ordering::Relaxed);
    let calls = CALLS.with(|calls| std::mem::take(&mut *calls.borrow_mut()));
    // Live blocks by address → slot; a block allocated before `f` ran is not the message's.
    let mut live: Vec<(usize, usize)> = Vec::new();
    let mut slots = 0;
    let mut steps = Vec::with_capacity(calls.len());
    for Call {
        kind,
        before,
        after,
        old,
        new,
    } in calls
    {
        let take = |live: &mut Vec<(usize, usize)>, address| {
            let at = live.iter().position(|&(a, _)| a == address)?;
            Some(live.swap_remove(at).1)
        };
        match kind {
            Kind::Alloc => {
                live.push((after, slots));
                steps.push(Step::Alloc {
                    slot: slots,
                    size: new,
                });
                slots += 1;
            }
            Kind::Realloc => {
                if let Some(slot) = take(&mut live, before) {
                    live.push((after, slot));
                    steps.push(Step::Realloc { slot, old, new });
                }
            }
            Kind::Free => {
                if let Some(slot) = take(&mut live, before) {
                    steps.push(Step::Free { slot, size: old });
                }
            }
        }
    }
    steps
}

/// Makes the recorded calls again; `blocks` holds the slots' blocks (grown as needed).
pub fn replay(steps: &[Step], blocks: &mut Vec<*mut u8>) {
    let layout = |size: usize| Layout::from_size_align(size.max(1), 8).expect("a layout");
    for step in steps {
        // SAFETY: each slot is allocated before it is reallocated or freed, with the layout it
        // was allocated with, as in the recording (which the allocator made).
        unsafe {
            match *step {
                Step::Alloc { slot, size } => {
                    if blocks.len() <= slot {
                        blocks.resize(slot + 1, std::ptr::null_mut());
                    }
                    let block = std::alloc::alloc(layout(size));
                    // Touched, as a decoder writes what it allocates.
                    block.write(1);
                    blocks[slot] = block;
                }
                Step::Realloc { slot, old, new } => {
                    blocks[slot] = std::alloc::realloc(blocks[slot], layout(old), new.max(1));
                }
                Step::Free { slot, size } => std::alloc::dealloc(blocks[slot], layout(size)),
            }
        }
    }
}

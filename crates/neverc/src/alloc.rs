//! The driver's memory allocator: size classes carved from large chunks, with a free list
//! per class.
//!
//! Why not the system allocator: a compilation makes hundreds of thousands of small, short-lived
//! allocations (vectors of tokens, IR, machine instructions per function) and grows vectors by
//! doubling. glibc's malloc spends about 200 instructions per allocate/free pair on them and
//! copies on every growth. Here an allocation of a small class is a pop from a list or a bump of
//! a pointer, a free is a push, and a vector growing at the end of the current chunk grows in
//! place. Memory of a class is reused for that class and never returned to the system; the
//! compiler is a short-lived process, so that costs little.
//!
//! Requests above [`LARGEST_CLASS`] bytes, or aligned to more than [`CLASS_ALIGN`], go to the
//! system allocator unchanged.
//!
//! Each thread carves its own chunks (the state is thread-local), so no locking is needed.
//! A block freed by another thread than the one that allocated it simply joins that thread's
//! free list: blocks are plain memory of their class's size and chunks are never unmapped, so
//! any thread may reuse them.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::UnsafeCell;
use std::ptr;

/// Every class block is aligned to this (chunks are, and every class size is a multiple of it).
const CLASS_ALIGN: usize = 16;
/// Sizes up to this are rounded to a multiple of 16 (one class per 16 bytes).
const FINE_LIMIT: usize = 1024;
/// Above [`FINE_LIMIT`], classes are powers of two up to this size.
const LARGEST_CLASS: usize = 64 * 1024;
const FINE_CLASSES: usize = FINE_LIMIT / CLASS_ALIGN; // 64: sizes 16, 32, ..., 1024
const COARSE_CLASSES: usize = 6; // 2 KiB, 4 KiB, ..., 64 KiB
const CLASSES: usize = FINE_CLASSES + COARSE_CLASSES;
/// Chunks are taken from the system allocator in this size (a larger request gets its own).
const CHUNK_SIZE: usize = 1 << 20;

/// The class of a request of `size` bytes (`size` <= [`LARGEST_CLASS`]).
#[inline]
fn class_of(size: usize) -> usize {
    if size <= FINE_LIMIT {
        // 0 bytes shares the 16-byte class.
        size.saturating_sub(1) / CLASS_ALIGN
    } else {
        // 1025..=2048 -> FINE_CLASSES, 2049..=4096 -> +1, ...
        let log2 = usize::BITS - (size - 1).leading_zeros(); // ceil(log2(size))
        FINE_CLASSES + (log2 as usize - 11)
    }
}

/// The block size of a class.
#[inline]
fn class_size(class: usize) -> usize {
    if class < FINE_CLASSES {
        (class + 1) * CLASS_ALIGN
    } else {
        2048 << (class - FINE_CLASSES)
    }
}

#[inline]
fn is_small(layout: &Layout) -> bool {
    layout.size() <= LARGEST_CLASS && layout.align() <= CLASS_ALIGN
}

struct Heap {
    /// Head of each class's free list; a free block's first word points to the next.
    free: [*mut u8; CLASSES],
    /// The unused rest of the current chunk.
    bump: *mut u8,
    end: *mut u8,
}

thread_local! {
    static HEAP: UnsafeCell<Heap> = const {
        UnsafeCell::new(Heap { free: [ptr::null_mut(); CLASSES], bump: ptr::null_mut(), end: ptr::null_mut() })
    };
}

impl Heap {
    #[inline]
    unsafe fn alloc(&mut self, class: usize) -> *mut u8 {
        let head = self.free[class];
        if !head.is_null() {
            self.free[class] = *(head as *mut *mut u8);
            return head;
        }
        let size = class_size(class);
        if (self.end as usize) - (self.bump as usize) < size {
            return self.refill(size);
        }
        let p = self.bump;
        self.bump = p.add(size);
        p
    }

    /// Starts a new chunk and carves `size` bytes from it. What is left of the old chunk is
    /// given to the free lists so that it is not lost.
    #[cold]
    unsafe fn refill(&mut self, size: usize) -> *mut u8 {
        self.release_rest();
        let chunk = System.alloc(Layout::from_size_align_unchecked(CHUNK_SIZE, CLASS_ALIGN));
        if chunk.is_null() {
            return chunk;
        }
        self.bump = chunk.add(size);
        self.end = chunk.add(CHUNK_SIZE);
        chunk
    }

    /// Puts the unused rest of the current chunk on the free lists, largest classes first.
    unsafe fn release_rest(&mut self) {
        let mut rest = (self.end as usize) - (self.bump as usize);
        while rest >= CLASS_ALIGN {
            let mut class = if rest >= LARGEST_CLASS {
                CLASSES - 1
            } else {
                class_of(rest)
            };
            if class_size(class) > rest {
                class -= 1;
            }
            let size = class_size(class);
            self.free_block(self.bump, class);
            self.bump = self.bump.add(size);
            rest -= size;
        }
    }

    #[inline]
    unsafe fn free_block(&mut self, p: *mut u8, class: usize) {
        *(p as *mut *mut u8) = self.free[class];
        self.free[class] = p;
    }

    /// Grows or shrinks a class block in place when it is the last one carved from the current
    /// chunk and the chunk has room.
    #[inline]
    unsafe fn resize_in_place(&mut self, p: *mut u8, old_class: usize, new_class: usize) -> bool {
        if p.add(class_size(old_class)) != self.bump {
            return false;
        }
        let new_end = p.add(class_size(new_class));
        if new_end > self.end {
            return false;
        }
        self.bump = new_end;
        true
    }
}

/// The allocator installed by `main.rs`.
pub struct ClassAllocator;

unsafe impl GlobalAlloc for ClassAllocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !is_small(&layout) {
            return System.alloc(layout);
        }
        HEAP.with(|h| (*h.get()).alloc(class_of(layout.size())))
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        if !is_small(&layout) {
            return System.dealloc(p, layout);
        }
        HEAP.with(|h| (*h.get()).free_block(p, class_of(layout.size())))
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        match (is_small(&layout), is_small(&new_layout)) {
            (false, false) => System.realloc(p, layout, new_size),
            (true, true) => {
                let old_class = class_of(layout.size());
                let new_class = class_of(new_size);
                if old_class == new_class {
                    return p;
                }
                HEAP.with(|h| {
                    let heap = &mut *h.get();
                    if heap.resize_in_place(p, old_class, new_class) {
                        return p;
                    }
                    let q = heap.alloc(new_class);
                    if !q.is_null() {
                        ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                        heap.free_block(p, old_class);
                    }
                    q
                })
            }
            _ => {
                let q = self.alloc(new_layout);
                if !q.is_null() {
                    ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
                    self.dealloc(p, layout);
                }
                q
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_every_small_size_exactly_once() {
        let mut last_class = 0;
        for size in 1..=LARGEST_CLASS {
            let class = class_of(size);
            assert!(class < CLASSES, "size {size}");
            assert!(class_size(class) >= size, "size {size} class {class}");
            if class > 0 {
                assert!(
                    class_size(class - 1) < size,
                    "size {size} fits a smaller class"
                );
            }
            assert!(class == last_class || class == last_class + 1);
            last_class = class;
        }
        assert_eq!(class_of(0), 0);
        assert_eq!(class_size(CLASSES - 1), LARGEST_CLASS);
    }

    #[test]
    fn blocks_are_distinct_aligned_reused_and_keep_contents() {
        let a = ClassAllocator;
        unsafe {
            let l24 = Layout::from_size_align(24, 8).unwrap();
            let p = a.alloc(l24);
            let q = a.alloc(l24);
            assert_ne!(p, q);
            assert_eq!(p as usize % CLASS_ALIGN, 0);
            a.dealloc(p, l24);
            assert_eq!(a.alloc(l24), p, "a freed block is reused first");
            // Growing the newest block keeps it in place and keeps the bytes.
            let r = a.alloc(Layout::from_size_align(40, 8).unwrap());
            for i in 0..40 {
                *r.add(i) = i as u8;
            }
            let r2 = a.realloc(r, Layout::from_size_align(40, 8).unwrap(), 3000);
            assert_eq!(r2, r);
            // Growing an older block moves it and copies the bytes.
            for i in 0..24 {
                *q.add(i) = 100 + i as u8;
            }
            let q2 = a.realloc(q, l24, 200_000);
            assert_ne!(q2, q);
            for i in 0..24 {
                assert_eq!(*q2.add(i), 100 + i as u8);
            }
            a.dealloc(q2, Layout::from_size_align(200_000, 8).unwrap());
            a.dealloc(r2, Layout::from_size_align(3000, 8).unwrap());
        }
    }
}

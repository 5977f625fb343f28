//! The driver's memory allocator: size classes carved from large chunks, with a free list
//! per class, and large blocks from the same memory.
//!
//! Why not the system allocator: a compilation makes hundreds of thousands of small, short-lived
//! allocations (vectors of tokens, IR, machine instructions per function) and grows vectors by
//! doubling. glibc's malloc spends about 200 instructions per allocate/free pair on them and
//! copies on every growth. Here an allocation of a small class is a pop from a list or a bump of
//! a pointer, a free is a push, and a vector growing at the end of the current chunk grows in
//! place. Memory of a class is reused for that class and never returned to the system; the
//! compiler is a short-lived process, so that costs little.
//!
//! Why its own pages: page faults were a quarter of `-fsyntax-only`'s CPU time (about 10,000
//! on a large unit, each a few microseconds in the kernel of a virtual machine). On Linux all
//! memory comes from large mappings advised for transparent huge pages
//! (`madvise(MADV_HUGEPAGE)`), so a first touch faults in 2 MiB instead of 4 KiB, and fresh
//! memory is known to be zero, so a zeroed request (`vec![0; n]`) touches nothing. Blocks
//! above [`LARGEST_CLASS`] are cut from the mappings in 64 KiB granules and kept on a free
//! list of their own when freed. Elsewhere large blocks and chunks come from the system
//! allocator.
//!
//! Each thread carves its own memory (the state is thread-local), so no locking is needed.
//! A block freed by another thread than the one that allocated it simply joins that thread's
//! free lists: blocks are plain memory and mappings are never unmapped, so any thread may
//! reuse them.

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
/// Chunks for the classes are cut in this size.
const CHUNK_SIZE: usize = 1 << 20;
/// Large blocks are multiples of this, aligned to it.
const GRANULE: usize = LARGEST_CLASS;

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

/// The size of the large block that holds `size` bytes.
#[inline]
fn large_size(size: usize) -> usize {
    size.div_ceil(GRANULE).max(1) * GRANULE
}

/// Memory mapped for the heap.
#[cfg(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
))]
mod pages {
    use std::ffi::{c_int, c_long, c_void};

    extern "C" {
        fn mmap(
            a: *mut c_void,
            len: usize,
            prot: c_int,
            flags: c_int,
            fd: c_int,
            off: c_long,
        ) -> *mut c_void;
        fn madvise(a: *mut c_void, len: usize, advice: c_int) -> c_int;
    }
    // The generic Linux values (x86-64, AArch64 and RISC-V share them).
    const PROT_READ: c_int = 1;
    const PROT_WRITE: c_int = 2;
    const MAP_PRIVATE: c_int = 2;
    const MAP_ANONYMOUS: c_int = 0x20;
    const MAP_NORESERVE: c_int = 0x4000;
    const MAP_FAILED: *mut c_void = !0usize as *mut c_void;
    const MADV_HUGEPAGE: c_int = 14;

    /// Whether the heap maps its own memory here.
    pub const MAPS: bool = true;
    /// The size of a huge page.
    const HUGE: usize = 2 << 20;
    /// Memory is mapped in this size at least (reserved, not committed: pages cost only once
    /// touched).
    pub const REGION: usize = 64 << 20;

    /// A new mapping of at least `len` bytes (a multiple of [`HUGE`]) aligned to [`HUGE`] and
    /// advised for huge pages; null when the system refuses.
    pub unsafe fn map(len: usize) -> *mut u8 {
        let Some(whole) = len.checked_add(HUGE) else {
            return std::ptr::null_mut();
        };
        let p = mmap(
            std::ptr::null_mut(),
            whole,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
            -1,
            0,
        );
        if p == MAP_FAILED {
            return std::ptr::null_mut();
        }
        // The unaligned head and tail stay mapped and unused: never touched, they cost
        // address space only.
        let aligned = ((p as usize + HUGE - 1) & !(HUGE - 1)) as *mut u8;
        // Advice is a hint: without huge pages the memory still works.
        madvise(aligned.cast(), len, MADV_HUGEPAGE);
        aligned
    }

    /// `len` rounded up to whole huge pages.
    pub fn round(len: usize) -> usize {
        len.div_ceil(HUGE) * HUGE
    }
}

#[cfg(not(all(
    target_os = "linux",
    any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "riscv64"
    )
)))]
mod pages {
    pub const MAPS: bool = false;
    pub const REGION: usize = 0;
    pub unsafe fn map(_: usize) -> *mut u8 {
        std::ptr::null_mut()
    }
    pub fn round(len: usize) -> usize {
        len
    }
}

/// A free large block: its first bytes.
struct FreeLarge {
    next: *mut FreeLarge,
    size: usize,
}

struct Heap {
    /// Head of each class's free list; a free block's first word points to the next.
    free: [*mut u8; CLASSES],
    /// The unused rest of the current chunk.
    bump: *mut u8,
    end: *mut u8,
    /// The never-used rest of the current mapping, from which chunks and large blocks are cut
    /// (zero, since nothing has touched it).
    fresh: *mut u8,
    fresh_end: *mut u8,
    /// Memory of the current mapping at and above this was never handed out, so it is still
    /// zero (`fresh` may be below it: a block at the end given back).
    untouched: *mut u8,
    /// Freed large blocks (and leftover mapping tails), unsorted.
    free_large: *mut FreeLarge,
}

thread_local! {
    static HEAP: UnsafeCell<Heap> = const {
        UnsafeCell::new(Heap {
            free: [ptr::null_mut(); CLASSES],
            bump: ptr::null_mut(),
            end: ptr::null_mut(),
            fresh: ptr::null_mut(),
            fresh_end: ptr::null_mut(),
            untouched: ptr::null_mut(),
            free_large: ptr::null_mut(),
        })
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
        let chunk = if pages::MAPS {
            // A gap freed between live blocks first (room a vector reserved and gave
            // back): its huge pages are likely faulted in already.
            self.alloc_large(CHUNK_SIZE, false)
        } else {
            System.alloc(Layout::from_size_align_unchecked(CHUNK_SIZE, CLASS_ALIGN))
        };
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

    /// `size` bytes (a multiple of [`GRANULE`]) from the end of the current mapping, mapping
    /// more when it has too little left (its rest joins the large free list); zero with
    /// `zeroed`.
    unsafe fn cut_fresh(&mut self, size: usize, zeroed: bool) -> *mut u8 {
        if (self.fresh_end as usize) - (self.fresh as usize) < size {
            let len = pages::round(size.max(pages::REGION));
            let m = pages::map(len);
            if m.is_null() {
                return m;
            }
            let rest = (self.fresh_end as usize) - (self.fresh as usize);
            if rest >= GRANULE {
                self.free_large(self.fresh, rest);
            }
            self.fresh = m;
            self.fresh_end = m.add(len);
            self.untouched = m;
        }
        let p = self.fresh;
        self.fresh = p.add(size);
        if zeroed && p < self.untouched {
            ptr::write_bytes(p, 0, (self.untouched as usize - p as usize).min(size));
        }
        self.untouched = self.untouched.max(self.fresh);
        p
    }

    /// A large block of `size` bytes (a multiple of [`GRANULE`]): the first free one that is
    /// big enough (its rest stays free), or fresh memory. With `zeroed`, its bytes are zero.
    unsafe fn alloc_large(&mut self, size: usize, zeroed: bool) -> *mut u8 {
        let mut link: *mut *mut FreeLarge = &mut self.free_large;
        while !(*link).is_null() {
            let b = *link;
            if (*b).size >= size {
                *link = (*b).next;
                let rest = (*b).size - size;
                let p = b as *mut u8;
                if rest > 0 {
                    self.free_large(p.add(size), rest);
                }
                if zeroed {
                    ptr::write_bytes(p, 0, size);
                }
                return p;
            }
            link = &mut (*b).next;
        }
        self.cut_fresh(size, zeroed)
    }

    #[inline]
    unsafe fn free_large(&mut self, p: *mut u8, size: usize) {
        // The last block cut from the mapping goes back to it (a vector that grew there).
        if p.add(size) == self.fresh {
            self.fresh = p;
            return;
        }
        let b = p as *mut FreeLarge;
        b.write(FreeLarge {
            next: self.free_large,
            size,
        });
        self.free_large = b;
    }

    /// Resizes a large block in place when it is the last one cut from the mapping and the
    /// mapping has room, or when it shrinks.
    unsafe fn resize_large_in_place(&mut self, p: *mut u8, old: usize, new: usize) -> bool {
        if new <= old {
            if new < old {
                self.free_large(p.add(new), old - new);
            }
            return true;
        }
        if p.add(old) == self.fresh && (self.fresh_end as usize) - (p as usize) >= new {
            self.fresh = p.add(new);
            self.untouched = self.untouched.max(self.fresh);
            return true;
        }
        false
    }
}

/// The allocator installed by `main.rs`.
pub struct ClassAllocator;

/// Whether a block of `layout` comes from the heap's mappings (else from [`System`]).
#[inline]
fn is_mapped_large(layout: &Layout) -> bool {
    pages::MAPS && layout.align() <= GRANULE
}

unsafe impl GlobalAlloc for ClassAllocator {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if is_small(&layout) {
            return HEAP.with(|h| (*h.get()).alloc(class_of(layout.size())));
        }
        if is_mapped_large(&layout) {
            return HEAP.with(|h| (*h.get()).alloc_large(large_size(layout.size()), false));
        }
        System.alloc(layout)
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if is_small(&layout) {
            let p = self.alloc(layout);
            if !p.is_null() {
                ptr::write_bytes(p, 0, layout.size());
            }
            return p;
        }
        if is_mapped_large(&layout) {
            // Never-used memory is zero already: untouched, it is never faulted in.
            return HEAP.with(|h| (*h.get()).alloc_large(large_size(layout.size()), true));
        }
        System.alloc_zeroed(layout)
    }

    #[inline]
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        if is_small(&layout) {
            return HEAP.with(|h| (*h.get()).free_block(p, class_of(layout.size())));
        }
        if is_mapped_large(&layout) {
            return HEAP.with(|h| (*h.get()).free_large(p, large_size(layout.size())));
        }
        System.dealloc(p, layout)
    }

    #[inline]
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let (old_small, new_small) = (is_small(&layout), is_small(&new_layout));
        if old_small && new_small {
            let old_class = class_of(layout.size());
            let new_class = class_of(new_size);
            if old_class == new_class {
                return p;
            }
            return HEAP.with(|h| {
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
            });
        }
        if !old_small && !new_small {
            if !is_mapped_large(&layout) {
                return System.realloc(p, layout, new_size);
            }
            let (old, new) = (large_size(layout.size()), large_size(new_size));
            if HEAP.with(|h| (*h.get()).resize_large_in_place(p, old, new)) {
                return p;
            }
        }
        let q = self.alloc(new_layout);
        if !q.is_null() {
            ptr::copy_nonoverlapping(p, q, layout.size().min(new_size));
            self.dealloc(p, layout);
        }
        q
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

    /// Large blocks: aligned, distinct, reused after a free, grown in place at the end of
    /// the mapping, moved with their bytes otherwise, and zero when asked.
    #[test]
    fn large_blocks_are_reused_grown_and_zeroed() {
        let a = ClassAllocator;
        let layout = |n: usize| Layout::from_size_align(n, 8).unwrap();
        unsafe {
            // A thread of its own: the heap is per thread, so nothing else interleaves.
            std::thread::spawn(move || {
                let p = a.alloc(layout(100_000));
                let q = a.alloc(layout(300_000));
                assert_ne!(p, q);
                for b in [p, q] {
                    assert_eq!(b as usize % CLASS_ALIGN, 0);
                }
                for i in 0..100_000 {
                    *p.add(i) = i as u8;
                }
                // `q` is the newest: it grows where it is.
                let q2 = a.realloc(q, layout(300_000), 5_000_000);
                if pages::MAPS {
                    assert_eq!(q2, q);
                }
                *q2.add(4_999_999) = 7;
                // `p` is not: it moves, keeping its bytes.
                let p2 = a.realloc(p, layout(100_000), 1_000_000);
                assert_ne!(p2, p);
                for i in 0..100_000 {
                    assert_eq!(*p2.add(i), i as u8);
                }
                // The freed block is reused for a request that fits, and zeroed when asked.
                let z = a.alloc_zeroed(layout(70_000));
                if pages::MAPS {
                    assert_eq!(z, p, "the freed block is reused");
                }
                assert!((0..70_000).all(|i| *z.add(i) == 0));
                let big = a.alloc_zeroed(layout(3 << 20));
                assert!((0..3 << 20).step_by(4096).all(|i| *big.add(i) == 0));
                // A written block given back to the end of the mapping is zeroed again.
                let w = a.alloc(layout(200_000));
                ptr::write_bytes(w, 0xa5, 200_000);
                a.dealloc(w, layout(200_000));
                let w2 = a.alloc_zeroed(layout(250_000));
                if pages::MAPS {
                    assert_eq!(w2, w, "the last block goes back to the mapping");
                }
                assert!((0..250_000).all(|i| *w2.add(i) == 0));
                a.dealloc(w2, layout(250_000));
                a.dealloc(big, layout(3 << 20));
                a.dealloc(z, layout(70_000));
                a.dealloc(p2, layout(1_000_000));
                a.dealloc(q2, layout(5_000_000));
            })
            .join()
            .unwrap();
        }
    }

    /// Room given back by a shrinking block (a vector's unused reservation) is where the next
    /// chunk of small blocks is carved, before fresh memory.
    #[test]
    fn chunks_are_cut_from_room_given_back_first() {
        let a = ClassAllocator;
        let layout = |n: usize| Layout::from_size_align(n, 8).unwrap();
        unsafe {
            std::thread::spawn(move || {
                if !pages::MAPS {
                    return;
                }
                let v = a.alloc(layout(4 << 20));
                // A block after it, so that its tail is a gap, not the end of the mapping.
                let after = a.alloc(layout(100_000));
                let v2 = a.realloc(v, layout(4 << 20), 1 << 20);
                assert_eq!(v2, v, "shrinking keeps the block in place");
                // Use up the current chunk of the 48-byte class, then one block more.
                let l48 = layout(48);
                let gap = (v as usize + (1 << 20))..(v as usize + (4 << 20));
                let mut carved = Vec::new();
                loop {
                    let b = a.alloc(l48);
                    carved.push(b);
                    if gap.contains(&(b as usize)) {
                        break;
                    }
                    assert!(carved.len() <= CHUNK_SIZE / 48 + 1, "no chunk from the gap");
                }
                for b in carved {
                    a.dealloc(b, l48);
                }
                a.dealloc(after, layout(100_000));
                a.dealloc(v2, layout(1 << 20));
            })
            .join()
            .unwrap();
        }
    }
}

//! The `neverc` driver: a gcc-compatible command line that runs the compiler's stages
//! (preprocess, compile, assemble, link) for the selected target.

mod alloc;
mod compile;
mod deps;
mod driver;
mod info;
mod options;
mod plans_check;
mod preprocess;
mod print_abi;
mod resource;

#[global_allocator]
static ALLOCATOR: alloc::ClassAllocator = alloc::ClassAllocator;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = driver::run(args);
    std::process::exit(code);
}

//! Per-line cost of [`Miner::add_numbered`] on a file, in steady state.
//!
//! ```text
//! cargo run --release -p briefly-template --example throughput -- FILE [--rounds N] [--mask]
//! ```
//!
//! The file's lines are read into memory first. One warm-up pass builds the
//! templates; then each of `N` rounds (default 5) feeds every line to the
//! same miner again, timed in blocks of 4096 lines. The median and the
//! fastest block are reported in ns/line (the fastest block is the most
//! stable figure on a busy machine). `--mask` also times the masking
//! alone ([`MaskedLine::fill`], buffers reused as the reducers do) and through a
//! [`Masker`], which looks lines up by shape first.

use std::time::Instant;

use briefly_template::{Config, MaskedLine, Masker, Miner};

fn main() {
    let mut path = None;
    let mut rounds = 5usize;
    let mut do_mask = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => {
                rounds = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--rounds N");
            }
            "--mask" => do_mask = true,
            _ => path = Some(a),
        }
    }
    let Some(path) = path else {
        eprintln!("usage: throughput FILE [--rounds N] [--mask]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(&path).expect("read file");
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    if lines.is_empty() {
        eprintln!("no lines");
        return;
    }
    let mut miner = Miner::new(Config::default());
    let mut n = 0u64;
    let t0 = Instant::now();
    for l in &lines {
        n += 1;
        std::hint::black_box(miner.add_numbered(l, n));
    }
    let first = t0.elapsed().as_nanos() as f64 / lines.len() as f64;
    let mut blocks = Vec::new();
    for _ in 0..rounds {
        for block in lines.chunks(BLOCK) {
            let t = Instant::now();
            for l in block {
                n += 1;
                std::hint::black_box(miner.add_numbered(std::hint::black_box(l), n));
            }
            blocks.push(t.elapsed().as_nanos() as f64 / block.len() as f64);
        }
    }
    let (median, best) = summary(&mut blocks);
    println!(
        "{path}: {} lines, {} bytes, {} templates",
        lines.len(),
        bytes.len(),
        miner.len()
    );
    println!("first pass:       {first:8.1} ns/line");
    println!("add_numbered:     {median:8.1} ns/line median, {best:8.1} fastest block");
    if do_mask {
        let config = Config::default();
        let mut masked = MaskedLine::default();
        let (median, best) = time_blocks(&lines, rounds, |l| {
            masked.fill(l, &config);
            std::hint::black_box(&masked);
        });
        println!("MaskedLine::fill: {median:8.1} ns/line median, {best:8.1} fastest block");
        let mut masker = Masker::new(&config);
        let (median, best) = time_blocks(&lines, rounds, |l| {
            masker.fill(l, &mut masked);
            std::hint::black_box(&masked);
        });
        println!("Masker::fill:     {median:8.1} ns/line median, {best:8.1} fastest block");
    }
}

/// Median and fastest ns/line of `each` over `rounds` passes, timed in blocks.
fn time_blocks(lines: &[&str], rounds: usize, mut each: impl FnMut(&str)) -> (f64, f64) {
    let mut blocks = Vec::new();
    for _ in 0..rounds {
        for block in lines.chunks(BLOCK) {
            let t = Instant::now();
            for l in block {
                each(std::hint::black_box(l));
            }
            blocks.push(t.elapsed().as_nanos() as f64 / block.len() as f64);
        }
    }
    summary(&mut blocks)
}

/// Lines per timed block.
const BLOCK: usize = 4096;

/// Median and minimum.
fn summary(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0])
}

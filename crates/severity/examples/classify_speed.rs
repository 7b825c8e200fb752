//! ns per line for `classify` over a file, and for `inspect_lines` over the same lines
//! at once: `cargo run --release -p briefly-severity --example classify_speed FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let per_line =
        |elapsed: std::time::Duration| elapsed.as_nanos() as f64 / lines.len().max(1) as f64;
    let start = std::time::Instant::now();
    let serious = lines
        .iter()
        .filter(|l| briefly_severity::classify(l) >= Some(briefly_severity::Severity::Warn))
        .count();
    println!(
        "classify: {} lines, {serious} warn or worse, {:.0} ns/line",
        lines.len(),
        per_line(start.elapsed())
    );
    // In batches of 4,096 lines, as a reducer's worker sees them; seven passes, as the
    // machine's load varies: the median and the fastest.
    let mut out = Vec::new();
    let mut serious = 0;
    let mut passes = Vec::new();
    for _ in 0..7 {
        let start = std::time::Instant::now();
        serious = 0;
        let mut offset = 0;
        for batch in lines.chunks(4096) {
            let ranges = batch.iter().map(|l| {
                let start = l.as_ptr() as usize - text.as_ptr() as usize;
                start..start + l.len()
            });
            let end = batch.last().map_or(offset, |l| {
                l.as_ptr() as usize - text.as_ptr() as usize + l.len()
            });
            inspect_batch(&text[..end], ranges, &mut out);
            offset = end;
            serious += out
                .iter()
                .filter(|i| i.severity >= Some(briefly_severity::Severity::Warn))
                .count();
        }
        passes.push(per_line(start.elapsed()));
    }
    passes.sort_by(f64::total_cmp);
    println!(
        "inspect_lines: {serious} warn or worse, {:.0} ns/line median, {:.0} fastest",
        passes[passes.len() / 2],
        passes[0]
    );
}

fn inspect_batch(
    text: &str,
    ranges: impl Iterator<Item = std::ops::Range<usize>>,
    out: &mut Vec<briefly_severity::Inspection>,
) {
    let ranges: Vec<_> = ranges.collect();
    let first = ranges.first().map_or(0, |r| r.start);
    let shifted = ranges.iter().map(|r| r.start - first..r.end - first);
    briefly_severity::inspect_lines(&text[first..], shifted, out);
}

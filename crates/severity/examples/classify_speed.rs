//! ns per line for `classify` over a file: `cargo run --release -p briefly-severity --example classify_speed FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = String::from_utf8_lossy(&std::fs::read(path).expect("readable")).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let start = std::time::Instant::now();
    let serious = lines
        .iter()
        .filter(|l| briefly_severity::classify(l) >= Some(briefly_severity::Severity::Warn))
        .count();
    let elapsed = start.elapsed();
    println!(
        "{} lines, {serious} warn or worse, {:.0} ns/line",
        lines.len(),
        elapsed.as_nanos() as f64 / lines.len().max(1) as f64
    );
}

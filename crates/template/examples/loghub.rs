//! Grouping accuracy and throughput of the miner on the loghub 2k sets.
//!
//! ```text
//! cargo run --release --example loghub -- /path/to/loghub [--json] [--set NAME] [--errors]
//! ```
//!
//! For each `<dir>/<Set>/<Set>_2k.log`, the raw lines go through a [`Miner`]
//! with the default config; the resulting groups are scored against the
//! `EventId` column of `<Set>_2k.log_structured.csv` with the grouping
//! accuracy of the log-parsing literature (a line is correct when the set of
//! lines of its predicted group equals the set of lines of its true event).
//! Throughput is measured on the lines held in memory.
//!
//! `--rounds N` times exactly N rounds (for an instruction count under callgrind, which
//! a clock-bound number of rounds would make vary).
//!
//! `--errors` prints, for each set, the true events that were not grouped
//! exactly, with the predicted groups their lines went to; `--templates`
//! prints the most frequent templates.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use briefly_template::{Config, GroupId, Miner};

const SETS: [&str; 16] = [
    "Android",
    "Apache",
    "BGL",
    "HDFS",
    "HPC",
    "Hadoop",
    "HealthApp",
    "Linux",
    "Mac",
    "OpenSSH",
    "OpenStack",
    "Proxifier",
    "Spark",
    "Thunderbird",
    "Windows",
    "Zookeeper",
];

/// Parses CSV text (RFC 4180: quoted fields, doubled quotes, commas and
/// newlines inside quotes) into records.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    let mut any = false;
    while let Some(c) = chars.next() {
        any = true;
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
            continue;
        }
        match c {
            '"' => quoted = true,
            ',' => row.push(std::mem::take(&mut field)),
            '\r' => {}
            '\n' => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
                any = false;
            }
            _ => field.push(c),
        }
    }
    if any {
        row.push(field);
        rows.push(row);
    }
    rows
}

struct Truth {
    /// Event id per line (index = LineId - 1).
    events: Vec<String>,
    templates: HashMap<String, String>,
}

fn load_truth(path: &Path) -> Result<Truth, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let rows = parse_csv(&text);
    let header = rows.first().ok_or("empty csv")?;
    let col = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .ok_or(format!("{}: no column {name}", path.display()))
    };
    let (c_line, c_event, c_tpl) = (col("LineId")?, col("EventId")?, col("EventTemplate")?);
    let mut events = Vec::new();
    let mut templates = HashMap::new();
    for r in &rows[1..] {
        let line: usize = r[c_line].trim().parse().map_err(|_| "bad LineId")?;
        if line != events.len() + 1 {
            return Err(format!("{}: LineId {line} out of order", path.display()));
        }
        events.push(r[c_event].clone());
        templates.insert(r[c_event].clone(), r[c_tpl].clone());
    }
    Ok(Truth { events, templates })
}

/// Grouping accuracy: share of lines whose predicted group has exactly the
/// lines of their true event.
fn grouping_accuracy(pred: &[GroupId], truth: &[String]) -> f64 {
    let n = pred.len().min(truth.len());
    let mut by_pred: HashMap<GroupId, Vec<usize>> = HashMap::new();
    let mut event_size: HashMap<&str, usize> = HashMap::new();
    for (i, (p, e)) in pred.iter().zip(truth).enumerate().take(n) {
        by_pred.entry(*p).or_default().push(i);
        *event_size.entry(e).or_default() += 1;
    }
    let mut correct = 0;
    for lines in by_pred.values() {
        let e = &truth[lines[0]];
        if lines.iter().all(|&i| &truth[i] == e) && event_size[e.as_str()] == lines.len() {
            correct += lines.len();
        }
    }
    correct as f64 / n as f64
}

struct SetResult {
    name: String,
    lines: usize,
    templates: usize,
    events: usize,
    accuracy: f64,
    /// In the median round.
    lines_per_sec: f64,
    /// In the fastest round.
    best_lines_per_sec: f64,
}

fn run_set(
    dir: &Path,
    name: &str,
    config: &Config,
    rounds: Option<usize>,
    errors: bool,
    show_templates: bool,
) -> Result<SetResult, String> {
    let log = dir.join(name).join(format!("{name}_2k.log"));
    let csv = dir.join(name).join(format!("{name}_2k.log_structured.csv"));
    let bytes = std::fs::read(&log).map_err(|e| format!("{}: {e}", log.display()))?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let truth = load_truth(&csv)?;

    let mut miner = Miner::new(config.clone());
    let mut ids: Vec<GroupId> = lines.iter().map(|l| miner.add(l)).collect();
    for id in &mut ids {
        *id = miner.resolve(*id);
    }
    let accuracy = grouping_accuracy(&ids, &truth.events);
    let events = truth
        .events
        .iter()
        .collect::<std::collections::HashSet<_>>()
        .len();

    // Throughput: at least 5 rounds and 0.3 s, a fresh miner each round (the first
    // pass over a set is the expensive one); the median round, and the best, as the
    // Drain3 script measures its own.
    let mut round_secs = Vec::new();
    let start = Instant::now();
    let mut sink = 0u64;
    let more = |done: usize| match rounds {
        Some(n) => done < n,
        None => done < 5 || start.elapsed().as_secs_f64() < 0.3,
    };
    while more(round_secs.len()) {
        let round = Instant::now();
        let mut m = Miner::new(config.clone());
        for l in &lines {
            sink = sink.wrapping_add(u64::from(m.add(l).0));
        }
        drop(m);
        round_secs.push(round.elapsed().as_secs_f64());
    }
    std::hint::black_box(sink);
    round_secs.sort_by(f64::total_cmp);
    let per_sec = |secs: f64| lines.len() as f64 / secs;
    let lines_per_sec = per_sec(round_secs[round_secs.len() / 2]);
    let best_lines_per_sec = per_sec(round_secs[0]);

    if errors {
        print_errors(name, &lines, &ids, &truth, &miner);
    }
    if show_templates {
        let mut all: Vec<_> = miner.templates().collect();
        all.sort_by_key(|t| std::cmp::Reverse(t.count()));
        println!("==== {name}: {} templates", all.len());
        for t in all.iter().take(15) {
            println!("{:>6}  {}", t.count(), t.text());
        }
    }
    Ok(SetResult {
        name: name.to_string(),
        lines: lines.len(),
        templates: miner.len(),
        events,
        accuracy,
        lines_per_sec,
        best_lines_per_sec,
    })
}

fn print_errors(name: &str, lines: &[&str], ids: &[GroupId], truth: &Truth, miner: &Miner) {
    let n = ids.len().min(truth.events.len());
    let mut by_event: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut by_pred: HashMap<GroupId, Vec<usize>> = HashMap::new();
    for (i, (id, event)) in ids.iter().zip(&truth.events).enumerate().take(n) {
        by_event.entry(event).or_default().push(i);
        by_pred.entry(*id).or_default().push(i);
    }
    let mut bad: Vec<(&str, &Vec<usize>)> = by_event
        .iter()
        .filter(|(_, v)| {
            let p = &by_pred[&ids[v[0]]];
            v.iter().any(|&i| ids[i] != ids[v[0]]) || p.len() != v.len()
        })
        .map(|(e, v)| (*e, v))
        .collect();
    bad.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    println!("==== {name}: {} events not grouped exactly", bad.len());
    for (e, v) in bad {
        println!("  {e} ({} lines): {}", v.len(), truth.templates[e]);
        let mut groups: Vec<(GroupId, usize)> = Vec::new();
        for &i in v {
            match groups.iter_mut().find(|(g, _)| *g == ids[i]) {
                Some((_, c)) => *c += 1,
                None => groups.push((ids[i], 1)),
            }
        }
        for (g, c) in groups.iter().take(6) {
            let t = miner.get(*g).map(|t| t.text()).unwrap_or_default();
            let others: Vec<String> = {
                let mut o: Vec<String> = by_pred[g]
                    .iter()
                    .map(|&i| truth.events[i].clone())
                    .filter(|x| x != e)
                    .collect();
                o.sort();
                o.dedup();
                o
            };
            let first = by_pred[g].iter().find(|&&i| truth.events[i] == e).copied();
            println!(
                "     -> group {g} ({c} of its {}) also {:?}: {}",
                by_pred[g].len(),
                others.iter().take(5).collect::<Vec<_>>(),
                t
            );
            if let Some(i) = first {
                println!("        e.g. {}", lines[i]);
            }
        }
        if groups.len() > 6 {
            println!("     ... {} groups", groups.len());
        }
    }
}

fn main() {
    let mut dir: Option<PathBuf> = None;
    let mut json = false;
    let mut errors = false;
    let mut show_templates = false;
    let mut only: Option<String> = None;
    let mut rounds: Option<usize> = None;
    let mut config = Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--json" => json = true,
            "--errors" => errors = true,
            "--templates" => show_templates = true,
            "--set" => only = args.next(),
            "--rounds" => {
                let n = args.next().and_then(|v| v.parse().ok()).filter(|&n| n > 0);
                rounds = Some(n.unwrap_or_else(|| {
                    eprintln!("--rounds takes a number of rounds, 1 or more");
                    std::process::exit(2)
                }))
            }
            "--similarity" => config.similarity = args.next().and_then(|v| v.parse().ok()).unwrap(),
            "--min-distinct" => {
                config.min_distinct_values = args.next().and_then(|v| v.parse().ok()).unwrap()
            }
            "--max-length-delta" => {
                config.max_length_delta = args.next().and_then(|v| v.parse().ok()).unwrap()
            }
            "-h" | "--help" => {
                println!(
                    "usage: loghub [DIR] [--json] [--errors] [--templates] [--set NAME] \
                     [--rounds N] [--similarity F] [--min-distinct N] [--max-length-delta N]"
                );
                return;
            }
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let dir = dir.unwrap_or_else(|| PathBuf::from("../shared/data/loghub"));
    let mut results = Vec::new();
    for name in SETS {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        match run_set(&dir, name, &config, rounds, errors, show_templates) {
            Ok(r) => results.push(r),
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        }
    }
    let avg = results.iter().map(|r| r.accuracy).sum::<f64>() / results.len().max(1) as f64;
    let total_lines: usize = results.iter().map(|r| r.lines).sum();
    let overall_by = |rate: fn(&SetResult) -> f64| {
        let secs: f64 = results.iter().map(|r| r.lines as f64 / rate(r)).sum();
        total_lines as f64 / secs
    };
    let overall = overall_by(|r| r.lines_per_sec);
    let best_overall = overall_by(|r| r.best_lines_per_sec);
    if json {
        let sets: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"set\":\"{}\",\"lines\":{},\"events\":{},\"templates\":{},\"accuracy\":{:.4},\"lines_per_sec\":{:.0},\"best_lines_per_sec\":{:.0}}}",
                    r.name, r.lines, r.events, r.templates, r.accuracy, r.lines_per_sec, r.best_lines_per_sec
                )
            })
            .collect();
        println!(
            "{{\"sets\":[{}],\"average_accuracy\":{:.4},\"lines_per_sec\":{:.0},\"best_lines_per_sec\":{:.0}}}",
            sets.join(","),
            avg,
            overall,
            best_overall
        );
    } else {
        println!(
            "{:<12} {:>6} {:>7} {:>9} {:>8} {:>12}",
            "set", "lines", "events", "templates", "GA", "lines/s"
        );
        for r in &results {
            println!(
                "{:<12} {:>6} {:>7} {:>9} {:>8.4} {:>12.0}",
                r.name, r.lines, r.events, r.templates, r.accuracy, r.lines_per_sec
            );
        }
        println!(
            "{:<12} {:>6} {:>7} {:>9} {:>8.4} {:>12.0}",
            "average", total_lines, "", "", avg, overall
        );
    }
}

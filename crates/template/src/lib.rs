//! Streaming log template miner.
//!
//! Lines that differ only in variable parts (numbers, hex ids, IPs, paths
//! with numbers, timestamps, durations, sizes, UUIDs, user names ...) fold
//! into one [`Template`] with a count. The miner works on whole raw lines
//! (timestamps, levels, host names and pids included), one line at a time,
//! with memory bounded by [`Config::max_templates`] and not by the number
//! of lines.
//!
//! ```
//! use briefly_template::{Config, Miner};
//!
//! let mut miner = Miner::new(Config::default());
//! let a = miner.add("2024-01-01 10:00:01 INFO worker 7 started in 35 ms");
//! let b = miner.add("2024-01-01 10:00:02 INFO worker 12 started in 40 ms");
//! let c = miner.add("2024-01-01 10:00:03 WARN disk full on /dev/sda1");
//! assert_eq!(miner.resolve(a), miner.resolve(b));
//! assert_ne!(miner.resolve(a), miner.resolve(c));
//! let t = miner.get(a).unwrap();
//! assert_eq!(t.text(), "<*> INFO worker <*> started in <*> ms");
//! assert_eq!(t.count(), 2);
//! ```
//!
//! # How lines are grouped
//!
//! 1. Each line is split on whitespace and masked ([`mask`]): alphanumeric
//!    runs containing a digit, and month / weekday names, become `<*>`.
//! 2. A line whose masked tokens fit an existing template (same length,
//!    equal constant tokens) joins it. This is the fast path: a hash lookup
//!    of the masked line, with no allocation.
//! 3. Otherwise the line joins the most similar template of the same length
//!    if every differing position looks like a value (one side is `<*>`, or
//!    one side contains a masked value and the other a plain word) and at
//!    least [`Config::similarity`] of the constant tokens match; the
//!    differing positions become `<*>`.
//! 4. Otherwise it may join a template of a nearby length, if the
//!    unaligned stretches are short and look like values or units (`18846
//!    bytes (18.4 KB)` against `426 bytes`).
//! 5. Otherwise it starts a new template. When [`Config::min_distinct_values`]
//!    templates are identical except for distinct plain words in one
//!    position (`Invalid user admin`, `... oracle`, `... test`, `... guest`),
//!    that position is variable and they merge: the younger ids then
//!    [`resolve`](Miner::resolve) to the oldest one. Fewer distinct words
//!    (`GET` / `POST`, `opened` / `closed`) stay separate templates.
//!
//! Everything is deterministic: the same input gives the same ids.
//!
//! # Stable ids
//!
//! [`Miner::add`] returns the line's group id at that moment. Ids never
//! change meaning: a later merge only makes an id an alias, and
//! [`Miner::resolve`] maps it to the surviving one. A caller that writes
//! per-line ids resolves them at the end.
//!
//! # Bounded memory
//!
//! At most [`Config::max_templates`] live templates exist. A line that would
//! need one more is counted in the overflow group ([`GroupId::OVERFLOW`],
//! [`Miner::overflow`]), never dropped. Per-line results are returned, not
//! stored.

mod align;
mod mask;
mod miner;
mod timestamp;

pub use mask::{mask, WILDCARD};
pub use miner::{Config, GroupId, Miner, Template};
pub use timestamp::leading_timestamp;

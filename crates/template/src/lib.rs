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
//!    runs containing a digit, month / weekday names and bytes escaped in hex
//!    (`\xdf`) become `<*>`;
//!    bracketed groups and quoted values with spaces are one token; runs of
//!    identical masked tokens are one token.
//! 2. A line whose masked tokens fit an existing template (same length,
//!    equal constant tokens) joins it. This is the fast path: one hash
//!    lookup of the masked line and a token comparison, no allocation.
//! 3. Otherwise the line joins the most similar template of the same length
//!    if every differing position looks like a value (one side is `<*>`,
//!    both sides are masked values or names such as `a.b` / `/x/y`, but not
//!    two groups of words and values that share no word, `(2: No such file or
//!    directory)` / `(13: Permission denied)`, or a
//!    masked value faces a plain word, as a host name with and without
//!    digits), the final word is not among them (`... HTTPS` vs `...
//!    SOCKS5` are two events), `key=` prefixes agree, and at least
//!    [`Config::similarity`] of the plain words match (at least three).
//!    The differing positions become `<*>`.
//! 4. Otherwise it may join a template of a nearby length
//!    ([`Config::max_length_delta`]), if the unaligned stretches are short
//!    and hold only values or units (`18846 bytes (18.4 KB)` against `426
//!    bytes`).
//! 5. Otherwise it starts a new template. When
//!    [`Config::min_distinct_values`] templates are identical except for
//!    distinct plain words in one position (`Invalid user admin`, `...
//!    oracle`, `... test`, `... guest`), that position is variable and they
//!    merge. Fewer distinct words (`GET` / `POST`, `opened` / `closed`) stay
//!    separate templates. Eight distinct words there, each in one or two
//!    lines and after the same word (names after their verb; states repeat,
//!    and follow their thing's id), merge templates however few words they
//!    share, when their lines open with the same word (a build's progress:
//!    `Compiling <*> <*>`, `Built target <*>`,
//!    `Collecting <*>`), and so do eight that differ in values only, too few
//!    words left for a line to join (`CC <*>`); not where a line opens with
//!    its time, whose header's words say which event it is.
//!
//! Header fields are learned, not configured: a plain word seen at the same
//! position (among the first 8 tokens) in at least three different
//! templates is a field value (a host name, a level, a component state).
//! Differences in such fields (against another field value or a masked
//! value) do not split an event, if a word with a letter is left in common
//! (not only an `=`), and when a word becomes a field value the templates it
//! separated are merged.
//!
//! Everything is deterministic: the same input gives the same ids and the
//! same templates. There is no per-format configuration: timestamps, levels,
//! host names and pids at the start of raw lines are handled by the same
//! rules as the message.
//!
//! # Accuracy and speed
//!
//! On the 16 loghub 2k sets (raw lines, default config) the grouping
//! accuracy averages about 0.97; Drain3 with its default config gets about
//! 0.47 on the same raw lines and 0.73 on the message part only. The miner
//! runs at several hundred thousand to over a million lines per second on
//! one core. `benches/loghub/run.sh` (repository root) reproduces both.
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
//! stored. Every other structure (lookup cache, word index, learned fields,
//! merged ids) is bounded by a multiple of the cap (the table of line shapes
//! masked recently, [`Masker`], by a constant), and the work for a line
//! that matches no template is bounded too (at most a few dozen candidate
//! templates per length are compared, those sharing the most words).
//!
//! # Timestamps
//!
//! [`leading_timestamp`] finds a timestamp at the start of a line (ISO 8601,
//! syslog, ctime, epoch, and other common shapes), for callers that keep
//! first / last times per template; [`leading_moment`] and [`read_timestamp`]
//! also say what it reads (a [`Moment`]), for callers that compare times;
//! [`timestamp_range`] also finds an access log's, in a bracket after its first fields,
//! and a JSON or logfmt line's, as its `time`/`ts`/`timestamp` key's value.

mod align;
mod mask;
mod miner;
mod shape;
mod timestamp;

pub use mask::{mask, WILDCARD};
pub use miner::{Config, GroupId, MaskedLine, Miner, Template};
pub use shape::Masker;
pub use timestamp::{
    container_prefix, leading_moment, leading_timestamp, leading_timestamp_range, read_timestamp,
    timestamp_range, zone_offset, Civil, Moment,
};

//! What a line says by itself, worked out ahead of the folding on [`Ahead`]'s threads:
//! its text without ANSI codes, severity, timestamp, masked tokens and whether it
//! matches `--grep`.
//!
//! [`Ahead`]: briefly_core::Ahead

use crate::severity::{self, Opens, Severity};
use briefly_core::{strip_ansi, Prepare, Record, Records};
use briefly_template::{timestamp_range, MaskedLine, Masker};
use regex::Regex;

/// Works out what a line says by itself ([`LineFacts`]); runs ahead of the folding.
#[derive(Clone)]
pub struct Facts {
    /// Masks as the miner does.
    masker: Masker,
    grep: Option<Regex>,
    /// Severities of a batch's lines, from one call ([`Prepare::prepare_batch`]).
    inspections: Vec<severity::Inspection>,
}

/// What a line says by itself, whatever came before it.
#[derive(Debug, Default)]
pub struct LineFacts {
    /// The line without its ANSI codes, when it had some.
    pub(crate) stripped: Option<String>,
    pub(crate) severity: Option<Severity>,
    pub(crate) opens: Option<Opens>,
    /// Where its timestamp is ([`timestamp_range`]).
    pub(crate) stamp: Option<std::ops::Range<usize>>,
    pub(crate) masked: MaskedLine,
    /// It matches `--grep` (or there is none).
    pub(crate) grep_match: bool,
}

impl Prepare for Facts {
    type Output = LineFacts;

    fn prepare(&mut self, record: &Record<'_>, out: &mut LineFacts) {
        let stripped = strip_ansi(record.text, out.stripped.take());
        let text = stripped.as_deref().unwrap_or(record.text);
        self.fill(text, severity::inspect(text), out);
        out.stripped = stripped;
    }

    /// A batch without ANSI codes (nearly every one) has its lines' severities found
    /// in one call over the batch's text ([`severity::inspect_lines`]).
    fn prepare_batch(&mut self, records: Records<'_>, outs: &mut [LineFacts]) {
        let joined = records.joined();
        if memchr::memchr(0x1b, joined.as_bytes()).is_some() {
            for (i, out) in outs.iter_mut().enumerate() {
                self.prepare(&records.get(i), out);
            }
            return;
        }
        let lines = (0..records.len()).map(|i| records.text_range(i));
        severity::inspect_lines(joined, lines, &mut self.inspections);
        for (i, out) in outs.iter_mut().enumerate() {
            out.stripped = None;
            self.fill(&joined[records.text_range(i)], self.inspections[i], out);
        }
    }
}

impl Facts {
    /// Facts for a miner with `config`, and `--grep`'s pattern.
    pub(crate) fn new(config: &briefly_template::Config, grep: Option<Regex>) -> Facts {
        Facts {
            masker: Masker::new(config),
            grep,
            inspections: Vec::new(),
        }
    }

    /// The facts of a line (ANSI codes stripped) besides its stripped text, given its
    /// severity.
    fn fill(&mut self, text: &str, inspection: severity::Inspection, out: &mut LineFacts) {
        out.severity = inspection.severity;
        out.opens = inspection.opens;
        out.stamp = timestamp_range(text);
        self.masker.fill(text, &mut out.masked);
        out.grep_match = self.grep.as_ref().is_none_or(|re| re.is_match(text));
    }
}

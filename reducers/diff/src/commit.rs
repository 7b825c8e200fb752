//! The commits a diff's files belong to: `git log -p` and `git show` put `commit 4f3a…`,
//! its author, date and message above each commit's files; `git format-patch` a mail:
//! `From 4f3a… Mon Sep 17 00:00:00 2001`, then `From:`, `Date:` and `Subject:` headers,
//! folded onto indented lines when long, non-ASCII words encoded (RFC 2047).

use serde_json::{json, Value};

/// Longest author, date or subject kept of a commit.
const MAX_FIELD_CHARS: usize = 200;
/// Bytes held of a header (a mail's while it is folded): enough for a subject of
/// [`MAX_FIELD_CHARS`] characters with every byte encoded (`=E2`).
const MAX_HEADER_BYTES: usize = 12 * MAX_FIELD_CHARS;

/// The hash on a commit's first line, and whether the commit is a mail (format-patch's).
pub fn commit_line(text: &str) -> Option<(&str, bool)> {
    let (rest, mail) = match text.strip_prefix("commit ") {
        Some(rest) => (rest, false),
        None => (
            text.strip_prefix("From ")
                .filter(|rest| rest.ends_with(" Mon Sep 17 00:00:00 2001"))?,
            true,
        ),
    };
    let hash = rest.split(' ').next()?;
    let hex = (7..=64).contains(&hash.len()) && hash.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then_some((hash, mail))
}

/// The parent a merge's commit line says its files are diffed against, with `git log -m`
/// (`commit 1a2b… (from 3c4d…)`): its short hash.
pub fn merge_parent(text: &str) -> Option<&str> {
    let parent = text.split_once(" (from ")?.1.strip_suffix(')')?;
    let hex = (7..=64).contains(&parent.len()) && parent.bytes().all(|b| b.is_ascii_hexdigit());
    hex.then(|| &parent[..parent.len().min(crate::SHORT_HASH)])
}

/// The first line of a commit in `git log --oneline -p`: its abbreviated hash (lower-case
/// hex with a digit in it, as nearly every hash has: a line of prose is not one), then,
/// with `--decorate`, the refs that point at it (`(HEAD -> main, tag: v1)`), then its
/// subject.
pub fn oneline_commit(text: &str) -> Option<(&str, &str)> {
    let (hash, rest) = text.split_once(' ')?;
    let hex = (7..=64).contains(&hash.len())
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
        && hash.bytes().any(|b| b.is_ascii_digit());
    if !hex || rest.trim().is_empty() {
        return None;
    }
    let subject = match rest.strip_prefix('(') {
        Some(refs) => refs.split_once(") ").map_or(rest, |(_, subject)| subject),
        None => rest,
    };
    Some((hash, subject))
}

/// What a commit's headers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Author,
    Date,
    Subject,
}

/// A commit whose files follow it, and what they add up to.
#[derive(Debug, Clone)]
pub struct Commit {
    /// Its hash, as items name it.
    pub hash: String,
    /// Files of it, and their lines added and removed.
    pub files: u64,
    pub added: u64,
    pub removed: u64,
    /// Its files, lines added and removed as its `--stat` total says them, when it has
    /// one: its counts where it has no patches (`git log --stat`).
    pub stat_totals: Option<(u64, u64, u64)>,
    author: Option<String>,
    date: Option<String>,
    subject: Option<String>,
    /// The parent its files are diffed against, for a merge under `git log -m`: each
    /// parent has a block of its own ([`merge_parent`]).
    pub against: Option<String>,
    /// Its headers are a mail's (see the module doc).
    pub mail: bool,
    /// The mail header an indented line continues.
    folding: Option<Field>,
    /// Its headers and its message's first line are read.
    read: bool,
}

impl Commit {
    /// A commit named `hash`, a mail's when `mail`; its headers come next.
    pub fn new(hash: &str, mail: bool) -> Commit {
        Commit {
            hash: hash.to_string(),
            files: 0,
            added: 0,
            removed: 0,
            stat_totals: None,
            author: None,
            date: None,
            subject: None,
            against: None,
            mail,
            folding: None,
            read: false,
        }
    }

    /// A commit of `git log --oneline`, named `hash`, whose first line held its `subject`:
    /// no headers follow.
    pub fn oneline(hash: &str, subject: &str) -> Commit {
        Commit {
            subject: Some(briefly_core::head_bytes(subject.trim(), MAX_HEADER_BYTES).into()),
            read: true,
            ..Commit::new(hash, false)
        }
    }

    /// Reads a line between the commit's first line and its first file; says whether it
    /// was one of the fields held (author, date, subject, a mail's headers), or else
    /// the message after them.
    pub fn header_line(&mut self, text: &str) -> bool {
        if self.read {
            return false;
        }
        if !self.mail {
            // `Author: …`, `Date: …`, a blank line, then the message, indented.
            let held =
                |value: &str| Some(briefly_core::head_bytes(value.trim(), MAX_HEADER_BYTES).into());
            if let Some(author) = text.strip_prefix("Author:") {
                self.author = held(author);
            } else if let Some(date) = text.strip_prefix("Date:") {
                self.date = held(date);
            } else if let Some(message) = text.strip_prefix("    ") {
                if !message.trim().is_empty() {
                    self.subject = held(message);
                    self.read = true;
                }
            }
            // git's other fields (`Merge:`, `AuthorDate:`, `Commit:`) are no message.
            return true;
        }
        if text.is_empty() {
            // The headers end; the message repeats the subject.
            self.read = true;
        } else if text.starts_with([' ', '\t']) {
            if let Some(value) = self.folding.and_then(|field| self.field(field).as_mut()) {
                // Unfolded: the line break goes, the indentation stays.
                let room = MAX_HEADER_BYTES.saturating_sub(value.len());
                value.push_str(briefly_core::head_bytes(text, room));
            }
        } else {
            let (name, value) = text.split_once(':').unwrap_or((text, ""));
            self.folding = match name {
                "From" => Some(Field::Author),
                "Date" => Some(Field::Date),
                "Subject" => Some(Field::Subject),
                _ => None,
            };
            if let Some(field) = self.folding {
                *self.field(field) = Some(briefly_core::head_bytes(value, MAX_HEADER_BYTES).into());
            }
        }
        true
    }

    fn field(&mut self, field: Field) -> &mut Option<String> {
        match field {
            Field::Author => &mut self.author,
            Field::Date => &mut self.date,
            Field::Subject => &mut self.subject,
        }
    }

    /// `{commit, author, date, subject, files, added, removed}`, what is known of them.
    pub fn to_json(&self) -> Value {
        let mut commit = json!({"commit": self.hash});
        for (key, value) in [
            ("author", &self.author),
            ("date", &self.date),
            ("subject", &self.subject),
        ] {
            let Some(value) = value else { continue };
            let value = match self.mail {
                true => unfolded(value),
                false => value.clone(),
            };
            let value = match key {
                "subject" if self.mail => without_patch_prefix(value.trim()),
                _ => value.trim(),
            };
            commit[key] = json!(briefly_core::cut_str(value, MAX_FIELD_CHARS));
        }
        if let Some(parent) = &self.against {
            commit["against"] = json!(parent);
        }
        commit["files"] = json!(self.files);
        commit["added"] = json!(self.added);
        commit["removed"] = json!(self.removed);
        commit
    }
}

/// format-patch's `[PATCH 2/3] ` before the subject, left out.
fn without_patch_prefix(subject: &str) -> &str {
    match subject.strip_prefix("[PATCH") {
        Some(rest) => rest.split_once("] ").map_or(subject, |(_, after)| after),
        None => subject,
    }
}

/// A mail header's value as written: its folded lines joined, its encoded words
/// (`=?UTF-8?q?caf=C3=A9?=`, the form git writes) decoded. The space between two
/// encoded words is the encoding's, not the text's.
fn unfolded(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    let mut after_word = false;
    while let Some(start) = rest.find("=?") {
        let (before, word) = rest.split_at(start);
        match encoded_word(word) {
            Some((decoded, len)) => {
                if !(after_word && before.trim().is_empty()) {
                    out.push_str(&folded_spaces(before));
                }
                out.push_str(&decoded);
                rest = &word[len..];
                after_word = true;
            }
            None => {
                out.push_str(&folded_spaces(&rest[..start + 2]));
                rest = &rest[start + 2..];
                after_word = false;
            }
        }
    }
    out.push_str(&folded_spaces(rest));
    out
}

/// A folded header's text, its tabs read as spaces.
fn folded_spaces(text: &str) -> String {
    text.replace('\t', " ")
}

/// The text of the encoded word `word` starts with (`=?UTF-8?q?…?=`), and its length in
/// bytes; only UTF-8 and ASCII in the Q encoding, as git writes them.
fn encoded_word(word: &str) -> Option<(String, usize)> {
    let inner = word.strip_prefix("=?")?;
    let (charset, inner) = inner.split_once('?')?;
    let (encoding, inner) = inner.split_once('?')?;
    let end = inner.find("?=")?;
    let utf8 = ["utf-8", "us-ascii"]
        .iter()
        .any(|c| charset.eq_ignore_ascii_case(c));
    if !utf8 || !encoding.eq_ignore_ascii_case("q") {
        return None;
    }
    let text = &inner.as_bytes()[..end];
    let mut bytes = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match text[i] {
            b'_' => bytes.push(b' '),
            b'=' if i + 2 < text.len() => {
                let (high, low) = (hex(text[i + 1])?, hex(text[i + 2])?);
                bytes.push((high * 16 + low) as u8);
                i += 2;
            }
            b => bytes.push(b),
        }
        i += 1;
    }
    let len = "=?".len() + charset.len() + 1 + encoding.len() + 1 + end + "?=".len();
    Some((String::from_utf8_lossy(&bytes).into_owned(), len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(first: &str, lines: &[&str]) -> Value {
        let (hash, mail) = commit_line(first).expect("a commit's first line");
        let mut commit = Commit::new(hash, mail);
        for line in lines {
            commit.header_line(line);
        }
        commit.to_json()
    }

    #[test]
    fn a_commit_s_first_line() {
        assert_eq!(
            commit_line("commit 4f3a9c1 (HEAD -> main)"),
            Some(("4f3a9c1", false))
        );
        assert_eq!(
            commit_line("From 4f3a9c1e Mon Sep 17 00:00:00 2001"),
            Some(("4f3a9c1e", true))
        );
        for not in [
            "commit message",
            "commit 4f3a",
            "    commit 4f3a9c1",
            "From 4f3a9c1e Tue Dec 1 00:00:00 2026",
            "From: a <b@c>",
        ] {
            assert_eq!(commit_line(not), None, "{not:?}");
        }
    }

    #[test]
    fn a_commit_s_line_in_git_log_oneline() {
        assert_eq!(
            oneline_commit("4f3a9c1 Fix the parser"),
            Some(("4f3a9c1", "Fix the parser"))
        );
        assert_eq!(
            oneline_commit("4f3a9c1e2b7d (HEAD -> main, tag: v1) Fix (again)"),
            Some(("4f3a9c1e2b7d", "Fix (again)"))
        );
        for not in [
            "defaced the logo",
            "4f3a9c Fix",
            "4F3A9C1 Fix",
            "4f3a9c1",
            "4f3a9c1 ",
            "4f3a9c1g Fix",
            " 4f3a9c1 Fix",
        ] {
            assert_eq!(oneline_commit(not), None, "{not:?}");
        }
    }

    #[test]
    fn git_log_s_headers_and_the_message_s_first_line() {
        let commit = read(
            "commit 4f3a9c1e",
            &[
                "Merge: 1a2b3c4 5d6e7f8",
                "Author: Ann <ann@example.invalid>",
                "Date:   Tue Dec 1 10:00:00 2026 +0000",
                "",
                "    Fix the cache",
                "    ",
                "    Its body.",
            ],
        );
        assert_eq!(
            commit,
            json!({"commit": "4f3a9c1e", "author": "Ann <ann@example.invalid>",
                   "date": "Tue Dec 1 10:00:00 2026 +0000", "subject": "Fix the cache",
                   "files": 0, "added": 0, "removed": 0})
        );
    }

    #[test]
    fn a_mail_s_headers_unfolded_and_decoded() {
        let commit = read(
            "From 4f3a9c1e Mon Sep 17 00:00:00 2001",
            &[
                "From: =?UTF-8?q?Jos=C3=A9?=",
                "\t<jose@example.invalid>",
                "Date: Tue, 1 Dec 2026 10:00:00 +0000",
                "Subject: [PATCH v2 2/3] =?UTF-8?q?caf=C3=A9=20au?=",
                " =?UTF-8?q?_lait?= and more",
                "MIME-Version: 1.0",
                "",
                "The body: From: not a header",
            ],
        );
        assert_eq!(commit["author"], "José <jose@example.invalid>");
        assert_eq!(commit["subject"], "café au lait and more");
        // Not the encoding git writes, or not an encoded word: as written.
        let commit = read(
            "From 4f3a9c1e Mon Sep 17 00:00:00 2001",
            &["Subject: [PATCH] =?ISO-8859-1?q?caf=E9?= =?UTF-8?q?bad=ZZ?= x=?y"],
        );
        assert_eq!(
            commit["subject"],
            "=?ISO-8859-1?q?caf=E9?= =?UTF-8?q?bad=ZZ?= x=?y"
        );
    }

    #[test]
    fn what_is_held_of_a_header_is_bounded() {
        let long = format!("Subject: {}", "=?UTF-8?q?=E2=80=A6?= ".repeat(1_000));
        let fold = format!(" {}", "x".repeat(100_000));
        let mut commit = Commit::new("4f3a9c1e", true);
        commit.header_line(&long);
        for _ in 0..100 {
            commit.header_line(&fold);
        }
        assert!(commit.subject.as_ref().unwrap().len() <= MAX_HEADER_BYTES);
        // What was held decodes to fewer characters than a subject keeps.
        let subject = commit.to_json()["subject"].as_str().unwrap().to_string();
        assert!(
            subject.starts_with("………") && !subject.contains("[cut "),
            "{subject}"
        );
        let subject = read("commit 4f3a9c1e", &[&format!("    {}", "y".repeat(1_000))])["subject"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(
            subject,
            briefly_core::with_cut_marker(&"y".repeat(200), 800)
        );
    }
}

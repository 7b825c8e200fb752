//! What memory and thread checkers print: valgrind's tools (memcheck, helgrind, drd)
//! and the sanitizers (AddressSanitizer, LeakSanitizer, ThreadSanitizer, …). Their
//! reports are the evidence of a C, C++ or Rust program's memory errors, and they say
//! it in their own words: valgrind's `Invalid write of size 4` states no level, and
//! its clean run's `ERROR SUMMARY: 0 errors` is no error.

use crate::Severity;

/// What a checker's line says in the checker's own words, which outrank the words'
/// (valgrind's `ERROR SUMMARY: 0 errors` is none): [`valgrind_verdict`], and a
/// sanitizer's summary and ThreadSanitizer's `WARNING:` report (errors: a race fails
/// the run, which exits 66). `None` for a line no checker wrote.
pub(crate) fn verdict(line: &[u8]) -> Option<Option<Severity>> {
    match line.first() {
        Some(b'=') => valgrind_verdict(line),
        Some(b'S') if is_sanitizer_summary(line) => Some(Some(Severity::Error)),
        Some(b'W') if is_sanitizer_header(line) => Some(Some(Severity::Error)),
        _ => None,
    }
}

/// What follows a process id between two `==` opening `line` (`==1234==`: valgrind's
/// prefix, and the sanitizers' before their notes), and the id's digits.
fn after_process_id(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let rest = line.strip_prefix(b"==")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let after = rest[digits..].strip_prefix(b"==")?;
    (digits > 0).then_some((after, &rest[..digits]))
}

/// valgrind's prefix of each of its lines, `==1234== ` (a process id between two
/// `==`): where the message starts after it (and the one space that follows), and the
/// process id. (Its tools' notes of their own, `--1234--` and `**1234**`, are no
/// reports.)
pub(crate) fn valgrind_prefix(line: &[u8]) -> Option<(usize, u32)> {
    let (after, digits) = after_process_id(line)?;
    let pid = std::str::from_utf8(digits).ok()?.parse().ok()?;
    // A line of its own is `==1234==` alone, or `==1234== ` and the message.
    let start = line.len() - after.len();
    match after.first() {
        None => Some((start, pid)),
        Some(b' ') => Some((start + 1, pid)),
        Some(_) => None,
    }
}

/// A valgrind error report's first line glued after output that did not end its line
/// (a program's `printf` without `\n`, then valgrind's report on stderr: `hit=v-2958==14157==
/// Invalid read of size 4`): where its prefix starts, and the process id. `None` for a
/// line that holds no report of an error behind a prefix.
pub(crate) fn glued_valgrind_error(line: &[u8]) -> Option<(usize, u32)> {
    let mut from = 0;
    while let Some(found) = (line.get(from..)).and_then(|rest| crate::find(rest, b"== ")) {
        // `==`, the process id's digits, then the `== ` found.
        let end = from + found;
        let digits = (line[..end].iter().rev())
            .take_while(|b| b.is_ascii_digit())
            .count();
        if let Some(start) = (end - digits).checked_sub(2) {
            let glued = &line[start..];
            if valgrind_verdict(glued) == Some(Some(Severity::Error)) {
                return valgrind_prefix(glued).map(|(_, pid)| (start, pid));
            }
        }
        from = end + 3;
    }
    None
}

/// The error reports of valgrind's tools, as their first lines begin (after the
/// prefix): memcheck's, then helgrind's and drd's.
const VALGRIND_ERRORS: [&str; 15] = [
    "Invalid read of size ",
    "Invalid write of size ",
    "Invalid free() ",
    "Mismatched free() ",
    "Conditional jump or move depends on uninitialised value",
    "Use of uninitialised value of size ",
    "Syscall param ",
    "Source and destination overlap in ",
    "Invalid address alignment",
    "Jump to the invalid address ",
    "Argument 'size' of function ",
    "Possible data race during ",
    "Conflicting load by thread ",
    "Conflicting store by thread ",
    "Stack overflow in thread ",
];

/// What valgrind says of a line of its own (`==1234== …`), when the line is one of its
/// reports: an error's first line, a leak's loss record, the leak summary's counts,
/// the process killed by a signal (fatal), the error summary (an error when it counts
/// any, none when it counts none, whatever its capitals say). `None` for any other
/// line, whose words say what they say.
#[inline(never)] // Read of lines that open with `=` only.
pub(crate) fn valgrind_verdict(line: &[u8]) -> Option<Option<Severity>> {
    let (start, _) = valgrind_prefix(line)?;
    let message = &line[start..];
    if let Some(count) = message.strip_prefix(b"ERROR SUMMARY: ") {
        return Some(crate::nonzero(count).then_some(Severity::Error));
    }
    if message.starts_with(b"Process terminating with default action of signal ") {
        return Some(Some(Severity::Fatal));
    }
    if let Some(severity) = leaked(message) {
        return Some(severity);
    }
    let error = VALGRIND_ERRORS.iter().any(|start| {
        message.starts_with(start.as_bytes())
            // A system call's parameter is reported for what it points to.
            && (*start != "Syscall param "
                || crate::memmem(message, b"uninitialised")
                || crate::memmem(message, b"unaddressable"))
    });
    (error || is_helgrind_thread_error(message)).then_some(Some(Severity::Error))
}

/// helgrind's errors of a thread: `Thread #1: lock order "0x… before 0x…" violated`,
/// `Thread #2 unlocked a not-locked lock at 0x…`, `Thread #1's call to
/// pthread_mutex_unlock failed`; not its announcements (`Thread #2 was created`,
/// `Thread #1 is the program's root thread`).
fn is_helgrind_thread_error(message: &[u8]) -> bool {
    let Some(rest) = message.strip_prefix(b"Thread #") else {
        return false;
    };
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_digit()).count()..];
    [&b": "[..], b" unlocked ", b"'s call to "]
        .iter()
        .any(|next| rest.starts_with(next))
}

/// memcheck's leaks: a loss record (`8 bytes in 1 blocks are definitely lost in loss
/// record 1 of 2`), and the leak summary's counts (`   definitely lost: 56 bytes in 4
/// blocks`). Definite and possible leaks count as errors, as valgrind counts them in its
/// error summary; indirect ones as warnings; reachable memory as nothing.
fn leaked(message: &[u8]) -> Option<Option<Severity>> {
    /// Each kind of leak, as the summary and a loss record name it.
    const KINDS: [(&str, &str, Option<Severity>); 4] = [
        (
            "definitely lost: ",
            " are definitely lost in loss record ",
            Some(Severity::Error),
        ),
        (
            "possibly lost: ",
            " are possibly lost in loss record ",
            Some(Severity::Error),
        ),
        (
            "indirectly lost: ",
            " are indirectly lost in loss record ",
            Some(Severity::Warn),
        ),
        (
            "still reachable: ",
            " are still reachable in loss record ",
            None,
        ),
    ];
    let summary = message.trim_ascii_start();
    let record = message.first().is_some_and(u8::is_ascii_digit);
    for (count_of, record_of, severity) in KINDS {
        if let Some(count) = summary.strip_prefix(count_of.as_bytes()) {
            // `0 bytes in 0 blocks`; `1,024 bytes` in a large one.
            let leaks = count
                .iter()
                .take_while(|b| b.is_ascii_digit() || **b == b',')
                .any(|b| b.is_ascii_digit() && *b != b'0');
            return Some(severity.filter(|_| leaks));
        }
        if record && crate::memmem(message, record_of.as_bytes()) {
            return Some(severity);
        }
    }
    None
}

/// A sanitizer's report opens (after the process id some of them print,
/// `==1234==`): `ERROR: AddressSanitizer: heap-use-after-free …`, `ERROR:
/// LeakSanitizer: detected memory leaks`, `WARNING: ThreadSanitizer: data race …`.
pub(crate) fn is_sanitizer_header(line: &[u8]) -> bool {
    let message = match line.first() {
        Some(b'=') => match after_process_id(line) {
            Some((message, _)) => message,
            None => return false,
        },
        _ => line,
    };
    let Some(rest) = message
        .strip_prefix(b"ERROR: ")
        .or_else(|| message.strip_prefix(b"WARNING: "))
    else {
        return false;
    };
    names_a_sanitizer(rest)
}

/// A sanitizer's summary, the last line of its report: `SUMMARY: AddressSanitizer:
/// heap-buffer-overflow a.c:7 in main`, `SUMMARY: ThreadSanitizer: data race …`. It
/// reports a finding: an error.
#[inline(never)] // Read of lines that open with `S` only.
pub(crate) fn is_sanitizer_summary(line: &[u8]) -> bool {
    line.strip_prefix(b"SUMMARY: ")
        .is_some_and(names_a_sanitizer)
}

/// `bytes` opens with a sanitizer's name and a colon (`AddressSanitizer:`).
fn names_a_sanitizer(bytes: &[u8]) -> bool {
    let name = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    name > "Sanitizer".len()
        && bytes[..name].ends_with(b"Sanitizer")
        && bytes.get(name) == Some(&b':')
}

/// The lines of a sanitizer's report between its first line and its summary that are
/// not indented: what was accessed (`READ of size 4 at 0x… thread T0`), where it lies
/// (`0x… is located 0 bytes to the right of …`, `Address 0x… is located in stack …`),
/// who allocated or freed it, threads, leaks, hints, the process id's notes
/// (`==1234==The signal is caused by a WRITE memory access.`) and the sanitizer's own
/// (`AddressSanitizer can not provide additional info.`).
pub(crate) fn is_sanitizer_report_line(line: &str) -> bool {
    const STARTS: [&str; 14] = [
        "READ of size ",
        "WRITE of size ",
        "0x",
        "Address 0x",
        "allocated by thread ",
        "freed by thread ",
        "previously allocated by thread ",
        "previously freed by thread ",
        "Thread T",
        "Direct leak of ",
        "Indirect leak of ",
        "HINT: ",
        "Hint: ",
        "==",
    ];
    STARTS.iter().any(|start| line.starts_with(start))
        || line
            .split(' ')
            .next()
            .is_some_and(|word| word.len() > "Sanitizer".len() && word.ends_with("Sanitizer"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valgrinds_prefix_is_a_process_id_between_two_marks() {
        assert_eq!(
            valgrind_prefix(b"==28738== Invalid write of size 1"),
            Some((10, 28738))
        );
        assert_eq!(valgrind_prefix(b"==1== "), Some((6, 1)));
        assert_eq!(valgrind_prefix(b"==1=="), Some((5, 1)));
        for other in [
            "== title ==",
            "====",
            "==12==x",
            "==12=",
            "=12== x",
            "==================",
            "==1234==ERROR: AddressSanitizer: SEGV",
            "==99999999999== a process id too long",
        ] {
            assert_eq!(valgrind_prefix(other.as_bytes()), None, "{other}");
        }
    }
}

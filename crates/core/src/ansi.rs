//! ANSI escape sequences, removed from coloured output before it is matched.

/// `text` without ANSI escape sequences (CSI `ESC [ … letter`, OSC `ESC ] … BEL`,
/// charset designations `ESC ( B`), written into `out`; `text` itself, unchanged, when
/// it has no ESC byte (then `out` is left as it was).
///
/// ```
/// let mut out = String::new();
/// assert_eq!(briefly_core::strip_ansi("\x1b[1;31mERROR\x1b[0m x", &mut out), "ERROR x");
/// assert_eq!(briefly_core::strip_ansi("plain", &mut out), "plain");
/// ```
pub fn strip_ansi<'a>(text: &'a str, out: &'a mut String) -> &'a str {
    if memchr::memchr(0x1b, text.as_bytes()).is_none() {
        return text;
    }
    out.clear();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\x1b' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\x07' || (c == '\x1b' && chars.peek() == Some(&'\\')) {
                        chars.next_if_eq(&'\\');
                        break;
                    }
                }
            }
            // Charset designations (`ESC ( B`, what `tput sgr0` ends with) take one more.
            Some('(' | ')' | '*' | '+') => {
                chars.next();
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_colour_titles_and_charsets() {
        let mut scratch = String::new();
        assert_eq!(
            strip_ansi("\x1b[31mFAILED\x1b[0m a.py::\x1b[1mt\x1b[0m", &mut scratch),
            "FAILED a.py::t"
        );
        assert_eq!(strip_ansi("plain", &mut scratch), "plain");
        assert_eq!(
            strip_ansi("test t ... \x1b[31mFAILED\x1b(B\x1b[m", &mut scratch),
            "test t ... FAILED"
        );
    }

    #[test]
    fn a_lone_escape_goes_with_the_byte_after_it() {
        let mut scratch = String::new();
        assert_eq!(strip_ansi("a\x1b7b\x1b", &mut scratch), "ab");
        assert_eq!(strip_ansi("\x1b]0;title\x07x", &mut scratch), "x");
        assert_eq!(strip_ansi("\x1b]0;title\x1b\\x", &mut scratch), "x");
    }
}

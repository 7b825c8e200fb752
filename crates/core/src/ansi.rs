//! What a terminal would show of a line: ANSI escape sequences removed from coloured
//! output, and a line redrawn with carriage returns cut to its last state, before it
//! is matched.

/// `text` without ANSI escape sequences (CSI `ESC [ … letter`, OSC `ESC ] … BEL`,
/// charset designations `ESC ( B`), written into `reuse`'s buffer (a new one when it is
/// `None`); `None` when `text` has no ESC byte, so that a caller keeps the stripped text
/// only for the lines that had codes.
///
/// ```
/// use briefly_core::strip_ansi;
/// assert_eq!(strip_ansi("\x1b[1;31mERROR\x1b[0m x", None).as_deref(), Some("ERROR x"));
/// assert_eq!(strip_ansi("plain", None), None);
/// // An OSC that never ends on its line hides nothing after it.
/// assert_eq!(strip_ansi("a \x1b]8;;http://x ERROR disk full", None).as_deref(), Some("a 8;;http://x ERROR disk full"));
/// assert_eq!(strip_ansi("\x1b]8;;http://x\x1b\\link\x1b]8;;\x07 ok", None).as_deref(), Some("link ok"));
/// ```
pub fn strip_ansi(text: &str, reuse: Option<String>) -> Option<String> {
    memchr::memchr(0x1b, text.as_bytes())?;
    let mut out = reuse.unwrap_or_default();
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
                let mut body = chars.clone();
                while let Some(c) = body.next() {
                    if c == '\x07' || (c == '\x1b' && body.peek() == Some(&'\\')) {
                        body.next_if_eq(&'\\');
                        // Ended on its line: all of it goes. One that is not (cut, or
                        // garbled) would hide the rest of the line, an error with it:
                        // only its opening goes.
                        chars = body;
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
    Some(out)
}

/// What a terminal shows of a line redrawn with carriage returns (a progress bar,
/// `10%\r50%\r100%`): its last part that is not empty; `None` when it has no carriage
/// return. (A line's ending `\r\n` is no part of its text.)
///
/// ```
/// use briefly_core::last_drawn;
/// assert_eq!(last_drawn("get 10%\rget 100%"), Some("get 100%"));
/// assert_eq!(last_drawn("done\r"), Some("done"));
/// assert_eq!(last_drawn("plain"), None);
/// ```
pub fn last_drawn(text: &str) -> Option<&str> {
    memchr::memchr(b'\r', text.as_bytes())?;
    Some(
        text.rsplit('\r')
            .find(|part| !part.is_empty())
            .unwrap_or(""),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text as a caller reads it: stripped, or the line itself.
    fn stripped(text: &str) -> String {
        strip_ansi(text, Some("stale".into())).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn strips_colour_titles_and_charsets() {
        assert_eq!(
            stripped("\x1b[31mFAILED\x1b[0m a.py::\x1b[1mt\x1b[0m"),
            "FAILED a.py::t"
        );
        assert_eq!(stripped("plain"), "plain");
        assert_eq!(
            stripped("test t ... \x1b[31mFAILED\x1b(B\x1b[m"),
            "test t ... FAILED"
        );
    }

    #[test]
    fn a_redrawn_line_shows_its_last_state() {
        assert_eq!(last_drawn("a\rb\rc"), Some("c"));
        assert_eq!(last_drawn("\r\r"), Some(""));
        assert_eq!(last_drawn("\rx"), Some("x"));
        assert_eq!(last_drawn("é 1%\ré 2%\r\r"), Some("é 2%"));
    }

    #[test]
    fn a_lone_escape_goes_with_the_byte_after_it() {
        assert_eq!(stripped("a\x1b7b\x1b"), "ab");
        assert_eq!(stripped("\x1b]0;title\x07x"), "x");
        assert_eq!(stripped("\x1b]0;title\x1b\\x"), "x");
    }
}

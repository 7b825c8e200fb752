//! Byte searches over a log line's parts. They are mostly over a few bytes, where the
//! runtime dispatch of [`memchr::memchr`] costs more than the search: on x86-64, memchr's
//! SSE2 searchers are called directly (SSE2 is part of x86-64), elsewhere its portable
//! ones.

/// Where the first `"` or `\` in `haystack` is: the end of a JSON string, or its next
/// escape.
#[inline]
pub(crate) fn quote_or_backslash(haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(two) = memchr::arch::x86_64::sse2::memchr::Two::new(b'"', b'\\') {
        return two.find(haystack);
    }
    memchr::arch::all::memchr::Two::new(b'"', b'\\').find(haystack)
}

/// Where the first `\n` in `haystack` is.
#[inline]
pub(crate) fn newline(haystack: &[u8]) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if let Some(one) = memchr::arch::x86_64::sse2::memchr::One::new(b'\n') {
        return one.find(haystack);
    }
    memchr::arch::all::memchr::One::new(b'\n').find(haystack)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_at_any_distance() {
        for len in 0..100 {
            for at in 0..len {
                let mut text = vec![b'x'; len];
                text[at] = b'\n';
                assert_eq!(newline(&text), Some(at));
                text[at] = b'\\';
                assert_eq!(quote_or_backslash(&text), Some(at));
                text[at] = b'"';
                assert_eq!(quote_or_backslash(&text), Some(at));
                text.push(b'\\');
                text.push(b'\n');
                assert_eq!(newline(&text), Some(len + 1));
                assert_eq!(quote_or_backslash(&text), Some(at));
            }
            assert_eq!(newline(&vec![b'x'; len]), None);
            assert_eq!(quote_or_backslash(&vec![b'x'; len]), None);
        }
    }
}

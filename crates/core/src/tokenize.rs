//! Counting tokens: four characters a token by default, or a real BPE offline.

use crate::Error;
use std::fmt;
use std::str::FromStr;
#[cfg(feature = "tokenizers")]
use std::sync::Arc;

/// How tokens are counted.
#[derive(Clone, Default)]
pub enum Tokenizer {
    /// One token per four characters, rounded up: fast, and the budget's own unit.
    #[default]
    Chars4,
    /// OpenAI's cl100k_base BPE (ranks embedded, no network).
    #[cfg(feature = "tokenizers")]
    Cl100k(Arc<tiktoken_rs::CoreBPE>),
    /// OpenAI's o200k_base BPE (ranks embedded, no network).
    #[cfg(feature = "tokenizers")]
    O200k(Arc<tiktoken_rs::CoreBPE>),
}

impl Tokenizer {
    /// The tokenizer's name as the command line spells it.
    pub fn name(&self) -> &'static str {
        match self {
            Tokenizer::Chars4 => "chars4",
            #[cfg(feature = "tokenizers")]
            Tokenizer::Cl100k(_) => "cl100k",
            #[cfg(feature = "tokenizers")]
            Tokenizer::O200k(_) => "o200k",
        }
    }

    /// Whether tokens are counted by a real tokenizer (and so need checking apart from chars).
    pub fn is_exact(&self) -> bool {
        !matches!(self, Tokenizer::Chars4)
    }

    /// Tokens in `text`, read as ordinary text (a special token's name in it is text, as
    /// an API encodes a message's content).
    pub fn count(&self, text: &str) -> usize {
        match self {
            Tokenizer::Chars4 => text.chars().count().div_ceil(4),
            #[cfg(feature = "tokenizers")]
            Tokenizer::Cl100k(bpe) | Tokenizer::O200k(bpe) => bpe.encode_ordinary(text).len(),
        }
    }
}

impl FromStr for Tokenizer {
    type Err = Error;

    fn from_str(name: &str) -> Result<Self, Error> {
        match name {
            "chars4" => Ok(Tokenizer::Chars4),
            #[cfg(feature = "tokenizers")]
            "cl100k" | "cl100k_base" => tiktoken_rs::cl100k_base()
                .map(|bpe| Tokenizer::Cl100k(Arc::new(bpe)))
                .map_err(|e| Error::Option(format!("loading cl100k: {e}"))),
            #[cfg(feature = "tokenizers")]
            "o200k" | "o200k_base" => tiktoken_rs::o200k_base()
                .map(|bpe| Tokenizer::O200k(Arc::new(bpe)))
                .map_err(|e| Error::Option(format!("loading o200k: {e}"))),
            other => Err(Error::Option(format!(
                "unknown tokenizer {other:?} (chars4, cl100k, o200k)"
            ))),
        }
    }
}

impl fmt::Debug for Tokenizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chars4_rounds_up_and_counts_chars_not_bytes() {
        let t = Tokenizer::Chars4;
        assert_eq!(t.count(""), 0);
        assert_eq!(t.count("abcd"), 1);
        assert_eq!(t.count("abcde"), 2);
        assert_eq!(t.count("éééé"), 1);
    }

    #[cfg(feature = "tokenizers")]
    #[test]
    fn real_tokenizers_load_offline_and_differ_from_chars4() {
        let cl: Tokenizer = "cl100k".parse().unwrap();
        let o: Tokenizer = "o200k".parse().unwrap();
        assert_eq!(cl.count("hello world"), 2);
        assert_eq!(o.count("hello world"), 2);
        // CJK: about a token a character, where chars4 would guess a quarter of that.
        let cjk = "日本語のテキストを数える";
        assert!(cl.count(cjk) > Tokenizer::Chars4.count(cjk));
        assert!(cl.is_exact() && !Tokenizer::Chars4.is_exact());
        // A special token's name in text is text: 7 tokens, as the model receives it,
        // not the 1 of the token itself.
        assert_eq!(cl.count("<|endoftext|>"), 7);
    }

    #[test]
    fn unknown_names_are_errors() {
        assert!("gpt2"
            .parse::<Tokenizer>()
            .unwrap_err()
            .to_string()
            .contains("chars4"));
    }
}

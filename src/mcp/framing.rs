//! Bounded line framing for JSON-RPC over stdio: a message is held whole only up to a
//! configured size; a longer one is never held (the server's is streamed to an
//! artifact) and only its first and last bytes are kept, to make out its id.

use briefly_core::{ArtifactDir, ArtifactMeta, ArtifactWriter};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// A JSON-RPC error answer to the message with `id` (null when none can be made out).
pub fn error_answer(id: Value, code: i64, message: &str) -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// The answers of JSON-RPC batches (MCP 2025-03-26 has them) being gathered, to go out
/// together as one array each: the answers made so far, and the ids of the requests
/// still to be answered.
#[derive(Debug, Default)]
pub struct Batches {
    open: Vec<Batch>,
}

#[derive(Debug)]
struct Batch {
    answers: Vec<Value>,
    awaited: Vec<Value>,
}

/// What became of an answer on its way out ([`Batches::collect`]).
#[derive(Debug, PartialEq)]
pub enum Collected {
    /// It answers no open batch's request: it goes out alone.
    Alone(Value),
    /// Kept with its batch, which waits for more.
    Waiting,
    /// The last its batch waited for: the batch's answers, to go out.
    Complete(Value),
}

impl Batches {
    /// Whether no batch is open (an answer then goes out alone, unread).
    pub fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Opens a batch whose `answers` are made already and whose requests with the ids
    /// `awaited` are yet to be answered. When none is, the batch's answers are complete:
    /// they are returned (none for a batch of notifications).
    pub fn open(&mut self, answers: Vec<Value>, awaited: Vec<Value>) -> Option<Value> {
        if awaited.is_empty() {
            return (!answers.is_empty()).then_some(Value::Array(answers));
        }
        self.open.push(Batch { answers, awaited });
        None
    }

    /// Puts `answer` with the open batch whose request it answers, if any.
    pub fn collect(&mut self, answer: Value) -> Collected {
        // A request of the other side's (it has a method) answers nothing.
        let at = match (answer.get("id"), answer.get("method")) {
            (Some(id), None) => self.open.iter().position(|b| b.awaited.contains(id)),
            _ => None,
        };
        let Some(at) = at else {
            return Collected::Alone(answer);
        };
        let batch = &mut self.open[at];
        let id = answer["id"].clone();
        batch.awaited.retain(|awaited| *awaited != id);
        batch.answers.push(answer);
        match batch.awaited.is_empty() {
            true => Collected::Complete(Value::Array(self.open.remove(at).answers)),
            false => Collected::Waiting,
        }
    }
}

/// The ids of the requests among a batch's `messages`: the answers it waits for.
pub fn request_ids(messages: &[Value]) -> Vec<Value> {
    messages
        .iter()
        .filter(|m| m.get("method").is_some())
        .filter_map(|m| m.get("id").cloned())
        .collect()
}

/// Bytes kept from each end of an over-long message.
const ENDS: usize = 4096;

/// One message, or what is known of one that was too long.
pub enum Frame {
    /// A whole line, without its newline.
    Line(Vec<u8>),
    /// A line over the limit: its first and last bytes, its length, and where it was
    /// kept whole (or why it could not be).
    TooLong {
        head: Vec<u8>,
        tail: Vec<u8>,
        bytes: u64,
        artifact: Result<String, String>,
    },
}

/// Reads lines of at most `max` bytes.
pub struct Framer<R> {
    reader: BufReader<R>,
    max: usize,
    /// Where over-long lines are kept whole; `None`: they are dropped.
    spill_to: Option<ArtifactDir>,
}

/// An over-long line being read.
struct Overflow {
    head: Vec<u8>,
    tail: Vec<u8>,
    bytes: u64,
    writer: Result<ArtifactWriter, String>,
}

impl Overflow {
    fn push(&mut self, bytes: &[u8]) {
        self.bytes += bytes.len() as u64;
        if self.head.len() < ENDS {
            let take = (ENDS - self.head.len()).min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
        }
        self.tail
            .extend_from_slice(&bytes[bytes.len().saturating_sub(ENDS)..]);
        if self.tail.len() > ENDS {
            self.tail.drain(..self.tail.len() - ENDS);
        }
        if let Ok(writer) = &mut self.writer {
            if let Err(e) = writer.write(bytes) {
                self.writer = Err(e.to_string());
            }
        }
    }

    fn finish(self) -> Frame {
        let artifact = self.writer.and_then(|writer| {
            writer
                .save(ArtifactMeta {
                    source: "mcp-proxy".into(),
                    lines: 1,
                    ..ArtifactMeta::default()
                })
                .map(|saved| saved.path.display().to_string())
                .map_err(|e| e.to_string())
        });
        Frame::TooLong {
            head: self.head,
            tail: self.tail,
            bytes: self.bytes,
            artifact,
        }
    }
}

impl<R: AsyncRead + Unpin> Framer<R> {
    pub fn new(reader: R, max: usize, spill_to: Option<ArtifactDir>) -> Self {
        Framer {
            reader: BufReader::with_capacity(64 * 1024, reader),
            max,
            spill_to,
        }
    }

    /// The next message; `None` at the end of input. Blank lines are skipped.
    pub async fn next(&mut self) -> std::io::Result<Option<Frame>> {
        let mut line = Vec::new();
        let mut overflow: Option<Overflow> = None;
        loop {
            let buf = self.reader.fill_buf().await?;
            if buf.is_empty() {
                return Ok(match overflow {
                    Some(overflow) => Some(overflow.finish()),
                    None if line.iter().all(u8::is_ascii_whitespace) => None,
                    None => Some(Frame::Line(line)),
                });
            }
            let (chunk, used, ended) = match memchr::memchr(b'\n', buf) {
                Some(at) => (&buf[..at], at + 1, true),
                None => (buf, buf.len(), false),
            };
            match &mut overflow {
                Some(overflow) => overflow.push(chunk),
                None if line.len() + chunk.len() > self.max => {
                    let writer = match &self.spill_to {
                        Some(dir) => dir.create(None).map_err(|e| e.to_string()),
                        None => Err("not kept".to_string()),
                    };
                    let mut started = Overflow {
                        head: Vec::new(),
                        tail: Vec::new(),
                        bytes: 0,
                        writer,
                    };
                    started.push(&std::mem::take(&mut line));
                    started.push(chunk);
                    overflow = Some(started);
                }
                None => line.extend_from_slice(chunk),
            }
            self.reader.consume(used);
            if ended {
                if let Some(overflow) = overflow.take() {
                    return Ok(Some(overflow.finish()));
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    line.clear();
                    continue;
                }
                return Ok(Some(Frame::Line(line)));
            }
        }
    }
}

/// The id of a JSON-RPC message that cannot be parsed whole, made out from its first
/// or last bytes: `"id":` followed by a number or a string. Serializers put the id near
/// one end (first in Python's and Rust's SDKs, last in TypeScript's).
pub fn sniff_id(head: &[u8], tail: &[u8]) -> Option<Value> {
    id_after(head, memchr::memmem::find(head, b"\"id\""))
        .or_else(|| id_after(tail, memchr::memmem::rfind(tail, b"\"id\"")))
}

fn id_after(bytes: &[u8], at: Option<usize>) -> Option<Value> {
    let rest = &bytes[at? + 4..];
    let rest = skip_space(rest);
    let rest = skip_space(rest.strip_prefix(b":")?);
    let end = if rest.first() == Some(&b'"') {
        1 + rest[1..].iter().position(|&b| b == b'"')? + 1
    } else {
        rest.iter()
            .position(|b| !(b.is_ascii_digit() || *b == b'-'))
            .unwrap_or(rest.len())
    };
    match serde_json::from_slice::<Value>(&rest[..end]).ok()? {
        id @ (Value::Number(_) | Value::String(_)) => Some(id),
        _ => None,
    }
}

fn skip_space(bytes: &[u8]) -> &[u8] {
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    &bytes[start..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    async fn frames(input: &[u8], max: usize) -> Vec<Frame> {
        let mut framer = Framer::new(input, max, None);
        let mut out = Vec::new();
        while let Some(frame) = framer.next().await.unwrap() {
            out.push(frame);
        }
        out
    }

    #[tokio::test]
    async fn lines_whole_and_over_long() {
        let long = format!("{{\"id\":7,\"x\":\"{}\"}}", "a".repeat(10_000));
        let input = format!("{{\"a\":1}}\n\n{long}\n{{\"b\":2}}");
        let got = frames(input.as_bytes(), 1024).await;
        assert_eq!(got.len(), 3);
        assert!(matches!(&got[0], Frame::Line(l) if l == b"{\"a\":1}"));
        match &got[1] {
            Frame::TooLong {
                head,
                tail,
                bytes,
                artifact,
            } => {
                assert_eq!(*bytes, long.len() as u64);
                assert_eq!(head.len(), ENDS);
                assert!(tail.ends_with(b"a\"}"));
                assert!(artifact.is_err());
                assert_eq!(sniff_id(head, tail), Some(json!(7)));
            }
            Frame::Line(_) => panic!("not cut"),
        }
        assert!(matches!(&got[2], Frame::Line(l) if l == b"{\"b\":2}"));
    }

    #[tokio::test]
    async fn an_over_long_line_is_kept_whole_in_an_artifact() {
        let dir = tempfile::tempdir().unwrap();
        let artifacts = ArtifactDir::open(dir.path().join("a")).unwrap();
        let long = "x".repeat(200_000);
        let input = format!("{long}\n");
        let mut framer = Framer::new(input.as_bytes(), 1024, Some(artifacts));
        match framer.next().await.unwrap().unwrap() {
            Frame::TooLong { artifact, .. } => {
                let kept = std::fs::read(artifact.unwrap()).unwrap();
                assert_eq!(kept, long.as_bytes());
            }
            Frame::Line(_) => panic!("not cut"),
        }
        assert!(framer.next().await.unwrap().is_none());
    }

    #[test]
    fn ids_from_either_end() {
        assert_eq!(
            sniff_id(b"{\"jsonrpc\":\"2.0\",\"id\": \"abc\",", b""),
            Some(json!("abc"))
        );
        assert_eq!(
            sniff_id(b"{\"result\":{\"x\"", b"\"jsonrpc\":\"2.0\",\"id\":12}"),
            Some(json!(12))
        );
        assert_eq!(sniff_id(b"garbage", b"more"), None);
        assert_eq!(sniff_id(b"{\"id\":null}", b""), None);
    }
}

//! What an Arrow IPC reader trusts, checked before it reads: the lengths a file's footer
//! and a message's header state, and the decompressed length each compressed buffer
//! states in its first bytes. arrow-ipc allocates what they state before it reads or
//! decompresses, and an allocation that fails aborts the process (no panic handler sees
//! it), as a fuzzed file's corrupt LZ4 length did.

use crate::Error;

/// A buffer or message body stating more bytes than this is taken for a corrupt length.
pub(crate) const MAX_IPC_BUFFER_BYTES: i64 = 1 << 32;

/// An Arrow IPC input's error.
pub(crate) fn bad_ipc(why: String) -> Error {
    Error::Arrow(arrow_schema::ArrowError::IpcError(why))
}

/// Checks the decompressed length a compressed buffer states (its first 8 bytes, at byte
/// `at` of the input; -1 says it is stored as is).
pub(crate) fn check_stated(stated: [u8; 8], at: u64) -> Result<(), Error> {
    let stated = i64::from_le_bytes(stated);
    if stated > MAX_IPC_BUFFER_BYTES {
        return Err(bad_ipc(format!(
            "a compressed buffer at byte {at} states {stated} bytes decompressed (over {MAX_IPC_BUFFER_BYTES})"
        )));
    }
    Ok(())
}

/// Where the buffers of a compressed record batch (or of a dictionary batch's data) whose
/// first bytes state a length lie in its message's body; none for one stored as is.
pub(crate) fn compressed_buffers(message: &arrow_ipc::Message<'_>) -> Vec<u64> {
    let batch = message.header_as_record_batch().or_else(|| {
        message
            .header_as_dictionary_batch()
            .and_then(|dictionary| dictionary.data())
    });
    let Some(batch) = batch.filter(|batch| batch.compression().is_some()) else {
        return Vec::new();
    };
    let mut offsets: Vec<u64> = (batch.buffers().iter().flatten())
        .filter(|buffer| buffer.length() >= 8)
        .filter_map(|buffer| u64::try_from(buffer.offset()).ok())
        .collect();
    offsets.sort_unstable();
    offsets
}

/// An Arrow IPC stream's framing followed alongside its reader, each chunk before the
/// reader gets it: a message's metadata length, its body's length and its compressed
/// buffers' stated lengths are checked before the reader could act on them. (The reader
/// holds a message's body whole before it decompresses it, so the body's bytes are all
/// seen here first.) What is no framing this follows is left to the reader to refuse.
#[derive(Debug, Default)]
pub(crate) struct StreamGuard {
    stage: Stage,
    /// Bytes of the stream seen.
    at: u64,
    /// The prefix or the metadata being gathered.
    gathered: Vec<u8>,
}

#[derive(Debug, Default)]
enum Stage {
    /// A message's continuation marker and metadata length (4 bytes before format 1.0).
    #[default]
    Prefix,
    /// Its metadata, of this many bytes.
    Metadata(usize),
    /// Its body: bytes left, bytes seen, and the compressed buffers' offsets in it whose
    /// first 8 bytes are not all seen yet, with the bytes so far.
    Body {
        left: u64,
        seen: u64,
        pending: Vec<(u64, Vec<u8>)>,
    },
    /// The stream's end, or framing this does not follow.
    Done,
}

impl StreamGuard {
    /// Reads `bytes`, the stream's next. On a corrupt length, the error, with how many
    /// of `bytes` the reader may still take (those before the byte that completes the
    /// length: what the reader acts on, it has not seen), so that it reads what came
    /// before in any chunking.
    pub(crate) fn check(&mut self, bytes: &[u8]) -> Result<(), (usize, Error)> {
        let whole = bytes.len();
        let mut bytes = bytes;
        while !bytes.is_empty() {
            let consumed = whole - bytes.len();
            match &mut self.stage {
                Stage::Done => return Ok(()),
                Stage::Prefix => {
                    let want = if self.gathered.starts_with(&[0xFF; 4]) {
                        8
                    } else {
                        4
                    };
                    let took = self.gather(bytes, want);
                    bytes = &bytes[took..];
                    if self.gathered.len() < want {
                        continue;
                    }
                    if want == 4 && self.gathered == [0xFF; 4] {
                        continue; // The marker: its length follows.
                    }
                    let length = &self.gathered[want - 4..want];
                    let length = i32::from_le_bytes(length.try_into().expect("4 bytes"));
                    self.gathered.clear();
                    self.stage = match usize::try_from(length) {
                        Ok(0) | Err(_) => Stage::Done,
                        Ok(length) => Stage::Metadata(length),
                    };
                }
                &mut Stage::Metadata(length) => {
                    let took = self.gather(bytes, length);
                    bytes = &bytes[took..];
                    if self.gathered.len() < length {
                        continue;
                    }
                    let body_at = self.at;
                    self.stage = match arrow_ipc::root_as_message(&self.gathered) {
                        Ok(message) if message.bodyLength() > MAX_IPC_BUFFER_BYTES => {
                            let error = bad_ipc(format!(
                                "a message before byte {body_at} states a body of {} bytes (over {MAX_IPC_BUFFER_BYTES})",
                                message.bodyLength()
                            ));
                            return Err((consumed + took - 1, error));
                        }
                        Ok(message) if message.bodyLength() > 0 => Stage::Body {
                            left: message.bodyLength() as u64,
                            seen: 0,
                            pending: (compressed_buffers(&message).into_iter())
                                .map(|offset| (offset, Vec::new()))
                                .collect(),
                        },
                        Ok(_) => Stage::Prefix,
                        Err(_) => Stage::Done,
                    };
                    self.gathered.clear();
                }
                Stage::Body {
                    left,
                    seen,
                    pending,
                } => {
                    let n = bytes.len().min(*left as usize);
                    let (body, rest) = bytes.split_at(n);
                    for (offset, first) in pending.iter_mut() {
                        // The part of its first 8 bytes in this piece of the body.
                        let from = (*offset + first.len() as u64).max(*seen);
                        let to = (*offset + 8).min(*seen + n as u64);
                        if from < to {
                            let piece = &body[(from - *seen) as usize..(to - *seen) as usize];
                            first.extend_from_slice(piece);
                        }
                    }
                    let body_start = self.at - *seen;
                    for (offset, first) in pending.iter() {
                        if first.len() == 8 {
                            let stated = first[..].try_into().expect("8 bytes");
                            if let Err(error) = check_stated(stated, body_start + offset) {
                                // The byte that completed it, in this piece of the body.
                                let last = (*offset + 7 - *seen) as usize;
                                return Err((consumed + last, error));
                            }
                        }
                    }
                    pending.retain(|(_, first)| first.len() < 8);
                    *seen += n as u64;
                    *left -= n as u64;
                    self.at += n as u64;
                    bytes = rest;
                    if *left == 0 {
                        self.stage = Stage::Prefix;
                    }
                }
            }
        }
        Ok(())
    }

    /// Moves bytes of `bytes` into the gathered ones, up to `want` in all; returns how
    /// many it took.
    fn gather(&mut self, bytes: &[u8], want: usize) -> usize {
        let took = want.saturating_sub(self.gathered.len()).min(bytes.len());
        self.gathered.extend_from_slice(&bytes[..took]);
        self.at += took as u64;
        took
    }
}

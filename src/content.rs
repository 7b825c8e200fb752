//! Tool results' content blocks, as MCP, Anthropic's and OpenAI's tool messages give
//! them: the text a model reads in a block, wherever the block's kind keeps it.

use serde_json::Value;

/// A content block's text a model reads: a text block's (`{"type": "text", "text": …}`,
/// OpenAI's `input_text` and `output_text` parts alike), an embedded resource's
/// (`{"type": "resource", "resource": {"text": …}}`), or a plain-text document's
/// (Anthropic's `{"type": "document", "source": {"type": "text", "data": …}}`). `None`
/// for a block of no text: an image, audio, a resource of bytes.
pub fn block_text(block: &Value) -> Option<&str> {
    block["text"]
        .as_str()
        .or_else(|| block["resource"]["text"].as_str())
        .or_else(|| match block["source"]["type"].as_str() {
            Some("text") => block["source"]["data"].as_str(),
            _ => None,
        })
}

/// Sets the text [`block_text`] reads.
pub fn set_block_text(block: &mut Value, text: String) {
    if block["text"].is_string() {
        block["text"] = Value::String(text);
    } else if block["resource"]["text"].is_string() {
        block["resource"]["text"] = Value::String(text);
    } else if block_text(block).is_some() {
        block["source"]["data"] = Value::String(text);
    }
}

#[cfg(test)]
mod tests {
    use super::{block_text, set_block_text};
    use serde_json::json;

    #[test]
    fn a_blocks_text_is_read_and_set_where_its_kind_keeps_it() {
        for mut block in [
            json!({"type": "text", "text": "log"}),
            json!({"type": "input_text", "text": "log"}),
            json!({"type": "resource", "resource": {"uri": "file:///a", "text": "log"}}),
            json!({"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "log"}}),
        ] {
            assert_eq!(block_text(&block), Some("log"), "{block}");
            set_block_text(&mut block, "stub".into());
            assert_eq!(block_text(&block), Some("stub"), "{block}");
        }
        for block in [
            json!({"type": "image", "data": "iVBORw0K", "mimeType": "image/png"}),
            json!({"type": "resource", "resource": {"uri": "file:///a", "blob": "AAAA"}}),
            json!({"type": "document", "source": {"type": "base64", "data": "JVBERi0x"}}),
        ] {
            assert_eq!(block_text(&block), None, "{block}");
        }
    }
}

//! What every command shares: the budget, the tokenizer, the artifact directory, the
//! printer and the metrics file, made once from the global options.

use crate::cli::{Format, Global};
use crate::render;
use anyhow::{bail, Context, Result};
use briefly_core::{
    append_event, ArtifactDir, Artifacts, Budget, Envelope, MetricsEvent, Remaining, RunConfig,
    Tokenizer, DEFAULT_CONTEXT_TOKENS, MIN_TOKENIZED_CHARS,
};
use serde_json::Value;
use std::io::Write;
use std::time::Instant;

pub struct Session {
    pub global: Global,
    pub budget: Budget,
    pub tokenizer: Tokenizer,
    /// A warning about the budget itself (what is left of the window is below the floor).
    pub budget_warning: Option<String>,
    /// An MCP call's: once the client cancels it, its input is read no further.
    pub cancel: Option<tokio_util::sync::CancellationToken>,
    started: Instant,
}

impl Session {
    pub fn new(global: Global) -> Result<Session> {
        let context_tokens = global.context_tokens.unwrap_or(DEFAULT_CONTEXT_TOKENS);
        if context_tokens == 0 {
            bail!("--context-tokens 0: a window holds at least one token");
        }
        if global.max_line_bytes == Some(0) {
            bail!("--max-line-bytes 0: a line keeps at least one byte");
        }
        let mut budget = Budget::for_context(context_tokens);
        if let Some(max_chars) = global.max_chars {
            budget = budget.with_max_chars(max_chars)?;
        }
        let mut budget_warning = None;
        if let Some(spec) = &global.remaining_from {
            let (narrowed, warning) = budget.with_remaining(&Remaining::parse(spec)?);
            budget = narrowed;
            budget_warning = warning;
        }
        let tokenizer: Tokenizer = match &global.tokenizer {
            Some(name) => name.parse()?,
            None => Tokenizer::Chars4,
        };
        let (held, warning) = budget.for_tokenizer(
            tokenizer.is_exact(),
            global
                .max_chars
                .is_some_and(|chars| chars < MIN_TOKENIZED_CHARS),
        )?;
        budget = held;
        budget_warning = budget_warning.or(warning);
        // About four characters a token: a result past half the window leaves the model
        // little else (a budget's floor, or --max-chars, can be).
        let window_chars = budget.context_tokens.saturating_mul(4);
        if budget_warning.is_none() && budget.per_result_chars as u64 > window_chars / 2 {
            budget_warning = Some(format!(
                "the per-result budget of {} chars is over half of the {}-token window (about {window_chars} chars)",
                budget.per_result_chars, budget.context_tokens
            ));
        }
        Ok(Session {
            global,
            budget,
            tokenizer,
            budget_warning,
            cancel: None,
            started: Instant::now(),
        })
    }

    /// Whether the budget was set for this call (on the command line, or a tool call's
    /// own), not a default (the environment's, an MCP server's).
    pub fn budget_given(&self) -> bool {
        !self.global.budget_is_default
            && (self.global.context_tokens.is_some()
                || self.global.max_chars.is_some()
                || self.global.remaining_from.is_some())
    }

    /// The artifact directory (`--artifact-dir`, else the default), whose new artifacts
    /// remove expired ones now and then unless `--no-gc`.
    pub fn artifact_dir(&self) -> Result<ArtifactDir, briefly_core::Error> {
        Ok(ArtifactDir::open(self.artifact_dir_path())?.with_auto_gc(!self.global.no_gc))
    }

    /// Where the artifact directory is (`--artifact-dir`, else the default), made or not.
    pub fn artifact_dir_path(&self) -> std::path::PathBuf {
        (self.global.artifact_dir.clone()).unwrap_or_else(ArtifactDir::default_path)
    }

    /// Artifacts for new raw input: a tee into the artifact directory, or, when the
    /// directory cannot be used, the reason (the envelope will say so).
    pub fn tee(&self, id: Option<String>, argv: Vec<String>) -> Artifacts {
        match self.artifact_dir() {
            Ok(dir) => Artifacts::Tee {
                dir,
                id,
                keep: self.global.keep,
                argv,
            },
            Err(e) => Artifacts::Unavailable(e.to_string()),
        }
    }

    /// A run configuration for `source` with `options`, under this session's budget.
    pub fn config(&self, source: &str, options: Value, artifacts: Artifacts) -> RunConfig {
        // A file read in place may be anywhere: long options for its cursors go here.
        let options_dir = match artifacts {
            Artifacts::Existing { .. } => self.artifact_dir().ok(),
            _ => None,
        };
        RunConfig {
            options,
            options_dir,
            budget: self.budget,
            tokenizer: self.tokenizer.clone(),
            max_line_bytes: (self.global.max_line_bytes)
                .unwrap_or(briefly_core::DEFAULT_MAX_LINE_BYTES),
            artifacts,
            render: self.renderer(),
            ..RunConfig::new(source)
        }
    }

    pub fn renderer(&self) -> fn(&Envelope) -> String {
        match self.global.format {
            Format::Json => render::json,
            Format::Text => render::text,
        }
    }

    /// Prints `envelope`; returns the characters printed.
    pub fn print(&self, envelope: &Envelope) -> Result<usize> {
        let printed = (self.renderer())(envelope);
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(printed.as_bytes())?;
        if !printed.ends_with('\n') {
            stdout.write_all(b"\n")?;
        }
        stdout.flush()?;
        Ok(printed.chars().count())
    }

    /// Appends the metrics event for a result, when a metrics file is set. A failure to
    /// write it is reported on stderr and does not change the exit code.
    pub fn metrics(&self, event: MetricsEvent) {
        let Some(path) = &self.global.metrics else {
            return;
        };
        let event = MetricsEvent {
            tool_call_id: event
                .tool_call_id
                .clone()
                .or_else(|| self.global.id.clone()),
            threshold_chars: self.budget.per_result_chars as u64,
            estimated_raw_tokens: event.raw_chars / 4,
            duration_ms: self.started.elapsed().as_millis() as u64,
            ..event
        };
        if let Err(e) =
            append_event(path, &event).with_context(|| format!("metrics file {}", path.display()))
        {
            say!("briefly: warning: {e:#}");
        }
    }

    /// The metrics event for an envelope that went through the budget stage.
    pub fn result_event(
        &self,
        tool: &str,
        envelope: &Envelope,
        inline_chars: usize,
    ) -> MetricsEvent {
        let artifact_error = envelope
            .warnings
            .iter()
            .find(|w| w.starts_with("artifact not written"))
            .cloned();
        MetricsEvent {
            event: "tool_result_budget".into(),
            tool: tool.into(),
            raw_chars: envelope.raw.chars,
            inline_chars: inline_chars as u64,
            persisted: envelope.artifact_path.is_some(),
            artifact: envelope.artifact_path.clone(),
            artifact_error,
            ..MetricsEvent::default()
        }
    }
}

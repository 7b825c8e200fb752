//! `briefly diff`: a unified diff, the map first, then the hunks that matter.

use super::{input_argv, open_input, reduce_input};
use crate::session::Session;
use anyhow::{anyhow, Result};
use briefly_core::Pipeline;
use briefly_diff::{Diff, DiffOptions};
use std::path::Path;

pub fn run(session: &Session, file: Option<&Path>, options: DiffOptions) -> Result<i32> {
    let mut input = open_input(file)?;
    let artifacts = session.tee(session.global.id.clone(), input_argv(file));
    let config = session.config("diff", serde_json::to_value(&options)?, artifacts);
    let reducer = Diff::new(options).map_err(|e| anyhow!(e))?;
    reduce_input(
        session,
        "diff",
        Box::new(Pipeline::new(reducer, config)),
        &mut input,
    )
}

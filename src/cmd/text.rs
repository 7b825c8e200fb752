//! `briefly text`: any text or log, evidence first.

use super::{input_argv, open_input, reduce_input};
use crate::session::Session;
use anyhow::{anyhow, bail, Result};
use briefly_core::{parse_duration, Pipeline};
use briefly_text::{time, Text, TextOptions};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The options from the command line, with times resolved to seconds since the epoch
/// (so that a cursor pages the same records later).
pub fn options(
    level: Option<&str>,
    since: Option<&str>,
    until: Option<&str>,
    grep: Option<String>,
    top: usize,
    context: usize,
    emit_groups: Option<PathBuf>,
) -> Result<TextOptions> {
    let now = now()?;
    let (since, until) = time_window(since, until, now)?;
    Ok(TextOptions {
        level: level
            .map(str::parse)
            .transpose()
            .map_err(|e: String| anyhow!("--level: {e}"))?,
        since,
        until,
        grep,
        top,
        context,
        year: time::year_of(now),
        now: Some(now),
        emit_groups,
        ..TextOptions::default()
    })
}

/// Now, in seconds since the epoch: what relative times (`--since 2h`) count back from.
pub(crate) fn now() -> Result<i64> {
    Ok(SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs() as i64)
}

/// `--since` and `--until` as [`point_in_time`]s; an error when no time can be in
/// between (`--until` is the first time left out).
pub(crate) fn time_window(
    since: Option<&str>,
    until: Option<&str>,
    now: i64,
) -> Result<(Option<i64>, Option<i64>)> {
    let start = since.map(|t| point_in_time(t, now)).transpose()?;
    // Times are read to the second: an end within a second (`10:30:00.5`) takes the
    // whole of it, so that the records of that second are kept, not lost.
    let end = until
        .map(|t| Ok::<_, anyhow::Error>(point_in_time(t, now)? + i64::from(has_fraction(t))))
        .transpose()?;
    if let (Some((start, end)), Some((since, until))) = (start.zip(end), since.zip(until)) {
        if start >= end {
            bail!(
                "--since {since} is not before --until {until}: no time is in between (--until is the first time left out)"
            );
        }
    }
    Ok((start, end))
}

/// Whether `text`, a time, has a fraction of a second that is not zero (`10:30:00.5`).
fn has_fraction(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, &b)| {
        matches!(b, b'.' | b',')
            && at >= 3
            && bytes[at - 3] == b':'
            && bytes[at - 2..at].iter().all(u8::is_ascii_digit)
            && bytes[at + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .any(|&digit| digit != b'0')
    })
}

/// An absolute time (any timestamp `text` reads in logs, `YYYYMMDD`, epoch seconds) or an
/// age (`2h`).
pub(crate) fn point_in_time(text: &str, now: i64) -> Result<i64> {
    // A log's time without a year is placed in the latest year it fits; an option's
    // would be too, and a log of another year would then keep nothing, unsaid.
    if time::lacks_year(text) {
        bail!(
            "time {text:?} has no year: write it with one (2024-05-14T09:30:00Z, 2024-05-14 09:30:00), or an age such as 2h"
        );
    }
    // Any timestamp `text` reads in logs; a date alone is its midnight (UTC).
    if let Some(epoch) = time::epoch_seconds_read_at(text, time::year_of(now), Some(now)) {
        return Ok(epoch);
    }
    // Eight digits are a date (20171224), not seconds into 1970.
    if text.len() == 8 && text.bytes().all(|b| b.is_ascii_digit()) {
        let date = format!("{}-{}-{}", &text[..4], &text[4..6], &text[6..]);
        return time::epoch_seconds(&date, 0).ok_or_else(|| anyhow!("invalid date {text:?}"));
    }
    // Other digits alone are epoch seconds however many (milliseconds past 10^11), not
    // the ten or thirteen a log's epoch stamp has.
    let whole = text.split_once('.').map_or(text, |(whole, _)| whole);
    let digits = text.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if let Some(epoch) = whole.parse::<i64>().ok().filter(|_| digits) {
        return Ok(if epoch > 100_000_000_000 {
            epoch / 1000
        } else {
            epoch
        });
    }
    // An age, or as systemd writes one too, `-2h`.
    match parse_duration(text.strip_prefix('-').unwrap_or(text)) {
        Ok(age) => Ok(now - age.as_secs() as i64),
        Err(_) => bail!("invalid time {text:?}: use 2026-11-29T12:00:00Z, 2026-11-29, an epoch, or an age such as 2h or -2h"),
    }
}

pub fn run(session: &Session, file: Option<&Path>, options: TextOptions) -> Result<i32> {
    if let Some(groups) = &options.emit_groups {
        refuse_to_overwrite_the_input(groups, file)?;
    }
    let options = options.laid_out_for(session.budget.per_result_chars);
    let mut input = open_input(file)?;
    let artifacts = session.tee(session.global.id.clone(), input_argv(file));
    let config = session.config("text", serde_json::to_value(&options)?, artifacts);
    let reducer = Text::new(options).map_err(|e| anyhow!(e))?;
    reduce_input(
        session,
        "text",
        Box::new(Pipeline::new(reducer, config)),
        &mut input,
    )
}

/// `--emit-groups FILE` must not name the input (a file, or what standard input reads
/// from): writing it would destroy what is being read.
fn refuse_to_overwrite_the_input(groups: &Path, file: Option<&Path>) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    // Standard output carries the result: the groups cannot go there too.
    if groups == Path::new("-") {
        bail!("--emit-groups -: standard output holds the result; name a file (a file named - is ./-)");
    }
    let Ok(target) = std::fs::metadata(groups) else {
        return Ok(()); // not there yet: a new file
    };
    let input = match file {
        Some(file) => std::fs::metadata(file),
        None => {
            use std::os::fd::AsFd;
            let stdin = std::io::stdin();
            let fd = stdin.as_fd().try_clone_to_owned()?;
            std::fs::File::from(fd).metadata()
        }
    };
    match input {
        Ok(input) if input.dev() == target.dev() && input.ino() == target.ino() => bail!(
            "--emit-groups {}: that is the input; writing it would destroy what is read",
            groups.display()
        ),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_absolute_and_relative() {
        let now = 1_800_000_000;
        assert_eq!(point_in_time("2h", now).unwrap(), now - 7200);
        assert_eq!(
            point_in_time("-2h", now).unwrap(),
            now - 7200,
            "as systemd writes it"
        );
        assert!(point_in_time("--2h", now).is_err());
        assert_eq!(point_in_time("1117838570", now).unwrap(), 1_117_838_570);
        assert_eq!(point_in_time("1970-01-02T00:00:00Z", now).unwrap(), 86_400);
        assert_eq!(point_in_time("1970-01-02", now).unwrap(), 86_400);
        assert_eq!(
            point_in_time("1000", now).unwrap(),
            1000,
            "any digits: epoch"
        );
        assert_eq!(point_in_time("1117838570123", now).unwrap(), 1_117_838_570);
        assert_eq!(point_in_time("19700102", now).unwrap(), 86_400, "a date");
        assert!(point_in_time("20171332", now).is_err());
        assert_eq!(point_in_time("1970-01-01 02:00:00+02:00", now).unwrap(), 0);
        assert!(point_in_time("yesterday-ish", now).is_err());
        assert!(point_in_time("2015-13-45", now).is_err(), "no 13th month");
        assert!(
            point_in_time("2015-02-30", now).is_err(),
            "no February 30th"
        );
        // No year: no guess that may keep nothing of a log of another year.
        for yearless in ["May 14 09:30:00", "Jan  1 00:00:00"] {
            let error = point_in_time(yearless, now).unwrap_err().to_string();
            assert!(error.contains("has no year"), "{error}");
        }
        assert!(point_in_time("2024-05-14 09:30:00", now).is_ok());
    }
}

//! Detection of a timestamp at the start of a log line.
//!
//! A small hand-written scanner (no regex) for the common shapes:
//!
//! | shape | example |
//! | --- | --- |
//! | ISO 8601 / RFC 3339 | `2024-01-05T10:00:01.123Z`, `2015-10-18 18:01:47,978` |
//! | slashed dates | `2016/09/28 04:30:30`, `17/06/09 20:10:40` |
//! | month names | `05-Jan-2024 10:00:07.000` (Tomcat) |
//! | compact dates | `20171223-22:15:29:606`, `20240105T100001Z` |
//! | month-day with time | `03-17 16:13:38.811`, `10.30 16:49:06` |
//! | syslog / ctime | `Jun 14 15:16:01`, `Sun Dec 04 04:47:44 2005` |
//! | journalctl's `short-full` | `Sun 2026-12-06 10:05:00 UTC` |
//! | java.util.logging | `Jan 05, 2024 10:00:06 AM` |
//! | RFC 2822 (mail, HTTP) | `Fri, 05 Jan 2024 10:00:00 +0000` |
//! | day and month name | `05 Jan 2024 10:00:04.123`, `14 Nov 07:01:22.119` (Redis) |
//! | access logs | `10/Oct/2000:13:55:36 -0700` |
//! | glog | `I0105 10:00:08.000000` (its level letter with it) |
//! | time of day | `16:49:06.123` |
//! | unix epoch | `1117838570`, `1117838570.123`, `1700000000000` |
//!
//! An opening `[` before the timestamp is skipped (`[10.30 16:49:06]`); [`timestamp_range`]
//! also finds one in a bracket after the first fields, where access logs write it, after
//! Redis's pid prefix, after `gh run view --log`'s job and step columns, and as a
//! `time`/`ts`/`timestamp` key's value in JSON and logfmt lines.

/// The timestamp at the start of `line`, as a slice of it, if there is one.
///
/// Leading whitespace and one opening `[` are skipped; the returned text
/// excludes them and any closing bracket. Recognized shapes: ISO 8601 /
/// RFC 3339 (`2024-01-05T10:00:01.123Z`, `2015-10-18 18:01:47,978`),
/// slashed and dotted dates (`2016/09/28 04:30:30`, `17/06/09 20:10:40`),
/// compact dates with a time (`20171223-22:15:29:606`, `20240105T100001Z`),
/// month-day with a time (`03-17 16:13:38.811`, `10.30 16:49:06`), syslog
/// and ctime (`Jun 14 15:16:01`, `Sun Dec 04 04:47:44 2005`), java.util.logging's
/// `Jan 05, 2024 10:00:06 AM`, RFC 2822's `Fri, 05 Jan 2024 10:00:00 +0000`, Tomcat's
/// `05-Jan-2024 10:00:07.000`, a day before a month's name as Redis writes it
/// (`05 Jan 2024 10:00:04.123`), glog's `I0105 10:00:08.000000` (its level letter
/// with it), a time of day (`16:49:06.123`) and unix epochs in seconds or milliseconds
/// (`1117838570`, `1700000000000`). The text is returned as is (no time
/// zone conversion), which is enough to show a first / last time.
///
/// ```
/// use briefly_template::leading_timestamp;
/// assert_eq!(
///     leading_timestamp("2015-10-18 18:01:47,978 INFO [main] started"),
///     Some("2015-10-18 18:01:47,978")
/// );
/// assert_eq!(leading_timestamp("Jun 14 15:16:01 combo sshd[1]: x"), Some("Jun 14 15:16:01"));
/// assert_eq!(leading_timestamp("no time here"), None);
/// ```
pub fn leading_timestamp(line: &str) -> Option<&str> {
    leading_timestamp_range(line).map(|range| &line[range])
}

/// Where [`leading_timestamp`] is in `line`, for a caller that keeps the line apart from
/// what it found.
///
/// ```
/// assert_eq!(briefly_template::leading_timestamp_range("[12:00:01] up"), Some(1..9));
/// ```
pub fn leading_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    leading_moment(line).map(|(range, _)| range)
}

/// Where a line's timestamp is: at its start ([`leading_timestamp_range`]), else after
/// syslog's priority (`<34>Oct 11 22:14:15`, `<165>1 2003-10-11T22:14:15Z`), else after
/// Redis's pid prefix (`1:M 05 Jan 2024 10:00:04.123`), else in a bracket after at most
/// three fields, as access logs write it after the client's address, identity and user,
/// else after `gh run view --log`'s job and step columns, else after a container's name
/// (docker compose's, kubectl's: [`container_prefix`]), else as the value of a `time`,
/// `ts`, `timestamp`, `@timestamp` or `datetime` key in a JSON or logfmt line, else after
/// a file's name (`grep -r`'s `logs/app.log:2024-05-14 10:00:00 …`), else after an AWS
/// load balancer's request type (`https 2024-05-01T10:00:00.28Z app/…`); after a
/// byte-order mark, if one opens the line. Only a timestamp with a date counts after the
/// line's start, and not in an indented line (a stack frame's `[12:00:01]` is no record's
/// time).
///
/// ```
/// use briefly_template::timestamp_range;
/// let line = r#"127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326"#;
/// assert_eq!(timestamp_range(line).map(|r| &line[r]), Some("10/Oct/2000:13:55:36 -0700"));
/// assert_eq!(timestamp_range("2015-10-18 18:01:47 x [12:00]"), Some(0..19));
/// assert_eq!(timestamp_range("job 7 done [12:00:01]"), None);
/// let json = r#"{"level":"error","ts":"2024-01-05T10:00:01Z","msg":"x"}"#;
/// assert_eq!(timestamp_range(json).map(|r| &json[r]), Some("2024-01-05T10:00:01Z"));
/// let alb = "https 2024-05-01T10:00:00.282061Z app/alb/50dc 1.2.3.4:3 - 0.000 -1 -1 503";
/// assert_eq!(timestamp_range(alb), Some(6..33));
/// assert_eq!(timestamp_range("https 12:00:01 up"), None);
/// ```
pub fn timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    // A byte-order mark opens some files: the first line's time is after it.
    let bom = bom_len(line);
    let line = &line[bom..];
    let range = leading_timestamp_range(line)
        .or_else(|| syslog_timestamp_range(line))
        .or_else(|| redis_timestamp_range(line))
        .or_else(|| bracketed_timestamp_range(line))
        .or_else(|| tabbed_timestamp_range(line))
        .or_else(|| container_timestamp_range(line))
        .or_else(|| keyed_timestamp_range(line))
        .or_else(|| named_timestamp_range(line))
        .or_else(|| balancer_timestamp_range(line))?;
    Some(range.start + bom..range.end + bom)
}

/// The timestamp of [`timestamp_range`] after the request's type that opens an AWS
/// Application Load Balancer's access log line: `https 2024-05-01T10:00:00.282061Z
/// app/my-alb/…`, `h2 …`, `ws …`. Only a dated time counts.
fn balancer_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    const TYPES: [&str; 6] = ["http ", "https ", "h2 ", "grpcs ", "ws ", "wss "];
    // (Read of every line without a time: most fail on their first byte.)
    if !matches!(line.as_bytes().first(), Some(b'h' | b'g' | b'w')) {
        return None;
    }
    let start = TYPES.iter().find(|kind| line.starts_with(*kind))?.len();
    dated_moment_at(line, start).filter(|range| range.start == start)
}

/// Where the moment [`leading_moment`] reads from `line[start..]` is in `line`, when it
/// has a date (a time alone, `12:00:01`, may be anything's after the line's start).
fn dated_moment_at(line: &str, start: usize) -> Option<std::ops::Range<usize>> {
    let (range, moment) = leading_moment(&line[start..])?;
    matches!(moment, Moment::Civil(_)).then_some(start + range.start..start + range.end)
}

/// The timestamp of [`timestamp_range`] after a file's name, where a tool that reads
/// many files names the one each line is from: `grep -r`'s `logs/app.log:2024-05-14
/// 10:00:00 …`, a collector's `nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:00.008
/// …` (OpenStack's, in loghub). The name is the line's first word up to its first colon
/// or space, within its first 256 bytes, with a letter and a `.` or a `/` in it; only a
/// dated time right after the colon or the space counts.
fn named_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    const HEAD: usize = 256;
    let b = line.as_bytes();
    let head = &b[..b.len().min(HEAD)];
    let after_name = |end: usize| {
        let name = &head[..end];
        let named = name.iter().any(u8::is_ascii_alphabetic)
            && name.iter().any(|b| matches!(b, b'.' | b'/'))
            && !name
                .iter()
                .any(|b| b.is_ascii_whitespace() || b.is_ascii_control());
        let start = end + 1;
        named
            .then(|| dated_moment_at(line, start))?
            .filter(|range| range.start == start)
    };
    [memchr::memchr(b':', head), memchr::memchr(b' ', head)]
        .into_iter()
        .flatten()
        .find_map(after_name)
}

/// The length of the byte-order mark that opens `text`, if one does.
fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// The timestamp of [`timestamp_range`] after syslog's priority: RFC 3164's `<34>Oct 11
/// 22:14:15 host su: …`, RFC 5424's `<165>1 2003-10-11T22:14:15.003Z host …` (its
/// version, `1`, before the time).
fn syslog_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let n = digits(b, 1, 3);
    if at(b, 0) != b'<' || n == 0 || at(b, n + 1) != b'>' {
        return None;
    }
    let start = n
        + 2
        + if line[n + 2..].starts_with("1 ") {
            2
        } else {
            0
        };
    let (range, _) = leading_moment(&line[start..])?;
    Some(start + range.start..start + range.end)
}

/// The timestamp of [`timestamp_range`] after Redis's record prefix: a pid and its role's
/// letter (`1:M 05 Jan 2024 10:00:04.123 * Ready`, Redis 3 on) or a bracketed pid
/// (`[4018] 14 Nov 07:01:22.119 * Server started`, before). Only a dated one counts.
fn redis_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    let b = line.as_bytes();
    let start = match digits(b, 0, 11) {
        0 => {
            let n = digits(b, 1, 11);
            (at(b, 0) == b'[' && n > 0 && at(b, n + 1) == b']' && at(b, n + 2) == b' ')
                .then_some(n + 3)?
        }
        n => (at(b, n) == b':'
            && matches!(at(b, n + 1), b'X' | b'C' | b'S' | b'M')
            && at(b, n + 2) == b' ')
            .then_some(n + 3)?,
    };
    dated_moment_at(line, start)
}

/// The timestamp of [`timestamp_range`] after `gh run view --log`'s columns: a job's
/// and a step's names, each ending in a tab (`build\tRun cargo test\t2024-01-05T10:00:02Z
/// error: …`), a step's first line with a byte-order mark before its time. At most two
/// columns, within the line's first 256 bytes, in a line that is not indented (a
/// stack's `\tat …` has no columns); only a dated time before a space, or at the end,
/// counts.
fn tabbed_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    const COLUMNS: usize = 2;
    const HEAD: usize = 256;
    let b = line.as_bytes();
    if b.first().is_none_or(u8::is_ascii_whitespace) {
        return None;
    }
    memchr::memchr_iter(b'\t', &b[..b.len().min(HEAD)])
        .take(COLUMNS)
        .find_map(|tab| {
            let start = tab + 1 + bom_len(&line[tab + 1..]);
            let (range, moment) = leading_moment(&line[start..])?;
            let end = start + range.end;
            (range.start == 0
                && matches!(moment, Moment::Civil(_))
                && matches!(at(b, end), b' ' | 0))
            .then_some(start..end)
        })
}

/// The name of the container that wrote a line, where a tool that merges containers'
/// output puts it before each line: the name's range and where the line goes on.
///
/// docker compose's `web-1  | ` is a name, the spaces that line the names up, a bar and
/// a space. The name is a container's (`[a-zA-Z0-9][a-zA-Z0-9_.-]*`): the service's and
/// replica's (`web-1`, `web_1` before Compose v2) or the one the compose file gives it
/// (`my-postgres`), with a lower-case letter in it, the bar among the line's first 128
/// bytes. Not a compiler's gutter (`4 | let x`), a level's column (`ERROR | …`), nor a
/// table's `| a |`. pm2 puts its process's id and a bar before the name (`0|api  | `),
/// `kubectl logs --prefix` the pod's and the container's in brackets (`[pod/web-0/app] `).
///
/// ```
/// use briefly_template::container_prefix;
/// assert_eq!(container_prefix("web-1  | listening"), Some((0..5, 9)));
/// assert_eq!(container_prefix("[pod/web-0/app] listening"), Some((1..14, 16)));
/// assert_eq!(container_prefix("0|api  | listening"), Some((0..5, 9)));
/// assert_eq!(container_prefix("a || b"), None);
/// ```
pub fn container_prefix(line: &str) -> Option<(std::ops::Range<usize>, usize)> {
    // Read in every line: most have no bar near their start.
    const HEAD: usize = 128;
    let b = line.as_bytes();
    // The line goes on after the prefix's closing byte at `end` and a space, or ends there.
    let goes_on = |end: usize| match b.get(end + 1) {
        None => Some(b.len()),
        Some(b' ') => Some(end + 2),
        Some(_) => None,
    };
    if b.starts_with(b"[pod/") {
        let close = memchr::memchr(b']', &b[..b.len().min(HEAD)])?;
        if b[1..close].contains(&b' ') {
            return None;
        }
        return Some((1..close, goes_on(close)?));
    }
    // pm2's process id and its bar come before the name.
    let id = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let from = if id > 0 && at(b, id) == b'|' {
        id + 1
    } else {
        0
    };
    let bar = from + memchr::memchr(b'|', b.get(from..b.len().min(HEAD))?)?;
    let name = b[..bar].trim_ascii_end();
    let padded = name.len() < bar && b[name.len()..bar].iter().all(|&c| c == b' ');
    let own = name.get(from..).unwrap_or_default();
    let named = own.first().is_some_and(u8::is_ascii_alphanumeric)
        && own.iter().any(u8::is_ascii_lowercase)
        && own
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    if !padded || !named {
        return None;
    }
    Some((0..name.len(), goes_on(bar)?))
}

/// The timestamp of [`timestamp_range`] after a container's name ([`container_prefix`]):
/// `web-1  | 2024-01-05 10:00:00 …`. Only a dated time counts.
fn container_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    let (_, start) = container_prefix(line)?;
    dated_moment_at(line, start)
}

/// The keyed timestamp of [`timestamp_range`]: the value of a `time`, `ts`, `timestamp`,
/// `@timestamp` or `datetime` key in a JSON object (`{"ts":"2024-01-05T10:00:01Z"}`,
/// zap's `"ts":1704448801.5`) or in logfmt (`time="2024-01-05T10:00:01Z"`,
/// `ts=2024-01-05T10:00:01Z`, a line whose first field is a `key=value`), among the
/// line's first 256 bytes; dated, in a line that is not indented (a pretty-printed
/// document's `"time": …` is no record's time). The first such key counts: in JSON, one
/// of the top-level object (a nested object's `"time"` is its payload's); in logfmt, one
/// outside quotes (in `msg="retry at ts=…"` it is text).
fn keyed_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    const HEAD: usize = 256;
    const KEYS: [&[u8]; 5] = [b"time", b"ts", b"timestamp", b"@timestamp", b"datetime"];
    let b = line.as_bytes();
    if b.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let head = &b[..b.len().min(HEAD)];
    // A JSON object, or logfmt: its first field is a `key=value` too.
    let json = b.first() == Some(&b'{');
    let first_field = &head[..memchr::memchr(b' ', head).unwrap_or(head.len())];
    if !json && !first_field.contains(&b'=') {
        return None;
    }
    // Inside a logfmt value's quotes (an escaped quote does not end them).
    let mut in_value = false;
    for sep in memchr::memchr3_iter(b'=', b':', b'"', head) {
        if b[sep] == b'"' {
            in_value ^= !json && at(b, sep.wrapping_sub(1)) != b'\\';
            continue;
        }
        if in_value {
            continue;
        }
        // The key before `":` in JSON, before `=` in logfmt (not a `time=` inside a
        // JSON string, nor a `caller=main.go:12`): letters, digits, `_` and `@`.
        let quoted = sep > 0 && b[sep - 1] == b'"';
        let key_shaped = if json {
            quoted && b[sep] == b':'
        } else {
            !quoted && b[sep] == b'='
        };
        if !key_shaped {
            continue;
        }
        let key_end = sep - usize::from(quoted);
        // Every key ends in `e`, `s` or `p`: most separators are passed over here.
        if !matches!(at(b, key_end.wrapping_sub(1)) | 0x20, b'e' | b's' | b'p') {
            continue;
        }
        let key_start = b[..key_end]
            .iter()
            .rposition(|&c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'@'))
            .map_or(0, |p| p + 1);
        let key = &b[key_start..key_end];
        if (quoted && (key_start == 0 || b[key_start - 1] != b'"'))
            || !KEYS.iter().any(|k| k.eq_ignore_ascii_case(key))
            || (json && !in_top_level_object(&b[..key_start - 1]))
        {
            continue;
        }
        let mut value = sep + 1;
        value += usize::from(at(b, value) == b' ');
        let value_quoted = at(b, value) == b'"';
        value += usize::from(value_quoted);
        if at(b, value).is_ascii_whitespace() || at(b, value) == b'[' {
            continue;
        }
        let Some((range, moment)) = leading_moment(&line[value..]) else {
            continue;
        };
        let end = value + range.end;
        if matches!(moment, Moment::TimeOfDay) || (value_quoted && at(b, end) != b'"') {
            continue;
        }
        return Some(value + range.start..end);
    }
    None
}

/// Whether JSON text that opens with `before` is, at its end, in the top-level object and
/// outside any string.
fn in_top_level_object(before: &[u8]) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0i32, false, false);
    for &c in before {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_string = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
    }
    !in_string && depth == 1
}

/// The bracketed timestamp of [`timestamp_range`].
fn bracketed_timestamp_range(line: &str) -> Option<std::ops::Range<usize>> {
    // At most three fields before the bracket (an address, an identity, a user), within
    // 192 bytes in all. Most lines have no bracket near their start: one vector search
    // for it answers them.
    const FIELDS: usize = 3;
    const HEAD: usize = FIELDS * 64;
    let b = line.as_bytes();
    if b.first().is_none_or(u8::is_ascii_whitespace) {
        return None;
    }
    let open = memchr::memchr(b'[', &b[..b.len().min(HEAD)])?;
    let fields_before = b[..open].iter().filter(|&&c| c == b' ').count();
    if open == 0 || b[open - 1] != b' ' || fields_before > FIELDS {
        return None;
    }
    let (range, moment) = leading_moment(&line[open..])?;
    let dated = !matches!(moment, Moment::TimeOfDay);
    let end = open + range.end;
    (dated && (at(b, end) == b']' || is_ruby_pid(&b[end..]))).then_some(open + range.start..end)
}

/// Whether `rest` closes the bracket of Ruby's logger with its process id after the
/// time: `F, [2026-12-07T12:02:50.200001 #121] FATAL -- : …`.
fn is_ruby_pid(rest: &[u8]) -> bool {
    let Some(pid) = rest.strip_prefix(b" #") else {
        return false;
    };
    let digits = pid.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0 && pid.get(digits) == Some(&b']')
}

/// What a timestamp says, as written: its zone is reported, not applied, and a year it
/// does not write is left for the caller to supply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// A date, and the time of day when one is written (midnight when not).
    Civil(Civil),
    /// Seconds since the Unix epoch (a stamp in milliseconds is divided by 1,000).
    Epoch(i64),
    /// A time of day without a date (`16:49:06`): no moment without one.
    TimeOfDay,
}

/// A date and time of day as written, not checked: a caller that needs a time that
/// exists checks it (February 30th, a 25th hour, the month 25 of a day-first `25/06/17`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Civil {
    /// The year, `None` when the stamp has none (syslog's `Jun 14 15:16:01`, logcat's
    /// `03-17 16:13:38.811`); two digits are read as 20YY (Spark's `17/06/09`).
    pub year: Option<u16>,
    /// The month, 1 for January.
    pub month: u8,
    /// The day of the month.
    pub day: u8,
    /// The hour.
    pub hour: u8,
    /// The minute.
    pub minute: u8,
    /// The second; 0 when the stamp has none.
    pub second: u8,
    /// The UTC offset written after the time, in seconds east of UTC (`+02:00` is
    /// 7,200); 0 for `Z` or none.
    pub offset: i32,
}

/// [`leading_timestamp_range`], and what the timestamp there says.
///
/// ```
/// use briefly_template::{leading_moment, Civil, Moment};
/// let (range, moment) = leading_moment("Jun 14 15:16:01 combo sshd[1]: x").unwrap();
/// assert_eq!(range, 0..15);
/// let civil = Civil { month: 6, day: 14, hour: 15, minute: 16, second: 1, ..Civil::default() };
/// assert_eq!(moment, Moment::Civil(civil));
/// ```
pub fn leading_moment(line: &str) -> Option<(std::ops::Range<usize>, Moment)> {
    let b = line.as_bytes();
    let mut p = 0;
    while p < b.len() && (b[p] == b' ' || b[p] == b'\t') {
        p += 1;
    }
    let mut indented = p > 0;
    if p < b.len() && b[p] == b'[' {
        p += 1;
        indented = false;
    }
    let (end, moment) = glog(b, p)
        .or_else(|| iso_date_time(b, p))
        .map(|(end, civil)| (end, Moment::Civil(civil)))
        .or_else(|| full_reading(b, p))?;
    // Must end at a token boundary.
    if end < b.len() && (b[end].is_ascii_alphanumeric()) {
        return None;
    }
    // An indented `1:13` with no seconds, out of brackets, is a place in a file, as
    // linters write a line and a column (ESLint's `   1:13  error  …`), not a time.
    if indented && moment == Moment::TimeOfDay && memchr::memchr_iter(b':', &b[p..end]).count() < 2
    {
        return None;
    }
    Some((p..end, moment))
}

/// What `stamp` says, when the whole of it is a timestamp [`leading_timestamp`] finds
/// (leading and trailing whitespace aside).
///
/// ```
/// use briefly_template::{read_timestamp, Moment};
/// assert_eq!(read_timestamp("1117838570"), Some(Moment::Epoch(1_117_838_570)));
/// assert_eq!(read_timestamp("16:49:06"), Some(Moment::TimeOfDay));
/// assert_eq!(read_timestamp("2024-01-05 and more"), None);
/// ```
pub fn read_timestamp(stamp: &str) -> Option<Moment> {
    let stamp = stamp.trim();
    leading_moment(stamp)
        .filter(|(range, _)| *range == (0..stamp.len()))
        .map(|(_, moment)| moment)
}

/// A time of day as read: hour, minute, second, UTC offset in seconds.
#[derive(Clone, Copy)]
struct Clock {
    hour: u8,
    minute: u8,
    second: u8,
    offset: i32,
}

impl Civil {
    /// The date `year`-`month`-`day` at midnight.
    fn date(year: Option<u16>, month: u32, day: u32) -> Civil {
        Civil {
            year,
            month: month as u8,
            day: day as u8,
            ..Civil::default()
        }
    }

    /// This date at `clock`.
    fn at(self, clock: Clock) -> Civil {
        Civil {
            hour: clock.hour,
            minute: clock.minute,
            second: clock.second,
            offset: clock.offset,
            ..self
        }
    }
}

/// Number of ASCII digits at `p` (at most `max`).
fn digits(b: &[u8], p: usize, max: usize) -> usize {
    b[p.min(b.len())..]
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// Value of `n` digits at `p` (`n` at most 9).
fn number(b: &[u8], p: usize, n: usize) -> u32 {
    b[p..p + n]
        .iter()
        .fold(0u32, |v, &c| v * 10 + u32::from(c - b'0'))
}

fn at(b: &[u8], p: usize) -> u8 {
    b.get(p).copied().unwrap_or(0)
}

/// Where a timestamp of any recognized shape that starts at `p` ends, and what it says.
fn full_reading(b: &[u8], p: usize) -> Option<(usize, Moment)> {
    date_time(b, p)
        .or_else(|| syslog(b, p))
        .or_else(|| day_month_name(b, p))
        .map(|(end, civil)| (end, Moment::Civil(civil)))
        .or_else(|| time_of_day(b, p).map(|(end, _)| (end, Moment::TimeOfDay)))
        .or_else(|| epoch(b, p).map(|(end, seconds)| (end, Moment::Epoch(seconds))))
}

/// `YYYY-MM-DD[T ]HH:MM:SS`, the commonest shape, read at fixed places: what
/// [`full_reading`] finds there, found sooner. `None` leaves the line to it.
fn iso_date_time(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let head: &[u8; 20] = b.get(p..)?.first_chunk()?;
    let digit = |i: usize| head[i].is_ascii_digit();
    let fixed = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18].into_iter().all(digit)
        && head[4] == b'-'
        && head[7] == b'-'
        && matches!(head[10], b'T' | b' ')
        && head[13] == b':'
        && head[16] == b':'
        // A third digit of seconds is another shape.
        && !digit(19);
    let two = |i: usize| u32::from(head[i] - b'0') * 10 + u32::from(head[i + 1] - b'0');
    let valid = fixed
        && (1..=12).contains(&two(5))
        && (1..=31).contains(&two(8))
        && two(11) <= 24
        && two(14) <= 59;
    if !valid {
        return None;
    }
    let (end, offset) = fraction_and_zone(b, p + 19);
    let date = Civil::date(Some((two(0) * 100 + two(2)) as u16), two(5), two(8));
    let clock = Clock {
        hour: two(11) as u8,
        minute: two(14) as u8,
        second: two(17) as u8,
        offset,
    };
    Some((end, date.at(clock)))
}

/// Dates with digits first, optionally followed by a time.
fn date_time(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let d1 = digits(b, p, 9);
    let sep = at(b, p + d1);
    let (date_end, date) = match d1 {
        // 2024-01-05, 2016/9/27, 2005.06.03
        4 if matches!(sep, b'-' | b'/' | b'.') => {
            let q = p + 5;
            let m = digits(b, q, 3);
            let sep2 = at(b, q + m);
            let d = digits(b, q + m + 1, 3);
            if !(1..=2).contains(&m) || sep2 != sep || !(1..=2).contains(&d) {
                return None;
            }
            let (month, day) = (number(b, q, m), number(b, q + m + 1, d));
            if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
                return None;
            }
            let year = number(b, p, 4) as u16;
            (q + m + 1 + d, Civil::date(Some(year), month, day))
        }
        // 10/Oct/2000:13:55:36 -0700, the access logs' (Apache's, nginx's) `%d/%b/%Y:%T %z`
        2 if sep == b'/' && at(b, p + 6) == b'/' => return access_log(b, p),
        // 05-Jan-2024, Tomcat's `dd-MMM-yyyy`
        2 if sep == b'-' && at(b, p + 6) == b'-' && digits(b, p + 7, 5) == 4 => {
            let month = month_at(b, p + 3)?;
            let day = number(b, p, 2);
            if !(1..=31).contains(&day) {
                return None;
            }
            let year = number(b, p + 7, 4) as u16;
            (p + 11, Civil::date(Some(year), month, day))
        }
        // 17/06/09 (year first) or 03-17 / 10.30 (month-day, time required)
        2 if matches!(sep, b'-' | b'/' | b'.') => {
            let q = p + 3;
            let m = digits(b, q, 3);
            if m != 2 {
                return None;
            }
            if at(b, q + 2) == sep && digits(b, q + 3, 3) == 2 {
                // A fourth group is an address's: `71.15.17.234` is no date.
                if at(b, q + 5) == sep && at(b, q + 6).is_ascii_digit() {
                    return None;
                }
                // Not checked: `25/06/17` (day first) is a timestamp too, of no known time.
                let (month, day) = (number(b, q, 2), number(b, q + 3, 2));
                let year = 2000 + number(b, p, 2) as u16;
                (q + 5, Civil::date(Some(year), month, day))
            } else {
                // Month-day: needs a time to be a timestamp.
                let (month, day) = (number(b, p, 2), number(b, q, 2));
                if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
                    return None;
                }
                let t = q + 2;
                if at(b, t) != b' ' {
                    return None;
                }
                let (end, clock) = time_of_day(b, t + 1)?;
                return Some((end, Civil::date(None, month, day).at(clock)));
            }
        }
        // 20171223
        8 => {
            let (month, day) = (number(b, p + 4, 2), number(b, p + 6, 2));
            if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
                return None;
            }
            let year = number(b, p, 4) as u16;
            (p + 8, Civil::date(Some(year), month, day))
        }
        _ => return None,
    };
    // Optional time after `T`, a space, `-` or `_`; after a date, its minutes and
    // seconds may have one digit (HealthApp's `20171223-23:8:9:233`).
    if matches!(at(b, date_end), b'T' | b' ' | b'-' | b'_' | b':') {
        if let Some((end, clock)) = clock_time(b, date_end + 1, 1) {
            return Some((end, date.at(clock)));
        }
        // MariaDB's and MySQL 5's hour before 10 padded with a space: `2026-12-06  8:06:05`.
        if at(b, date_end) == b' ' && at(b, date_end + 1) == b' ' && at(b, date_end + 3) == b':' {
            if let Some((end, clock)) = clock_time(b, date_end + 2, 1) {
                return Some((end, date.at(clock)));
            }
        }
        // Compact time: 20240105T100001Z
        if at(b, date_end) == b'T' && digits(b, date_end + 1, 7) == 6 {
            let (end, offset) = zone(b, date_end + 7);
            let clock = Clock {
                hour: number(b, date_end + 1, 2) as u8,
                minute: number(b, date_end + 3, 2) as u8,
                second: number(b, date_end + 5, 2) as u8,
                offset,
            };
            return Some((end, date.at(clock)));
        }
    }
    // A bare compact date is too ambiguous to be a timestamp.
    if d1 == 8 {
        return None;
    }
    Some((date_end, date))
}

/// `HH:MM[:SS][.frac|,frac|:frac][zone]`.
fn time_of_day(b: &[u8], p: usize) -> Option<(usize, Clock)> {
    clock_time(b, p, 2)
}

/// [`time_of_day`], with minutes and seconds of `least` to 2 digits.
fn clock_time(b: &[u8], p: usize, least: usize) -> Option<(usize, Clock)> {
    let h = digits(b, p, 3);
    if !(1..=2).contains(&h) || at(b, p + h) != b':' || number(b, p, h) > 24 {
        return None;
    }
    let mut e = p + h + 1;
    let m = digits(b, e, 3);
    if !(least..=2).contains(&m) || number(b, e, m) > 59 {
        return None;
    }
    let mut clock = Clock {
        hour: number(b, p, h) as u8,
        minute: number(b, e, m) as u8,
        second: 0,
        offset: 0,
    };
    e += m;
    let sec = digits(b, e + 1, 3);
    let end = if at(b, e) == b':' && (least..=2).contains(&sec) {
        clock.second = number(b, e + 1, sec) as u8;
        let (end, offset) = fraction_and_zone(b, e + 1 + sec);
        clock.offset = offset;
        end
    } else {
        let (end, offset) = zone(b, e);
        clock.offset = offset;
        end
    };
    Some((end, clock))
}

/// The end of a time's optional fraction (`.123`, `,978`, `:606`) and zone, after its
/// seconds end at `e`, and the zone's offset.
fn fraction_and_zone(b: &[u8], mut e: usize) -> (usize, i32) {
    if matches!(at(b, e), b'.' | b',' | b':') {
        let f = digits(b, e + 1, 10);
        if f > 0 {
            e += 1 + f;
        }
    }
    zone(b, e)
}

/// Optional zone right after a time, `Z`, `+01:00`, `-0500`, `+02`: where it ends, and
/// its offset in seconds east of UTC.
/// The zone that is all of `text`, as a time's zone is read (`Z`, `+0200`, `-05:00`,
/// `+02`): its offset in seconds east of UTC; `None` for anything else.
///
/// ```
/// use briefly_template::zone_offset;
/// assert_eq!(zone_offset("+0200"), Some(7200));
/// assert_eq!(zone_offset("-05:00"), Some(-18_000));
/// assert_eq!(zone_offset("+02x"), None);
/// ```
pub fn zone_offset(text: &str) -> Option<i32> {
    match zone(text.as_bytes(), 0) {
        (end, offset) if end > 0 && end == text.len() => Some(offset),
        _ => None,
    }
}

fn zone(b: &[u8], e: usize) -> (usize, i32) {
    let sign = match at(b, e) {
        b'Z' => return (e + 1, 0),
        b'+' => 1,
        b'-' => -1,
        _ => return (e, 0),
    };
    let (end, minutes) = match digits(b, e + 1, 5) {
        4 => (e + 5, number(b, e + 3, 2) as i32),
        2 if at(b, e + 3) == b':' && digits(b, e + 4, 3) == 2 => {
            (e + 6, number(b, e + 4, 2) as i32)
        }
        2 => (e + 3, 0),
        _ => return (e, 0),
    };
    let hours = number(b, e + 1, 2) as i32;
    (end, sign * (hours * 3600 + minutes * 60))
}

/// glog's `I0105 10:00:08.000000` at `p`: a level letter, the month and day, a time of
/// day; where it ends, and what it says without its year.
fn glog(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    if !matches!(at(b, p), b'I' | b'W' | b'E' | b'F')
        || digits(b, p + 1, 5) != 4
        || at(b, p + 5) != b' '
    {
        return None;
    }
    let (month, day) = (number(b, p + 1, 2), number(b, p + 3, 2));
    // glog always writes the seconds.
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || at(b, p + 11) != b':' {
        return None;
    }
    let (end, clock) = time_of_day(b, p + 6)?;
    Some((end, Civil::date(None, month, day).at(clock)))
}

/// `DD/Mon/YYYY:HH:MM:SS[ ±hhmm]` at `p` (its `DD/` read): the zone is written after a
/// space in this shape.
fn access_log(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let month = month_at(b, p + 3)?;
    let day = number(b, p, 2);
    if !(1..=31).contains(&day) || digits(b, p + 7, 5) != 4 || at(b, p + 11) != b':' {
        return None;
    }
    let date = Civil::date(Some(number(b, p + 7, 4) as u16), month, day);
    let (mut end, mut clock) = time_of_day(b, p + 12)?;
    if let Some((zone_end, offset)) = spaced_zone(b, end) {
        (end, clock.offset) = (zone_end, offset);
    }
    Some((end, date.at(clock)))
}

/// A `±hhmm` zone after a space at `end`, where access logs and RFC 2822 write it after
/// the time: where it ends, and its offset.
fn spaced_zone(b: &[u8], end: usize) -> Option<(usize, i32)> {
    if at(b, end) != b' ' {
        return None;
    }
    let (zone_end, offset) = zone(b, end + 1);
    (zone_end == end + 6).then_some((zone_end, offset))
}

const MONTHS: [&[u8]; 12] = [
    b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec",
];
/// The month (1 for January) whose English abbreviation is at `p`.
fn month_at(b: &[u8], p: usize) -> Option<u32> {
    let word = b.get(p..p + 3)?;
    MONTHS.iter().position(|m| *m == word).map(|i| i as u32 + 1)
}

const DAYS: [&[u8]; 7] = [b"Mon", b"Tue", b"Wed", b"Thu", b"Fri", b"Sat", b"Sun"];

/// `[Weekday ]Mon DD HH:MM:SS[ YYYY]`, java.util.logging's `Mon DD, YYYY H:MM:SS AM`,
/// and RFC 2822's (mail's, HTTP's) `Fri, 05 Jan 2024 10:00:00 +0000`.
fn syslog(b: &[u8], mut p: usize) -> Option<(usize, Civil)> {
    let word = |p: usize| b.get(p..p + 3);
    if word(p).is_some_and(|w| DAYS.contains(&w)) {
        match at(b, p + 3) {
            b' ' if at(b, p + 4).is_ascii_digit() => return weekday_iso(b, p + 4),
            b' ' => p += 4,
            b',' if at(b, p + 4) == b' ' => return rfc2822(b, p + 5),
            _ => {}
        }
    }
    let month = month_at(b, p)?;
    if at(b, p + 3) != b' ' {
        return None;
    }
    let mut q = p + 4;
    while at(b, q) == b' ' {
        q += 1;
    }
    let d = digits(b, q, 3);
    if !(1..=2).contains(&d) {
        return None;
    }
    if at(b, q + d) == b',' && at(b, q + d + 1) == b' ' {
        return java_util_logging(b, q + d + 2, month, number(b, q, d));
    }
    if at(b, q + d) != b' ' {
        return None;
    }
    let day = number(b, q, d);
    let (e, clock) = time_of_day(b, q + d + 1)?;
    if at(b, e) == b' ' && digits(b, e + 1, 5) == 4 {
        let year = number(b, e + 1, 4) as u16;
        return Some((e + 5, Civil::date(Some(year), month, day).at(clock)));
    }
    Some((e, Civil::date(None, month, day).at(clock)))
}

/// The rest of journalctl's `-o short-full` time, `Sun 2026-12-06 10:05:00 UTC`, after
/// its weekday, at `p`: an ISO date and time, and the zone after a space, by its name
/// (`UTC`, `CET`, `ChST`) or, where tzdata has none, its offset (`+03`, `-0330`). A name
/// says no offset here: the time is read as one with no zone.
fn weekday_iso(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let (end, mut civil) = iso_date_time(b, p)?;
    if at(b, end) != b' ' {
        return Some((end, civil));
    }
    let ends_word = |e: usize| matches!(at(b, e), 0 | b' ');
    if matches!(at(b, end + 1), b'+' | b'-') {
        let (zone_end, offset) = zone(b, end + 1);
        if zone_end > end + 1 && ends_word(zone_end) {
            civil.offset = offset;
            return Some((zone_end, civil));
        }
        return Some((end, civil));
    }
    let name = b[end + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let named = (2..=5).contains(&name) && at(b, end + 1).is_ascii_uppercase();
    match named && ends_word(end + 1 + name) {
        true => Some((end + 1 + name, civil)),
        false => Some((end, civil)),
    }
}

/// The rest of java.util.logging's `Jan 05, 2024 10:00:06 AM` after its `Jan 05, `, at
/// `p`: the year, a time on the 12-hour clock and its `AM` or `PM`.
fn java_util_logging(b: &[u8], p: usize, month: u32, day: u32) -> Option<(usize, Civil)> {
    if digits(b, p, 5) != 4 || at(b, p + 4) != b' ' {
        return None;
    }
    let (e, mut clock) = time_of_day(b, p + 5)?;
    let pm = match b.get(e..e + 3)? {
        b" AM" => false,
        b" PM" => true,
        _ => return None,
    };
    if !(1..=12).contains(&clock.hour) {
        return None;
    }
    // 12 AM is midnight, 12 PM noon.
    clock.hour = clock.hour % 12 + if pm { 12 } else { 0 };
    let year = Some(number(b, p, 4) as u16);
    Some((e + 3, Civil::date(year, month, day).at(clock)))
}

/// The rest of RFC 2822's `Fri, 05 Jan 2024 10:00:00 +0000` after its `Fri, `, at `p`: a
/// date with its year, a time, and the zone after a space (`+0000`, `GMT`, `UTC`).
fn rfc2822(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let (end, mut civil) = day_month_name(b, p)?;
    civil.year?;
    if matches!(b.get(end..end + 4), Some(b" GMT" | b" UTC")) {
        return Some((end + 4, civil));
    }
    match spaced_zone(b, end) {
        Some((zone_end, offset)) => {
            civil.offset = offset;
            Some((zone_end, civil))
        }
        None => Some((end, civil)),
    }
}

/// Redis's `05 Jan 2024 10:00:04.123`, and before Redis 3 `14 Nov 07:01:22.119` (no
/// year): a day, a month's name, the year if written, a time of day.
fn day_month_name(b: &[u8], p: usize) -> Option<(usize, Civil)> {
    let d = digits(b, p, 3);
    if !(1..=2).contains(&d) || at(b, p + d) != b' ' {
        return None;
    }
    let month = month_at(b, p + d + 1)?;
    let day = number(b, p, d);
    let mut q = p + d + 4;
    if at(b, q) != b' ' || !(1..=31).contains(&day) {
        return None;
    }
    q += 1;
    let year = (digits(b, q, 5) == 4 && at(b, q + 4) == b' ').then(|| number(b, q, 4) as u16);
    if year.is_some() {
        q += 5;
    }
    let (end, clock) = time_of_day(b, q)?;
    Some((end, Civil::date(year, month, day).at(clock)))
}

/// Unix time in seconds (10 digits) or milliseconds (13 digits): where it ends, and the
/// seconds.
fn epoch(b: &[u8], p: usize) -> Option<(usize, i64)> {
    let n = digits(b, p, 14);
    if n != 10 && n != 13 {
        return None;
    }
    let value = b[p..p + n]
        .iter()
        .fold(0i64, |v, &c| v * 10 + i64::from(c - b'0'));
    let mut e = p + n;
    if n == 10 && at(b, e) == b'.' {
        let f = digits(b, e + 1, 10);
        if f > 0 {
            e += 1 + f;
        }
    }
    Some((e, if n == 13 { value / 1000 } else { value }))
}

#[cfg(test)]
mod tests {
    use super::leading_timestamp as ts;
    use super::{leading_moment, read_timestamp, timestamp_range, Civil, Moment};

    /// The timestamp [`timestamp_range`] finds anywhere in `line`.
    fn found(line: &str) -> Option<&str> {
        timestamp_range(line).map(|range| &line[range])
    }

    #[test]
    fn the_iso_shortcut_finds_what_the_full_reading_finds() {
        let base = *b"2024-01-05T10:00:01.123Z x";
        let swaps = b"0123456789T -:/.,Z+x";
        let mut seed = 5u64;
        let mut shortcut = 0;
        for _ in 0..50_000 {
            let mut line = base.to_vec();
            // One to three bytes changed, and sometimes the line cut short.
            for _ in 0..1 + seed % 3 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let at = (seed >> 40) as usize % line.len();
                line[at] = swaps[(seed >> 20) as usize % swaps.len()];
            }
            if seed.is_multiple_of(7) {
                line.truncate((seed >> 50) as usize % line.len());
            }
            let line = String::from_utf8(line).expect("ASCII");
            let b = line.as_bytes();
            if let Some((end, civil)) = super::iso_date_time(b, 0) {
                let full = super::full_reading(b, 0);
                assert_eq!(Some((end, super::Moment::Civil(civil))), full, "{line:?}");
                shortcut += 1;
            }
        }
        assert!(
            shortcut > 10_000,
            "{shortcut}: too few lines take the shortcut"
        );
    }

    #[test]
    fn iso_and_variants() {
        assert_eq!(
            ts("2024-01-05T10:00:01.123Z x"),
            Some("2024-01-05T10:00:01.123Z")
        );
        assert_eq!(
            ts("2024-01-05T10:00:01+01:00 x"),
            Some("2024-01-05T10:00:01+01:00")
        );
        assert_eq!(
            ts("2015-10-18 18:01:47,978 INFO"),
            Some("2015-10-18 18:01:47,978")
        );
        assert_eq!(ts("2016-09-28 04:30:30, Info"), Some("2016-09-28 04:30:30"));
        assert_eq!(
            ts("2015-07-29 17:41:44,747 - INFO"),
            Some("2015-07-29 17:41:44,747")
        );
        assert_eq!(ts("2024-01-05 x"), Some("2024-01-05"));
        assert_eq!(ts("17/06/09 20:10:40 INFO"), Some("17/06/09 20:10:40"));
        assert_eq!(ts("17.06.09 x"), Some("17.06.09"));
        assert_eq!(ts("17.06.09. x"), Some("17.06.09"));
        // An address of four groups (an access log's client) is no date.
        for address in ["71.15.17.234 - - x", "10.20.30.40:8080 x", "17/06/09/5 x"] {
            assert_eq!(ts(address), None, "{address}");
        }
        assert_eq!(
            ts("20171223-22:15:29:606|Step"),
            Some("20171223-22:15:29:606")
        );
        assert_eq!(ts("20240105T100001Z x"), Some("20240105T100001Z"));
        assert_eq!(ts("20171223-23:8:9:233|Step"), Some("20171223-23:8:9:233"));
        // MariaDB's hour padded with a space; the time read, not the date alone.
        assert_eq!(
            ts("2026-12-06  8:06:05 1208 [Warning] x"),
            Some("2026-12-06  8:06:05")
        );
        assert_eq!(ts("2026-12-06  x"), Some("2026-12-06"));
        assert_eq!(ts("12:5 x"), None, "a time alone has two-digit minutes");
        assert_eq!(
            ts("2024-01-05 05:00:01-0500 x"),
            Some("2024-01-05 05:00:01-0500")
        );
        assert_eq!(
            ts("2024-01-05 12:00:01+02 x"),
            Some("2024-01-05 12:00:01+02")
        );
    }

    #[test]
    fn month_day_and_syslog() {
        assert_eq!(ts("03-17 16:13:38.811  1702"), Some("03-17 16:13:38.811"));
        assert_eq!(ts("[10.30 16:49:06] chrome.exe"), Some("10.30 16:49:06"));
        assert_eq!(ts("Jul  1 09:00:55 host"), Some("Jul  1 09:00:55"));
        assert_eq!(
            ts("[Sun Dec 04 04:47:44 2005] [notice]"),
            Some("Sun Dec 04 04:47:44 2005")
        );
        assert_eq!(ts("12:00:01.5 started"), Some("12:00:01.5"));
        // journalctl's `-o short-full`, its zone's name with it; another word is not one.
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 UTC web1 shop[812]: x"),
            Some("Sun 2026-12-06 10:05:00 UTC")
        );
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 CEST"),
            Some("Sun 2026-12-06 10:05:00 CEST")
        );
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 web1 x"),
            Some("Sun 2026-12-06 10:05:00")
        );
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 UTCX1 x"),
            Some("Sun 2026-12-06 10:05:00")
        );
        assert_eq!(
            read_timestamp("Sun 2026-12-06 10:05:00 UTC"),
            read_timestamp("2026-12-06 10:05:00")
        );
        assert_eq!(ts("Sun 2026-13-06 10:05:00 UTC"), None);
        // A zone tzdata names by its offset, or in mixed case.
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 +03 web1 x"),
            Some("Sun 2026-12-06 10:05:00 +03")
        );
        assert_eq!(
            read_timestamp("Sun 2026-12-06 10:05:00 -0330"),
            read_timestamp("2026-12-06T10:05:00-0330")
        );
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 ChST web1 x"),
            Some("Sun 2026-12-06 10:05:00 ChST")
        );
        assert_eq!(
            ts("Sun 2026-12-06 10:05:00 +3x web1"),
            Some("Sun 2026-12-06 10:05:00")
        );
    }

    #[test]
    fn after_syslogs_priority() {
        let range = |line: &'static str| timestamp_range(line).map(|r| &line[r]);
        assert_eq!(
            range("<34>Oct 11 22:14:15 mymachine su: 'su root' failed"),
            Some("Oct 11 22:14:15")
        );
        // RFC 5424's version before it.
        assert_eq!(
            range("<165>1 2003-10-11T22:14:15.003Z host app - ID47 - started"),
            Some("2003-10-11T22:14:15.003Z")
        );
        assert_eq!(range("<3>disk failed"), None);
        assert_eq!(range("<b>Oct 11 22:14:15</b>"), None);
    }

    #[test]
    fn an_indented_line_and_column_is_no_time() {
        // ESLint's table of findings: a line and a column, not a time of day.
        assert_eq!(
            super::leading_timestamp("   1:13  error  'x' is unused  no-unused-vars"),
            None
        );
        assert_eq!(
            super::leading_timestamp("  12:10  warning  Unexpected console"),
            None
        );
        // With seconds, or not indented, or in brackets, it is one.
        assert_eq!(
            super::leading_timestamp("  12:10:01 worker up"),
            Some("12:10:01")
        );
        assert_eq!(super::leading_timestamp("12:10 worker up"), Some("12:10"));
        assert_eq!(
            super::leading_timestamp("  [12:10] <ann> hi"),
            Some("12:10")
        );
    }

    #[test]
    fn glog_and_tomcat() {
        let (range, moment) = leading_moment("I0105 10:00:08.000000    1 main.go:1] x").unwrap();
        assert_eq!(
            range,
            0..21,
            "the level letter with it: read_timestamp reads it again"
        );
        let civil = Civil {
            month: 1,
            day: 5,
            hour: 10,
            second: 8,
            ..Civil::default()
        };
        assert_eq!(moment, Moment::Civil(civil));
        assert_eq!(
            ts("05-Jan-2024 10:00:07.000 INFO [main] x"),
            Some("05-Jan-2024 10:00:07.000")
        );
        for not_one in [
            "I0105x10:00:08",
            "X0105 10:00:08",
            "I1305 10:00:08",
            "E0112 10:30pm disk",
            "E0112 10:30 disk",
            "05-Foo-2024 10:00",
        ] {
            assert_eq!(ts(not_one), None, "{not_one}");
        }
    }

    #[test]
    fn keyed_in_json_and_logfmt() {
        for (line, stamp) in [
            (
                r#"{"ts":"2024-01-05T10:00:01Z","level":"info"}"#,
                "2024-01-05T10:00:01Z",
            ),
            (
                r#"{"level":"error","@timestamp": "2024-01-05T10:00:02.5Z"}"#,
                "2024-01-05T10:00:02.5Z",
            ),
            (
                r#"{"level":"info","ts":1704448801.5,"msg":"x"}"#,
                "1704448801.5",
            ),
            (
                r#"time="2024-01-05T10:00:03Z" level=error msg="x""#,
                "2024-01-05T10:00:03Z",
            ),
            (
                "level=warn ts=2024-01-05T10:00:04Z caller=x",
                "2024-01-05T10:00:04Z",
            ),
            (
                r#"{"Timestamp":"2024-01-05 10:00:05"}"#,
                "2024-01-05 10:00:05",
            ),
            // A nested object's time is its payload's: the record's own key counts.
            (
                r#"{"order":{"time":"2023-12-31T00:00:00Z","items":[{"ts":"x"}]},"ts":"2024-01-05T10:00:08Z"}"#,
                "2024-01-05T10:00:08Z",
            ),
            (
                r#"{"msg":"a \"{\" and time:","time":"2024-01-05T10:00:09Z"}"#,
                "2024-01-05T10:00:09Z",
            ),
            // A key inside a quoted logfmt value is text: the record's own key counts.
            (
                r#"level=warn msg="retry at ts=2023-12-31T00:00:00Z" ts=2024-01-05T10:00:06Z"#,
                "2024-01-05T10:00:06Z",
            ),
            (
                r#"level=warn msg="5\" tall, time=2023-12-31T00:00:00Z" time=2024-01-05T10:00:07Z"#,
                "2024-01-05T10:00:07Z",
            ),
        ] {
            assert_eq!(found(line), Some(stamp), "{line}");
        }
        // After a byte-order mark, as a file's first line may have one.
        let bom = "\u{feff}{\"ts\":\"2024-01-05T10:00:01Z\"}";
        assert_eq!(found(bom), Some("2024-01-05T10:00:01Z"));
        for none in [
            // Indented, a time of day, another key, a key's end only, a key inside a JSON
            // string, logfmt's key without `=`, a number, not logfmt, not closed.
            r#"  "time": "2024-01-05T10:00:01Z","#,
            r#"{"time":"10:00:01"}"#,
            r#"{"start":"2024-01-05T10:00:01Z"}"#,
            r#"{"runtime":"2024-01-05T10:00:01Z"}"#,
            r#"{"msg":"restarted at time=2024-01-05T10:00:01Z"}"#,
            r#"{"order":{"time":"2024-01-05T10:00:01Z"}}"#,
            r#"{"msg":"x\",\"time\":\"2024-01-05T10:00:01Z"}"#,
            "level=info msg=x time:2024-01-05T10:00:01Z",
            "retries=3 ts=17",
            "job done ts=2024-01-05T10:00:01Z",
            r#"{"ts":"2024-01-05T10:00:01Zx"}"#,
            r#"{"time":"2024-01-05 report"}"#,
            "\tts=2024-01-05T10:00:01Z",
            r#"level=info msg="next run ts=2024-01-05T10:00:01Z""#,
        ] {
            assert_eq!(found(none), None, "{none}");
        }
    }

    #[test]
    fn java_util_logging_redis_and_rfc_2822() {
        let civil = |year, month, day, hour, minute, second| Civil {
            year,
            month,
            day,
            hour,
            minute,
            second,
            offset: 0,
        };
        for (line, stamp, moment) in [
            (
                "Jan 05, 2024 10:00:06 AM org.example.App main",
                "Jan 05, 2024 10:00:06 AM",
                civil(Some(2024), 1, 5, 10, 0, 6),
            ),
            // One-digit day and hour; 12 AM is midnight, 12 PM noon.
            (
                "Mar 7, 2024 1:02:03 PM org.example.App run",
                "Mar 7, 2024 1:02:03 PM",
                civil(Some(2024), 3, 7, 13, 2, 3),
            ),
            (
                "Dec 31, 2023 12:00:00 AM x",
                "Dec 31, 2023 12:00:00 AM",
                civil(Some(2023), 12, 31, 0, 0, 0),
            ),
            (
                "Dec 31, 2023 12:30:00 PM x",
                "Dec 31, 2023 12:30:00 PM",
                civil(Some(2023), 12, 31, 12, 30, 0),
            ),
            (
                "1:M 05 Jan 2024 10:00:04.123 * Ready to accept connections tcp",
                "05 Jan 2024 10:00:04.123",
                civil(Some(2024), 1, 5, 10, 0, 4),
            ),
            (
                "4071:C 5 Jan 2024 10:00:04.123 # oO0OoO0OoO0Oo Redis is starting",
                "5 Jan 2024 10:00:04.123",
                civil(Some(2024), 1, 5, 10, 0, 4),
            ),
            (
                "[4018] 14 Nov 07:01:22.119 * Server started, Redis version 2.8.4",
                "14 Nov 07:01:22.119",
                civil(None, 11, 14, 7, 1, 22),
            ),
            (
                "Fri, 05 Jan 2024 10:00:00 GMT upstream said 503",
                "Fri, 05 Jan 2024 10:00:00 GMT",
                civil(Some(2024), 1, 5, 10, 0, 0),
            ),
            (
                "Fri, 5 Jan 2024 12:00:00 +0200 (CEST) delivered",
                "Fri, 5 Jan 2024 12:00:00 +0200",
                Civil {
                    offset: 7200,
                    ..civil(Some(2024), 1, 5, 12, 0, 0)
                },
            ),
        ] {
            assert_eq!(found(line), Some(stamp), "{line}");
            assert_eq!(super::read_timestamp(stamp), Some(Moment::Civil(moment)));
        }
        for none in [
            // No AM/PM, an hour past 12, no year; not Redis's role letter, no space, a
            // time of day only, a day past 31.
            "Jan 05, 2024 10:00:06 org.example.App main",
            "Jan 05, 2024 13:00:06 PM x",
            "Jan 05, 10:00:06 AM x",
            "1:Q 05 Jan 2024 10:00:04.123 * x",
            "1:M05 Jan 2024 10:00:04.123 * x",
            "1:M 10:00:04.123 * x",
            "[4018] 32 Nov 07:01:22.119 * x",
            // RFC 2822 writes the year.
            "Fri, 05 Jan 10:00:00 GMT x",
        ] {
            assert_eq!(found(none), None, "{none}");
        }
    }

    #[test]
    fn access_logs() {
        let (range, moment) = leading_moment("10/Oct/2000:13:55:36 -0700] x").unwrap();
        assert_eq!(range, 0..26);
        let civil = Civil {
            year: Some(2000),
            month: 10,
            day: 10,
            hour: 13,
            minute: 55,
            second: 36,
            offset: -7 * 3600,
        };
        assert_eq!(moment, Moment::Civil(civil));
        // A zone after the space only in its own form: not `-07`, not a word.
        assert_eq!(
            ts("10/Oct/2000:13:55:36 -07 x"),
            Some("10/Oct/2000:13:55:36")
        );
        assert_eq!(ts("10/Oct/2000:13:55:36 +x"), Some("10/Oct/2000:13:55:36"));
        for not_one in [
            "10/Foo/2000:13:55:36",
            "32/Oct/2000:13:55:36",
            "10/Oct/2000 13:55:36",
        ] {
            assert_eq!(ts(not_one), None, "{not_one}");
        }
    }

    #[test]
    fn bracketed_after_the_first_fields() {
        let clf = r#"10.0.0.1 - - [10/Oct/2000:13:55:36 +0200] "GET / HTTP/1.1" 200 5"#;
        assert_eq!(found(clf), Some("10/Oct/2000:13:55:36 +0200"));
        assert_eq!(
            found("app [2024-01-05 10:00:01] up"),
            Some("2024-01-05 10:00:01")
        );
        // Ruby's logger's, with its process id.
        assert_eq!(
            found("F, [2026-12-07T12:02:50.200001 #121] FATAL -- : boom"),
            Some("2026-12-07T12:02:50.200001")
        );
        for none in [
            "F, [2026-12-07T12:02:50.200001 #] FATAL -- : boom",
            "F, [2026-12-07T12:02:50.200001 #12 ] FATAL -- : boom",
            "F, [2026-12-07T12:02:50.200001 121] FATAL -- : boom",
            // Indented (a frame), too many fields before, glued to a word, no date,
            // not closed right after the time, a bracket that opens the line.
            "[worker] started",
            "[",
            " 10.0.0.1 - - [10/Oct/2000:13:55:36 +0200] x",
            "a b c d [10/Oct/2000:13:55:36 +0200] x",
            "10.0.0.1 - -[10/Oct/2000:13:55:36 +0200] x",
            "10.0.0.1 - - [13:55:36] x",
            "10.0.0.1 - - [10/Oct/2000:13:55:36 +0200 x] y",
        ] {
            assert_eq!(found(none), None, "{none}");
        }
    }

    #[test]
    fn after_gh_run_views_job_and_step_columns() {
        let stamp = "2024-01-05T10:00:02.3000000Z";
        for line in [
            format!("build\tRun cargo test\t{stamp} error[E0308]: mismatched types"),
            format!("build\tSet up job\t\u{feff}{stamp} Current runner version"),
            format!("lint\t{stamp} one column"),
            format!("build\tRun cargo test\t{stamp}"),
        ] {
            assert_eq!(found(&line), Some(stamp), "{line:?}");
        }
        for none in [
            // Indented (a frame), three columns, a time of day, glued to a word, a space
            // before the time.
            format!("\tat {stamp} x"),
            format!("a\tb\tc\t{stamp} x"),
            "build\tstep\t10:00:02 x".to_string(),
            format!("build\tstep\t{stamp}x"),
            format!("build\tstep\t {stamp} x"),
        ] {
            assert_eq!(found(&none), None, "{none:?}");
        }
    }

    #[test]
    fn after_a_files_name() {
        for (line, stamp) in [
            (
                "logs/app.log:2024-05-14 10:00:00,123 ERROR x",
                "2024-05-14 10:00:00,123",
            ),
            ("./a/b.txt:2024-05-14T10:00:00Z x", "2024-05-14T10:00:00Z"),
            (
                "nova-api.log.1.2017-05-16_13:53:08 2017-05-16 00:00:00.008 25746 INFO",
                "2017-05-16 00:00:00.008",
            ),
        ] {
            assert_eq!(found(line), Some(stamp), "{line:?}");
        }
        for none in [
            // No `.` or `/` in the name, a time of day alone, the name past the line's
            // head.
            "worker:2024-05-14 10:00:00 x".to_string(),
            "app.log:10:00:00 x".to_string(),
            format!("{}.log:2024-05-14 10:00:00 x", "a".repeat(300)),
        ] {
            assert_eq!(found(&none), None, "{none:?}");
        }
    }

    #[test]
    fn after_docker_composes_container_names() {
        let stamp = "2024-01-05T10:00:02.123Z";
        for line in [
            format!("web-1  | {stamp} INFO listening"),
            format!("db_1 | [{stamp}] ready"),
            format!("app-api.v2-12 | {stamp}"),
            format!("my-postgres | {stamp} LOG:  ready"),
            format!("0|api  | {stamp} x"),
        ] {
            assert_eq!(found(&line), Some(stamp), "{line:?}");
        }
        for none in [
            // A time of day, no space before the bar, none after it, pm2's id alone.
            "web-1  | 10:00:02 x".to_string(),
            format!("web-1| {stamp} x"),
            format!("web-1  |{stamp} x"),
            format!("0|  | {stamp} x"),
        ] {
            assert_eq!(found(&none), None, "{none:?}");
        }
        assert_eq!(super::container_prefix("web-1  |"), Some((0..5, 8)));
        assert_eq!(
            found(&format!("[pod/web-0/app] {stamp} x")),
            Some(stamp),
            "kubectl logs --prefix --timestamps"
        );
        assert_eq!(super::container_prefix("[pod/a b/c] x"), None);
        assert_eq!(super::container_prefix("[pod/a/b]x"), None);
        for none in [
            "| a | b |",
            "4 |     let x",
            "ERROR | x",
            "-web | x",
            "WEB-1 | x",
            "PM2        | App [api:0] exited",
            "12|",
            "0|a|b | x",
        ] {
            assert_eq!(super::container_prefix(none), None, "{none:?}");
        }
    }

    #[test]
    fn epochs() {
        assert_eq!(ts("1117838570 2005.06.03"), Some("1117838570"));
        assert_eq!(ts("1700000000000 x"), Some("1700000000000"));
        assert_eq!(ts("1117838570.25 x"), Some("1117838570.25"));
    }

    #[test]
    fn not_timestamps() {
        assert_eq!(ts(""), None);
        assert_eq!(ts("hello 2024-01-05"), None);
        assert_eq!(ts("12345 items"), None);
        assert_eq!(ts("2024-13-05 x"), None);
        assert_eq!(ts("03-17 x"), None);
        assert_eq!(ts("1.2.3 version"), None);
        assert_eq!(ts("20171223 x"), None);
        assert_eq!(ts("2024-01-05abc"), None);
        assert_eq!(ts("Jun 14 later"), None);
    }
}

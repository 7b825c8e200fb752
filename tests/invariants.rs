//! The envelope's invariants on randomized inputs, budgets and reducers: whatever the
//! input, the result fits, counts add up, and a cursor exists iff items remain.

use briefly_core::{reduce, ArtifactDir, Artifacts, Budget, Cursor, Envelope, Reducer, RunConfig};
use briefly_diff::{Diff, DiffOptions};
use briefly_plain::{Grep, GrepOptions, Lines, LinesOptions, Spill, SpillOptions};
use briefly_text::{Text, TextOptions};

/// xorshift64*: a fixed, dependency-free source of test cases.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn random_input(rng: &mut Rng) -> Vec<u8> {
    let lines = rng.below(1_500);
    let mut out = Vec::new();
    for i in 0..lines {
        match rng.below(13) {
            0 => out.extend_from_slice(
                format!(
                    "2026-11-29T10:00:{:02}Z ERROR job {i} failed: code {}",
                    i % 60,
                    rng.below(9)
                )
                .as_bytes(),
            ),
            1 => out.extend_from_slice(
                format!("WARN slow request {} ms", rng.below(10_000)).as_bytes(),
            ),
            2 => out.extend_from_slice(
                "日本語のログ行 é ü 🙂 "
                    .repeat(rng.below(40) as usize)
                    .as_bytes(),
            ),
            3 => out.extend(std::iter::repeat_n(b'x', rng.below(20_000) as usize)),
            4 => out.extend((0..rng.below(200)).map(|_| rng.below(256) as u8)),
            5 => out.extend_from_slice(b"\x1b[31mERROR\x1b[0m colored\r"),
            6 => out.extend_from_slice(
                b"Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: boom",
            ),
            7 => out.extend_from_slice(b"\"quoted\\\" \\\\ back\tslash\" {\"json\": [1, 2]}"),
            8 => {
                // A diff fragment, its counts right or wrong.
                let (a, c) = (rng.below(4), rng.below(4));
                out.extend_from_slice(format!("diff --git a/f{i}.rs b/f{i}.rs\n--- a/f{i}.rs\n+++ b/f{i}.rs\n@@ -1,{a} +1,{c} @@\n-old\n+new\n keep").as_bytes())
            }
            _ => out.extend_from_slice(
                format!(
                    "INFO worker {} handled {} items",
                    rng.below(8),
                    rng.below(1_000)
                )
                .as_bytes(),
            ),
        }
        if rng.below(50) != 0 {
            out.push(b'\n');
        }
    }
    out
}

fn verbose(envelope: &Envelope) -> String {
    // A printer more verbose than JSON: the budget applies to what is printed.
    format!("{}\n{}", envelope.to_json(), envelope.summary)
}

fn check(envelope: &Envelope, config: &RunConfig) {
    let printed = (config.render)(envelope);
    assert!(
        printed.chars().count() <= config.budget.per_result_chars,
        "printed {} chars over {}",
        printed.chars().count(),
        config.budget.per_result_chars
    );
    assert_eq!(envelope.returned_items as usize, envelope.items.len());
    let shown = envelope.item_offset + envelope.returned_items;
    assert!(shown <= envelope.total_items);
    let more = shown < envelope.total_items;
    assert_eq!(
        envelope.next_cursor.is_some(),
        more,
        "cursor iff more items"
    );
    if more {
        assert!(envelope.truncated);
    }
    assert_eq!(
        envelope.artifact_path.is_some(),
        envelope.truncated,
        "artifact iff truncated"
    );
}

/// Reduces `input` with a reducer from `make`, then walks a few pages from the artifact.
fn run<R: Reducer>(make: impl Fn() -> R, input: &[u8], config: &RunConfig) {
    let first = reduce(make(), input, config).unwrap();
    check(&first, config);
    if let Some(path) = &first.artifact_path {
        assert_eq!(
            std::fs::read(path).unwrap(),
            input,
            "the artifact is the input"
        );
    }
    // Walk a few pages: each moves forward and keeps the invariants.
    let mut cursor = first.next_cursor.clone();
    let mut seen = first.returned_items;
    for _ in 0..3 {
        let Some(text) = cursor else { break };
        let c = Cursor::decode(&text).unwrap();
        let mut page_config = config.clone();
        page_config.after = c.after;
        page_config.items_chars = None;
        page_config.artifacts = Artifacts::Existing {
            path: c.artifact.clone().into(),
            sha256: c.sha256.clone(),
        };
        let page = reduce(
            make(),
            &std::fs::read(&c.artifact).unwrap()[..],
            &page_config,
        )
        .unwrap();
        check(&page, &page_config);
        assert_eq!(page.item_offset, seen, "pages follow each other");
        assert!(page.returned_items > 0, "a page moves forward");
        seen += page.returned_items;
        cursor = page.next_cursor;
    }
}

#[test]
fn invariants_hold_on_random_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let artifacts = ArtifactDir::open(dir.path().join("a")).unwrap();
    for seed in 1..=60u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let input = random_input(&mut rng);
        let max_chars = 1_000 + rng.below(30_000) as usize;
        let mut config = RunConfig {
            budget: Budget::default().with_max_chars(max_chars).unwrap(),
            artifacts: Artifacts::Tee {
                dir: artifacts.clone(),
                id: Some(format!("seed-{seed}")),
                keep: false,
                argv: vec![],
            },
            max_line_bytes: 1 + rng.below(100_000) as usize,
            ..RunConfig::new("x")
        };
        if rng.below(2) == 0 {
            config.render = verbose;
        }
        if rng.below(3) == 0 {
            config.items_chars = Some(1 + rng.below(3_000) as usize);
        }
        match rng.below(5) {
            4 => run(
                || Diff::new(DiffOptions::default()).unwrap(),
                &input,
                &RunConfig {
                    source: "diff".into(),
                    ..config
                },
            ),
            0 => run(
                || Spill::new(SpillOptions::default()),
                &input,
                &RunConfig {
                    source: "spill".into(),
                    ..config
                },
            ),
            1 => run(
                || Text::new(TextOptions::default()).unwrap(),
                &input,
                &RunConfig {
                    source: "text".into(),
                    ..config
                },
            ),
            2 => {
                let options = GrepOptions {
                    pattern: "ERROR|WARN".into(),
                    context: rng.below(3) as usize,
                    ignore_case: false,
                };
                run(
                    || Grep::new(options.clone()).unwrap(),
                    &input,
                    &RunConfig {
                        source: "grep".into(),
                        ..config
                    },
                )
            }
            _ => {
                let options = LinesOptions {
                    offset: 1 + rng.below(100),
                    limit: None,
                };
                run(
                    || Lines::new(options),
                    &input,
                    &RunConfig {
                        source: "read".into(),
                        ..config
                    },
                )
            }
        }
    }
}

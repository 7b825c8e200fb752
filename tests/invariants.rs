//! The envelope's invariants on randomized inputs, budgets and every reducer: whatever the
//! input, the result fits, counts add up, and a cursor exists iff items remain.

use briefly_core::{reduce, ArtifactDir, Artifacts, Budget, Cursor, Envelope, Reducer, RunConfig};
use briefly_diff::{Diff, DiffOptions};
use briefly_json::{Json, JsonOptions};
use briefly_logs::{Docker, DockerOptions, Journal, JournalOptions};
use briefly_plain::{Grep, GrepOptions, Lines, LinesOptions, Spill, SpillOptions};
use briefly_table::{Table, TableOptions};
use briefly_testrun::{CargoTest, CargoTestOptions, Junit, Pytest, PytestOptions};
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
        match rng.below(20) {
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
            // Fragments of the formats the source-aware reducers read, whole or broken.
            13 => out.extend_from_slice(
                format!(
                    "{{\"log\":\"ERROR job {i} failed\\n\",\"stream\":\"{}\",\"time\":\"2026-11-29T10:00:{:02}.123456789Z\"}}",
                    ["stdout", "stderr"][rng.below(2) as usize],
                    i % 60
                )
                .as_bytes(),
            ),
            14 => out.extend_from_slice(
                format!(
                    "{{\"__REALTIME_TIMESTAMP\":\"17{:011}\",\"PRIORITY\":\"{}\",\"_SYSTEMD_UNIT\":\"app.service\",\"MESSAGE\":[104,105],\"__CURSOR\":\"s={i}\"}}",
                    rng.below(100_000_000_000),
                    rng.below(9)
                )
                .as_bytes(),
            ),
            15 => out.extend_from_slice(
                format!("FAILED tests/test_a.py::test_{i} - AssertionError: assert {} == 2\n= 3 failed, {} passed in 0.5s =", rng.below(9), rng.below(99)).as_bytes(),
            ),
            16 => out.extend_from_slice(
                format!("test m::case_{i} ... FAILED\nthread 'm::case_{i}' panicked at src/lib.rs:{}:9:\nassertion `left == right` failed\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s", rng.below(500)).as_bytes(),
            ),
            17 => out.extend_from_slice(
                format!("error[E0308]: mismatched types\n --> src/lib.rs:{}:5\n<testcase name=\"t{i}\"><failure message=\"boom\">x</failure></testcase>", rng.below(99)).as_bytes(),
            ),
            18 => out.extend_from_slice(
                format!("{i},\"name, {}\",{}.5,true", rng.below(9), rng.below(1_000)).as_bytes(),
            ),
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
    for seed in 1..=150u64 {
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
        match rng.below(12) {
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
            5..=10 => run_source_aware(rng.below(7), &input, config),
            _ => {
                let options = LinesOptions {
                    offset: 1 + rng.below(100),
                    column: 1 + rng.below(50),
                    limit: None,
                    piece_chars: Some(briefly_plain::piece_chars_for(
                        config.budget.per_result_chars,
                    )),
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

/// One of the source-aware reducers, each with its default options.
fn run_source_aware(which: u64, input: &[u8], config: RunConfig) {
    let named = |source: &str| RunConfig {
        source: source.into(),
        ..config.clone()
    };
    match which {
        0 => run(
            || Docker::new(DockerOptions::default()).unwrap(),
            input,
            &named("docker"),
        ),
        1 => run(
            || Journal::new(JournalOptions::default()).unwrap(),
            input,
            &named("journal"),
        ),
        2 => run(
            || Pytest::new(PytestOptions::default()).unwrap(),
            input,
            &named("pytest"),
        ),
        3 => run(
            || Junit::new(PytestOptions::default()).unwrap(),
            input,
            &named("pytest"),
        ),
        4 => run(
            || CargoTest::new(CargoTestOptions::default()).unwrap(),
            input,
            &named("cargo-test"),
        ),
        5 => run(
            || Json::new(JsonOptions::default()).unwrap(),
            input,
            &named("json"),
        ),
        _ => run(
            || Table::stream(TableOptions::default()).unwrap(),
            input,
            &named("table"),
        ),
    }
}

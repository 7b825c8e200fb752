//! Token alignment (longest common subsequence) used to compare templates of
//! different lengths.

/// One step of an alignment between sequences `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// `a[i]` is aligned with `b[j]`.
    Match(usize, usize),
    /// Maximal run of unaligned tokens: `a[a0..a1]` against `b[b0..b1]`
    /// (either side may be empty, not both).
    Gap {
        a0: usize,
        a1: usize,
        b0: usize,
        b1: usize,
    },
}

impl Step {
    /// This step in the alignment of the same sequences after `by` more
    /// tokens on both sides.
    pub(crate) fn shifted(self, by: usize) -> Step {
        match self {
            Step::Match(i, j) => Step::Match(i + by, j + by),
            Step::Gap { a0, a1, b0, b1 } => Step::Gap {
                a0: a0 + by,
                a1: a1 + by,
                b0: b0 + by,
                b1: b1 + by,
            },
        }
    }
}

/// Aligns `a` (length `n`) with `b` (length `m`) by a heaviest common
/// subsequence: `score(i, j)` is the weight of aligning `a[i]` with `b[j]`
/// (0: they cannot be aligned), and returns the alignment as matches and
/// gaps in order. Deterministic: ties prefer matching earlier tokens of `a`.
///
/// Cost is `O(n * m)` time and memory; callers keep `n` and `m` small.
pub(crate) fn align(n: usize, m: usize, score: impl Fn(usize, usize) -> u16) -> Vec<Step> {
    let mut dp = Vec::new();
    let mut steps = Vec::new();
    align_into(n, m, score, &mut dp, &mut steps);
    steps
}

/// [`align`] with caller-provided buffers (the dynamic-programming table and
/// the output), to avoid allocating per comparison.
pub(crate) fn align_into(
    n: usize,
    m: usize,
    score: impl Fn(usize, usize) -> u16,
    dp: &mut Vec<u16>,
    steps: &mut Vec<Step>,
) {
    // dp[i][j] = best weight aligning a[i..] with b[j..].
    let w = m + 1;
    dp.clear();
    dp.resize((n + 1) * w, 0);
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let skip = dp[(i + 1) * w + j].max(dp[i * w + j + 1]);
            let sc = score(i, j);
            dp[i * w + j] = if sc > 0 {
                skip.max(dp[(i + 1) * w + j + 1] + sc)
            } else {
                skip
            };
        }
    }
    steps.clear();
    let (mut i, mut j) = (0, 0);
    let (mut ga, mut gb) = (0, 0);
    let flush = |steps: &mut Vec<Step>, ga: usize, i: usize, gb: usize, j: usize| {
        if ga < i || gb < j {
            steps.push(Step::Gap {
                a0: ga,
                a1: i,
                b0: gb,
                b1: j,
            });
        }
    };
    while i < n && j < m {
        let sc = score(i, j);
        if sc > 0 && dp[i * w + j] == dp[(i + 1) * w + j + 1] + sc {
            flush(steps, ga, i, gb, j);
            steps.push(Step::Match(i, j));
            i += 1;
            j += 1;
            ga = i;
            gb = j;
        } else if dp[(i + 1) * w + j] >= dp[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    flush(steps, ga, n, gb, m);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(a: &[&str], b: &[&str]) -> Vec<Step> {
        align(a.len(), b.len(), |i, j| u16::from(a[i] == b[j]))
    }

    #[test]
    fn insertion_is_one_gap() {
        let s = run(&["a", "b", "c"], &["a", "x", "y", "b", "c"]);
        assert_eq!(
            s,
            vec![
                Step::Match(0, 0),
                Step::Gap {
                    a0: 1,
                    a1: 1,
                    b0: 1,
                    b1: 3
                },
                Step::Match(1, 3),
                Step::Match(2, 4)
            ]
        );
    }

    #[test]
    fn substitution_and_tail() {
        let s = run(&["a", "b", "c"], &["a", "z"]);
        assert_eq!(
            s,
            vec![
                Step::Match(0, 0),
                Step::Gap {
                    a0: 1,
                    a1: 3,
                    b0: 1,
                    b1: 2
                }
            ]
        );
    }

    #[test]
    fn heavier_matches_win() {
        // `*` aligns with anything at weight 1, equal tokens weigh 2.
        let a = ["t", "*", "q", "b"];
        let b = ["t", "q", "b"];
        let s = align(a.len(), b.len(), |i, j| {
            if a[i] == b[j] {
                2
            } else {
                u16::from(a[i] == "*")
            }
        });
        assert_eq!(
            s,
            vec![
                Step::Match(0, 0),
                Step::Gap {
                    a0: 1,
                    a1: 2,
                    b0: 1,
                    b1: 1
                },
                Step::Match(2, 1),
                Step::Match(3, 2)
            ]
        );
    }

    #[test]
    fn empty_sides() {
        assert!(run(&[], &[]).is_empty());
        assert_eq!(
            run(&["a"], &[]),
            vec![Step::Gap {
                a0: 0,
                a1: 1,
                b0: 0,
                b1: 0
            }]
        );
    }
}

//! Numbers compared exactly across kinds, for the reducers that filter and sort them
//! (`json`'s `--where`/`--sort`, `table`'s `--where` and bounds).

use std::cmp::Ordering;

/// How the whole number `whole` compares with the double `double`, exactly: by the
/// double's whole part, then its fraction (`whole as f64` would round past 2^53). A
/// double past what an `i128` holds (about 1.7e38), or infinite, is the larger or the
/// smaller. `double` is no NaN, which no order places (callers say so first).
///
/// ```
/// use briefly_core::whole_against_double;
/// use std::cmp::Ordering;
/// // One double stands for both of these whole numbers.
/// assert_eq!(whole_against_double(9_007_199_254_740_993, 9_007_199_254_740_992.0), Ordering::Greater);
/// assert_eq!(whole_against_double(2, 2.5), Ordering::Less);
/// assert_eq!(whole_against_double(-3, -3.0), Ordering::Equal);
/// assert_eq!(whole_against_double(i128::MAX, f64::INFINITY), Ordering::Less);
/// ```
pub fn whole_against_double(whole: i128, double: f64) -> Ordering {
    let part = double.trunc();
    if part >= 1e38 {
        return Ordering::Less;
    }
    if part <= -1e38 {
        return Ordering::Greater;
    }
    whole
        .cmp(&(part as i128))
        .then_with(|| 0.0f64.total_cmp(&(double - part)))
}

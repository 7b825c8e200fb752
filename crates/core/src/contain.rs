//! Panics of a library a reducer reads through (a Parquet or Arrow reader on a malformed
//! file), contained: told as an error of that input, not a crash of the process.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// A [`contain`] call is running on this thread: its panics are expected and told
    /// by the caller, so the panic hook stays quiet.
    static CONTAINING: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, returning its panic's message as an error instead of unwinding further.
///
/// For calls into code whose panics are its input's fault (a reader of a binary format
/// that trusts the lengths a corrupt file states); not for briefly's own bugs, which
/// should crash loudly. `f` is not used again after a panic: whatever it was building
/// is dropped. The panic hook installed by [`quiet_contained_panics`] prints nothing for
/// a contained panic; without it, the default hook prints it to stderr as usual.
///
/// ```
/// let caught = briefly_core::contain(|| -> u32 { panic!("corrupt footer") });
/// assert_eq!(caught, Err("corrupt footer".to_string()));
/// assert_eq!(briefly_core::contain(|| 7), Ok(7));
/// ```
pub fn contain<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let outer = CONTAINING.with(|c| c.replace(true));
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CONTAINING.with(|c| c.set(outer));
    result.map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic with no message".into())
    })
}

/// Installs (once per process) a panic hook that is silent for the panics [`contain`]
/// catches and prints every other as the hook it replaces would.
pub fn quiet_contained_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CONTAINING.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_contained_panic_is_its_message_and_the_flag_is_restored() {
        quiet_contained_panics();
        let caught = contain(|| -> () { panic!("bad {}", "length") });
        assert_eq!(caught, Err("bad length".into()));
        assert!(!CONTAINING.with(Cell::get));
        // Nested: the outer call still contains after the inner one returns.
        let nested = contain(|| {
            let inner = contain(|| 1);
            assert!(CONTAINING.with(Cell::get));
            inner
        });
        assert_eq!(nested, Ok(Ok(1)));
        assert!(!CONTAINING.with(Cell::get));
    }
}

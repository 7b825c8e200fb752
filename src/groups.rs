//! Process groups that end with briefly: the commands an MCP server's `run` calls run
//! (each in a group of its own, so that a timeout or a cancel ends all of it), and the
//! server `mcp-proxy` wraps. A signal that ends briefly (a client's SIGTERM after it
//! closed the server's input, as MCP's stdio shutdown has it; SIGINT; SIGHUP) ends them
//! first: they are in no group the signal reaches, and would run on without briefly.

use std::sync::Mutex;

/// The groups alive now, by their leader's pid.
static ALIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// A group that ends with briefly while this is held; dropping it (once the group is
/// done with) lets it go.
#[derive(Debug)]
pub struct Held(i32);

/// Holds the group led by `pgid` until the guard is dropped.
pub fn hold(pgid: i32) -> Held {
    alive().push(pgid);
    Held(pgid)
}

impl Drop for Held {
    fn drop(&mut self) {
        let mut alive = alive();
        if let Some(at) = alive.iter().position(|&pgid| pgid == self.0) {
            alive.swap_remove(at);
        }
    }
}

fn alive() -> std::sync::MutexGuard<'static, Vec<i32>> {
    // A panic while it was held leaves the list as it was: still the list.
    ALIVE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Sends `signal` to every group held.
fn signal_all(signal: i32) {
    for &pgid in alive().iter() {
        // SAFETY: kill(2) of a process group briefly created; one gone is ESRCH.
        unsafe { libc::kill(-pgid, signal) };
    }
}

/// On SIGTERM, SIGINT or SIGHUP: the groups held get SIGTERM, and briefly exits as the
/// signal would have ended it (128 + its number). Spawned on the runtime the caller is
/// in.
pub fn end_with_signals() -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    let mut hup = signal(SignalKind::hangup())?;
    tokio::spawn(async move {
        let number = tokio::select! {
            _ = term.recv() => libc::SIGTERM,
            _ = int.recv() => libc::SIGINT,
            _ = hup.recv() => libc::SIGHUP,
        };
        signal_all(libc::SIGTERM);
        std::process::exit(128 + number);
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_is_held_until_its_guard_is_dropped() {
        // No process has this pid: nothing could be signalled.
        let held = hold(i32::MAX);
        assert!(alive().contains(&i32::MAX));
        drop(held);
        assert!(!alive().contains(&i32::MAX));
    }
}

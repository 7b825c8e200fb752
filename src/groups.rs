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

/// Runs `spawn`, and holds the group its child leads (`pid_of` it, the child made the
/// leader of a group of its own) when `held`: with the list locked throughout, so that a
/// signal ending briefly while the child starts waits for it to be held, not misses it
/// (the child may run, and be waited for, before `spawn` returns).
pub fn spawn_held<T>(
    held: bool,
    spawn: impl FnOnce() -> std::io::Result<T>,
    pid_of: impl Fn(&T) -> Option<u32>,
) -> (std::io::Result<T>, Option<Held>) {
    if !held {
        return (spawn(), None);
    }
    let mut alive = alive();
    let spawned = spawn();
    let pgid = spawned
        .as_ref()
        .ok()
        .and_then(&pid_of)
        .map(|pid| pid as i32);
    let held = pgid.map(|pgid| {
        alive.push(pgid);
        Held(pgid)
    });
    (spawned, held)
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
        let (spawned, held) = spawn_held(true, || Ok(()), |_| Some(i32::MAX as u32));
        assert!(spawned.is_ok() && alive().contains(&i32::MAX));
        drop(held);
        assert!(!alive().contains(&i32::MAX));
        // Not held, or not spawned: nothing is.
        let (_, held) = spawn_held(false, || Ok(()), |_| Some(7));
        assert!(held.is_none());
        let failed = || Err::<(), _>(std::io::Error::other("no"));
        let (spawned, held) = spawn_held(true, failed, |_| Some(7));
        assert!(spawned.is_err() && held.is_none() && !alive().contains(&7));
    }
}

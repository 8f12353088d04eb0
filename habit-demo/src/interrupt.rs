//! Ctrl-C while no line editor owns the terminal: during the model's answer, or at any prompt
//! when stdin is piped. SIGINT is caught once for the whole program, and each press goes to the
//! innermost thing waiting for one — the confirmation prompt if it is open (the call is then
//! cancelled and the model told), else the running turn (it is stopped), else the piped chat
//! prompt or start-up work (the program leaves). A press while nothing waits is ignored.
//!
//! "Innermost" is a declared [`Level`], not the order in which waiters registered: the turn and
//! the confirmation prompt inside it wait concurrently, and which of them is polled first is
//! up to `tokio::select!`.
//!
//! On a terminal prompt the editor has the terminal in raw mode, so Ctrl-C arrives there as a
//! key (`Line::Interrupted`) and never as a signal.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::oneshot;

/// A shared handle on Ctrl-C presses; cheap to clone.
#[derive(Clone, Default)]
pub(crate) struct Interrupts {
    inner: Arc<Mutex<Waiters>>,
}

/// Who is waiting for a press, outermost first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    /// Start-up: the model loading, its first-start work (the program leaves).
    Start,
    /// The piped chat prompt.
    Prompt,
    /// A user turn.
    Turn,
    /// The confirmation prompt (inside a turn).
    Confirmation,
}

#[derive(Default)]
struct Waiters {
    next_id: u64,
    waiting: Vec<Waiter>,
}

struct Waiter {
    id: u64,
    level: Level,
    sender: oneshot::Sender<()>,
}

impl Interrupts {
    /// Catches SIGINT from now on and routes presses as described in the module docs. Must be
    /// called inside the Tokio runtime.
    pub(crate) fn install() -> Self {
        let interrupts = Self::default();
        let router = interrupts.clone();
        tokio::spawn(async move {
            // If the handler cannot be installed Ctrl-C keeps its default meaning (end the
            // process), which is still safe for the data: every write is one transaction.
            while tokio::signal::ctrl_c().await.is_ok() {
                router.press();
            }
        });
        interrupts
    }

    /// Delivers one press to the innermost waiter (highest level; the latest among equals);
    /// `false` when nobody was waiting.
    pub(crate) fn press(&self) -> bool {
        let mut waiters = self.lock();
        loop {
            let innermost = waiters
                .waiting
                .iter()
                .enumerate()
                .max_by_key(|(_, w)| (w.level, w.id))
                .map(|(index, _)| index);
            let Some(index) = innermost else {
                return false;
            };
            if waiters.waiting.remove(index).sender.send(()).is_ok() {
                return true;
            }
        }
    }

    /// Waits, at `level`, for the next press that reaches this waiter. Dropping the future
    /// stops waiting.
    pub(crate) async fn next(&self, level: Level) {
        let (sender, receiver) = oneshot::channel();
        let id = {
            let mut waiters = self.lock();
            let id = waiters.next_id;
            waiters.next_id += 1;
            waiters.waiting.push(Waiter { id, level, sender });
            id
        };
        let _registered = Registered {
            interrupts: self,
            id,
        };
        if receiver.await.is_err() {
            std::future::pending::<()>().await;
        }
    }

    fn lock(&self) -> MutexGuard<'_, Waiters> {
        // A list of channel ends stays valid even if a holder panicked.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Removes a waiter that stopped waiting, so a later press goes to the one below it.
struct Registered<'a> {
    interrupts: &'a Interrupts,
    id: u64,
}

impl Drop for Registered<'_> {
    fn drop(&mut self) {
        self.interrupts.lock().waiting.retain(|w| w.id != self.id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test]
    async fn a_press_goes_to_the_innermost_waiter_whatever_the_order() {
        let interrupts = Interrupts::default();
        assert!(!interrupts.press(), "nobody waits");
        // The inner waiter registers first, as when select! polls the turn's body first.
        let inner = tokio::spawn({
            let i = interrupts.clone();
            async move { i.next(Level::Confirmation).await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        let outer = tokio::spawn({
            let i = interrupts.clone();
            async move { i.next(Level::Turn).await }
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(interrupts.press());
        tokio::time::timeout(Duration::from_secs(1), inner)
            .await
            .expect("inner woke")
            .expect("joined");
        assert!(!outer.is_finished(), "the outer waiter did not get it");
        assert!(interrupts.press());
        tokio::time::timeout(Duration::from_secs(1), outer)
            .await
            .expect("outer woke")
            .expect("joined");
    }

    #[tokio::test]
    async fn a_dropped_waiter_no_longer_receives() {
        let interrupts = Interrupts::default();
        let waiting = interrupts.next(Level::Turn);
        drop(waiting);
        assert!(!interrupts.press());
        {
            let fut = std::pin::pin!(interrupts.next(Level::Turn));
            // Poll once so it registers, then drop it.
            let _ = tokio::time::timeout(Duration::from_millis(5), fut).await;
        }
        assert!(!interrupts.press());
    }
}

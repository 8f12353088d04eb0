//! How many CPU threads a session's llama.cpp context gets: [`Threads`], and the load probe
//! behind [`Threads::Auto`].
//!
//! ggml's CPU threads meet at a spinning barrier after every operation of the graph (dozens
//! per token). A thread that shares its core with another busy process is descheduled for
//! whole time slices while its partner spins, so on a busy machine more threads are slower,
//! not faster: on a two-core machine with two busy processes beside it, one thread decodes
//! more than twice as fast as two (the bench's section 5 prints the figures). The thread
//! count is fixed when a context is
//! created (llama-cpp-2 offers no safe `llama_set_n_threads`), so `Auto` decides then: all
//! cores, less the ones other processes kept busy since the previous look.
//!
//! The probe reads Linux's `/proc/stat` (time every CPU spent busy) and `/proc/self/stat`
//! (this process's own CPU time, subtracted: a model load or an earlier session is not
//! "another process"). The first look is taken when the model starts loading, so the window
//! usually costs nothing; a window shorter than [`MIN_WINDOW`] is waited out, because the
//! kernel counts in 10 ms ticks. Elsewhere, or when `/proc` cannot be read, `Auto` is all
//! available cores.

use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many CPU threads a session evaluates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Threads {
    /// All available cores, less those other processes kept busy just before the session
    /// started (at least one); see the module doc of `threads.rs` for why.
    #[default]
    Auto,
    /// Exactly this many, whatever else runs.
    Fixed(NonZeroUsize),
}

impl Threads {
    /// `Fixed(n)`, or `Auto` for 0.
    pub fn from_count(n: usize) -> Self {
        NonZeroUsize::new(n).map_or(Self::Auto, Self::Fixed)
    }
}

impl std::fmt::Display for Threads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Auto => f.write_str("auto"),
            Self::Fixed(n) => write!(f, "{n}"),
        }
    }
}

/// The shortest window the probe decides on: 20 ticks of the kernel's clock on 2 cores.
pub(crate) const MIN_WINDOW: Duration = Duration::from_millis(100);

/// A busy CPU counts as taken by another process when at least this much of it was.
const BUSY_CORE: f64 = 0.5;

/// CPU time counters at one moment, in kernel ticks.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Sample {
    at: Instant,
    /// All CPUs, all states.
    total: u64,
    /// All CPUs, idle or waiting for I/O.
    idle: u64,
    /// This process, user and system.
    ours: u64,
    /// CPUs the kernel reports.
    cpus: usize,
}

impl Sample {
    fn take() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let own = std::fs::read_to_string("/proc/self/stat").ok()?;
        let (total, idle, cpus) = parse_stat(&stat)?;
        Some(Self {
            at: Instant::now(),
            total,
            idle,
            ours: parse_own(&own)?,
            cpus,
        })
    }
}

/// `(total, idle + iowait, cpu count)` from `/proc/stat`.
fn parse_stat(text: &str) -> Option<(u64, u64, usize)> {
    let mut lines = text.lines();
    let first = lines.next()?;
    let mut fields = first.split_whitespace();
    (fields.next()? == "cpu").then_some(())?;
    let values: Vec<u64> = fields.map(|f| f.parse().ok()).collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal [guest guest_nice]; guest time is
    // already counted in user, so only the first eight add up to the total.
    let total = values.iter().take(8).sum();
    let idle = values.get(3)? + values.get(4).copied().unwrap_or(0);
    let cpus = lines
        .take_while(|l| l.starts_with("cpu"))
        .filter(|l| l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count();
    Some((total, idle, cpus.max(1)))
}

/// `utime + stime` from `/proc/self/stat` (fields 14 and 15; the command name before them is
/// in parentheses and may hold spaces, so fields are counted after its last `)`).
fn parse_own(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let mut fields = rest.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    Some(user + system)
}

/// Threads to use given two samples: all of `available`, less the cores other processes kept
/// busy between them (a core counts from [`BUSY_CORE`] of it), at least one.
fn decide(before: &Sample, after: &Sample, available: usize) -> usize {
    let total = after.total.saturating_sub(before.total);
    if total == 0 {
        return available;
    }
    let busy = total.saturating_sub(after.idle.saturating_sub(before.idle));
    let others = busy.saturating_sub(after.ours.saturating_sub(before.ours));
    // Tick counts stay far below 2^52, so the float is exact.
    let taken = others as f64 / total as f64 * after.cpus as f64;
    // A core that other processes keep at least `BUSY_CORE` busy is theirs.
    let theirs = (taken + (1.0 - BUSY_CORE)).floor().max(0.0) as usize;
    let usable = after.cpus.saturating_sub(theirs).max(1);
    usable.clamp(1, available.max(1))
}

/// The probe's memory: the previous look, shared by a model's sessions.
#[derive(Debug, Default)]
pub(crate) struct Probe {
    last: Mutex<Option<Sample>>,
}

impl Probe {
    /// A probe whose window starts now (at model load).
    pub(crate) fn started() -> Self {
        Self {
            last: Mutex::new(Sample::take()),
        }
    }

    /// The thread count for a context created now.
    pub(crate) fn threads(&self, threads: Threads) -> usize {
        let available = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        match threads {
            Threads::Fixed(n) => n.get(),
            Threads::Auto => self.look(available),
        }
    }

    fn look(&self, available: usize) -> usize {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = match *last {
            Some(before) => before,
            None => match Sample::take() {
                Some(first) => first,
                None => return available,
            },
        };
        let waited = before.at.elapsed();
        if waited < MIN_WINDOW {
            std::thread::sleep(MIN_WINDOW - waited);
        }
        let Some(now) = Sample::take() else {
            return available;
        };
        *last = Some(now);
        decide(&before, &now, available)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(total: u64, idle: u64, ours: u64) -> Sample {
        Sample {
            at: Instant::now(),
            total,
            idle,
            ours,
            cpus: 2,
        }
    }

    #[test]
    fn proc_stat_is_read_as_the_kernel_writes_it() {
        let text = "cpu  100 5 50 800 20 1 2 0 7 0\ncpu0 50 2 25 400 10 0 1 0 3 0\n\
                    cpu1 50 3 25 400 10 1 1 0 4 0\nintr 12345\nctxt 99\n";
        assert_eq!(parse_stat(text), Some((978, 820, 2)));
        assert_eq!(parse_stat("intr 1\n"), None);
        assert_eq!(parse_stat("cpu x y\n"), None);
    }

    #[test]
    fn own_time_is_read_after_the_command_name() {
        let own = "4242 (habit demo) S 1 4242 4242 0 -1 4194560 900 0 0 0 31 7 0 0 20 0 3";
        assert_eq!(parse_own(own), Some(38));
        assert_eq!(parse_own("4242 (x) S"), None);
    }

    #[test]
    fn an_idle_machine_gets_every_core() {
        assert_eq!(decide(&sample(0, 0, 0), &sample(200, 195, 0), 2), 2);
    }

    #[test]
    fn this_process_s_own_work_does_not_count_as_load() {
        // A model load kept one core busy: that was us.
        assert_eq!(decide(&sample(0, 0, 0), &sample(200, 100, 100), 2), 2);
    }

    #[test]
    fn cores_other_processes_keep_busy_are_left_to_them() {
        // One other process on one of two cores.
        assert_eq!(decide(&sample(0, 0, 0), &sample(200, 100, 0), 2), 1);
        // Two: still one thread, never none.
        assert_eq!(decide(&sample(0, 0, 0), &sample(200, 0, 0), 2), 1);
        // A light load (a fifth of a core) is not worth giving a core up for.
        assert_eq!(decide(&sample(0, 0, 0), &sample(200, 180, 0), 2), 2);
    }

    #[test]
    fn the_count_never_exceeds_what_the_process_may_use() {
        // Four idle CPUs on the machine, two allowed to this process (affinity, quota).
        let mut after = sample(400, 400, 0);
        after.cpus = 4;
        assert_eq!(decide(&sample(0, 0, 0), &after, 2), 2);
        assert_eq!(decide(&sample(0, 0, 0), &sample(0, 0, 0), 2), 2);
    }

    #[test]
    fn fixed_counts_are_kept_and_zero_means_auto() {
        let probe = Probe::default();
        assert_eq!(probe.threads(Threads::from_count(3)), 3);
        assert_eq!(Threads::from_count(0), Threads::Auto);
        assert!(probe.threads(Threads::Auto) >= 1);
    }
}

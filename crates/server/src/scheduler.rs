//! The search slots shared fairly between clients.
//!
//! Every deep search (a computer's move, a hint) is charged to a client: the address that
//! created the game for a computer's move, the address that asked for a hint. Waiting searches
//! sit in a queue per client; a free slot goes to the waiting client that used the least CPU
//! recently (its searches' wall time on their worker threads, times the slots they held,
//! decaying by half every [`HALF_LIFE`], plus the time of its searches still running), and
//! within a client in the order asked. A tokio semaphore hands permits out in arrival order,
//! so one client with many games and hints queued ahead of everyone else delayed them all.
//!
//! A client may have at most `max_hints` hints waiting; computer moves always queue (one per
//! game at most: a game starts its next search only after the last one ended). A search whose
//! stop flag is raised while it waits (undo, resignation, deletion, shutdown) leaves the queue
//! without running.

use crate::client::ClientId;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use ludus_ai::StopFlag;
use tokio::sync::oneshot;

/// Who pays for a search: a client's address (`None`: unknown, such as games loaded at start,
/// which then share one account).
pub type Payer = Option<ClientId>;

/// How fast a client's past use is forgotten: half of it every minute.
pub const HALF_LIFE: Duration = Duration::from_secs(60);

/// Use below this many CPU-seconds is forgotten with the client's account once it is idle.
const FORGOTTEN: f64 = 1e-3;

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// A computer player's decision.
    Move,
    /// A hint for a person.
    Hint,
}

/// Why a search got no slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The client already has this many hints waiting.
    TooManyHints(usize),
    /// Its stop flag was raised while it waited.
    Cancelled,
}

/// The search slots and the queues waiting for them.
#[derive(Debug)]
pub struct Scheduler {
    slots: usize,
    max_hints: usize,
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    free: usize,
    next_ticket: u64,
    accounts: HashMap<Payer, Account>,
}

/// One client's use, waiting searches and running searches.
#[derive(Debug)]
struct Account {
    /// CPU-seconds used, as decayed at `at`.
    used: f64,
    at: Instant,
    waiting: VecDeque<Waiting>,
    /// Ticket, start and slots of each running search.
    running: Vec<(u64, Instant, usize)>,
}

#[derive(Debug)]
struct Waiting {
    ticket: u64,
    slots: usize,
    purpose: Purpose,
    stop: StopFlag,
    grant: oneshot::Sender<Slot>,
}

/// Slots held by one search. Dropping it charges the time held to its client and passes the
/// slots on.
#[derive(Debug)]
pub struct Slot {
    scheduler: Arc<Scheduler>,
    payer: Payer,
    ticket: u64,
    slots: usize,
    since: Instant,
}

/// Slots given out under the lock, handed over once it is released (a refused hand-over
/// drops its slot, which takes the lock again).
type Grants = Vec<(oneshot::Sender<Slot>, Slot)>;

impl Scheduler {
    /// `slots` searches at once and `max_hints` hints waiting per client (each at least 1:
    /// with none a hint could never wait for a slot, so none could be asked while one runs).
    pub fn new(slots: usize, max_hints: usize) -> Arc<Scheduler> {
        let slots = slots.max(1);
        Arc::new(Scheduler {
            slots,
            max_hints: max_hints.max(1),
            state: Mutex::new(State {
                free: slots,
                next_ticket: 0,
                accounts: HashMap::new(),
            }),
        })
    }

    /// Waits for `slots` slots (capped at all of them) for a search charged to `payer`.
    pub async fn acquire(
        self: &Arc<Self>,
        payer: Payer,
        purpose: Purpose,
        slots: usize,
        stop: &StopFlag,
    ) -> Result<Slot, Refusal> {
        let (grant, granted) = oneshot::channel();
        let grants = {
            let mut state = self.lock();
            let now = Instant::now();
            state.purge(now);
            let waiting = &mut state.account(payer, now).waiting;
            let hints = waiting.iter().filter(|w| w.purpose == Purpose::Hint);
            if purpose == Purpose::Hint && hints.count() >= self.max_hints {
                return Err(Refusal::TooManyHints(self.max_hints));
            }
            let ticket = state.next_ticket;
            state.next_ticket += 1;
            state.account(payer, now).waiting.push_back(Waiting {
                ticket,
                slots: slots.clamp(1, self.slots),
                purpose,
                stop: stop.clone(),
                grant,
            });
            self.dispatch(&mut state)
        };
        deliver(grants);
        granted.await.map_err(|_| Refusal::Cancelled)
    }

    /// Charges `payer` for work done without a slot (cheap agents).
    pub fn charge(&self, payer: Payer, spent: Duration) {
        let now = Instant::now();
        self.lock().account(payer, now).used += spent.as_secs_f64();
    }

    /// The CPU-seconds charged to `payer` recently (decayed), running searches included.
    pub fn used(&self, payer: Payer) -> f64 {
        let now = Instant::now();
        self.lock()
            .accounts
            .get(&payer)
            .map_or(0.0, |a| a.load(now))
    }

    /// Searches waiting for a slot, of every client.
    pub fn waiting(&self) -> usize {
        let state = self.lock();
        let waiting = state.accounts.values().flat_map(|a| &a.waiting);
        waiting.filter(|w| !w.stop.is_raised()).count()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // Nothing panics under this lock; a poisoned one is still consistent.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Gives free slots to the waiting searches of the clients that used least, in turn.
    fn dispatch(self: &Arc<Self>, state: &mut State) -> Grants {
        let mut grants = Grants::new();
        let now = Instant::now();
        state.purge(now);
        while state.free > 0 {
            let Some(payer) = state.neediest(now) else {
                break;
            };
            let Some(account) = state.accounts.get_mut(&payer) else {
                break;
            };
            // A search that needs more slots than are free keeps its turn: the slots are
            // saved for it rather than given to later searches, which could starve it.
            if account.waiting.front().is_none_or(|w| w.slots > state.free) {
                break;
            }
            let Some(next) = account.waiting.pop_front() else {
                break;
            };
            state.free -= next.slots;
            account.running.push((next.ticket, now, next.slots));
            let slot = Slot {
                scheduler: Arc::clone(self),
                payer,
                ticket: next.ticket,
                slots: next.slots,
                since: now,
            };
            grants.push((next.grant, slot));
        }
        grants
    }

    fn release(self: &Arc<Self>, slot: &Slot) {
        let grants = {
            let mut state = self.lock();
            let now = Instant::now();
            state.free += slot.slots;
            let account = state.account(slot.payer, now);
            account
                .running
                .retain(|(ticket, _, _)| *ticket != slot.ticket);
            let held = now.saturating_duration_since(slot.since).as_secs_f64();
            #[allow(clippy::cast_precision_loss)] // a handful of slots
            let spent = held * slot.slots as f64;
            account.used += spent;
            self.dispatch(&mut state)
        };
        deliver(grants);
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        Arc::clone(&self.scheduler).release(self);
    }
}

/// Hands the slots over; a search that stopped waiting drops its slot, which frees it again.
fn deliver(grants: Grants) {
    for (grant, slot) in grants {
        drop(grant.send(slot));
    }
}

impl State {
    /// The account of `payer`, decayed to `now`.
    fn account(&mut self, payer: Payer, now: Instant) -> &mut Account {
        let account = self.accounts.entry(payer).or_insert_with(|| Account {
            used: 0.0,
            at: now,
            waiting: VecDeque::new(),
            running: Vec::new(),
        });
        account.decay(now);
        account
    }

    /// Drops waiting searches that were cancelled or whose asker left, and idle accounts
    /// whose use is forgotten (so the map stays as small as the set of active clients).
    fn purge(&mut self, now: Instant) {
        self.accounts.retain(|_, account| {
            account
                .waiting
                .retain(|w| !w.stop.is_raised() && !w.grant.is_closed());
            account.decay(now);
            !(account.waiting.is_empty() && account.running.is_empty() && account.used < FORGOTTEN)
        });
    }

    /// The client with waiting searches that used least; ties go to the earliest asked.
    fn neediest(&self, now: Instant) -> Option<Payer> {
        self.accounts
            .iter()
            .filter_map(|(payer, account)| {
                let first = account.waiting.front()?;
                Some((account.load(now), first.ticket, *payer))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
            .map(|(_, _, payer)| payer)
    }
}

impl Account {
    fn decay(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.used *= 0.5_f64.powf(elapsed / HALF_LIFE.as_secs_f64());
        self.at = now;
    }

    /// Use so far: the decayed past plus the searches running now.
    fn load(&self, now: Instant) -> f64 {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        let past = self.used * 0.5_f64.powf(elapsed / HALF_LIFE.as_secs_f64());
        #[allow(clippy::cast_precision_loss)] // a handful of slots
        let running: f64 = self
            .running
            .iter()
            .map(|(_, since, slots)| {
                now.saturating_duration_since(*since).as_secs_f64() * *slots as f64
            })
            .sum();
        past + running
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::*;

    const HEAVY: Payer = Some(ClientId::Address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 2))));
    const LIGHT: Payer = Some(ClientId::Address(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 3))));

    #[tokio::test]
    async fn a_free_slot_goes_to_the_client_that_used_least() {
        let scheduler = Scheduler::new(1, 4);
        let stop = StopFlag::default();
        scheduler.charge(HEAVY, Duration::from_secs(5));
        let held = scheduler
            .acquire(HEAVY, Purpose::Move, 1, &stop)
            .await
            .unwrap();
        let heavy = tokio::spawn({
            let (scheduler, stop) = (Arc::clone(&scheduler), stop.clone());
            async move { scheduler.acquire(HEAVY, Purpose::Move, 1, &stop).await }
        });
        tokio::task::yield_now().await;
        let light = tokio::spawn({
            let (scheduler, stop) = (Arc::clone(&scheduler), stop.clone());
            async move { scheduler.acquire(LIGHT, Purpose::Move, 1, &stop).await }
        });
        while scheduler.waiting() < 2 {
            tokio::task::yield_now().await;
        }
        drop(held);
        let light = light.await.unwrap().unwrap();
        assert_eq!(
            light.payer, LIGHT,
            "the later but lighter client goes first"
        );
        assert!(!heavy.is_finished());
        drop(light);
        assert_eq!(heavy.await.unwrap().unwrap().payer, HEAVY);
    }

    #[tokio::test]
    async fn hints_over_the_cap_are_refused_and_cancelled_searches_never_run() {
        let scheduler = Scheduler::new(1, 1);
        let stop = StopFlag::default();
        let held = scheduler
            .acquire(HEAVY, Purpose::Move, 1, &stop)
            .await
            .unwrap();
        let cancelled = StopFlag::default();
        let queued = tokio::spawn({
            let (scheduler, stop) = (Arc::clone(&scheduler), cancelled.clone());
            async move { scheduler.acquire(HEAVY, Purpose::Hint, 1, &stop).await }
        });
        while scheduler.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        let refused = scheduler.acquire(HEAVY, Purpose::Hint, 1, &stop).await;
        assert_eq!(refused.unwrap_err(), Refusal::TooManyHints(1));
        cancelled.raise();
        drop(held);
        assert_eq!(queued.await.unwrap().unwrap_err(), Refusal::Cancelled);
        let next = scheduler.acquire(HEAVY, Purpose::Hint, 1, &stop).await;
        assert!(
            next.is_ok(),
            "the cancelled hint left the queue and its slot"
        );
        scheduler.charge(LIGHT, Duration::from_secs(30));
        let used = scheduler.used(LIGHT);
        assert!(used > 29.0 && used <= 30.0, "halved each minute: {used}");
    }
}

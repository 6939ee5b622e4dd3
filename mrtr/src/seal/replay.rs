//! Single use of sealed tokens: the stores of spent token ids.
//!
//! # What each store guarantees
//!
//! | store | single use holds across | survives a restart | bounded by |
//! |---|---|---|---|
//! | [`MemoryReplayStore`] | the one process that holds it | no | a capacity and a per-principal quota |
//! | `RedisReplayStore` (feature `redis`) | every instance that reaches the same Redis/Valkey | as Redis persists | a capacity, a per-principal quota and Redis's `maxmemory` |
//!
//! A deployment of more than one instance has single use only with a shared store: a state
//! spent on instance A and presented to instance B is refused only if B asks the store A
//! recorded it in. Both stores fail closed: when a record cannot be made (store full, quota
//! used up, Redis unreachable) the state is refused, never accepted unrecorded. What a store
//! has recorded it must keep until the token expires: Redis's conditions for that are on
//! `RedisReplayStore`.
//!
//! # Refusals, and what each tells
//!
//! | [`Recorded`] / error | why | who can act |
//! |---|---|---|
//! | [`Recorded::AlreadyUsed`] | the state was spent before | the client: call again without it |
//! | [`Recorded::QuotaExceeded`] | the principal holds its quota of records | the client: wait for its records to expire |
//! | [`Recorded::StoreFull`] | the store holds its capacity of records (or Redis is at `maxmemory`) | the operator: a larger store, or find who fills it |
//! | an error | the store cannot answer (Redis down, a timeout) | the operator |
//!
//! The served error names each ([`ServeError::to_jsonrpc_error`](crate::serve::ServeError::to_jsonrpc_error)).
//!
//! # Quotas and capacity
//!
//! Every spent state is recorded until it expires, so a principal that retries in a loop (a
//! retry with no answers spends its state and gets a new one) fills a store. Two bounds hold
//! whatever callers do:
//! - a quota bounds the records one principal may hold at once ([`DEFAULT_PRINCIPAL_QUOTA`]);
//!   past it, that principal's states are refused until its own records expire, while other
//!   principals' still open;
//! - a capacity bounds the records of the whole store ([`MemoryReplayStore::DEFAULT_CAPACITY`],
//!   `RedisReplayStore::DEFAULT_CAPACITY`, and Redis's `maxmemory`); past it, every new spend is
//!   refused until records expire.
//!
//! The principal is the one the state is bound to
//! ([`SealContext::principal`](super::SealContext::principal)). For the quota to protect anyone,
//! a principal must be something a caller cannot share with others nor mint for free: the
//! verified subject of an authenticated request, and for a caller who did not authenticate its
//! network address (the rmcp adapter's `http::anonymous_principal`), never one name for every
//! anonymous caller. Then filling the store takes capacity ÷ quota principals (100 addresses or
//! accounts at the memory store's defaults, 250 on Redis), each holding its records for a TTL.
//!
//! # Clocks
//!
//! A record must outlive its token: a record dropped early lets the token be accepted again.
//! [`MemoryReplayStore`] drops a record only once both the wall clock says its token has
//! expired and the monotonic clock says that much time has passed since it was recorded, so a
//! wall clock stepped forward drops nothing early; one stepped back keeps records (and the
//! ones behind them) longer, which can only refuse more. Redis keeps each record for the
//! token's remaining time plus a grace period (five minutes by default), measured by Redis's
//! clock: the instances' clocks and Redis's must agree within the grace period.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant, SystemTime};

/// The error a [`ReplayStore`] reports when it cannot answer (its database is down, it is
/// full, …). The state is then refused ([`OpenError::ReplayStore`](super::OpenError)).
pub type ReplayStoreError = Box<dyn std::error::Error + Send + Sync>;

/// How many unexpired records one principal may hold in a store by default: far more than a
/// person answering forms spends within a TTL, far fewer than a store holds.
pub const DEFAULT_PRINCIPAL_QUOTA: usize = 1_000;

/// The unique id of a sealed token (its random 192-bit nonce): what a [`ReplayStore`] records.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TokenId([u8; 24]);

impl TokenId {
    pub(super) fn new(bytes: [u8; 24]) -> Self {
        Self(bytes)
    }

    /// The id of these bytes: for a [`ReplayStore`] that reads ids back from its storage.
    pub fn from_bytes(bytes: [u8; 24]) -> Self {
        Self(bytes)
    }

    /// The id bytes.
    pub fn as_bytes(&self) -> &[u8; 24] {
        &self.0
    }
}

impl fmt::Debug for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TokenId({})", hex(&self.0))
    }
}

/// Who spent a token, as a store sees it: a domain-separated SHA-256 of the principal the token
/// is bound to, so that no store (and no Redis key) holds the principal itself.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PrincipalId([u8; 32]);

impl PrincipalId {
    /// The id of these bytes (a store that reads ids back, a test).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The id bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Debug for PrincipalId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PrincipalId({})", hex(&self.0))
    }
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A token being spent: what [`ReplayStore::first_use`] records.
#[derive(Debug, Clone, Copy)]
pub struct Spend<'a> {
    /// The token's id.
    pub id: &'a TokenId,
    /// The principal it is bound to.
    pub principal: &'a PrincipalId,
    /// When the token expires: the record must be kept at least until then.
    pub expires_at: SystemTime,
    /// The time the token was opened at (the `now` given to
    /// [`StateSealer::open_once`](super::StateSealer::open_once)).
    pub now: SystemTime,
}

impl Spend<'_> {
    /// How long the record must be kept: from `now` to the expiry.
    pub fn remaining(&self) -> Duration {
        self.expires_at
            .duration_since(self.now)
            .unwrap_or(Duration::ZERO)
    }
}

/// What a [`ReplayStore`] answers for a token being spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// Not spent before: recorded now, the token is accepted.
    First,
    /// Spent before: refused ([`OpenError::Replayed`](super::OpenError::Replayed)).
    AlreadyUsed,
    /// Not spent before, but its principal holds as many records as its quota allows: refused
    /// and not recorded ([`OpenError::QuotaExceeded`](super::OpenError::QuotaExceeded)).
    QuotaExceeded,
    /// Not spent before, but the store holds as many records as its capacity allows (or its
    /// memory is at its limit): refused and not recorded
    /// ([`OpenError::StoreFull`](super::OpenError::StoreFull)).
    StoreFull,
}

/// Where a server records the tokens it has consumed, for
/// [`StateSealer::open_once`](super::StateSealer::open_once). Every server instance that opens
/// tokens must share it for single use to hold across them (see the table in the module docs).
///
/// Implementations must make the check, the quota and the insert one atomic step, or two
/// concurrent retries could both be accepted, and must fail (an error, never
/// [`Recorded::First`]) rather than forget an id before its expiry.
pub trait ReplayStore: Send + Sync {
    /// Records `spend.id` as used by `spend.principal`, to be remembered at least until
    /// `spend.expires_at` (after which the token is refused as expired anyway).
    fn first_use(&self, spend: &Spend<'_>) -> Result<Recorded, ReplayStoreError>;
}

impl<S: ReplayStore + ?Sized> ReplayStore for Arc<S> {
    fn first_use(&self, spend: &Spend<'_>) -> Result<Recorded, ReplayStoreError> {
        (**self).first_use(spend)
    }
}

/// A [`ReplayStore`] in the memory of one process: single use holds on this instance only.
///
/// [`MemoryReplayStore::process`] is the one a sealing uses when it is given none.
///
/// Bounded: it holds at most `capacity` unexpired ids ([`MemoryReplayStore::DEFAULT_CAPACITY`]
/// by default, about 20 MB), and at most `quota` of them for one principal
/// ([`DEFAULT_PRINCIPAL_QUOTA`]). Expired records are dropped first, in order of expiry, as new
/// ones come in; when every slot holds a record that has not expired yet, a new token is refused
/// ([`Recorded::StoreFull`]: the store fails closed, since forgetting an unexpired id would let
/// its token be replayed). Each call costs O(log n).
pub struct MemoryReplayStore {
    used: Mutex<Used>,
    capacity: usize,
    quota: usize,
    /// The monotonic clock: the time elapsed since the store was made.
    clock: Box<dyn Fn() -> Duration + Send + Sync>,
}

impl fmt::Debug for MemoryReplayStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryReplayStore")
            .field("len", &self.len())
            .field("capacity", &self.capacity)
            .field("quota", &self.quota)
            .finish_non_exhaustive()
    }
}

/// A record's end: the token's wall-clock expiry and the monotonic time it is kept until.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Keep {
    monotonic: Duration,
    expires_at: SystemTime,
}

/// The ids recorded, by id and by end, and how many each principal holds.
#[derive(Debug, Default)]
struct Used {
    by_id: HashMap<TokenId, (Keep, PrincipalId)>,
    by_end: BTreeSet<(Keep, TokenId)>,
    per_principal: HashMap<PrincipalId, usize>,
}

impl Used {
    /// Drops the records whose token has expired by both clocks, oldest first. A record kept
    /// longer by its wall-clock expiry (the wall clock went back) stops the sweep: the ones
    /// after it wait for the next call.
    fn sweep(&mut self, wall: SystemTime, monotonic: Duration) {
        while let Some(&(keep, id)) = self.by_end.first() {
            if keep.monotonic > monotonic || keep.expires_at > wall {
                break;
            }
            self.by_end.pop_first();
            if let Some((_, principal)) = self.by_id.remove(&id) {
                if let Some(count) = self.per_principal.get_mut(&principal) {
                    *count -= 1;
                    if *count == 0 {
                        self.per_principal.remove(&principal);
                    }
                }
            }
        }
    }
}

impl Default for MemoryReplayStore {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

impl MemoryReplayStore {
    /// How many unexpired ids [`MemoryReplayStore::new`] holds.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// An empty store of [`MemoryReplayStore::DEFAULT_CAPACITY`] ids.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store that holds at most `capacity` unexpired ids, and at most
    /// [`DEFAULT_PRINCIPAL_QUOTA`] (or `capacity`, if smaller) for one principal.
    pub fn with_capacity(capacity: usize) -> Self {
        let started = Instant::now();
        Self {
            used: Mutex::new(Used::default()),
            capacity,
            quota: DEFAULT_PRINCIPAL_QUOTA.min(capacity),
            clock: Box::new(move || started.elapsed()),
        }
    }

    /// The store of this process, shared by every [`Sealing`](crate::serve::Sealing) and
    /// `Eras` that is given no store of its own: default capacity and quota.
    pub fn process() -> &'static MemoryReplayStore {
        static PROCESS: OnceLock<MemoryReplayStore> = OnceLock::new();
        PROCESS.get_or_init(MemoryReplayStore::new)
    }

    /// At most `quota` unexpired records for one principal (0: no quota).
    pub fn with_quota(mut self, quota: usize) -> Self {
        self.quota = quota;
        self
    }

    /// Replaces the monotonic clock (by default the time elapsed since the store was made):
    /// for tests that step time without waiting. It must never go back.
    pub fn with_monotonic_clock(
        mut self,
        elapsed: impl Fn() -> Duration + Send + Sync + 'static,
    ) -> Self {
        self.clock = Box::new(elapsed);
        self
    }

    /// How many token ids are recorded (expired ones included until the next insert).
    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    /// Whether no token id is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many records `principal` holds (expired ones included until the next insert).
    pub fn held_by(&self, principal: &PrincipalId) -> usize {
        (self.lock().per_principal.get(principal)).map_or(0, |count| *count)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Used> {
        // A panic elsewhere while the lock was held cannot leave the maps out of step: nothing
        // in here panics between the paired updates.
        self.used.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ReplayStore for MemoryReplayStore {
    fn first_use(&self, spend: &Spend<'_>) -> Result<Recorded, ReplayStoreError> {
        let monotonic = (self.clock)();
        let mut used = self.lock();
        used.sweep(spend.now, monotonic);
        if used.by_id.contains_key(spend.id) {
            return Ok(Recorded::AlreadyUsed);
        }
        let held = (used.per_principal.get(spend.principal)).map_or(0, |count| *count);
        if self.quota > 0 && held >= self.quota {
            return Ok(Recorded::QuotaExceeded);
        }
        if used.by_id.len() >= self.capacity {
            return Ok(Recorded::StoreFull);
        }
        let keep = Keep {
            monotonic: monotonic.saturating_add(spend.remaining()),
            expires_at: spend.expires_at,
        };
        used.by_id.insert(*spend.id, (keep, *spend.principal));
        used.by_end.insert((keep, *spend.id));
        *used.per_principal.entry(*spend.principal).or_insert(0) += 1;
        Ok(Recorded::First)
    }
}

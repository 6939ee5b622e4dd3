//! One-time use of sealed tokens: the store of used token ids.

use std::collections::{BTreeSet, HashMap};
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// The error a [`ReplayStore`] reports when it cannot answer (its database is down, …).
pub type ReplayStoreError = Box<dyn std::error::Error + Send + Sync>;

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
        f.write_str("TokenId(")?;
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        f.write_str(")")
    }
}

/// Where a server records the tokens it has consumed, for
/// [`StateSealer::open_once`](super::StateSealer::open_once). Every server instance that opens
/// tokens must share it (a database table, a cache with atomic insert).
///
/// Implementations must make the check and the insert one atomic step, or two concurrent
/// retries could both be accepted, and must fail (an error, never `Ok(true)`) rather than forget
/// an id before its expiry.
pub trait ReplayStore: Send + Sync {
    /// Records `id` as used, to be remembered at least until `expires_at` (after which the
    /// token is refused as expired anyway, so the record may be dropped). Returns `Ok(true)`
    /// when `id` was not recorded before, `Ok(false)` when it was.
    fn first_use(
        &self,
        id: &TokenId,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<bool, ReplayStoreError>;
}

/// A [`ReplayStore`] in the memory of one process: for tests, and for servers that run as a
/// single instance.
///
/// Bounded: it holds at most `capacity` unexpired ids ([`MemoryReplayStore::DEFAULT_CAPACITY`]
/// by default). Expired ids are evicted first, in order of expiry, as new ones come in; when
/// every slot holds an id that has not expired yet, a new token is refused with an error (the
/// store fails closed: forgetting an unexpired id would let its token be replayed). Each call
/// costs O(log n).
#[derive(Debug)]
pub struct MemoryReplayStore {
    used: Mutex<Used>,
    capacity: usize,
}

/// The ids recorded, by id and by expiry.
#[derive(Debug, Default)]
struct Used {
    by_id: HashMap<TokenId, SystemTime>,
    by_expiry: BTreeSet<(SystemTime, TokenId)>,
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

    /// An empty store that holds at most `capacity` unexpired ids.
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            used: Mutex::new(Used::default()),
            capacity,
        }
    }

    /// How many token ids are recorded (expired ones included until the next insert).
    pub fn len(&self) -> usize {
        self.used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .by_id
            .len()
    }

    /// Whether no token id is recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ReplayStore for MemoryReplayStore {
    fn first_use(
        &self,
        id: &TokenId,
        expires_at: SystemTime,
        now: SystemTime,
    ) -> Result<bool, ReplayStoreError> {
        // A panic elsewhere while the lock was held cannot leave the maps out of step: nothing
        // in here panics between the paired updates.
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(&(expires, oldest)) = used.by_expiry.first() {
            if expires > now {
                break;
            }
            used.by_expiry.pop_first();
            used.by_id.remove(&oldest);
        }
        if used.by_id.contains_key(id) {
            return Ok(false);
        }
        if used.by_id.len() >= self.capacity {
            return Err(format!(
                "the replay store is full: {} tokens have not expired yet",
                used.by_id.len()
            )
            .into());
        }
        used.by_id.insert(*id, expires_at);
        used.by_expiry.insert((expires_at, *id));
        Ok(true)
    }
}

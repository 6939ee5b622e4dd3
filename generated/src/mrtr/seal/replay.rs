//! One-time use of sealed tokens: the store of used token ids.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::SystemTime;

/// The error a [`ReplayStore`] reports when it cannot answer (its database is down, …).
pub type ReplayStoreError = Box<dyn std::error::Error + Send + Sync>;

/// The unique id of a sealed token (its random 192-bit nonce): what a [`ReplayStore`] records.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenId([u8; 24]);

impl TokenId {
    pub(super) fn new(bytes: [u8; 24]) -> Self {
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
/// retries could both be accepted.
pub trait ReplayStore {
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
/// single instance. Expired records are dropped as new ones come in.
#[derive(Debug, Default)]
pub struct MemoryReplayStore {
    used: Mutex<HashMap<TokenId, SystemTime>>,
}

impl MemoryReplayStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many token ids are recorded (expired ones included until the next insert).
    pub fn len(&self) -> usize {
        self.used
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
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
        // A panic elsewhere while the lock was held cannot leave the map half-updated: each
        // operation on it is a single call.
        let mut used = self.used.lock().unwrap_or_else(PoisonError::into_inner);
        used.retain(|_, expires| *expires > now);
        if used.contains_key(id) {
            return Ok(false);
        }
        used.insert(*id, expires_at);
        Ok(true)
    }
}

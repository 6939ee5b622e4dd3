//! A replay store shared by every instance of a deployment, on Redis or Valkey (feature
//! `redis`).

use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use redis::{Client, Connection, Script};

use super::replay::{hex, Recorded, ReplayStore, ReplayStoreError, Spend};
use super::DEFAULT_PRINCIPAL_QUOTA;

/// One atomic step (a Lua script runs alone on the server): drop the principal's expired
/// records from its quota set, refuse an id already recorded, refuse a principal at its quota,
/// else record the id (`SET … PX`, kept by Redis itself) and count it in the principal's set.
/// Times are Redis's own (`TIME`), so the instances' clocks do not matter. Both keys carry the
/// principal as a hash tag, so that they live in one slot of a cluster.
const FIRST_USE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local keep = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if quota > 0 and redis.call('ZCARD', KEYS[2]) >= quota then return 2 end
redis.call('SET', KEYS[1], '1', 'PX', keep)
redis.call('ZADD', KEYS[2], now + keep, KEYS[1])
if redis.call('PTTL', KEYS[2]) < keep then redis.call('PEXPIRE', KEYS[2], keep) end
return 1
";

/// A [`ReplayStore`] on Redis or Valkey: single use holds across every instance that uses the
/// same server (and key prefix). Each spend is one atomic script (no check-then-set race
/// between instances), each record expires by Redis's own clock after the token's remaining
/// time plus a grace period, and each principal holds at most its quota of records.
///
/// Calls block the calling thread for one round trip (a loopback or LAN call: tens to hundreds
/// of microseconds); connections are pooled. When Redis does not answer within the timeout,
/// the spend fails and the state is refused (fail closed).
///
/// # What Redis must keep
///
/// A record that Redis loses while its token is still valid lets the token be accepted again,
/// so single use holds only as far as Redis keeps what it was told:
/// - `maxmemory-policy noeviction` (Redis's default): every record has an expiry, so any
///   `volatile-*` or `allkeys-*` policy may evict one early. [`RedisReplayStore::ping`] refuses
///   another policy when the server lets it read `CONFIG`;
/// - a failover to a replica can lose the last writes (replication is asynchronous), and a
///   restart without persistence loses them all: keep Redis's clock, persistence and failover
///   in mind as for any security record;
/// - a record is kept for the token's remaining time by the spending instance's clock plus the
///   grace period ([`RedisReplayStore::with_grace`]), measured by Redis's clock: the instances'
///   and Redis's clocks must agree within the grace period (NTP).
///
/// ```no_run
/// use std::sync::Arc;
///
/// use mcp_mrtr::seal::RedisReplayStore;
///
/// let store = RedisReplayStore::open("redis://127.0.0.1:6379/")?;
/// store.ping()?; // fail at start-up rather than on the first retry
/// let store: Arc<dyn mcp_mrtr::seal::ReplayStore> = Arc::new(store);
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
pub struct RedisReplayStore {
    client: Client,
    idle: Mutex<Vec<Connection>>,
    script: Script,
    prefix: String,
    quota: usize,
    grace: Duration,
    timeout: Duration,
}

impl fmt::Debug for RedisReplayStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisReplayStore")
            .field(
                "server",
                &self.client.get_connection_info().addr().to_string(),
            )
            .field("prefix", &self.prefix)
            .field("quota", &self.quota)
            .field("grace", &self.grace)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl RedisReplayStore {
    /// How long a record outlives its token by default: a margin for the clocks of the
    /// instance that sealed the token and of Redis.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(300);
    /// How long a call waits for Redis by default.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);
    /// The idle connections kept for reuse.
    const POOL: usize = 32;

    /// The store at `url` (`redis://HOST:PORT/DB`, `rediss://…` is not built in), with the
    /// key prefix `mcp-mrtr:`, [`DEFAULT_PRINCIPAL_QUOTA`], [`Self::DEFAULT_GRACE`] and
    /// [`Self::DEFAULT_TIMEOUT`]. Connects lazily: see [`RedisReplayStore::ping`].
    pub fn open(url: &str) -> Result<Self, ReplayStoreError> {
        let client = Client::open(url).map_err(|e| format!("replay store {url}: {e}"))?;
        Ok(Self {
            client,
            idle: Mutex::new(Vec::new()),
            script: Script::new(FIRST_USE),
            prefix: "mcp-mrtr:".to_owned(),
            quota: DEFAULT_PRINCIPAL_QUOTA,
            grace: Self::DEFAULT_GRACE,
            timeout: Self::DEFAULT_TIMEOUT,
        })
    }

    /// The prefix of every key the store writes (to share a Redis with other uses, or keep
    /// deployments apart).
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// At most `quota` unexpired records for one principal (0: no quota).
    pub fn with_quota(mut self, quota: usize) -> Self {
        self.quota = quota;
        self
    }

    /// How long a record outlives its token.
    pub fn with_grace(mut self, grace: Duration) -> Self {
        self.grace = grace;
        self
    }

    /// How long to wait for Redis to connect, read or write.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Checks that Redis answers (`PING`) and, where it lets `CONFIG GET` be read, that it
    /// evicts nothing (`maxmemory-policy noeviction`: see [What Redis must
    /// keep](RedisReplayStore#what-redis-must-keep)).
    pub fn ping(&self) -> Result<(), ReplayStoreError> {
        self.with_connection(|connection| redis::cmd("PING").query::<String>(connection))?;
        let policy = self.with_connection(|connection| {
            (redis::cmd("CONFIG").arg("GET").arg("maxmemory-policy"))
                .query::<Vec<String>>(connection)
        });
        match policy
            .as_deref()
            .map(|pair| pair.get(1).map(String::as_str))
        {
            Ok(Some(policy)) if policy != "noeviction" => Err(format!(
                "the replay store (Redis) may evict spent states early: maxmemory-policy is \
                 {policy}, single use needs noeviction"
            )
            .into()),
            // `noeviction`, or a server that does not let `CONFIG` be read (managed Redis).
            _ => Ok(()),
        }
    }

    /// Runs `call` on a pooled connection. A pooled connection that fails other than by a
    /// timeout (Redis restarted, an idle connection closed) is dropped with the rest of the
    /// pool and the call tried on a new one; a timeout is not retried, since the script may
    /// have run: the error refuses the state.
    fn with_connection<T>(
        &self,
        call: impl Fn(&mut Connection) -> redis::RedisResult<T>,
    ) -> Result<T, ReplayStoreError> {
        loop {
            let pooled = (self.idle.lock())
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let retry = pooled.is_some();
            let mut connection = match pooled {
                Some(connection) => connection,
                None => self.connect()?,
            };
            match call(&mut connection) {
                Ok(value) => {
                    let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
                    if idle.len() < Self::POOL {
                        idle.push(connection);
                    }
                    return Ok(value);
                }
                // Every pooled connection may be as stale: start afresh.
                Err(error) if retry && !error.is_timeout() => {
                    (self.idle.lock())
                        .unwrap_or_else(PoisonError::into_inner)
                        .clear();
                }
                Err(error) => {
                    return Err(format!("the replay store (Redis) failed: {error}").into())
                }
            }
        }
    }

    fn connect(&self) -> Result<Connection, ReplayStoreError> {
        let connection = (self.client)
            .get_connection_with_timeout(self.timeout)
            .map_err(|e| format!("the replay store (Redis) does not answer: {e}"))?;
        connection.set_read_timeout(Some(self.timeout))?;
        connection.set_write_timeout(Some(self.timeout))?;
        Ok(connection)
    }
}

impl ReplayStore for RedisReplayStore {
    fn first_use(&self, spend: &Spend<'_>) -> Result<Recorded, ReplayStoreError> {
        let principal = hex(spend.principal.as_bytes());
        let id_key = format!(
            "{}{{{principal}}}:spent:{}",
            self.prefix,
            hex(spend.id.as_bytes())
        );
        let quota_key = format!("{}{{{principal}}}:quota", self.prefix);
        let keep = spend.remaining().saturating_add(self.grace);
        let keep_ms = u64::try_from(keep.as_millis()).unwrap_or(u64::MAX).max(1);
        let answer: i64 = self.with_connection(|connection| {
            let mut invocation = self.script.prepare_invoke();
            invocation
                .key(&id_key)
                .key(&quota_key)
                .arg(keep_ms)
                .arg(self.quota);
            invocation.invoke(connection)
        })?;
        match answer {
            1 => Ok(Recorded::First),
            0 => Ok(Recorded::AlreadyUsed),
            2 => Ok(Recorded::QuotaExceeded),
            other => Err(format!("the replay store (Redis) answered {other}").into()),
        }
    }
}

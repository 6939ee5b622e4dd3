//! A replay store shared by every instance of a deployment, on Redis or Valkey (feature
//! `redis`).

use std::collections::VecDeque;
use std::fmt;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use redis::{Client, Connection, IntoConnectionInfo, Script};

use super::replay::{hex, Recorded, ReplayStore, ReplayStoreError, Spend, TokenId};
use super::DEFAULT_PRINCIPAL_QUOTA;

/// One atomic step (a Lua script runs alone on the server). An id already recorded is refused,
/// unless its record is one this instance made in a call that timed out (`ARGV[5…]`: see
/// [`InDoubt`]); a principal at its quota is refused, and so is any spend while the store holds
/// its capacity of records; else the id is recorded (`SET … PX`, kept by Redis itself) and
/// counted in the principal's set and the store's.
///
/// The record's `SET` is the script's first write: Redis refuses a script's first write of a
/// kind that adds memory (`deny-oom`) while it is at `maxmemory`, and lets every later write of
/// that script through, so nothing is written before it (the sets are pruned after it). Times
/// are Redis's own (`TIME`), so the instances' clocks do not matter here.
const FIRST_USE: &str = r"
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local keep = tonumber(ARGV[1])
local quota = tonumber(ARGV[2])
local capacity = tonumber(ARGV[3])
local held = redis.call('GET', KEYS[1])
if held then
  for i = 5, #ARGV do
    if held == ARGV[i] then
      redis.call('SET', KEYS[1], ARGV[4], 'XX', 'KEEPTTL')
      return 1
    end
  end
  return 0
end
if quota > 0 and redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= quota then return 2 end
if capacity > 0 and redis.call('ZCOUNT', KEYS[3], '(' .. now, '+inf') >= capacity then return 3 end
redis.call('SET', KEYS[1], ARGV[4], 'PX', keep)
local ends = now + keep
for k = 2, 3 do
  redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
  redis.call('ZADD', KEYS[k], ends, KEYS[1])
  if redis.call('PTTL', KEYS[k]) < keep then redis.call('PEXPIRE', KEYS[k], keep) end
end
return 1
";

/// A [`ReplayStore`] on Redis or Valkey: single use holds across every instance that uses the
/// same server (and key prefix). Each spend is one atomic script (no check-then-set race
/// between instances), each record expires by Redis's own clock after the token's remaining
/// time plus a grace period, each principal holds at most its quota of records and the store
/// at most its capacity ([`RedisReplayStore::DEFAULT_CAPACITY`]).
///
/// Calls block the calling thread for one round trip (a loopback or LAN call: tens to hundreds
/// of microseconds); connections are pooled. A spend waits at most the timeout
/// ([`RedisReplayStore::DEFAULT_TIMEOUT`]) in all, connecting included; when Redis does not
/// answer by then the state is refused (fail closed).
///
/// # Refusals
///
/// - At its capacity, or while Redis is at its `maxmemory` (Redis refuses the record's write,
///   and the store writes nothing before it), every new spend is refused with
///   [`Recorded::StoreFull`] until records expire: the store's memory is bounded by the
///   capacity (about 1.5 KB a record at most) and by `maxmemory`, whatever callers do.
/// - A spend that timed out may still run on Redis later (its command was sent): the honest
///   retry of that state on the same instance is then accepted once, not refused as spent
///   (the instance remembers the attempts it is in doubt about). On another instance it is
///   refused as spent.
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
    /// How many replies connecting reads (`AUTH`/`HELLO`, `SELECT`).
    setup_replies: u32,
    /// The server's address, without credentials: what errors and `Debug` show.
    server: String,
    idle: Mutex<Vec<Connection>>,
    script: Script,
    prefix: String,
    quota: usize,
    capacity: usize,
    grace: Duration,
    timeout: Duration,
    in_doubt: Mutex<InDoubt>,
}

impl fmt::Debug for RedisReplayStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedisReplayStore")
            .field("server", &self.server)
            .field("prefix", &self.prefix)
            .field("quota", &self.quota)
            .field("capacity", &self.capacity)
            .field("grace", &self.grace)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// The spends of this instance that timed out after their script was sent: each may have been
/// recorded by Redis after all, under the attempt's random mark. The next spend of that token
/// here presents the marks, and the script accepts it once if the record holds one of them.
/// Bounded: the oldest are forgotten first (their retries are then refused as spent).
#[derive(Debug, Default)]
struct InDoubt(VecDeque<(TokenId, [u8; 16])>);

impl InDoubt {
    /// How many attempts are remembered.
    const LEN: usize = 4_096;

    fn remember(&mut self, id: TokenId, mark: [u8; 16]) {
        if self.0.len() == Self::LEN {
            self.0.pop_front();
        }
        self.0.push_back((id, mark));
    }

    /// The marks of `id`'s attempts in doubt, forgotten here: one spend presents them.
    fn take(&mut self, id: &TokenId) -> Vec<[u8; 16]> {
        let mut marks = Vec::new();
        self.0.retain(|(held, mark)| {
            let of_id = held == id;
            if of_id {
                marks.push(*mark);
            }
            !of_id
        });
        marks
    }
}

/// `url` as it may be shown: without the password (`redis://user:***@host/`).
pub fn redacted_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => {
            let user = rest[..at].split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***{}", &rest[at..])
        }
        None => url.to_owned(),
    }
}

impl RedisReplayStore {
    /// How long a record outlives its token by default: a margin for the clocks of the
    /// instance that sealed the token and of Redis.
    pub const DEFAULT_GRACE: Duration = Duration::from_secs(300);
    /// How long a spend waits for Redis by default, connecting included.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(2);
    /// How many unexpired records the store holds by default: 250 principals at their quota.
    /// A record takes about 1.5 KB of Redis's memory when each is another principal's (measured
    /// on Redis 7.0), so about 400 MB at most.
    pub const DEFAULT_CAPACITY: usize = 250_000;
    /// The idle connections kept for reuse.
    const POOL: usize = 32;

    /// The store at `url` (`redis://[USER:PASSWORD@]HOST:PORT/DB`, `rediss://…` is not built
    /// in), with the key prefix `mcp-mrtr`, [`DEFAULT_PRINCIPAL_QUOTA`],
    /// [`Self::DEFAULT_CAPACITY`], [`Self::DEFAULT_GRACE`] and [`Self::DEFAULT_TIMEOUT`].
    /// Connects lazily: see [`RedisReplayStore::ping`]. Errors never show the password.
    pub fn open(url: &str) -> Result<Self, ReplayStoreError> {
        let server = redacted_url(url);
        let refused = |e: redis::RedisError| format!("replay store {server}: {e}");
        let info = url.into_connection_info().map_err(refused)?;
        // No `CLIENT SETINFO` on connecting: each reply read while connecting waits up to the
        // timeout given, so the fewer the better (see `connect`).
        let settings = info.redis_settings().clone().set_skip_set_lib_name();
        let setup_replies =
            u32::from(settings.protocol().supports_resp3() || settings.password().is_some())
                + u32::from(settings.db() != 0);
        let client = Client::open(info.set_redis_settings(settings)).map_err(refused)?;
        Ok(Self {
            client,
            setup_replies,
            server,
            idle: Mutex::new(Vec::new()),
            script: Script::new(FIRST_USE),
            prefix: "mcp-mrtr".to_owned(),
            quota: DEFAULT_PRINCIPAL_QUOTA,
            capacity: Self::DEFAULT_CAPACITY,
            grace: Self::DEFAULT_GRACE,
            timeout: Self::DEFAULT_TIMEOUT,
            in_doubt: Mutex::default(),
        })
    }

    /// The prefix of every key the store writes (to share a Redis with other uses, or keep
    /// deployments apart): keys are `{PREFIX}:…`, the prefix being their hash tag, so that all
    /// of a store's keys are in one slot of a cluster (the capacity is counted in one key). It
    /// should hold no `{` or `}`.
    pub fn with_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.prefix = prefix.into();
        self
    }

    /// At most `capacity` unexpired records in the whole store (0: bounded by Redis's
    /// `maxmemory` alone).
    pub fn with_capacity(mut self, capacity: usize) -> Self {
        self.capacity = capacity;
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

    /// How long a spend (or [`RedisReplayStore::ping`]) waits for Redis in all: connecting,
    /// writing and reading.
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

    /// Runs `call` on a pooled connection, within the timeout in all. A pooled connection that
    /// fails other than by a timeout (Redis restarted, an idle connection closed) is dropped
    /// with the rest of the pool and the call tried on a new one. A timeout is not retried:
    /// `Err(Sent)` says the command may have run.
    fn with_connection<T>(
        &self,
        call: impl Fn(&mut Connection) -> redis::RedisResult<T>,
    ) -> Result<T, Failed> {
        let deadline = Instant::now() + self.timeout;
        let remaining = || {
            (deadline.checked_duration_since(Instant::now()))
                .filter(|left| !left.is_zero())
                .ok_or_else(|| Failed::Unsent(self.unavailable("did not answer in time")))
        };
        loop {
            let pooled = (self.idle.lock())
                .unwrap_or_else(PoisonError::into_inner)
                .pop();
            let retry = pooled.is_some();
            let mut connection = match pooled {
                Some(connection) => connection,
                None => self.connect(remaining()?)?,
            };
            let left = Some(remaining()?);
            (connection.set_read_timeout(left))
                .and_then(|()| connection.set_write_timeout(left))
                .map_err(|e| Failed::Unsent(self.unavailable(e)))?;
            match call(&mut connection) {
                Ok(value) => {
                    let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
                    if idle.len() < Self::POOL {
                        idle.push(connection);
                    }
                    return Ok(value);
                }
                Err(error) if error.code() == Some("OOM") => return Err(Failed::OutOfMemory),
                // Every pooled connection may be as stale: start afresh.
                Err(error) if retry && !error.is_timeout() => {
                    (self.idle.lock())
                        .unwrap_or_else(PoisonError::into_inner)
                        .clear();
                }
                Err(error) if error.is_timeout() => {
                    return Err(Failed::Sent(self.unavailable(error)))
                }
                Err(error) => return Err(Failed::Unsent(self.unavailable(error))),
            }
        }
    }

    /// A new connection within `left`. redis-rs gives its timeout to the TCP connection and
    /// again to each reply it reads while setting the connection up: `left` is shared.
    fn connect(&self, left: Duration) -> Result<Connection, Failed> {
        (self.client)
            .get_connection_with_timeout(left / (1 + self.setup_replies))
            .map_err(|e| Failed::Unsent(self.unavailable(e)))
    }

    fn unavailable(&self, error: impl fmt::Display) -> ReplayStoreError {
        format!(
            "the replay store (Redis at {}) failed: {error}",
            self.server
        )
        .into()
    }
}

/// Why a call to Redis failed.
enum Failed {
    /// Redis is at its `maxmemory`: it refused a write.
    OutOfMemory,
    /// The command timed out after it was sent: it may run on Redis later.
    Sent(ReplayStoreError),
    /// The command did not reach Redis, or Redis answered with an error.
    Unsent(ReplayStoreError),
}

impl From<Failed> for ReplayStoreError {
    fn from(failed: Failed) -> Self {
        match failed {
            Failed::OutOfMemory => "the replay store (Redis) is at its maxmemory".into(),
            Failed::Sent(error) | Failed::Unsent(error) => error,
        }
    }
}

impl ReplayStore for RedisReplayStore {
    fn first_use(&self, spend: &Spend<'_>) -> Result<Recorded, ReplayStoreError> {
        let tag = &self.prefix;
        let id_key = format!("{{{tag}}}:spent:{}", hex(spend.id.as_bytes()));
        let quota_key = format!("{{{tag}}}:quota:{}", hex(spend.principal.as_bytes()));
        let records_key = format!("{{{tag}}}:records");
        let keep = spend.remaining().saturating_add(self.grace);
        let keep_ms = u64::try_from(keep.as_millis()).unwrap_or(u64::MAX).max(1);
        let mut mark = [0u8; 16];
        getrandom::fill(&mut mark).map_err(|e| format!("no randomness for a spend: {e}"))?;
        let in_doubt = (self.in_doubt.lock())
            .unwrap_or_else(PoisonError::into_inner)
            .take(spend.id);
        let invoke = |connection: &mut Connection, with_body: bool| {
            let mut command = redis::cmd(if with_body { "EVAL" } else { "EVALSHA" });
            command.arg(if with_body {
                FIRST_USE
            } else {
                self.script.get_hash()
            });
            (command
                .arg(3)
                .arg(&id_key)
                .arg(&quota_key)
                .arg(&records_key))
            .arg(keep_ms)
            .arg(self.quota)
            .arg(self.capacity)
            .arg(&mark[..]);
            for earlier in &in_doubt {
                command.arg(&earlier[..]);
            }
            command.query::<i64>(connection)
        };
        // EVALSHA, and the script's text when Redis does not know it yet (a restart): both
        // within the one timeout.
        let answer = self.with_connection(|connection| match invoke(connection, false) {
            Err(error) if error.code() == Some("NOSCRIPT") => invoke(connection, true),
            answered => answered,
        });
        let failed = match answer {
            Ok(answer) => return recorded(answer),
            Err(failed) => failed,
        };
        // The attempts presented are still in doubt, and so is this one if it was sent.
        let mut doubts = self.in_doubt.lock().unwrap_or_else(PoisonError::into_inner);
        if let Failed::Sent(_) = failed {
            doubts.remember(*spend.id, mark);
        }
        for earlier in in_doubt {
            doubts.remember(*spend.id, earlier);
        }
        match failed {
            Failed::OutOfMemory => Ok(Recorded::StoreFull),
            failed => Err(failed.into()),
        }
    }
}

/// What the script's answer means.
fn recorded(answer: i64) -> Result<Recorded, ReplayStoreError> {
    match answer {
        1 => Ok(Recorded::First),
        0 => Ok(Recorded::AlreadyUsed),
        2 => Ok(Recorded::QuotaExceeded),
        3 => Ok(Recorded::StoreFull),
        other => Err(format!("the replay store (Redis) answered {other}").into()),
    }
}

#[cfg(test)]
mod tests {
    use super::redacted_url;

    #[test]
    fn a_url_is_shown_without_its_password() {
        for (url, shown) in [
            (
                "redis://:hunter2@127.0.0.1:6379/0",
                "redis://:***@127.0.0.1:6379/0",
            ),
            (
                "redis://app:s3cr@t@redis.internal/",
                "redis://app:***@redis.internal/",
            ),
            ("redis://127.0.0.1:6379/", "redis://127.0.0.1:6379/"),
            ("rediss://u:p@h?x=@y", "rediss://u:***@h?x=@y"),
            ("not a url", "not a url"),
        ] {
            assert_eq!(redacted_url(url), shown, "{url}");
        }
    }
}

//! Sealed `requestState` (feature `seal`): encrypted, authenticated, expiring tokens bound to
//! the principal, the method and the parameters of the request they belong to.
//!
//! The spec treats `requestState` as attacker-controlled input: a server whose state matters
//! MUST protect its integrity and reject state that fails verification, and SHOULD bind it to
//! the authenticated principal, a short expiry, and the originating request (its method and a
//! digest of its salient parameters). [`StateSealer::seal`] makes such a token from any bytes
//! and a [`SealContext`]; [`StateSealer::open`] gives the bytes back only when the token is
//! intact, sealed by a key the server still accepts, not expired, and presented by the same
//! principal on the same method with the same parameters. Each failure is its own
//! [`OpenError`] (see [`OpenError::kind`]).
//!
//! # Token format
//!
//! ```text
//! token     = base64url without padding ( header | nonce | ciphertext | tag )
//! header    = version (1 byte, 2) | key id (4 bytes, big-endian)
//! nonce     = 24 random bytes
//! plaintext = expiry (8 bytes, big-endian milliseconds since the Unix epoch)
//!           | SHA-256(principal) | SHA-256(method) | params digest (32 bytes each)
//!           | payload
//! params digest = SHA-256("mcp-schema/mrtr/params/v3" 0x00 | canonical text of the params
//!                 without _meta, inputResponses, requestState)   (see `ParamsDigest`)
//! AEAD      = XChaCha20-Poly1305 with the key of `key id`,
//!             associated data "mcp-schema/mrtr/request-state/v2" | header
//!             | audience length (4 bytes, big-endian) | audience
//! ```
//!
//! The overhead is 149 bytes before base64 (about 200 characters). XChaCha20's 192-bit nonce
//! is large enough to be drawn at random for every token with no risk of reuse.
//!
//! # Why the context is inside the plaintext, not in the associated data
//!
//! The associated data binds the header and the audience: a token cannot be moved to another
//! key id, format version, or server sharing the key under another audience label
//! ([`StateSealer::with_audience`]). The context (principal, method, params digest) and the expiry could be bound the
//! same way, by putting the expected values in the associated data when opening; but then any
//! mismatch is a failed tag, indistinguishable from a forgery, and a server could not tell an
//! honest client whose state merely expired (ask again) from an attacker replaying another
//! user's token (refuse, log). So they travel inside the plaintext instead, which the tag
//! authenticates just as strongly: no byte of them can change without [`OpenError::Tampered`].
//! Once the tag has verified, `open` compares them with the expected context and reports the
//! first difference in the order expiry, principal, method, params. There is no way to get the
//! payload without these checks: the payload is only ever returned by `open`.
//!
//! The principal and the method are stored as SHA-256 hashes (domain-separated), which keeps
//! the layout fixed-size and the principal out of the token even if the encryption layer were
//! ever removed; they are compared with [`subtle`]'s constant-time equality, all three before
//! any is reported, so the time taken does not depend on where two hashes first differ. The
//! tag itself is checked in constant time by the AEAD. What is not secret is checked plainly:
//! the format, the key id, the expiry.
//!
//! The error kinds are for the server (logs, metrics, re-asking on expiry). The client should
//! get one generic answer for all of them, a -32602 "invalid requestState" error (or a fresh
//! `InputRequiredResult`), so that it learns nothing about which check failed.
//!
//! # Keys and rotation
//!
//! A [`StateSealer`] seals with its active [`SealingKey`] and opens with the active key or any
//! previous key still listed, found by the key id in the token. To rotate: deploy the new key
//! as active with the old one as previous ([`StateSealer::with_previous`]), and remove the old
//! one once every token it sealed has expired (the longest TTL). A token whose key was removed
//! fails with [`OpenError::UnknownKey`], or [`OpenError::RetiredKey`] if the sealer lists the
//! id as retired ([`StateSealer::with_retired`]). Key ids are not secret; use a new id for each
//! new key.
//!
//! # Limits
//!
//! A token is valid for at most [`MAX_TTL`] (a day): `seal` refuses a longer TTL rather than
//! write an expiry that never comes. `open` refuses a token longer than
//! [`DEFAULT_MAX_TOKEN_LEN`] (or [`StateSealer::with_max_token_len`]) before decoding it, and
//! `seal` refuses to issue one ([`SealError::TokenTooLong`]), so that every token a sealer
//! issues, it opens.
//!
//! A params digest ([`ParamsDigest`]) is refused for params whose canonical text is longer than
//! [`ParamsDigest::MAX_LEN`] or that nest deeper than [`ParamsDigest::MAX_DEPTH`], as soon as
//! that is seen and before anything of their size is built; the `requestState` and
//! `inputResponses` of a request are never part of it (never even encoded, for typed params),
//! so [`SealContext::for_request`] costs the same whatever the length of the state a client
//! sends, and `open` then refuses an overlong state before decoding it.
//!
//! # One-time use
//!
//! The checks above bound where and how long a token is valid, not how often it is used. A
//! server for which a state must be consumed at most once opens it with
//! [`StateSealer::open_once`], which records the token's id in a [`ReplayStore`]: the
//! in-process [`MemoryReplayStore`] (single use on one instance), or one shared by every
//! instance, such as `RedisReplayStore` (feature `redis`). [`serve`](crate::serve::serve) and
//! the rmcp adapter's `Eras` do this by default; see the [`replay`] module docs for what each
//! store guarantees.
//!
//! ```
//! use std::time::{Duration, SystemTime};
//!
//! use mcp_mrtr::seal::{
//!     OpenErrorKind, ParamsDigest, SealContext, SealingKey, StateSealer,
//! };
//!
//! let old = SealingKey::new(1, [1; 32]);
//! let new = SealingKey::new(2, [2; 32]);
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
//! let params = serde_json::json!({"name": "deploy", "arguments": {"env": "prod"}});
//! let context = SealContext {
//!     principal: "user-42",
//!     method: "tools/call",
//!     params_digest: ParamsDigest::of_value(&params),
//!     ttl: Duration::from_secs(300),
//! };
//! let token = StateSealer::new(old.clone()).seal(b"step 2", &context, now)?;
//!
//! // After the rotation, the old key still opens what it sealed.
//! let rotated = StateSealer::new(new.clone()).with_previous(old);
//! assert_eq!(rotated.open(&token, &context, now)?, b"step 2");
//! // Another principal, or a later time, is refused.
//! let other = SealContext { principal: "user-7", ..context };
//! assert_eq!(rotated.open(&token, &other, now).unwrap_err().kind(), OpenErrorKind::WrongPrincipal);
//! let late = now + Duration::from_secs(301);
//! assert_eq!(rotated.open(&token, &context, late).unwrap_err().kind(), OpenErrorKind::Expired);
//! // Once the old key is removed, its tokens are refused.
//! let retired = StateSealer::new(new).with_retired(1);
//! assert_eq!(retired.open(&token, &context, now).unwrap_err().kind(), OpenErrorKind::RetiredKey);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod canonical;
#[cfg(feature = "redis")]
mod redis;
pub mod replay;

#[cfg(feature = "redis")]
pub use self::redis::{redacted_url, RedisReplayStore};
pub use replay::{
    MemoryReplayStore, PrincipalId, Recorded, ReplayStore, ReplayStoreError, Spend, TokenId,
    DEFAULT_PRINCIPAL_QUOTA,
};

use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use subtle::ConstantTimeEq;

use super::RetryParams;

/// The format version, the first byte of every token (2: the audience joined the associated
/// data).
const VERSION: u8 = 2;
const HEADER_LEN: usize = 1 + 4;
const NONCE_LEN: usize = 24;
const TAG_LEN: usize = 16;
const HASH_LEN: usize = 32;
const BINDING_LEN: usize = 8 + 3 * HASH_LEN;
/// The shortest token: an empty payload.
const MIN_LEN: usize = HEADER_LEN + NONCE_LEN + BINDING_LEN + TAG_LEN;
const AAD_DOMAIN: &[u8] = b"mcp-schema/mrtr/request-state/v2";
/// The longest time a token may be valid: a state is for the minutes a user takes to answer,
/// and an expiry must never be far enough out to wrap a clock.
pub const MAX_TTL: Duration = Duration::from_secs(24 * 60 * 60);
/// The longest token [`StateSealer::open`] reads by default (see
/// [`StateSealer::with_max_token_len`]): longer input is refused before it is decoded.
pub const DEFAULT_MAX_TOKEN_LEN: usize = 64 * 1024;
const PRINCIPAL_DOMAIN: &[u8] = b"mcp-schema/mrtr/principal/v1\0";
const METHOD_DOMAIN: &[u8] = b"mcp-schema/mrtr/method/v1\0";
/// v3: numbers keep their kind (`5` is not `5.0`) and the sign of zero.
const PARAMS_DOMAIN: &[u8] = b"mcp-schema/mrtr/params/v3\0";
/// [`ParamsDigest::of_value`] of a `Value` beyond the limits of a canonical form.
const PARAMS_VALUE_DOMAIN: &[u8] = b"mcp-schema/mrtr/params-value/v1\0";

/// A 256-bit key that seals and opens tokens, with the id written into every token it seals.
///
/// Its `Debug` output shows the id only; the key bytes are wiped when it is dropped.
#[derive(Clone)]
pub struct SealingKey {
    id: u32,
    cipher: XChaCha20Poly1305,
}

impl SealingKey {
    /// The key `secret` under the id `id`. The secret must be 32 uniformly random bytes
    /// ([`SealingKey::random_secret`]), kept like any other server secret and shared by every
    /// server instance that opens the tokens.
    pub fn new(id: u32, secret: [u8; 32]) -> Self {
        let cipher = XChaCha20Poly1305::new(&secret.into());
        Self { id, cipher }
    }

    /// 32 random bytes from the operating system, for a new key.
    pub fn random_secret() -> Result<[u8; 32], SealError> {
        let mut secret = [0u8; 32];
        getrandom::fill(&mut secret).map_err(SealError::Random)?;
        Ok(secret)
    }

    /// The key id.
    pub fn id(&self) -> u32 {
        self.id
    }
}

impl fmt::Debug for SealingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealingKey")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// What a token is bound to: who presented the request, which method, which parameters, and
/// (when sealing) for how long it is valid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SealContext<'a> {
    /// The authenticated principal: the user or client identity the transport authenticated
    /// (the subject of an OAuth token, …). Use a fixed value only where there is none, as on
    /// a local stdio server.
    pub principal: &'a str,
    /// The method of the request the state belongs to (`"tools/call"`).
    pub method: &'a str,
    /// The digest of the request's salient parameters ([`ParamsDigest::of`]).
    pub params_digest: ParamsDigest,
    /// How long a sealed token is valid. Only [`StateSealer::seal`] reads it; `open` checks the
    /// expiry the token carries. Keep it short: minutes, the time a user takes to answer.
    pub ttl: Duration,
}

impl<'a> SealContext<'a> {
    /// The context of a retryable request: its method, and the digest of its params (see
    /// [`ParamsDigest::of`]). The same call on the first attempt and on the retry gives equal
    /// contexts, since the digest leaves out what the retry adds.
    pub fn for_request<P: RetryParams + serde::Serialize>(
        principal: &'a str,
        params: &P,
        ttl: Duration,
    ) -> Result<Self, DigestError> {
        Ok(Self {
            principal,
            method: P::METHOD,
            params_digest: ParamsDigest::of(params)?,
            ttl,
        })
    }
}

/// A SHA-256 digest of a request's salient parameters: its `params` without `_meta`,
/// `inputResponses` and `requestState` (which change between the first attempt and the retry
/// without changing what is asked), in a canonical form of their JSON text: members sorted, no
/// whitespace, strings by their code units (a lone surrogate escape is digested, not refused),
/// and numbers by what a reader can tell apart: an integer literal by its exact digits and sign
/// (`100000000000000000001` is not `100000000000000000000`, `-0` is not `0`), any other number
/// by its exact decimal value, the sign of zero included (`1.50` is `15e-1`, `-0.0` is not
/// `0.0`), and never an integer literal the same as a number with a fraction or an exponent
/// (`5` is not `5.0`, `100000000000000000000` is not `1e20`: serde_json reads a `u64` from the
/// one and not from the other). A client re-encoding the same parameters differently (member
/// order, blanks, escapes, `1.5` as `15E-1`) still matches; parameters a tool could read
/// differently (decoded with serde_json) never do, and an object with a duplicate member, which readers resolve
/// differently, has no digest ([`DigestError`]). The exact rules are in the docs of the
/// `canonical` module (`mrtr/src/seal/canonical.rs`).
///
/// The digest is taken from the text the tool reads: a typed params value is encoded with
/// serde_json, which writes a [`RawObject`](mcp_typed::RawObject) (a tool call's `arguments`)
/// as the text it was received as. Through a `serde_json::Value`
/// ([`ParamsDigest::of_value`]) the params digest the same as their text wherever the `Value`
/// holds that text exactly: integers within `u64`/`i64` (not `-0`), and fractions as an
/// encoder writes an `f64` (the shortest form that reads back as it).
///
/// Computing it ([`ParamsDigest::of`], [`ParamsDigest::of_json`]) costs at most a small multiple
/// of [`ParamsDigest::MAX_LEN`] in memory and time, whatever the input: longer or deeper params are refused as soon as they are seen to
/// be, and the members left out are never copied (typed params never even encode them).
///
/// Compared in constant time.
#[derive(Clone, Copy)]
pub struct ParamsDigest([u8; HASH_LEN]);

pub use canonical::CanonicalError;

/// Why params have no digest.
#[derive(Debug)]
pub enum DigestError {
    /// The params could not be encoded as JSON.
    Encode(serde_json::Error),
    /// The params' JSON has no canonical form: a duplicate member name, a number whose exponent
    /// is beyond 64 bits, (for [`ParamsDigest::of_json`]) text that is not JSON, or params
    /// beyond the limits of a digest, [`ParamsDigest::MAX_LEN`] and [`ParamsDigest::MAX_DEPTH`]
    /// ([`CanonicalError::TooLarge`], [`CanonicalError::TooDeep`]).
    Canonical(CanonicalError),
}

impl fmt::Display for DigestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Encode(error) => write!(f, "the params do not encode as JSON: {error}"),
            Self::Canonical(error) => write!(f, "the params cannot be digested: {error}"),
        }
    }
}

impl std::error::Error for DigestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Encode(error) => Some(error),
            Self::Canonical(error) => Some(error),
        }
    }
}

impl ParamsDigest {
    /// The members of `params` left out of the digest.
    pub const EXCLUDED: [&'static str; 3] = ["_meta", "inputResponses", "requestState"];

    /// The longest canonical text of params that has a digest, in bytes (1 MiB): longer params
    /// are refused with [`CanonicalError::TooLarge`] as soon as they are seen to be, before
    /// the rest is read. The members left out ([`ParamsDigest::EXCLUDED`]) do not count.
    pub const MAX_LEN: usize = 1024 * 1024;

    /// How deep arrays and objects may nest in params that have a digest: deeper params are
    /// refused with [`CanonicalError::TooDeep`].
    pub const MAX_DEPTH: usize = canonical::MAX_DEPTH;

    /// The longest JSON text [`ParamsDigest::of`] encodes typed params to, the members left out
    /// not written (4 MiB): beyond it they are refused ([`CanonicalError::TooLarge`]) before
    /// their canonical form is read. It leaves room for what the canonical form drops (blanks
    /// in a tool's `arguments`, digits such as `1.000`): params within [`ParamsDigest::MAX_LEN`]
    /// are refused here only if their text is four times as long as their canonical form.
    pub const MAX_ENCODED_LEN: usize = 4 * Self::MAX_LEN;

    /// The digest of typed params (`CallToolRequestParams`, …), from the JSON text serde_json
    /// encodes them to, in which a tool call's `arguments` are the text received. The members
    /// left out ([`ParamsDigest::EXCLUDED`]) are never encoded, whatever their length; the rest
    /// is refused past [`ParamsDigest::MAX_ENCODED_LEN`] as soon as it is.
    pub fn of<P: serde::Serialize + ?Sized>(params: &P) -> Result<Self, DigestError> {
        let text = canonical::salient_json(params, &Self::EXCLUDED, Self::MAX_ENCODED_LEN)?;
        Self::of_bytes(&text)
    }

    /// The digest of params given as JSON text (the `params` of a raw message). Anything but
    /// an object is digested whole. The members left out ([`ParamsDigest::EXCLUDED`]) are
    /// skipped, checked as JSON but never copied.
    pub fn of_json(text: &str) -> Result<Self, DigestError> {
        Self::of_bytes(text.as_bytes())
    }

    fn of_bytes(text: &[u8]) -> Result<Self, DigestError> {
        let canonical = canonical::canonical(text, &Self::EXCLUDED, Self::MAX_LEN)
            .map_err(DigestError::Canonical)?;
        Ok(Self(hash(PARAMS_DOMAIN, &canonical)))
    }

    /// The digest of params as a `serde_json::Value`: [`ParamsDigest::of`] of the value.
    /// Anything but an object is digested whole.
    ///
    /// A `Value` holds its numbers as parsed: an integer beyond `u64`/`i64` and `-0` became
    /// an `f64` (`100000000000000000000` is `1e20`), and a fraction was rounded. The digest of
    /// a `Value` tells apart what the `Value` does (`5` and `5.0`, `0.0` and `-0.0`), and is the
    /// digest of any text it holds exactly (see [`ParamsDigest`]); where a tool reads the text
    /// received, digest that text ([`ParamsDigest::of_json`], or typed params that keep it).
    ///
    /// A `Value` beyond [`ParamsDigest::MAX_LEN`] or [`ParamsDigest::MAX_DEPTH`] (which the
    /// caller already holds in memory) gets the digest of its plain serde_json text under
    /// another domain: it matches only the same `Value`, never the digest of other params.
    pub fn of_value(params: &Value) -> Self {
        // The only failures of a `Value`'s canonical form are its limits: a finite `f64` has a
        // small exponent, and its object keys are unique.
        Self::of(params).unwrap_or_else(|_| {
            let text =
                canonical::salient_json(params, &Self::EXCLUDED, usize::MAX).unwrap_or_default();
            Self(hash(PARAMS_VALUE_DOMAIN, &text))
        })
    }

    /// A digest computed elsewhere.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// The digest bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl PartialEq for ParamsDigest {
    fn eq(&self, other: &Self) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl Eq for ParamsDigest {}

impl fmt::Debug for ParamsDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ParamsDigest(")?;
        for byte in self.0 {
            write!(f, "{byte:02x}")?;
        }
        f.write_str(")")
    }
}

/// Seals `requestState` payloads into tokens and opens them, with one active key and any
/// number of previous keys (see the [module docs](self) for the format and the checks).
///
/// Cheap to build: a server may build one per request from its configuration, which is all
/// the state the flow needs.
#[derive(Debug, Clone)]
pub struct StateSealer {
    active: SealingKey,
    previous: Vec<SealingKey>,
    retired: Vec<u32>,
    audience: Vec<u8>,
    max_token_len: usize,
}

impl StateSealer {
    /// A sealer that seals and opens with `active`.
    pub fn new(active: SealingKey) -> Self {
        Self {
            active,
            previous: Vec::new(),
            retired: Vec::new(),
            audience: Vec::new(),
            max_token_len: DEFAULT_MAX_TOKEN_LEN,
        }
    }

    /// Binds every token this sealer seals or opens to `audience`: a label naming the server,
    /// tenant or purpose the tokens are for (`"billing-server"`, `"tenant-17/tools"`). A token
    /// sealed for one audience fails authentication ([`OpenError::Tampered`]) under any other,
    /// so one key can serve several servers or tenants without their tokens crossing. The label
    /// is authenticated, not secret. The default is the empty label.
    pub fn with_audience(mut self, audience: impl Into<String>) -> Self {
        self.audience = audience.into().into_bytes();
        self
    }

    /// Refuses tokens longer than `len` characters before decoding them
    /// ([`OpenError::Malformed`]); [`DEFAULT_MAX_TOKEN_LEN`] by default. A token is about
    /// 4/3 of its payload plus 200 characters.
    pub fn with_max_token_len(mut self, len: usize) -> Self {
        self.max_token_len = len;
        self
    }

    /// Also opens (never seals) tokens sealed with `key`: the key that was active before a
    /// rotation. Keys are looked up by id, the active key first, then the previous keys in the
    /// order they were added.
    pub fn with_previous(mut self, key: SealingKey) -> Self {
        self.retired.retain(|&id| id != key.id);
        self.previous.push(key);
        self
    }

    /// Lists `key_id` as retired: a token sealed under it is refused with
    /// [`OpenError::RetiredKey`] rather than [`OpenError::UnknownKey`], and a previous key with
    /// that id is removed. The active key cannot be retired: its id is ignored here.
    pub fn with_retired(mut self, key_id: u32) -> Self {
        self.retire(key_id);
        self
    }

    /// Makes `key` the active key; the active key becomes a previous key.
    pub fn rotate(&mut self, key: SealingKey) {
        self.retired.retain(|&id| id != key.id);
        let old = std::mem::replace(&mut self.active, key);
        self.previous.insert(0, old);
    }

    /// Stops accepting the previous key `key_id` and lists it as retired (see
    /// [`StateSealer::with_retired`]). Returns whether a previous key was removed.
    pub fn retire(&mut self, key_id: u32) -> bool {
        let before = self.previous.len();
        self.previous.retain(|key| key.id != key_id);
        if key_id != self.active.id && !self.retired.contains(&key_id) {
            self.retired.push(key_id);
        }
        self.previous.len() != before
    }

    /// The id of the key new tokens are sealed with.
    pub fn active_key_id(&self) -> u32 {
        self.active.id
    }

    /// Seals `payload` into a token bound to `context` and valid until `now + context.ttl`.
    ///
    /// `now` is passed in (use `SystemTime::now()`), so that tests are deterministic; a time
    /// before the Unix epoch counts as the epoch. Fails if `context.ttl` is longer than
    /// [`MAX_TTL`], if the token would be longer than this sealer opens
    /// ([`StateSealer::with_max_token_len`]: [`SealError::TokenTooLong`], checked before
    /// anything is encrypted), if the operating system gives no random nonce, or for a payload
    /// beyond what the AEAD can encrypt (256 GiB).
    pub fn seal(
        &self,
        payload: &[u8],
        context: &SealContext<'_>,
        now: SystemTime,
    ) -> Result<String, SealError> {
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce).map_err(SealError::Random)?;
        self.seal_with_nonce(payload, context, now, nonce)
    }

    fn seal_with_nonce(
        &self,
        payload: &[u8],
        context: &SealContext<'_>,
        now: SystemTime,
        nonce: [u8; NONCE_LEN],
    ) -> Result<String, SealError> {
        if context.ttl > MAX_TTL {
            return Err(SealError::TtlTooLong(context.ttl));
        }
        // Never issue a token that `open` refuses: it would fail the client's retry.
        let len = token_len(payload.len());
        if len > self.max_token_len {
            return Err(SealError::TokenTooLong {
                len,
                max: self.max_token_len,
            });
        }
        // At most a day after `now`, and `now` at most `u64::MAX` ms: no overflow, and an
        // expiry that `open` can always turn back into a time.
        let expires = millis(now).saturating_add(context.ttl.as_millis() as u64);
        let mut plaintext = Vec::with_capacity(BINDING_LEN + payload.len());
        plaintext.extend_from_slice(&expires.to_be_bytes());
        plaintext.extend_from_slice(&hash(PRINCIPAL_DOMAIN, context.principal.as_bytes()));
        plaintext.extend_from_slice(&hash(METHOD_DOMAIN, context.method.as_bytes()));
        plaintext.extend_from_slice(context.params_digest.as_bytes());
        plaintext.extend_from_slice(payload);

        let header = header(self.active.id);
        let aad = aad(&header, &self.audience);
        let nonce = XNonce::from(nonce);
        let sealed = self
            .active
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: &plaintext,
                    aad: &aad,
                },
            )
            .map_err(|_| SealError::TooLarge)?;
        let mut token = Vec::with_capacity(HEADER_LEN + NONCE_LEN + sealed.len());
        token.extend_from_slice(&header);
        token.extend_from_slice(&nonce);
        token.extend_from_slice(&sealed);
        Ok(URL_SAFE_NO_PAD.encode(token))
    }

    /// The payload of `token`, if it is intact, sealed by the active or a previous key, not
    /// expired at `now`, and bound to `expected` (principal, method and params digest;
    /// `expected.ttl` is not used). See [`OpenError`] for the order of the checks.
    pub fn open(
        &self,
        token: &str,
        expected: &SealContext<'_>,
        now: SystemTime,
    ) -> Result<Vec<u8>, OpenError> {
        self.open_token(token, expected, now)
            .map(|opened| opened.payload)
    }

    /// Like [`StateSealer::open`], and consumes the token: after every other check passed, the
    /// token's id is recorded in `store` until it expires, a token already recorded is refused
    /// with [`OpenError::Replayed`], one whose principal is at the store's quota with
    /// [`OpenError::QuotaExceeded`] and one the store has no room for with
    /// [`OpenError::StoreFull`] (neither recorded). A token that fails another check is not recorded,
    /// so the legitimate client can still use it.
    pub fn open_once(
        &self,
        token: &str,
        expected: &SealContext<'_>,
        now: SystemTime,
        store: &dyn ReplayStore,
    ) -> Result<Vec<u8>, OpenError> {
        let opened = self.open_token(token, expected, now)?;
        let principal =
            PrincipalId::from_bytes(hash(PRINCIPAL_DOMAIN, expected.principal.as_bytes()));
        let spend = Spend {
            id: &opened.id,
            principal: &principal,
            expires_at: opened.expires,
            now,
        };
        match store.first_use(&spend) {
            Ok(Recorded::First) => Ok(opened.payload),
            Ok(Recorded::AlreadyUsed) => Err(OpenError::Replayed),
            Ok(Recorded::QuotaExceeded) => Err(OpenError::QuotaExceeded),
            Ok(Recorded::StoreFull) => Err(OpenError::StoreFull),
            Err(error) => Err(OpenError::ReplayStore(error)),
        }
    }

    /// [`StateSealer::seal`] of the JSON text of `payload`.
    pub fn seal_json<T: serde::Serialize + ?Sized>(
        &self,
        payload: &T,
        context: &SealContext<'_>,
        now: SystemTime,
    ) -> Result<String, SealError> {
        let bytes = serde_json::to_vec(payload).map_err(SealError::Payload)?;
        self.seal(&bytes, context, now)
    }

    /// [`StateSealer::open`], then decodes the payload as JSON into `T`.
    pub fn open_json<T: serde::de::DeserializeOwned>(
        &self,
        token: &str,
        expected: &SealContext<'_>,
        now: SystemTime,
    ) -> Result<T, OpenError> {
        let bytes = self.open(token, expected, now)?;
        serde_json::from_slice(&bytes).map_err(OpenError::Payload)
    }

    fn open_token(
        &self,
        token: &str,
        expected: &SealContext<'_>,
        now: SystemTime,
    ) -> Result<Opened, OpenError> {
        if token.len() > self.max_token_len {
            return Err(OpenError::Malformed("too long"));
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(token)
            .map_err(|_| OpenError::Malformed("not base64url without padding"))?;
        if bytes.len() < MIN_LEN {
            return Err(OpenError::Malformed("too short"));
        }
        let (header, rest) = bytes.split_at(HEADER_LEN);
        if header[0] != VERSION {
            return Err(OpenError::Malformed("unknown format version"));
        }
        let key_id = u32::from_be_bytes([header[1], header[2], header[3], header[4]]);
        let key = self.key(key_id)?;
        let (nonce, sealed) = rest.split_at(NONCE_LEN);
        let mut id = [0u8; NONCE_LEN];
        id.copy_from_slice(nonce);
        let aad = aad(header, &self.audience);
        let plaintext = key
            .cipher
            .decrypt(
                &XNonce::from(id),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| OpenError::Tampered)?;

        // Authentic from here on: these bytes are what `seal` wrote.
        let (binding, payload) = plaintext.split_at(BINDING_LEN);
        let mut expires = [0u8; 8];
        expires.copy_from_slice(&binding[..8]);
        let expires = u64::from_be_bytes(expires);
        // A time the platform's clock cannot represent cannot be kept track of (a replay
        // store could not keep its record until then): refused as expired.
        let Some(expires_at) = UNIX_EPOCH.checked_add(Duration::from_millis(expires)) else {
            return Err(OpenError::Expired { expires_at: now });
        };
        if millis(now) >= expires {
            return Err(OpenError::Expired { expires_at });
        }
        let principal =
            binding[8..40].ct_eq(&hash(PRINCIPAL_DOMAIN, expected.principal.as_bytes()));
        let method = binding[40..72].ct_eq(&hash(METHOD_DOMAIN, expected.method.as_bytes()));
        let params = binding[72..104].ct_eq(expected.params_digest.as_bytes());
        if !bool::from(principal) {
            return Err(OpenError::WrongPrincipal);
        }
        if !bool::from(method) {
            return Err(OpenError::WrongMethod);
        }
        if !bool::from(params) {
            return Err(OpenError::WrongParams);
        }
        Ok(Opened {
            payload: payload.to_vec(),
            id: TokenId::new(id),
            expires: expires_at,
        })
    }

    fn key(&self, key_id: u32) -> Result<&SealingKey, OpenError> {
        if self.retired.contains(&key_id) {
            return Err(OpenError::RetiredKey { key_id });
        }
        std::iter::once(&self.active)
            .chain(&self.previous)
            .find(|key| key.id == key_id)
            .ok_or(OpenError::UnknownKey { key_id })
    }
}

struct Opened {
    payload: Vec<u8>,
    id: TokenId,
    expires: SystemTime,
}

/// The length of the token of a `payload_len`-byte payload: base64url without padding of the
/// header, nonce, binding, payload and tag (saturating, for a payload no token can hold).
fn token_len(payload_len: usize) -> usize {
    let bytes = payload_len.saturating_add(MIN_LEN);
    let tail = match bytes % 3 {
        0 => 0,
        1 => 2,
        _ => 3,
    };
    (bytes / 3).saturating_mul(4).saturating_add(tail)
}

fn header(key_id: u32) -> [u8; HEADER_LEN] {
    let id = key_id.to_be_bytes();
    [VERSION, id[0], id[1], id[2], id[3]]
}

/// The associated data: the domain, the header, and the audience with its length first (so
/// that no two (header, audience) pairs give the same bytes).
fn aad(header: &[u8], audience: &[u8]) -> Vec<u8> {
    let len = u32::try_from(audience.len())
        .unwrap_or(u32::MAX)
        .to_be_bytes();
    [AAD_DOMAIN, header, &len, audience].concat()
}

fn hash(domain: &[u8], data: &[u8]) -> [u8; HASH_LEN] {
    let mut hasher = Sha256::new();
    hasher.update(domain);
    hasher.update(data);
    hasher.finalize().into()
}

/// Milliseconds since the Unix epoch (0 before it, `u64::MAX` past year 584 million).
fn millis(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH).map_or(0, |since| {
        u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
    })
}

/// Why a state could not be sealed.
#[derive(Debug)]
pub enum SealError {
    /// The operating system gave no random bytes.
    Random(getrandom::Error),
    /// [`StateSealer::seal_json`]: the payload could not be written as JSON.
    Payload(serde_json::Error),
    /// The payload is larger than the AEAD can encrypt.
    TooLarge,
    /// The TTL is longer than [`MAX_TTL`].
    TtlTooLong(Duration),
    /// The token would be longer than the sealer opens
    /// ([`StateSealer::with_max_token_len`]): nothing was sealed.
    TokenTooLong {
        /// Its length, in characters.
        len: usize,
        /// The longest token the sealer opens.
        max: usize,
    },
}

impl fmt::Display for SealError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Random(error) => write!(f, "no random nonce: {error}"),
            Self::Payload(error) => write!(f, "the state payload is not JSON: {error}"),
            Self::TooLarge => f.write_str("the state payload is too large to seal"),
            Self::TtlTooLong(ttl) => write!(
                f,
                "a state cannot be valid for {} s: at most {} s",
                ttl.as_secs(),
                MAX_TTL.as_secs()
            ),
            Self::TokenTooLong { len, max } => write!(
                f,
                "the state would seal to a token of {len} characters: this sealer opens at most {max}"
            ),
        }
    }
}

impl std::error::Error for SealError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Random(error) => Some(error),
            Self::Payload(error) => Some(error),
            Self::TooLarge | Self::TtlTooLong(_) | Self::TokenTooLong { .. } => None,
        }
    }
}

/// Why a token was refused by [`StateSealer::open`]. The checks run in the order of the
/// variants: a token that fails several reports the first.
///
/// Tell the client none of this (see the [module docs](self)).
#[derive(Debug)]
pub enum OpenError {
    /// Not a token of this format: longer than the sealer reads, not base64url without
    /// padding, shorter than the smallest token, or an unknown format version.
    Malformed(&'static str),
    /// Sealed under a key id the sealer has never had (or no longer has).
    UnknownKey {
        /// The key id in the token.
        key_id: u32,
    },
    /// Sealed under a key id the sealer lists as retired.
    RetiredKey {
        /// The key id in the token.
        key_id: u32,
    },
    /// Authentication failed: a byte of the token was changed, it was sealed with another key
    /// under the same id, or for another audience ([`StateSealer::with_audience`]).
    Tampered,
    /// Authentic, but expired.
    Expired {
        /// When it expired.
        expires_at: SystemTime,
    },
    /// Authentic, but sealed for another principal.
    WrongPrincipal,
    /// Authentic, but sealed for another method.
    WrongMethod,
    /// Authentic, but sealed for a request with other parameters.
    WrongParams,
    /// [`StateSealer::open_once`]: the token was already used.
    Replayed,
    /// [`StateSealer::open_once`]: the principal holds as many spent tokens as the replay
    /// store's quota allows; the token was not accepted (nor spent).
    QuotaExceeded,
    /// [`StateSealer::open_once`]: the replay store holds as many records as its capacity
    /// allows (or is at its memory limit); the token was not accepted (nor spent).
    StoreFull,
    /// [`StateSealer::open_once`]: the replay store failed; the token was not accepted.
    ReplayStore(ReplayStoreError),
    /// [`StateSealer::open_json`]: the payload is not JSON of the expected type.
    Payload(serde_json::Error),
}

/// The kind of an [`OpenError`], without its data: to compare, count or log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpenErrorKind {
    /// [`OpenError::Malformed`].
    Malformed,
    /// [`OpenError::UnknownKey`].
    UnknownKey,
    /// [`OpenError::RetiredKey`].
    RetiredKey,
    /// [`OpenError::Tampered`].
    Tampered,
    /// [`OpenError::Expired`].
    Expired,
    /// [`OpenError::WrongPrincipal`].
    WrongPrincipal,
    /// [`OpenError::WrongMethod`].
    WrongMethod,
    /// [`OpenError::WrongParams`].
    WrongParams,
    /// [`OpenError::Replayed`].
    Replayed,
    /// [`OpenError::QuotaExceeded`].
    QuotaExceeded,
    /// [`OpenError::StoreFull`].
    StoreFull,
    /// [`OpenError::ReplayStore`].
    ReplayStore,
    /// [`OpenError::Payload`].
    Payload,
}

impl OpenError {
    /// The kind of error.
    pub fn kind(&self) -> OpenErrorKind {
        match self {
            Self::Malformed(_) => OpenErrorKind::Malformed,
            Self::UnknownKey { .. } => OpenErrorKind::UnknownKey,
            Self::RetiredKey { .. } => OpenErrorKind::RetiredKey,
            Self::Tampered => OpenErrorKind::Tampered,
            Self::Expired { .. } => OpenErrorKind::Expired,
            Self::WrongPrincipal => OpenErrorKind::WrongPrincipal,
            Self::WrongMethod => OpenErrorKind::WrongMethod,
            Self::WrongParams => OpenErrorKind::WrongParams,
            Self::Replayed => OpenErrorKind::Replayed,
            Self::QuotaExceeded => OpenErrorKind::QuotaExceeded,
            Self::StoreFull => OpenErrorKind::StoreFull,
            Self::ReplayStore(_) => OpenErrorKind::ReplayStore,
            Self::Payload(_) => OpenErrorKind::Payload,
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("requestState refused: ")?;
        match self {
            Self::Malformed(why) => write!(f, "malformed token ({why})"),
            Self::UnknownKey { key_id } => write!(f, "unknown key id {key_id}"),
            Self::RetiredKey { key_id } => write!(f, "key id {key_id} is retired"),
            Self::Tampered => f.write_str("authentication failed"),
            Self::Expired { expires_at } => match expires_at.duration_since(UNIX_EPOCH) {
                Ok(since) => write!(f, "expired at {} ms after the epoch", since.as_millis()),
                Err(_) => f.write_str("expired"),
            },
            Self::WrongPrincipal => f.write_str("sealed for another principal"),
            Self::WrongMethod => f.write_str("sealed for another method"),
            Self::WrongParams => f.write_str("sealed for a request with other parameters"),
            Self::Replayed => f.write_str("already used"),
            Self::QuotaExceeded => f.write_str("the principal's replay-store quota is used up"),
            Self::StoreFull => f.write_str("the replay store is full"),
            Self::ReplayStore(error) => write!(f, "the replay store failed: {error}"),
            Self::Payload(error) => write!(f, "the payload does not decode: {error}"),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::ReplayStore(error) => Some(&**error),
            Self::Payload(error) => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With a fixed nonce, a token is a pure function of its inputs: pin the layout.
    #[test]
    fn layout_is_pinned() {
        let sealer = StateSealer::new(SealingKey::new(0x0102_0304, [9; 32]));
        let context = SealContext {
            principal: "p",
            method: "tools/call",
            params_digest: ParamsDigest::from_bytes([5; 32]),
            ttl: Duration::from_millis(1_000),
        };
        let now = UNIX_EPOCH + Duration::from_millis(1_000);
        let token = sealer
            .seal_with_nonce(b"xyz", &context, now, [7; NONCE_LEN])
            .unwrap();
        let bytes = URL_SAFE_NO_PAD.decode(&token).unwrap();
        assert_eq!(bytes.len(), MIN_LEN + 3);
        assert_eq!(&bytes[..HEADER_LEN], &[2, 1, 2, 3, 4]);
        assert_eq!(&bytes[HEADER_LEN..HEADER_LEN + NONCE_LEN], &[7; NONCE_LEN]);
        let opened = sealer.open_token(&token, &context, now).unwrap();
        assert_eq!(opened.payload, b"xyz");
        assert_eq!(opened.id.as_bytes(), &[7; NONCE_LEN]);
        assert_eq!(opened.expires, UNIX_EPOCH + Duration::from_millis(2_000));
    }
}

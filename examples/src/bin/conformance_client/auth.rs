//! The `auth/*` scenarios, through rmcp's own authorization support (its `auth` feature).
//!
//! A request refused with 401 or 403 carries a `WWW-Authenticate` challenge. That challenge
//! seeds a fresh authorization: `OAuthState` discovers the protected resource and its
//! authorization server, picks the client's identity (the pre-registered client the scenario
//! gives, else a client metadata document where the server takes one, else dynamic
//! registration) and the scopes, and builds the authorization URL. The suite's authorization
//! server approves at once, so the redirect is read here without following it, and its code
//! (with its `iss`, which rmcp checks) is exchanged for a token that `AuthClient` then sends.
//!
//! The first challenge comes from a connection without a token. A later one (a revoked token, a
//! scope the tool needs, an authorization server that moved) starts over from scratch, so no
//! credentials carry over to another server, at most [`MAX_AUTHORIZATIONS`] times in a run; it
//! asks for every scope the challenges so far named, so a step-up keeps what the token had.

use rmcp::service::ServiceError;
use rmcp::transport::auth::{
    AuthorizationCallback, AuthorizationRequest, OAuthState, WWWAuthenticateParams,
};
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::{AuthClient, StreamableHttpClientTransport};
use serde_json::Value;

use crate::{call, connect, protocol, Client, Failure};

/// Where the authorization server sends the code; the redirect is read, never followed.
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// The client metadata document the suite's servers know (SEP-991).
const CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// Authorizations one run may start; clients should give up after three (the spec's advice
/// against authorization loops, which `auth/scope-retry-limit` checks).
const MAX_AUTHORIZATIONS: usize = 3;

/// Runs an `auth/*` scenario: connect, list the tools and call each; on a challenge,
/// authorize and run again.
pub(crate) async fn run(version: &str, context: &Value, url: &str) -> Result<(), Failure> {
    let stateless = !protocol(version).has_initialize();
    let mut challenge: Option<String> = None;
    let mut scopes: Vec<String> = Vec::new();
    // Run 0 goes without a token (a server may let the session in and ask only for some
    // requests); each later one authorizes on the challenge that refused the run before.
    for run in 0..=MAX_AUTHORIZATIONS {
        let connected = match challenge.take() {
            None => {
                connect(
                    StreamableHttpClientTransport::from_uri(url),
                    version,
                    stateless,
                )
                .await
            }
            Some(challenge) => {
                eprintln!("conformance-client: authorization {run} on {challenge:?}");
                for scope in challenge_scopes(&challenge, url) {
                    if !scopes.contains(&scope) {
                        scopes.push(scope);
                    }
                }
                let mut request = identity(context).with_challenge(challenge);
                // The first time rmcp chooses (the challenge's scopes, the resource's, or none).
                if run > 1 && !scopes.is_empty() {
                    request = request.with_scopes(scopes.iter().cloned());
                }
                let token = authorize(url, request).await?;
                let config = StreamableHttpClientTransportConfig::with_uri(url);
                let transport = StreamableHttpClientTransport::with_client(token, config);
                connect(transport, version, stateless).await
            }
        };
        let client = match connected {
            Ok(client) => client,
            Err(error) => {
                let refused = error
                    .auth_challenge()
                    .ok_or_else(|| Failure::Error(format!("connecting: {error}")))?;
                challenge = Some(refused.to_owned());
                continue;
            }
        };
        let outcome = exercise(&client).await;
        let _ = client.cancel().await;
        match outcome {
            Ok(()) => return Ok(()),
            Err(Refusal::Challenged(refused)) => challenge = Some(refused),
            Err(Refusal::Failed(failure)) => return Err(failure),
        }
    }
    Err(Failure::Error(format!(
        "still refused after {MAX_AUTHORIZATIONS} authorizations; giving up"
    )))
}

/// How the client identifies itself to the authorization server: the pre-registered client of
/// the scenario's context (`auth/pre-registration`), else a metadata document or registration.
fn identity(context: &Value) -> AuthorizationRequest {
    let request = AuthorizationRequest::new(REDIRECT_URI);
    match (
        context["client_id"].as_str(),
        context["client_secret"].as_str(),
    ) {
        (Some(id), Some(secret)) => request
            .with_preregistered_client(id)
            .with_client_secret(secret),
        (Some(id), None) => request.with_preregistered_client(id),
        _ => request
            .with_client_name("mcp-typed-conformance-client")
            .with_client_metadata_url(CLIENT_METADATA_URL),
    }
}

/// The scopes a `WWW-Authenticate` challenge names.
fn challenge_scopes(challenge: &str, url: &str) -> Vec<String> {
    let Ok(base) = reqwest::Url::parse(url) else {
        return Vec::new();
    };
    let params = WWWAuthenticateParams::parse(challenge, &base);
    let scope = params.scope.unwrap_or_default();
    scope.split_whitespace().map(str::to_owned).collect()
}

/// One authorization-code flow with PKCE.
async fn authorize(
    url: &str,
    request: AuthorizationRequest,
) -> Result<AuthClient<reqwest::Client>, Failure> {
    let mut oauth = OAuthState::new(url, None).await?;
    oauth.start_authorization(request).await?;
    let authorization_url = oauth.get_authorization_url().await?;
    let callback = approve(&authorization_url).await?;
    oauth
        .handle_callback_with_issuer(
            &callback.code,
            &callback.csrf_token,
            callback.issuer.as_deref(),
        )
        .await?;
    let manager = oauth
        .into_authorization_manager()
        .ok_or("no authorization manager after the token exchange")?;
    Ok(AuthClient::new(reqwest::Client::default(), manager))
}

/// What the user's browser would do: open the authorization URL, and hand the redirect's
/// parameters back (the suite approves without asking).
async fn approve(authorization_url: &str) -> Result<AuthorizationCallback, Failure> {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()?;
    let response = http.get(authorization_url).send().await?;
    let location = response
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|value| value.to_str().ok())
        .ok_or_else(|| {
            Failure::Error(format!(
                "the authorization server answered {} without a redirect",
                response.status()
            ))
        })?;
    Ok(AuthorizationCallback::from_redirect_url(location)?)
}

/// Why a run stopped early: a new challenge to authorize on, or anything else.
enum Refusal {
    Challenged(String),
    Failed(Failure),
}

impl From<ServiceError> for Refusal {
    fn from(error: ServiceError) -> Self {
        match error.auth_challenge() {
            Some(challenge) => Refusal::Challenged(challenge.to_owned()),
            None => Refusal::Failed(error.into()),
        }
    }
}

/// What the scenarios' servers serve behind the token: the tools, each called once. A call
/// that fails for another reason than authorization is reported and the run goes on.
async fn exercise(client: &Client) -> Result<(), Refusal> {
    for tool in client.list_all_tools().await? {
        if let Err(error) = client.call_tool(call(&tool.name, None)).await {
            match Refusal::from(error) {
                Refusal::Failed(Failure::Error(error)) => {
                    eprintln!("conformance-client: tool {}: {error}", tool.name);
                }
                refusal => return Err(refusal),
            }
        }
    }
    Ok(())
}

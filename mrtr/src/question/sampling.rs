//! A `sampling/createMessage`: the client's model asked for a reply.

use serde_json::{Map, Value};

use super::Question;
use super::{decode, wrong_kind, Answerer, AskError, ResponseError, RetryError};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams,
    CreateMessageRequestParamsIncludeContext, CreateMessageResult, InputRequest, InputResponse,
};

/// A `sampling/createMessage` with its params; the answer is the model's reply.
///
/// Needs `sampling`; `tools` or `toolChoice` also need `sampling.tools`, and the deprecated
/// `includeContext` values `thisServer`/`allServers` need `sampling.context`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampling {
    params: CreateMessageRequestParams,
}

impl Sampling {
    /// A request with `params`.
    pub fn new(params: CreateMessageRequestParams) -> Self {
        Self { params }
    }
}

impl Question for Sampling {
    type Answer = CreateMessageResult;

    fn request(&self, _key: &str) -> Result<InputRequest, AskError> {
        Ok(InputRequest::CreateMessage(Box::new(
            CreateMessageRequest {
                params: self.params.clone(),
                extra: Map::new(),
            },
        )))
    }

    fn read(key: &str, answer: &InputResponse) -> Result<CreateMessageResult, ResponseError> {
        match answer {
            InputResponse::CreateMessage(result) => Ok((**result).clone()),
            other => Err(wrong_kind(key, CreateMessageRequest::METHOD, other)),
        }
    }

    fn read_json(key: &str, answer: &Value) -> Result<CreateMessageResult, ResponseError> {
        decode(key, answer)
    }
}

/// The capability `params` need that the client did not declare.
pub(super) fn needs(
    capabilities: &ClientCapabilities,
    params: &CreateMessageRequestParams,
) -> Result<(), &'static str> {
    let Some(sampling) = &capabilities.sampling else {
        return Err("sampling");
    };
    if (params.tools.is_some() || params.tool_choice.is_some()) && sampling.tools.is_none() {
        return Err("sampling.tools");
    }
    let context = matches!(
        params.include_context,
        Some(
            CreateMessageRequestParamsIncludeContext::ThisServer
                | CreateMessageRequestParamsIncludeContext::AllServers
        )
    );
    if context && sampling.context.is_none() {
        return Err("sampling.context");
    }
    Ok(())
}

/// The client's answer: its model's reply, from `answerer`.
pub(super) fn answer(
    key: &str,
    params: &CreateMessageRequestParams,
    answerer: &mut impl Answerer,
) -> Result<InputResponse, RetryError> {
    answerer
        .sample(key, params)
        .map(|reply| InputResponse::CreateMessage(Box::new(reply)))
        .map_err(|message| RetryError::Sampling {
            key: key.to_owned(),
            message,
        })
}

//! An [`Answerer`] that asks a person at a terminal (feature `terminal`, on the
//! [`inquire`] prompt crate).
//!
//! A form is shown field by field, in the order the server declared its properties: the
//! field's title (its name when it has none) and description, its default pre-filled (Enter
//! takes it), single and multi select lists by their option titles. Each value is checked
//! when the person presses Enter, with the same rules that validate the whole answer
//! ([`RequestedSchema::validate`]): a value that breaks its format, bounds, length or pattern
//! is refused with the validator's message and asked again. Before the fields, the person
//! chooses to fill in the form, decline it or cancel; Esc in any field cancels. Enter leaves an
//! optional field without a default unanswered (absent from the answer), a yes/no one included.
//!
//! A URL-mode request asks whether the person opened the URL (its host shown first), a
//! sampling request shows the conversation and takes the person's reply as the model's, and
//! `roots/list` answers with the roots given to [`Terminal::with_roots`].
//!
//! The prompts are drawn on the terminal (`/dev/tty` when stdin is not one), so a client
//! that speaks MCP on its own stdin and stdout can still ask. Without a terminal, every
//! form is cancelled, and the reason is printed on stderr. A key pressed at the moment the
//! terminal is resized can be lost (crossterm 0.29 reports the resize and drops the key's
//! readiness); the person presses it again.
//!
//! ```no_run
//! use mcp_mrtr::client::{Answerer, FormAnswer};
//! use mcp_mrtr::terminal::Terminal;
//! use mcp_typed::elicit::RequestedSchema;
//!
//! let schema = RequestedSchema::parse_str(
//!     r#"{"type":"object","properties":{"email":{"type":"string","format":"email"}}}"#,
//! )?;
//! match Terminal::new().form("signup", "Your address?", &schema) {
//!     FormAnswer::Accept(content) => println!("{}", serde_json::Value::Object(content)),
//!     FormAnswer::Decline | FormAnswer::Cancel => println!("no answer"),
//! }
//! # Ok::<(), mcp_typed::elicit::SchemaError>(())
//! ```

use std::fmt::Write as _;
use std::sync::Arc;

use inquire::error::{CustomUserError, InquireError};
use inquire::list_option::ListOption;
use inquire::validator::Validation;
use inquire::{Confirm, CustomType, MultiSelect, Select, Text};
use mcp_typed::elicit::{EnumOptions, PropertySchema, RequestedSchema};
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, CreateMessageResultContent,
    ElicitResultAction, Role, Root, SamplingMessageContent, TextContent,
};
use serde_json::{Map, Number, Value};

use crate::client::{Answerer, FormAnswer};

/// The model name a sampling reply typed by the person carries.
const PERSON_AS_MODEL: &str = "a person at the terminal";

/// Asks a person, in the terminal (see the [module](self) documentation).
#[derive(Debug, Clone, Default)]
pub struct Terminal {
    roots: Vec<Root>,
}

impl Terminal {
    /// A terminal answerer without roots.
    pub fn new() -> Self {
        Self::default()
    }

    /// The roots `roots/list` answers with.
    pub fn with_roots(mut self, roots: Vec<Root>) -> Self {
        self.roots = roots;
        self
    }
}

/// What the person chose to do with a form or a URL, before anything else.
const FILL_IN: &str = "Fill in the form";
const OPENED: &str = "I opened it";
const DECLINE: &str = "Decline";
const CANCEL: &str = "Cancel";

impl Answerer for Terminal {
    fn form(&mut self, _key: &str, message: &str, schema: &RequestedSchema) -> FormAnswer {
        match ask_form(message, schema) {
            Ok(answer) => answer,
            Err(InquireError::OperationCanceled) => FormAnswer::Cancel,
            Err(error) => {
                eprintln!("the form could not be shown ({error}): cancelled");
                FormAnswer::Cancel
            }
        }
    }

    fn url(&mut self, _key: &str, message: &str, url: &str) -> ElicitResultAction {
        let host = url
            .split_once("://")
            .map(|(_, rest)| rest.split(['/', '?', '#']).next().unwrap_or(rest))
            .unwrap_or(url);
        let label = format!("{message}\n  Open {url}\n  (host: {host})");
        match Select::new(&label, vec![OPENED, DECLINE, CANCEL]).prompt() {
            Ok(OPENED) => ElicitResultAction::Accept,
            Ok(DECLINE) => ElicitResultAction::Decline,
            Ok(_) | Err(_) => ElicitResultAction::Cancel,
        }
    }

    fn sample(
        &mut self,
        _key: &str,
        params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, String> {
        let mut shown = String::from("The server asks for a model's reply to:");
        if let Some(system) = &params.system_prompt {
            let _ = write!(shown, "\n  [system] {system}");
        }
        for message in &params.messages {
            let role = match message.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            let _ = write!(shown, "\n  [{role}] {}", sampled_text(&message.content));
        }
        eprintln!("{shown}");
        let reply = Text::new("Reply as the model:")
            .with_help_message("Esc declines")
            .prompt()
            .map_err(|error| format!("no reply from the person at the terminal: {error}"))?;
        Ok(CreateMessageResult {
            meta: None,
            content: CreateMessageResultContent::Text(Box::new(TextContent {
                meta: None,
                annotations: None,
                text: reply,
                extra: Map::new(),
            })),
            model: PERSON_AS_MODEL.to_owned(),
            role: Role::Assistant,
            stop_reason: Some("endTurn".to_owned()),
            extra: Map::new(),
        })
    }

    fn roots(&mut self, _key: &str) -> Vec<Root> {
        self.roots.clone()
    }
}

/// The text of a sampling message; other content by its kind (`<image>`).
fn sampled_text(content: &SamplingMessageContent) -> String {
    fn block_text(block: &Value) -> String {
        match (
            block.get("type").and_then(Value::as_str),
            block.get("text").and_then(Value::as_str),
        ) {
            (Some("text"), Some(text)) => text.to_owned(),
            (kind, _) => format!("<{}>", kind.unwrap_or("content")),
        }
    }
    match serde_json::to_value(content) {
        Ok(Value::Array(blocks)) => blocks.iter().map(block_text).collect::<Vec<_>>().join(" "),
        Ok(block) => block_text(&block),
        Err(_) => "<content>".to_owned(),
    }
}

fn ask_form(message: &str, schema: &RequestedSchema) -> Result<FormAnswer, InquireError> {
    match Select::new(message, vec![FILL_IN, DECLINE, CANCEL]).prompt()? {
        FILL_IN => {}
        DECLINE => return Ok(FormAnswer::Decline),
        _ => return Ok(FormAnswer::Cancel),
    }
    let mut content = Map::new();
    for (name, property) in &schema.properties {
        let required = schema.is_required(name);
        if let Some(value) = ask_field(name, required, property)? {
            content.insert(name.clone(), value);
        }
    }
    Ok(FormAnswer::Accept(content))
}

/// Checks one value with the rules of its property, as [`RequestedSchema::validate`] checks it
/// inside the whole answer.
#[derive(Clone)]
struct FieldCheck {
    name: Arc<str>,
    alone: Arc<RequestedSchema>,
}

impl FieldCheck {
    fn new(name: &str, property: &PropertySchema) -> Self {
        let alone = RequestedSchema {
            properties: vec![(name.to_owned(), property.clone())],
            ..RequestedSchema::default()
        };
        Self {
            name: name.into(),
            alone: Arc::new(alone),
        }
    }

    fn check(&self, value: Value) -> Validation {
        let mut content = Map::new();
        content.insert(self.name.to_string(), value);
        match self.alone.validate(&content) {
            Ok(()) => Validation::Valid,
            Err(errors) => Validation::Invalid(
                (errors.iter())
                    .map(|error| error.message())
                    .collect::<Vec<_>>()
                    .join("; ")
                    .into(),
            ),
        }
    }
}

/// The label and help text of a field.
fn describe(
    name: &str,
    title: Option<&String>,
    description: Option<&String>,
    hints: &[String],
) -> (String, String) {
    let label = format!("{}:", title.map_or(name, String::as_str));
    let mut help: Vec<&str> = description.map(String::as_str).into_iter().collect();
    help.extend(hints.iter().map(String::as_str));
    (label, help.join(" · "))
}

/// Asks one field; `None` when the person leaves an optional field empty.
fn ask_field(
    name: &str,
    required: bool,
    property: &PropertySchema,
) -> Result<Option<Value>, InquireError> {
    let check = FieldCheck::new(name, property);
    let optional_hint = if required {
        "required"
    } else {
        "optional: Enter leaves it empty"
    };
    match property {
        PropertySchema::String(string) => {
            let mut hints = Vec::new();
            if let Some(format) = string.format {
                hints.push(format!("format: {format}"));
            }
            if let Some(range) = range(string.min_length, string.max_length) {
                hints.push(format!("{range} characters"));
            }
            if string.default.is_none() {
                hints.push(optional_hint.to_owned());
            }
            let (label, help) = describe(
                name,
                string.title.as_ref(),
                string.description.as_ref(),
                &hints,
            );
            let answer = ask_text(
                &label,
                &help,
                string.default.as_deref(),
                required,
                move |input| check.check(Value::String(input.to_owned())),
            )?;
            Ok((!answer.is_empty()).then_some(Value::String(answer)))
        }
        PropertySchema::Number(number) => {
            let kind = if number.integer {
                "an integer"
            } else {
                "a number"
            };
            let mut hints = vec![
                match range(number.minimum.as_ref(), number.maximum.as_ref()) {
                    Some(range) => format!("{kind}, {range}"),
                    None => kind.to_owned(),
                },
            ];
            if number.default.is_none() {
                hints.push(optional_hint.to_owned());
            }
            let (label, help) = describe(
                name,
                number.title.as_ref(),
                number.description.as_ref(),
                &hints,
            );
            let default = number.default.as_ref().map(Number::to_string);
            let answer = ask_text(&label, &help, default.as_deref(), required, move |input| {
                match parse_number(input) {
                    None => Validation::Invalid(format!("expected {kind}").into()),
                    Some(number) => check.check(Value::Number(number)),
                }
            })?;
            Ok(parse_number(&answer).map(Value::Number))
        }
        PropertySchema::Boolean(boolean) => {
            // An optional field without a default may stay unanswered: Enter leaves it empty.
            let none = !required && boolean.default.is_none();
            let hints = if none {
                vec![optional_hint.to_owned()]
            } else {
                Vec::new()
            };
            let (label, help) = describe(
                name,
                boolean.title.as_ref(),
                boolean.description.as_ref(),
                &hints,
            );
            let mut confirm = Confirm::new(&label);
            if !help.is_empty() {
                confirm = confirm.with_help_message(&help);
            }
            if let Some(default) = boolean.default {
                confirm = confirm.with_default(default);
            }
            if none {
                return Ok(ask_optional_bool(confirm)?.map(Value::Bool));
            }
            Ok(Some(Value::Bool(confirm.prompt()?)))
        }
        PropertySchema::SingleSelect(select) => {
            let values: Vec<&str> = select.options.values().collect();
            let mut shown = option_titles(&select.options);
            // An optional field without a default may stay unanswered.
            let none = !required && select.default.is_none();
            if none {
                shown.push("(no answer)".to_owned());
            }
            let (label, help) = describe(
                name,
                select.title.as_ref(),
                select.description.as_ref(),
                &[],
            );
            let start = (select.default.as_deref())
                .and_then(|default| values.iter().position(|value| *value == default))
                .unwrap_or(0);
            let mut prompt = Select::new(&label, shown).with_starting_cursor(start);
            if !help.is_empty() {
                prompt = prompt.with_help_message(&help);
            }
            let chosen = prompt.raw_prompt()?.index;
            Ok(values
                .get(chosen)
                .map(|value| Value::String((*value).to_owned())))
        }
        PropertySchema::MultiSelect(select) => {
            let values: Vec<String> = select.options.values().map(str::to_owned).collect();
            let defaults: Vec<usize> = (select.default.iter().flatten())
                .filter_map(|default| values.iter().position(|value| value == default))
                .collect();
            let hint = range(select.min_items, select.max_items).map_or_else(
                || "choose any".to_owned(),
                |range| format!("choose {range}"),
            );
            let hints = [format!("{hint}; Space selects, Enter submits")];
            let (label, help) = describe(
                name,
                select.title.as_ref(),
                select.description.as_ref(),
                &hints,
            );
            let chosen_values = values.clone();
            let prompt = MultiSelect::new(&label, option_titles(&select.options))
                .with_default(&defaults)
                .with_help_message(&help)
                .with_validator(
                    move |chosen: &[ListOption<&String>]| -> Result<Validation, CustomUserError> {
                        Ok(check.check(selected(
                            &chosen_values,
                            chosen.iter().map(|option| option.index),
                        )))
                    },
                );
            let chosen = prompt.raw_prompt()?;
            Ok(Some(selected(
                &values,
                chosen.iter().map(|option| option.index),
            )))
        }
    }
}

/// A text field, the default pre-filled: empty input is refused when `required` and left
/// empty otherwise; anything else is checked by `check_input` when Enter is pressed.
fn ask_text(
    label: &str,
    help: &str,
    default: Option<&str>,
    required: bool,
    check_input: impl Fn(&str) -> Validation + Clone + 'static,
) -> Result<String, InquireError> {
    let text = Text::new(label).with_help_message(help).with_validator(
        move |input: &str| -> Result<Validation, CustomUserError> {
            Ok(match input {
                "" if required => Validation::Invalid("a value is required".into()),
                "" => Validation::Valid,
                _ => check_input(input),
            })
        },
    );
    match default {
        Some(default) => text.with_default(default).prompt(),
        None => text.prompt(),
    }
}

/// A yes/no question that Enter leaves unanswered (`None`): `confirm`'s message, help and error
/// message, the answers `Confirm` reads (`y`, `yes`, `n`, `no`), `y/n` as the placeholder.
fn ask_optional_bool(confirm: Confirm<'_>) -> Result<Option<bool>, InquireError> {
    let confirm = CustomType::from(confirm);
    CustomType::<Option<bool>> {
        message: confirm.message,
        starting_input: confirm.starting_input,
        default: None,
        placeholder: Some("y/n"),
        help_message: confirm.help_message,
        formatter: &|answer| match answer {
            Some(true) => "Yes".to_owned(),
            Some(false) => "No".to_owned(),
            None => "(no answer)".to_owned(),
        },
        default_value_formatter: &|_| String::new(),
        parser: &|input| match input.trim() {
            "" => Ok(None),
            input => Confirm::DEFAULT_PARSER(input).map(Some),
        },
        validators: Vec::new(),
        error_message: confirm.error_message,
        render_config: confirm.render_config,
    }
    .prompt()
}

/// A bound pair as the person reads it: `from 1 to 5`, `at least 1`, `at most 5`.
fn range<T: std::fmt::Display>(min: Option<T>, max: Option<T>) -> Option<String> {
    match (min, max) {
        (Some(min), Some(max)) => Some(format!("from {min} to {max}")),
        (Some(min), None) => Some(format!("at least {min}")),
        (None, Some(max)) => Some(format!("at most {max}")),
        (None, None) => None,
    }
}

/// The option values at `indices`, as the JSON array an answer carries.
fn selected(values: &[String], indices: impl Iterator<Item = usize>) -> Value {
    Value::Array(
        indices
            .filter_map(|index| values.get(index))
            .map(|value| Value::String(value.clone()))
            .collect(),
    )
}

/// What the person reads for each option: its title, else its value.
fn option_titles(options: &EnumOptions) -> Vec<String> {
    match options {
        EnumOptions::Untitled(values) => values.clone(),
        EnumOptions::Titled(options) => options.iter().map(|option| option.title.clone()).collect(),
    }
}

/// A JSON number as typed (`42`, `-1.5`, `2e3`); `None` for anything else.
fn parse_number(input: &str) -> Option<Number> {
    match serde_json::from_str::<Value>(input.trim()) {
        Ok(Value::Number(number)) => Some(number),
        _ => None,
    }
}

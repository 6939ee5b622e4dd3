"""An MCP server on the official Python SDK (mcp==2.3.0), for interop tests.

Serves both protocol eras over stdio: the SDK decides per connection from the
client's first request (an `initialize` opens a 2025-11-25 session; a request
whose `_meta` carries `io.modelcontextprotocol/protocolVersion` opens a
2026-07-28 per-request connection). Run:

    python server.py
    python server.py --http PORT    # Streamable HTTP at http://127.0.0.1:PORT/mcp instead

Every tool's text result echoes what it received, so a client can assert on it:

- `echo`, `typed_args`, `server_name`: plain tools (`server_name` takes no input).
- `form`: a `Resolve(...)` dependency returning `Elicit[Profile]`, a form with strings
  (email/uri/date formats, minLength), an int, floats (one plain, one with a float
  default, one bounded to [0, 1]), a bool, a single select, a multi-select and an
  optional field.
- `sample`, `roots`: `Sample` and `ListRoots` dependencies.
- `haiku`: elicit + roots in one round, then a sample that depends on the elicited
  answer and on a tool argument; in 2026-07-28 that is two input-required rounds.
- `url_consent`: URL-mode elicitation; a live `elicitation/create` (plus
  `notifications/elicitation/complete`) in 2025-11-25, a hand-rolled
  `InputRequiredResult` with its own `requestState` in 2026-07-28.
- `forecast`: structured output (`outputSchema` + `structuredContent`).
- `countdown`: progress notifications and log messages.
- a static resource, a resource template and a prompt with an argument.

In 2025-11-25 the dependencies are sent as live server->client requests
(`elicitation/create`, `sampling/createMessage`, `roots/list`); in 2026-07-28 the SDK
answers with an `InputRequiredResult` and the client retries with `inputResponses`.
"""

from __future__ import annotations

import datetime
import warnings
from typing import Annotated, Literal

from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel, Field

# Logging, sampling and roots are deprecated in 2026-07-28 (SEP-2577); exercising them is the point.
warnings.simplefilter("ignore", MCPDeprecationWarning)

mcp = MCPServer(
    name="python-interop-server",
    version="1.0.0",
    instructions="Interop test server on the official Python MCP SDK.",
    log_level="WARNING",  # the SDK's own Python logging goes to stderr; keep it quiet
)


# --- plain tools ---------------------------------------------------------------------------------


# Left at the SDK default: a `str` return is also sent as `structuredContent: {"result": ...}`
# with a matching `outputSchema`. The other text tools opt out with `structured_output=False`.
@mcp.tool()
def echo(text: str) -> str:
    """Echo the text back."""
    return f"echo: {text}"


@mcp.tool(structured_output=False)
def typed_args(
    word: Annotated[str, Field(min_length=3)],
    count: Annotated[int, Field(ge=2)],
    ratio: float,
    flag: bool,
    color: Literal["red", "green", "blue"],
    tags: list[Literal["alpha", "beta"]],
    note: str = "default note",
) -> str:
    """Echo arguments of every JSON Schema type."""
    return (
        f"typed_args: word={word}, count={count}, ratio={ratio}, flag={flag}, color={color}, "
        f"tags={','.join(tags)}, note={note}"
    )


@mcp.tool(structured_output=False)
def server_name() -> str:
    """A tool without input."""
    return "server_name: python-interop-server"


# --- Resolve(...) dependencies: elicitation, sampling, roots -------------------------------------


# The elicitation form; the SDK renders it as the `requestedSchema` (a docstring would become its description).
class Profile(BaseModel):
    name: str = Field(title="Name", min_length=1)
    email: str = Field(title="Email", min_length=5, json_schema_extra={"format": "email"})
    homepage: str = Field(title="Homepage", min_length=8, json_schema_extra={"format": "uri"})
    birthday: datetime.date = Field(title="Birthday")
    age: int = Field(title="Age", ge=0, le=150)
    price: float = Field(title="Price", ge=0)
    amount: float = Field(2.5, title="Amount")
    ratio: float = Field(title="Ratio", ge=0, le=1)
    subscribe: bool = Field(title="Subscribe")
    size: Literal["small", "medium", "large"] = Field(title="Size")
    toppings: list[Literal["cheese", "ham", "olives"]] = Field(title="Toppings")
    nickname: str | None = Field(None, title="Nickname")


def ask_profile() -> Elicit[Profile]:
    return Elicit("Please fill in your profile", Profile)


def sample_greeting() -> Sample:
    prompt = SamplingMessage(role="user", content=TextContent(type="text", text="Say hello to the interop test"))
    return Sample([prompt], max_tokens=64, system_prompt="Be brief.")


def list_roots() -> ListRoots:
    return ListRoots()


@mcp.tool(structured_output=False)
def form(profile: Annotated[Profile, Resolve(ask_profile)]) -> str:
    """Elicit a profile form and echo the accepted values."""
    p = profile
    return (
        f"form: name={p.name}, email={p.email}, homepage={p.homepage}, birthday={p.birthday.isoformat()}, "
        f"age={p.age}, price={p.price}, amount={p.amount}, ratio={p.ratio}, subscribe={p.subscribe}, size={p.size}, "
        f"toppings={','.join(p.toppings)}, nickname={p.nickname}"
    )


def _sampled_text(result: CreateMessageResult) -> str:
    return result.content.text if isinstance(result.content, TextContent) else f"<{result.content.type}>"


@mcp.tool(structured_output=False)
def sample(reply: Annotated[CreateMessageResult, Resolve(sample_greeting)]) -> str:
    """Sample the client's LLM and echo the reply."""
    return f"sampled: {_sampled_text(reply)} (model={reply.model}, role={reply.role})"


def _roots_text(result: ListRootsResult) -> str:
    return ", ".join(f"{root.uri} ({root.name})" for root in result.roots) or "<none>"


@mcp.tool(structured_output=False)
def roots(result: Annotated[ListRootsResult, Resolve(list_roots)]) -> str:
    """List the client's roots."""
    return f"roots: {_roots_text(result)}"


class Topic(BaseModel):
    topic: str = Field(title="Topic", description="What the haiku is about")


def ask_topic() -> Elicit[Topic]:
    return Elicit("What should the haiku be about?", Topic)


def write_haiku(topic: Annotated[Topic, Resolve(ask_topic)], lines: int) -> Sample:
    # Depends on an elicited answer and on the tool argument `lines` (passed by name).
    text = f"Write a {lines}-line haiku about {topic.topic}"
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=100)


@mcp.tool(structured_output=False)
def haiku(
    lines: int,
    topic: Annotated[Topic, Resolve(ask_topic)],
    poem: Annotated[CreateMessageResult, Resolve(write_haiku)],
    where: Annotated[ListRootsResult, Resolve(list_roots)],
) -> str:
    """Elicit a topic, sample a haiku about it, and list roots (several rounds)."""
    return f"haiku: lines={lines}, topic={topic.topic}, poem={_sampled_text(poem)}, roots={_roots_text(where)}"


# --- URL-mode elicitation --------------------------------------------------------------------------

CONSENT_URL = "https://example.com/consent"
CONSENT_KEY = "consent"
CONSENT_STATE = "url-consent-asked"  # sealed by the SDK's RequestStateBoundary on the wire


@mcp.tool(structured_output=False)
async def url_consent(ctx: Context) -> str | InputRequiredResult:
    """Ask the user to visit a URL (URL-mode elicitation) and echo the action."""
    if ctx.protocol_version == "2026-07-28":
        answer = (ctx.input_responses or {}).get(CONSENT_KEY)
        if ctx.request_state != CONSENT_STATE or not isinstance(answer, ElicitResult):
            # No elicitation id at 2026-07-28: the inputRequests key identifies the question.
            params = ElicitRequestURLParams(message="Please confirm in your browser", url=CONSENT_URL)
            return InputRequiredResult(
                input_requests={CONSENT_KEY: ElicitRequest(params=params)}, request_state=CONSENT_STATE
            )
        return f"url_consent: action={answer.action}, url={CONSENT_URL}"
    elicitation_id = f"consent-{ctx.request_id}"
    result = await ctx.elicit_url("Please confirm in your browser", CONSENT_URL, elicitation_id)
    if result.action == "accept":
        await ctx.session.send_elicit_complete(elicitation_id)
    return f"url_consent: action={result.action}, url={CONSENT_URL}"


# --- structured output, progress and logging -------------------------------------------------------


class Forecast(BaseModel):
    city: str
    temperature: float = Field(description="Degrees Celsius")
    conditions: Literal["sunny", "cloudy", "rain"]
    humidity: int


@mcp.tool()
def forecast(city: str) -> Forecast:
    """Structured output: the result has `structuredContent` matching `outputSchema`."""
    return Forecast(city=city, temperature=21.5, conditions="sunny", humidity=40)


@mcp.tool(structured_output=False)
async def countdown(ctx: Context, steps: int = 3) -> str:
    """Report progress and send log messages for each step."""
    for step in range(1, steps + 1):
        await ctx.report_progress(step, steps, f"step {step} of {steps}")
        await ctx.info(f"countdown step {step}", logger_name="countdown")
    await ctx.debug({"done": True, "steps": steps}, logger_name="countdown")
    return f"countdown: steps={steps}, progress and logs sent"


# --- resources and prompts -------------------------------------------------------------------------


@mcp.resource("interop://greeting", name="greeting", title="Greeting", mime_type="text/plain")
def greeting() -> str:
    return "Hello from the Python interop server"


@mcp.resource("interop://items/{item_id}", name="item", title="Item by id", mime_type="application/json")
def item(item_id: str) -> dict[str, str]:
    return {"id": item_id, "label": f"item {item_id}"}


@mcp.prompt(title="Greet someone")
def greet(name: str, style: str = "friendly") -> str:
    """A prompt with a required and an optional argument."""
    return f"Write a {style} greeting for {name}."


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--http"] and len(sys.argv) == 3:
        # Both eras at /mcp: 2025-11-25 sessions (Mcp-Session-Id) and 2026-07-28 requests.
        mcp.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        mcp.run("stdio")

use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[serde(rename = "name")]
    first: String,
    name: String,
}

fn main() {}

use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[serde(rename = "userPassword")]
    credential: String,
}

fn main() {}

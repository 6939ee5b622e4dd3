use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form {
    #[serde(rename = "userPassword")]
    credential: String,
}

fn main() {}

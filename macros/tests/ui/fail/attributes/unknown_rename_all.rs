use mcp_typed::Elicit;

#[derive(Elicit)]
#[serde(rename_all = "camel")]
struct Form {
    first_name: String,
}

fn main() {}

use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    api_key: String,
    card_number: Option<String>,
    cvv: String,
}

fn main() {}

use mcp_typed::Elicit;

struct Address {
    street: String,
}

#[derive(Elicit)]
struct Form {
    addresses: Vec<Address>,
}

fn main() {}

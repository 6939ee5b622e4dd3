use mcp_schema::Elicit;

struct Address {
    street: String,
}

#[derive(Elicit)]
struct Form {
    addresses: Vec<Address>,
}

fn main() {}

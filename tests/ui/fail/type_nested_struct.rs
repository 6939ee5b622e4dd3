use mcp_schema::Elicit;

struct Address {
    street: String,
}

#[derive(Elicit)]
struct Form {
    name: String,
    address: Address,
}

fn main() {}

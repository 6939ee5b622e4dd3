use mcp_typed::Elicit;

struct Address {
    street: String,
}

#[derive(Elicit)]
struct Form {
    name: String,
    address: Address,
}

fn main() {}

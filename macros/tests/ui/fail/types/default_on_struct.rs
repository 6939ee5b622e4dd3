use mcp_typed::Elicit;

struct Address {
    street: String,
}

// A type that does not derive `Elicit` is reported once, at the type, whatever its attributes.
#[derive(Elicit)]
struct Form {
    #[elicit(default = "home")]
    address: Address,
    #[elicit(min_items = 1, default = ["home"])]
    addresses: Vec<Address>,
}

fn main() {}

use mcp_typed::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email")]
    color: Color,
}

fn main() {}

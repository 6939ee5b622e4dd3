use mcp_typed::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Form {
    #[elicit(default = "Blue")]
    color: Color,
}

fn main() {}

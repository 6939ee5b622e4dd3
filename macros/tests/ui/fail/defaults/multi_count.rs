use mcp_typed::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
    Blue,
}

#[derive(Elicit)]
struct Form {
    #[elicit(min_items = 2, default = ["Red"])]
    colors: Vec<Color>,
}

fn main() {}

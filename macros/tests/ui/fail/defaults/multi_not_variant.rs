use mcp_typed::Elicit;

#[derive(Elicit)]
enum Color {
    Red,
    Green,
}

#[derive(Elicit)]
struct Form {
    #[elicit(default = ["Red", "Purple"])]
    colors: Vec<Color>,
}

fn main() {}

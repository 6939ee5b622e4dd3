use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(minimum = 0.5, maximum = 1.5, default = 2.25)]
    ratio: f64,
}

fn main() {}

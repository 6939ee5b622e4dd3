use mcp_typed::Elicit;

#[derive(Elicit)]
enum Shape {
    Circle(f64),
    Square { side: f64 },
    Point,
}

fn main() {}

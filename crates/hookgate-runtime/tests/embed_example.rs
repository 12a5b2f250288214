//! The embedding example (`examples/embed.rs`) runs as documented: its guard lets the note
//! through and refuses the write outside `notes/` (the example asserts both).

#[path = "../examples/embed.rs"]
mod embed;

#[test]
fn the_embedding_example_runs_and_its_guard_refuses_the_escape() {
    embed::main();
}

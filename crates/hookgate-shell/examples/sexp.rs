//! Prints tree-sitter-bash's tree for each stdin line (developer aid: what the grammar makes
//! of a construct before the walker reads it).
use std::io::BufRead;

fn main() {
    let mut parser = tree_sitter::Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return;
    }
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        if let Some(tree) = parser.parse(&line, None) {
            println!("{line}\n  {}", tree.root_node().to_sexp());
        }
    }
}

//! `hookgate completions <shell>` and `hookgate man`: generated from the same clap definition
//! the binary parses with, so they cannot drift from the real commands and flags.

use clap::{Args, CommandFactory as _};
use clap_complete::Shell;

use crate::{Cli, Failure, print};

/// `hookgate completions`.
#[derive(Debug, Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to write a completion script for (e.g. `hookgate completions bash >
    /// ~/.local/share/bash-completion/completions/hookgate`).
    shell: Shell,
}

pub(crate) fn completions(args: &CompletionsArgs) -> Result<u8, Failure> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, "hookgate", &mut out);
    print(&String::from_utf8_lossy(&out))?;
    Ok(0)
}

/// `hookgate man`: the roff page for `hookgate(1)` (e.g. `hookgate man >
/// ~/.local/share/man/man1/hookgate.1`).
pub(crate) fn man() -> Result<u8, Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command())
        .render(&mut out)
        .map_err(|e| Failure(format!("cannot render the man page: {e}")))?;
    print(&String::from_utf8_lossy(&out))?;
    Ok(0)
}

//! Terminals opened on a remote endpoint: a terminal emulator drawn on another machine's X
//! display (`xterm -display 203.0.113.9:1`, `DISPLAY=host:0 urxvt -e bash`) hands an
//! interactive shell here to whoever owns that display, exactly like a reverse shell; a
//! desktop shared out to a listening viewer (`x11vnc -connect host`) hands over the whole
//! session, and so does a terminal-sharing service (`tmate`, `upterm host`, `sshx`,
//! `tty-share --public`). Local displays (`:0`, `unix:0`, `localhost:10.0` of ssh X forwarding,
//! `127.0.0.1:1`, `[::1]:0`, a socket path) are ordinary.
//!
//! Invariant: the endpoint is read from the parsed option value or from `DISPLAY` as the
//! line's state knows it (a prefix assignment, `export`, `env`); an option value only known
//! at run time (`-display "$D"`) asks rather than passes. A `DISPLAY` the line does not know
//! is the session's own (the environment's), as for every other program.

use crate::model::Verdict;
use crate::taxonomy::ids;
use crate::walk::Word;

/// X terminal emulators: each runs a shell (or its `-e` command) for whoever sees the
/// display.
const TERMINALS: &[&str] = &[
    "xterm",
    "uxterm",
    "lxterm",
    "koi8rxterm",
    "rxvt",
    "urxvt",
    "urxvtc",
    "rxvt-unicode",
    "aterm",
    "Eterm",
    "eterm",
    "mlterm",
    "st",
    "xfce4-terminal",
    "gnome-terminal",
    "mate-terminal",
    "konsole",
    "terminator",
    "tilix",
    "lxterminal",
    "qterminal",
    "sakura",
    "terminology",
    "kitty",
    "alacritty",
    "wezterm",
    "x-terminal-emulator",
    "xvt",
];

/// Options that name the X display (Xt `-display`/`-d`, GTK/Qt `--display`).
const DISPLAY_OPTIONS: &[&str] = &["-display", "--display", "-d", "-disp"];

/// The verdict for `name words…` when it opens a terminal or shares the desktop with a
/// remote endpoint. `display` is `DISPLAY` when the line gives it a known value.
pub(crate) fn remote_terminal(
    name: &str,
    words: &[Word],
    display: Option<&str>,
) -> Option<Verdict> {
    match name {
        "x11vnc" => {
            // `-connect host[:port]` / `-connect_or_exit host`: the desktop goes to a viewer
            // listening there.
            let target = option_value(words, &["-connect", "-connect_or_exit"])?;
            if !target.exact {
                return Some(unresolved());
            }
            (!is_local_host(&target.text)).then(|| ids::RCE_REMOTE_TERMINAL.verdict())
        }
        // Terminal-sharing services: the session is reachable by whoever holds the link
        // (`tmate`, `upterm host`, `sshx`, `tty-share --public`, `teleconsole`).
        "tmate" | "sshx" | "teleconsole" => (!words.iter().any(|w| {
            matches!(
                w.text.as_str(),
                "-V" | "--version" | "-h" | "--help" | "kill-server"
            )
        }))
        .then(|| ids::RCE_REMOTE_TERMINAL.verdict()),
        "upterm" => words
            .first()
            .is_some_and(|w| w.text == "host")
            .then(|| ids::RCE_REMOTE_TERMINAL.verdict()),
        "tty-share" => words
            .iter()
            .any(|w| w.text == "--public" || w.text == "-public")
            .then(|| ids::RCE_REMOTE_TERMINAL.verdict()),
        _ if TERMINALS.contains(&name) => {
            let display = match option_value(words, DISPLAY_OPTIONS) {
                Some(w) if !w.exact => return Some(unresolved()),
                Some(w) => w.text.clone(),
                // `DISPLAY` unknown (set from a substitution, or the line's state lost after
                // `source`): the session's own display is the usual reading, so only a
                // known value is judged.
                None => display?.to_owned(),
            };
            (!is_local_display(&display)).then(|| ids::RCE_REMOTE_TERMINAL.verdict())
        }
        _ => None,
    }
}

/// The endpoint is only known at run time: ask.
fn unresolved() -> Verdict {
    Verdict::unknown("opens a terminal on a display or viewer only known at run time")
}

/// The value of the first of `names` (`-display H:1`, `--display=H:1`).
fn option_value<'w>(words: &'w [Word], names: &[&str]) -> Option<std::borrow::Cow<'w, Word>> {
    let mut it = words.iter();
    while let Some(w) = it.next() {
        if !w.exact {
            continue;
        }
        if names.contains(&w.text.as_str()) {
            return it.next().map(std::borrow::Cow::Borrowed);
        }
        if let Some((opt, value)) = w.text.split_once('=')
            && names.contains(&opt)
        {
            return Some(std::borrow::Cow::Owned(Word::lit(value)));
        }
    }
    None
}

/// `:0`, `unix:0`, `localhost:10.0`, `127.0.0.1:1`, `[::1]:0`, `/tmp/.X11-unix/X0`,
/// macOS's launchd socket path: a display on this machine.
fn is_local_display(display: &str) -> bool {
    if display.starts_with('/') {
        return true;
    }
    let host = display.rsplit_once(':').map_or(display, |(h, _)| h);
    // `::1:0` and `[::1]:0`: the IPv6 loopback.
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.is_empty() || host == "unix" || host == "::1" || host == ":" || is_local_host(host)
}

fn is_local_host(host: &str) -> bool {
    let host = host.split(':').next().unwrap_or(host);
    host == "localhost"
        || host.starts_with("127.")
        || host == "::1"
        || host.is_empty()
        || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::is_local_display;

    #[test]
    fn local_displays_are_sockets_loopback_and_ssh_forwarding() {
        for d in [
            ":0",
            ":1.0",
            "unix:0",
            "localhost:10.0",
            "127.0.0.1:1",
            "[::1]:0",
            "::1:0",
        ] {
            assert!(is_local_display(d), "{d}");
        }
        for d in [
            "203.0.113.9:1",
            "evil.example:0",
            "10.0.0.5:0.0",
            "[2001:db8::1]:0",
        ] {
            assert!(!is_local_display(d), "{d}");
        }
    }
}

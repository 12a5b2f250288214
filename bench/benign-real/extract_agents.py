#!/usr/bin/env python3
"""Extract the shell commands coding AGENTS actually ran, from agent trajectories and session logs
published in public repositories (bare git dirs brought in with the search tool's `fetch`).

Formats read (each file found by name anywhere in the snapshot's HEAD):
  - SWE-agent `*.traj` (JSON, `trajectory[].action`): SWE-agent's own editor/navigation commands
    (open, goto, scroll_*, edit, create, submit, search_*, find_file, str_replace_editor, ...) are
    dropped; what is left went to bash;
  - mini-swe-agent `*.traj.json` (`messages[]` of the assistant: the ```bash block it ran);
  - OpenHands evaluation `output.jsonl` (`history[]` events with `action == "run"`: args.command);
  - Claude Code / Codex stream dumps rendered as markdown (`Tool: Bash` + `Input: {json}` blocks,
    e.g. Automaker's `agent-output.md`); Codex's `/bin/zsh -lc '…'`/`bash -lc …` wrapper is
    unwrapped to the command the agent wrote;
  - Claude Code session JSONL (`*.jsonl` lines whose assistant content holds a `tool_use` named Bash).

usage: extract_agents.py MIRROR_DIR... > agents.jsonl   (same row shape as extract.py)
The agent's own project root (`/Users/NAME/…/REPO` for a session log committed in REPO,
`/workspace/INSTANCE` for OpenHands) becomes `@PROJECT@`, which measure.py replaces with the
fixture's project: in the agent's session those paths were inside its workspace.
The extracted data is third-party text and is not committed; regenerate it as README.md says.
"""
import json, os, re, shlex, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from extract import emit, git  # noqa: E402

SWE_TOOLS = {"open", "goto", "scroll_down", "scroll_up", "edit", "create", "submit", "search_dir",
             "search_file", "find_file", "str_replace_editor", "insert", "filemap", "exit_forfeit",
             "exit_cost", "exit_context", "exit_format", "exit_error", "skip", "view", "undo_edit",
             "str_replace", "state", "append", "windowed_edit_linting", "python_interpreter"}



def unwrap(cmd):
    """`/bin/zsh -lc 'X'` / `bash -lc "X"` -> X (Codex runs every command through a login shell)."""
    s = cmd.strip()
    m = re.match(r"^(?:/bin/|/usr/bin/)?(?:ba|z)?sh\s+-l?c\s+", s)
    if not m:
        return s
    try:
        words = shlex.split(s)
    except ValueError:
        return s
    return words[2] if len(words) == 3 else s


def swe_traj(text):
    try:
        doc = json.loads(text)
    except ValueError:
        return
    for step in doc.get("trajectory", []) if isinstance(doc, dict) else []:
        a = step.get("action") if isinstance(step, dict) else None
        if isinstance(a, str) and a.strip():
            first = a.strip().split()[0]
            if first not in SWE_TOOLS:
                yield a.strip()


BASHBLOCK = re.compile(r"```(?:bash|sh)?\s*\n(.*?)```", re.S)


def mini_traj(text):
    try:
        doc = json.loads(text)
    except ValueError:
        return
    for m in doc.get("messages", []) if isinstance(doc, dict) else []:
        if isinstance(m, dict) and m.get("role") == "assistant" and isinstance(m.get("content"), str):
            for b in BASHBLOCK.findall(m["content"])[-1:]:
                if b.strip():
                    yield b.strip()


def openhands(text):
    for line in text.split("\n"):
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        for ev in doc.get("history", []) if isinstance(doc, dict) else []:
            if isinstance(ev, dict) and ev.get("action") == "run":
                c = (ev.get("args") or {}).get("command")
                if isinstance(c, str) and c.strip():
                    yield c.strip()


TOOLBASH = re.compile(r"Tool: Bash\s*\nInput: (\{.*?\n\})", re.S)


def md_stream(text):
    for m in TOOLBASH.finditer(text):
        try:
            c = json.loads(m.group(1)).get("command")
        except ValueError:
            continue
        if isinstance(c, str) and c.strip():
            yield unwrap(c)


def cc_jsonl(text):
    for line in text.split("\n"):
        if '"tool_use"' not in line:
            continue
        try:
            doc = json.loads(line)
        except ValueError:
            continue
        msg = doc.get("message") if isinstance(doc, dict) else None
        for part in (msg or {}).get("content", []) if isinstance(msg, dict) else []:
            if isinstance(part, dict) and part.get("type") == "tool_use" and part.get("name") == "Bash":
                c = (part.get("input") or {}).get("command")
                if isinstance(c, str) and c.strip():
                    yield unwrap(c)


def sources(d):
    for f in git(d, "ls-tree", "-r", "--name-only", "HEAD").split("\n"):
        low = f.lower()
        if low.endswith(".traj.json"):
            yield "mini-swe-agent", f, mini_traj
        elif low.endswith(".traj"):
            yield "swe-agent", f, swe_traj
        elif low.endswith("output.jsonl") and ("evaluation" in low or "mock_output" in low):
            yield "openhands", f, openhands
        elif low.endswith("agent-output.md"):
            yield "agent-md", f, md_stream
        elif low.endswith(".jsonl"):
            yield "session-jsonl", f, cc_jsonl


def project_root(repo, kind):
    """The absolute prefix under which the agent saw its own project."""
    if kind == "openhands":
        return re.compile(r"/workspace/[A-Za-z0-9_.-]+(?=[/\s'\"]|$)")
    name = re.escape(repo.split("/")[-1])
    return re.compile(r"/(?:Users|home)/[^\s'\"]*?/" + name + r"(?=[/\s'\"]|$)")


def main():
    def read(fn):
        return lambda d, path: fn(git(d, "show", f"HEAD:{path}"))

    def agent_sources(d):
        for kind, path, fn in sources(d):
            yield kind, path, read(fn)

    def rewrite(repo, kind):
        root = project_root(repo, kind)
        return lambda cmd: root.sub("@PROJECT@", cmd)

    emit(sys.argv[1:], agent_sources, rewrite)


if __name__ == "__main__":
    main()

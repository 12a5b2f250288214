#!/usr/bin/env python3
"""usage: classify.py RESULTS.jsonl: split the flagged commands of measure.py's output into
  artifact   - text that is not one shell command (fragments of a jq/python block the splitter cut,
               PowerShell, doc output lines, `<placeholder>` words): excluded from the rate;
  ci-context - asks on a variable, command name or target that an earlier CI step or the runner
               sets ($GITHUB_ENV, $RUNNER_TEMP, make variables): ask by design (not static);
  fixture    - extraction of an archive or a patch file the fixture does not hold (`tar xf pkg.bin`,
               `unzip pr.zip`, `git apply x.patch`: an earlier CI step made it). The guard lists an
               archive or reads a patch that exists and allows it when nothing lands on the
               protected set (checked by hand with a real file); an absent one cannot be listed;
  justified  - sudo, curl|sh, publish/release/push, system writes, hooks bypass, mounts, system
               users (Dockerfile RUN lines run as root in an image; on a host they are not benign),
               GnuPG home writes, infrastructure state edits, dotenv reads ...;
  candidate  - everything else: a false-positive class to judge by hand.
Prints each bucket's size and share of all commands, and the candidates by rule."""
import json, sys
from collections import Counter

rows = [json.loads(l) for l in open(sys.argv[1])]
flag = [r for r in rows if r["decision"] in ("ask", "deny")]
ARTIFACT = ("does not parse", "unsupported construct", "variable whose name is computed")
CI = ("unresolved_target", "name is computed at run time", "destructive forms is only known", "cannot place statically")
JUSTIFIED_RULES = {"rce.download_to_shell", "pkg.release", "pkg.publish", "sys.mount_fs", "pkg.image_push_nested",
                   "fs.overwrite_system", "fs.delete_system", "fs.permissions_system", "git.push_force",
                   "git.push_new_remote", "sys.service_stop", "docker.compose_down_volumes", "sys.sysctl_write",
                   "sys.chroot_nsenter", "pkg.chart_push", "pkg.upload", "db.redis_shutdown", "rce.remote_script_bun",
                   "fs.overwrite_outside_workspace", "fs.permissions_outside_workspace", "fs.delete_outside_workspace",
                   "fs.delete_outside_workspace_recursive", "cred.read_secret_file", "net.http_overwrite",
                   "git.checkout_discard_all", "sys.users", "iac.state_rm", "pkg.gradle_publish",
                  "pkg.image_push", "fs.delete_git_dir",
                   # round 18 (mine3): publishing, remote deletes, privileged containers, deploys,
                   # discarding work, installs from git/URLs (asked by design since corpus #5)
                   "pkg.image_build_push", "pkg.image_manifest_create", "docker.host_mount",
                   "pkg.publish_tool", "pkg.publish_via_manager", "pkg.release_tool",
                   "pkg.setup_upload_python", "pkg.registry_tag", "git.reset_hard", "git.push_delete",
                   "git.push_delete_refspec", "git.branch_force_delete", "git.checkout_paths",
                   "deploy.production", "docker.compose_v1_down_volumes",
                   "helm.uninstall", "k8s.delete", "docker.volume_rm", "docker.system_prune",
                   "forge.repo_public", "rce.install_unvetted_source", "rce.install_unvetted_git",
                   "net.http_delete", "sys.killall"}
JUSTIFIED_TEXT = ("via sudo", "gnupg-home", "reads a credential file", "no-secret-exposure", "skips git hooks", "protected branch", "system file", "schedules a job",
                  "container configuration", "reads a credential file",
                  # round 18 (mine3): discarding uncommitted files, su/chown/setuid, CI and git-hook
                  # edits, credential files written, agent settings rewritten, nested agents
                  "no-git-discard", "no-permission-escalation", "no-cicd-config-modification",
                  "modifies version-control or build-tool configuration", "writes a credential file",
                  "rewrites the agent's settings", "an agent's hook settings", "nested agent session")


def bucket(r):
    t = r["reason"]
    if any(a in t for a in ARTIFACT) or (r["rule"] and not r["rule"][0].isalpha()) or r["rule"] in ("co", "index", "bot"):
        return "artifact"
    if "cannot be read off the command" in t and any(
            k in r["command"] for k in ("tar ", "unzip ", "7z ", "git apply", "patch ")):
        return "fixture"
    if any(c in t for c in CI) or r["rule"].endswith("_unresolved_target"):
        return "ci-context"
    if r["rule"] in JUSTIFIED_RULES or any(j in t for j in JUSTIFIED_TEXT):
        return "justified"
    return "candidate"


b = Counter(bucket(r) for r in flag)
n = len(rows) - b["artifact"]
print(f"{len(rows)} commands, {len(flag)} flagged; artifacts {b['artifact']} excluded -> N={n}")
for k in ("justified", "ci-context", "fixture", "candidate"):
    print(f"  {k:11} {b[k]:5} = {100*b[k]/n:.2f} %")
cands = Counter((r["rule"] or r["reason"][:70]) for r in flag if bucket(r) == "candidate")
for k, v in cands.most_common():
    print(f"    {v:4} {k}")

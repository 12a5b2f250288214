//! git configuration that installs code for repositories yet to exist (`init.templateDir`:
//! its `hooks/` are copied into every new clone) or switches off git's own defences against
//! hostile repositories (`safe.directory=*`, the ownership check of CVE-2022-24765;
//! `protocol.file.allow=always`, local transports in submodules, CVE-2022-39253; NTFS/HFS path
//! protection). Invariant: a setting whose only effect is to weaken a defence is asked about,
//! whatever it is spelled with (`git config`, `git -c`).

mod common;

use common::{ALLOW, ASK, ctx, table};

#[test]
fn git_settings_that_weaken_its_defences_or_install_templates_are_asked() {
    table(
        &ctx(),
        &[
            ("git config --global init.templateDir /tmp/tpl", ASK, "*"),
            (
                "git config --global init.templatedir ~/.git-templates",
                ASK,
                "*",
            ),
            ("git config --global --add safe.directory '*'", ASK, "*"),
            ("git config --system safe.directory '*'", ASK, "*"),
            ("git config --global protocol.file.allow always", ASK, "*"),
            (
                "git -c protocol.file.allow=always submodule update --init",
                ASK,
                "*",
            ),
            ("git config core.protectNTFS false", ASK, "*"),
            // Benign neighbours.
            (
                "git config --global --add safe.directory /work/app",
                ALLOW,
                "*",
            ),
            ("git config --global init.defaultBranch main", ALLOW, "*"),
            ("git config protocol.file.allow user", ALLOW, "*"),
            ("git config user.name ci-bot", ALLOW, "*"),
        ],
    );
}

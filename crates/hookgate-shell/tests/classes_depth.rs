//! Case tables for five more danger classes of issue 8 (detection depth), one line per case,
//! `(command, expected action, expected rule id or "-")`: services killed by name, unbounded
//! producers multiplied or left running, terminals opened on remote endpoints, `find`/`xargs`
//! items bound to a child shell's `$1`, and production deploys. Written from public sources
//! (GTFOBins, reverse-shell cheat sheets, the deploy tools' own docs, incident write-ups of
//! agents killing a database or a dev server), not copied from any corpus; each class has
//! benign neighbours that must stay allowed. Workspace `/home/user/project`, home `/home/user`.
//! Cases judged benign on purpose are in `DISAGREEMENTS.md`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK};

/// The shared runner with the fixture context.
#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// Class 5: a deploy with an explicit production target asks like publishing; preview,
/// staging and development deploys, and tools whose default target is unknown, stay allowed.
#[test]
fn production_deploys_ask_and_preview_deploys_stay_allowed() {
    table(&[
        ("vercel deploy --prod --yes", ASK, "deploy.production"),
        ("vercel --prod", ASK, "deploy.production"),
        ("vc --prod --yes", ASK, "deploy.production"),
        ("npx vercel@latest deploy --prod", ASK, "deploy.production"),
        ("vercel ./dist --prod", ASK, "deploy.production"),
        ("vercel deploy --target=production", ASK, "deploy.production"),
        ("vercel deploy --target production --token $VT", ASK, "deploy.production"),
        ("vercel promote https://app-abc123.vercel.app", ASK, "deploy.production"),
        ("vercel rollback", ASK, "deploy.production"),
        ("netlify deploy --prod", ASK, "deploy.production"),
        ("netlify deploy --dir=dist --prod", ASK, "deploy.production"),
        ("npx netlify-cli deploy -p --dir build", ASK, "deploy.production"),
        ("ntl deploy --prod-if-unlocked", ASK, "deploy.production"),
        ("firebase deploy", ASK, "deploy.production"),
        ("firebase deploy --only hosting", ASK, "deploy.production"),
        ("npx firebase-tools deploy --only functions --project acme", ASK, "deploy.production"),
        ("serverless deploy --stage prod", ASK, "deploy.production"),
        ("sls deploy -s production --region eu-west-1", ASK, "deploy.production"),
        ("npx serverless deploy --stage=prod-eu", ASK, "deploy.production"),
        ("sam deploy --config-env prod", ASK, "deploy.production"),
        ("wrangler deploy --env production", ASK, "deploy.production"),
        ("npx wrangler deploy -e prod", ASK, "deploy.production"),
        ("railway up --environment production", ASK, "deploy.production"),
        ("pulumi up --yes --stack acme/api/prod", ASK, "deploy.production"),
        ("pulumi up -s production", ASK, "deploy.production"),
        ("kamal deploy -d production", ASK, "deploy.production"),
        ("cap production deploy", ASK, "deploy.production"),
        ("bundle exec cap production deploy", ASK, "deploy.production"),
        ("mina prod deploy", ASK, "deploy.production"),
        ("dep deploy production", ASK, "deploy.production"),
        ("vapor deploy production", ASK, "deploy.production"),
        ("eb deploy myapp-prod", ASK, "deploy.production"),
        // Preview, staging, development: ordinary work.
        ("vercel", ALLOW, "-"),
        ("vercel deploy", ALLOW, "-"),
        ("vercel deploy --target=preview", ALLOW, "-"),
        ("vercel build --prod", ALLOW, "-"),
        ("vercel pull --yes --environment=production", ALLOW, "-"),
        ("vercel dev", ALLOW, "-"),
        ("netlify deploy", ALLOW, "-"),
        ("netlify deploy --alias preview-42 --dir dist", ALLOW, "-"),
        ("netlify dev", ALLOW, "-"),
        ("firebase hosting:channel:deploy pr-42", ALLOW, "-"),
        ("firebase emulators:start", ALLOW, "-"),
        ("serverless deploy --stage dev", ALLOW, "-"),
        ("sls deploy -s staging", ALLOW, "-"),
        ("serverless offline", ALLOW, "-"),
        ("wrangler deploy --env staging", ALLOW, "-"),
        ("wrangler dev", ALLOW, "-"),
        ("pulumi preview --stack prod", ALLOW, "-"),
        ("pulumi up --stack dev", ALLOW, "-"),
        ("cap staging deploy", ALLOW, "-"),
        ("kamal deploy -d staging", ALLOW, "-"),
        ("railway up", ALLOW, "-"),
        ("fly deploy", ALLOW, "-"),
        ("flyctl deploy --app myapp-staging", ALLOW, "-"),
        ("wrangler deploy", ALLOW, "-"),
    ]);
}

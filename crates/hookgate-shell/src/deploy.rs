//! Production deploys: a release to live users, outward and hard to take back like
//! publishing a package, so it asks (`deploy.production`, in the publishing category), while
//! preview, staging and development deploys stay ordinary work.
//!
//! Only an *explicit* production target counts: a flag that means production (`vercel
//! --prod`, `netlify deploy --prod`), a stage/environment/stack value that names production
//! (`serverless deploy --stage prod`, `wrangler deploy --env production`, `firebase deploy -P
//! prod`, `pulumi up -s acme/api/prod`), a stage operand (`cap production deploy`, `vapor
//! deploy production`), a command that moves the production domains (`vercel promote`), a
//! cluster change aimed at a production context or namespace (`kubectl --context prod apply`,
//! `helm upgrade … -n production`), or a tool whose plain deploy *is* the live release
//! (`gcloud app deploy` promotes, `firebase deploy` serves) unless it says otherwise
//! (`--no-promote`, a staging project). A tool whose default target may or may not be
//! production (`fly deploy`, `wrangler deploy`, `vercel deploy`) is not guessed at; a dry run
//! releases nothing. See `DISAGREEMENTS.md` (DP1, CX3, CX4).

use crate::deferred::scan;
use crate::model::Verdict;
use crate::taxonomy::ids;
use crate::walk::Word;

/// Where a tool's production target is written.
#[derive(Clone, Copy)]
enum Marker {
    /// The subcommand always deploys to production.
    Always,
    /// One of these flags is present.
    Flags(&'static [&'static str]),
    /// One of these options has a production value.
    Options(&'static [&'static str]),
    /// The operand at this index (after the subcommand) names production.
    Operand(usize),
    /// The tool's plain deploy is the live release (`gcloud app deploy` promotes, `firebase
    /// deploy` serves): production unless one of `off` is present (`--no-promote`) or one of
    /// `targets` names a non-production environment (`-P staging`); a target known only at
    /// run time is still a deploy that goes live.
    Live {
        off: &'static [&'static str],
        targets: &'static [&'static str],
    },
    /// fastlane's `key:value` parameters (`track:production`, `submit_for_review:true`): an
    /// operand whose key is one of these and whose value names production or is true.
    Params(&'static [&'static str]),
    /// The operand at this index is one of these words or names production: fastlane's
    /// store lanes (`fastlane ios release`), named by the convention its templates use.
    OperandIn(usize, &'static [&'static str]),
    /// `fastlane run ACTION key:value…`: the action is a store upload ([`STORE_ACTIONS`]) and
    /// one of its parameters is a store marker ([`store_param`]).
    RunAction,
    /// An operand after the subcommand is a stack whose name, read in parts (camel case
    /// too: `ProdStack`, `Api-Production`), begins or ends with a production word.
    Stacks,
}

/// ldcli's options that take a value (`ldcli flags toggle-on|toggle-off`).
const LDCLI_LONG: &[&str] = &[
    "--project",
    "--environment",
    "--flag",
    "--access-token",
    "--base-uri",
];

/// fastlane's store-shipping `key:value` parameter: a production (promotion) track or a
/// submission for review.
fn store_param(w: &Word, keys: &[&str]) -> bool {
    w.exact
        && w.text.split_once(':').is_some_and(|(k, v)| {
            keys.contains(&k) && (names_production(v) || matches!(v, "true" | "yes" | "1"))
        })
}

/// The keys of [`store_param`].
const STORE_KEYS: &[&str] = &["track", "track_promote_to", "submit_for_review"];

/// One deploy command: its tools, the subcommands (first operand; `""` = none) it applies
/// to (`*`: any), the short letters and long options that take a value (so values are not mistaken for
/// subcommands), and where production is marked.
struct Deploy {
    tools: &'static [&'static str],
    subs: &'static [&'static str],
    /// The operand that must follow the subcommand (`gh workflow run`; `""`: none needed).
    then: &'static str,
    short_values: &'static str,
    long_values: &'static [&'static str],
    /// Production when any of these holds.
    markers: &'static [Marker],
}

/// A deploy whose stage, environment or stack is an option value (`--stage prod`).
const fn staged(
    tools: &'static [&'static str],
    subs: &'static [&'static str],
    short_values: &'static str,
    markers: &'static [Marker],
) -> Deploy {
    Deploy {
        tools,
        subs,
        then: "",
        short_values,
        long_values: STAGE_LONG,
        markers,
    }
}

const VERCEL_LONG: &[&str] = &[
    "--token",
    "--scope",
    "--cwd",
    "--local-config",
    "--global-config",
    "--target",
    "--env",
    "--build-env",
    "--meta",
    "--regions",
    "--archive",
    "--team",
];
const STAGE_LONG: &[&str] = &[
    "--stage",
    "--region",
    "--config",
    "--env",
    "--environment",
    "--stack",
    "--destination",
    "--config-env",
    "--profile",
    "--service",
    "--cwd",
    "--name",
    "--config-file",
    "--template-file",
    "--parameter-overrides",
    "--stack-name",
    "--app",
    "--kube-context",
    "--namespace",
];

/// Options of the AWS CLI (global and of the deploy subcommands below) that take a value.
const AWS_LONG: &[&str] = &[
    "--profile",
    "--region",
    "--output",
    "--query",
    "--endpoint-url",
    "--color",
    "--ca-bundle",
    "--cli-read-timeout",
    "--cli-connect-timeout",
    "--function-name",
    "--zip-file",
    "--s3-bucket",
    "--s3-key",
    "--image-uri",
    "--name",
    "--function-version",
    "--cluster",
    "--service",
    "--task-definition",
    "--desired-count",
    "--stack-name",
    "--template-file",
    "--template-body",
    "--template-url",
    "--parameter-overrides",
    "--capabilities",
    "--environment-name",
    "--application-name",
    "--version-label",
    "--service-arn",
    "--reserved-concurrent-executions",
    "--cli-input-json",
];

/// An AWS CLI call (`aws [global options] SERVICE OPERATION …`) that replaces what a live
/// service runs: production when the resource it names (`--function-name prod-api`, an ARN
/// ending `:function:api-prod`, `--cluster prod`) or the credentials profile it runs under
/// (`--profile prod`) names production. The same call on a `dev-…` function is ordinary work.
const fn aws(operation: &'static str, markers: &'static [Marker]) -> Deploy {
    Deploy {
        tools: &["aws"],
        subs: AWS_SERVICES,
        then: operation,
        short_values: "",
        long_values: AWS_LONG,
        markers,
    }
}

/// The AWS services whose operations below release code or configuration to a live service.
const AWS_SERVICES: &[&str] = &[
    "lambda",
    "ecs",
    "cloudformation",
    "elasticbeanstalk",
    "apprunner",
];
const AWS_LAMBDA_MARKERS: &[Marker] = &[Marker::Options(&["--function-name", "--profile"])];
const AWS_ECS_MARKERS: &[Marker] = &[Marker::Options(&["--cluster", "--service", "--profile"])];
const AWS_STACK_MARKERS: &[Marker] = &[Marker::Options(&["--stack-name", "--profile"])];
const AWS_EB_MARKERS: &[Marker] = &[Marker::Options(&[
    "--environment-name",
    "--application-name",
    "--profile",
])];
const AWS_APPRUNNER_MARKERS: &[Marker] = &[Marker::Options(&["--service-arn", "--profile"])];

/// Options of kubectl, oc and helm that take a value.
pub(crate) const KUBE_LONG: &[&str] = &[
    "--context",
    "--kube-context",
    "--cluster",
    "--namespace",
    "--kubeconfig",
    "--server",
    "--user",
    "--selector",
    "--output",
    "--filename",
    "--field-selector",
    "--timeout",
    "--patch",
    "--type",
    "--image",
    "--replicas",
    "--values",
    "--set",
    "--set-string",
    "--set-file",
    "--version",
    "--repo",
    "--to-revision",
    "--container",
];
/// kubectl subcommands that change what a cluster runs or holds.
const KUBE_CHANGES: &[&str] = &[
    "apply",
    "create",
    "replace",
    "patch",
    "set",
    "scale",
    "delete",
    "edit",
    "autoscale",
    "expose",
    "run",
    "label",
    "annotate",
];
/// helm subcommands that change a release.
const HELM_CHANGES: &[&str] = &["install", "upgrade", "rollback", "uninstall", "delete"];

/// A cluster command whose target is a `--context`, `--kube-context`, `--cluster` or
/// namespace naming production.
const fn kube(
    tools: &'static [&'static str],
    subs: &'static [&'static str],
    then: &'static str,
) -> Deploy {
    Deploy {
        tools,
        subs,
        then,
        short_values: "nlfocpL",
        long_values: KUBE_LONG,
        markers: &[Marker::Options(&[
            "--context",
            "--kube-context",
            "--cluster",
            "--namespace",
            "-n",
        ])],
    }
}

/// fastlane options that take a value (so a value is not read as a lane or an action).
const FASTLANE_LONG: &[&str] = &[
    "--track",
    "--track_promote_to",
    "--aab",
    "--apk",
    "--ipa",
    "--pkg",
    "--json_key",
    "--package_name",
    "--app_identifier",
    "--username",
    "--api_key_path",
    "--rollout",
    "--metadata_path",
    "--platform",
    "--env",
    "--release_status",
];
/// Play Store and App Store upload actions, by their action and tool names.
const STORE_ACTIONS: &[&str] = &[
    "supply",
    "upload_to_play_store",
    "deliver",
    "upload_to_app_store",
    "appstore",
];
/// Store-shipping markers: a production track (`--track production`, `track:production`,
/// also as the promotion target) or a submission for App Review.
const STORE_MARKERS: &[Marker] = &[
    Marker::Options(&["--track", "--track_promote_to"]),
    Marker::Flags(&["--submit_for_review"]),
    Marker::Params(STORE_KEYS),
];
/// Lane names that fastlane's templates and docs give the store release (`lane :release do
/// upload_to_app_store`); beta, test and build lanes are ordinary.
const STORE_LANES: &[&str] = &[
    "release",
    "deploy",
    "appstore",
    "app_store",
    "playstore",
    "play_store",
    "store",
    "submit",
    "submit_review",
    "publish",
];

/// The data table of production deploys.
const DEPLOYS: &[Deploy] = &[
    // Shipping to the app stores: a production track, a submission for review, a store lane
    // (`fastlane ios release`), `eas submit` (the store consoles, unless its profile names a
    // non-production one), an EAS update or CodePush release to a production channel, and
    // `xcrun altool --upload-app`. Beta and internal tracks and TestFlight are ordinary.
    Deploy {
        tools: &["fastlane"],
        subs: STORE_ACTIONS,
        then: "",
        short_values: "",
        long_values: FASTLANE_LONG,
        markers: STORE_MARKERS,
    },
    Deploy {
        tools: &["fastlane"],
        subs: &["ios", "android", "mac"],
        then: "",
        short_values: "",
        long_values: FASTLANE_LONG,
        markers: &[Marker::OperandIn(1, STORE_LANES)],
    },
    Deploy {
        tools: &["fastlane"],
        subs: STORE_LANES,
        then: "",
        short_values: "",
        long_values: FASTLANE_LONG,
        markers: &[Marker::Always],
    },
    Deploy {
        tools: &["fastlane"],
        subs: &["run"],
        then: "",
        short_values: "",
        long_values: FASTLANE_LONG,
        markers: &[Marker::RunAction],
    },
    Deploy {
        tools: &["eas", "eas-cli"],
        subs: &["submit"],
        then: "",
        short_values: "pe",
        long_values: &["--platform", "--profile", "--path", "--id", "--url"],
        markers: &[Marker::Live {
            off: &[],
            targets: &["--profile", "-e"],
        }],
    },
    Deploy {
        tools: &["eas", "eas-cli"],
        subs: &["update"],
        then: "",
        short_values: "mp",
        long_values: &[
            "--branch",
            "--channel",
            "--message",
            "--platform",
            "--input-dir",
        ],
        markers: &[Marker::Options(&["--branch", "--channel"])],
    },
    Deploy {
        tools: &["expo"],
        subs: &["publish"],
        then: "",
        short_values: "c",
        long_values: &["--release-channel", "--target"],
        markers: &[Marker::Options(&["--release-channel", "-c"])],
    },
    Deploy {
        tools: &["appcenter"],
        subs: &["codepush"],
        then: "",
        short_values: "adtsc",
        long_values: &[
            "--app",
            "--deployment-name",
            "--target-binary-version",
            "--source-deployment-name",
            "--description",
            "--build-configuration-name",
            "--token",
        ],
        markers: &[Marker::Options(&["-d", "--deployment-name"])],
    },
    Deploy {
        tools: &["xcrun"],
        subs: &["altool"],
        then: "",
        short_values: "ftupk",
        long_values: &[
            "--sdk",
            "--toolchain",
            "--file",
            "--type",
            "--apiKey",
            "--apiIssuer",
        ],
        markers: &[Marker::Flags(&["--upload-app", "--upload-package"])],
    },
    Deploy {
        tools: &["vercel", "vc"],
        subs: &["", "deploy"],
        then: "",
        short_values: "tSAemb",
        long_values: VERCEL_LONG,
        markers: &[
            Marker::Flags(&["--prod", "--production"]),
            Marker::Options(&["--target"]),
        ],
    },
    // `vercel promote URL`, `vercel rollback`: the production domains move.
    Deploy {
        tools: &["vercel", "vc"],
        subs: &["promote", "rollback"],
        then: "",
        short_values: "tSA",
        long_values: VERCEL_LONG,
        markers: &[Marker::Always],
    },
    Deploy {
        tools: &["netlify", "ntl"],
        subs: &["deploy"],
        then: "",
        short_values: "damsfo",
        long_values: &[
            "--dir",
            "--alias",
            "--message",
            "--site",
            "--functions",
            "--auth",
            "--filter",
        ],
        markers: &[Marker::Flags(&[
            "--prod",
            "-p",
            "--prod-if-unlocked",
            "--prodIfUnlocked",
        ])],
    },
    // `firebase deploy` goes live in the project it targets: production unless the project
    // (or alias) names a non-production one (`-P staging`, `--project acme-dev`). Preview
    // channels are `hosting:channel:deploy`, another subcommand.
    Deploy {
        tools: &["firebase"],
        subs: &["deploy"],
        then: "",
        short_values: "Pm",
        long_values: &["--project", "--only", "--except", "--message", "--config"],
        markers: &[Marker::Live {
            off: &[],
            targets: &["--project", "-P"],
        }],
    },
    // `gcloud app deploy` promotes the new version to receive all traffic by default;
    // `--no-promote` uploads a version that serves nothing until promoted.
    Deploy {
        tools: &["gcloud"],
        subs: &["app"],
        then: "deploy",
        short_values: "",
        long_values: &[
            "--project",
            "--version",
            "--bucket",
            "--image-url",
            "--appyaml",
            "--account",
            "--configuration",
            "--verbosity",
            "--format",
        ],
        markers: &[Marker::Live {
            off: &["--no-promote"],
            targets: &["--project"],
        }],
    },
    // A cluster change aimed at a production context, cluster or namespace
    // (`kubectl --context prod-eu apply -f k8s/`, `helm upgrade api ./chart --kube-context
    // production`, `kubectl rollout restart deploy/api -n prod`).
    kube(&["kubectl", "oc"], KUBE_CHANGES, ""),
    kube(&["kubectl", "oc"], &["rollout"], "restart"),
    kube(&["kubectl", "oc"], &["rollout"], "undo"),
    kube(&["kubectl", "oc"], &["rollout"], "resume"),
    // Argo Rollouts' plugin moves a canary or blue-green release (`kubectl argo rollouts
    // promote api -n prod --full`, `abort`, `undo`, `set image`).
    kube(&["kubectl"], &["argo"], "rollouts"),
    kube(&["helm"], HELM_CHANGES, ""),
    // A stage, or a configuration file of the production stage (`-c serverless.prod.yml`,
    // `sam deploy --config-file samconfig.prod.toml`, `--parameter-overrides Stage=prod`).
    staged(
        &["serverless", "sls", "osls"],
        &["deploy"],
        "srcf",
        &[Marker::Options(&["--stage", "-s", "--config", "-c"])],
    ),
    staged(
        &["sam"],
        &["deploy", "sync"],
        "t",
        &[Marker::Options(&[
            "--config-env",
            "--stack-name",
            "--config-file",
            "--parameter-overrides",
            "--profile",
        ])],
    ),
    // Lambda code and configuration, ECS services, CloudFormation stacks, Beanstalk
    // environments and App Runner services: the operation replaces what runs live.
    aws("update-function-code", AWS_LAMBDA_MARKERS),
    aws("update-function-configuration", AWS_LAMBDA_MARKERS),
    aws("update-alias", AWS_LAMBDA_MARKERS),
    aws("put-function-concurrency", AWS_LAMBDA_MARKERS),
    aws("update-service", AWS_ECS_MARKERS),
    aws("deploy", AWS_STACK_MARKERS),
    aws("update-stack", AWS_STACK_MARKERS),
    aws("execute-change-set", AWS_STACK_MARKERS),
    aws("update-environment", AWS_EB_MARKERS),
    aws("start-deployment", AWS_APPRUNNER_MARKERS),
    staged(
        &["wrangler"],
        &["deploy", "publish"],
        "ec",
        &[Marker::Options(&["--env", "-e"])],
    ),
    staged(
        &["railway"],
        &["up", "redeploy", "deploy"],
        "es",
        &[Marker::Options(&["--environment", "-e"])],
    ),
    staged(
        &["pulumi"],
        &["up", "update"],
        "sCm",
        &[Marker::Options(&["--stack", "-s"])],
    ),
    staged(
        &["kamal"],
        &["deploy", "redeploy", "rollback"],
        "dcr",
        &[Marker::Options(&["--destination", "-d"])],
    ),
    // `fly deploy -a acme-prod`, `fly deploy -c fly.production.toml`: the app or its
    // configuration names production (a plain `fly deploy` is not guessed at).
    staged(
        &["fly", "flyctl"],
        &["deploy"],
        "aci",
        &[Marker::Options(&["-a", "--app", "-c", "--config"])],
    ),
    // `skaffold run -p prod`, `skaffold deploy --kube-context prod-eu`: a profile, context or
    // namespace that names production.
    staged(
        &["skaffold"],
        &["run", "deploy", "apply"],
        "pnfl",
        &[Marker::Options(&[
            "-p",
            "--profile",
            "--kube-context",
            "-n",
            "--namespace",
        ])],
    ),
    // `cdk deploy ProdStack`, `cdk deploy -c env=prod`: a stack whose name (its camel-case
    // parts too) or a context value names production.
    Deploy {
        tools: &["cdk", "cdktf"],
        subs: &["deploy", "destroy"],
        then: "",
        short_values: "ceo",
        long_values: &[
            "--context",
            "--profile",
            "--app",
            "--require-approval",
            "--outputs-file",
            "--parameters",
            "--toolkit-stack-name",
            "--role-arn",
            "--exclusively",
            "--method",
            "--change-set-name",
            "--concurrency",
            "--asset-parallelism",
        ],
        markers: &[
            Marker::Options(&["-c", "--context", "--profile"]),
            Marker::Stacks,
        ],
    },
    // Capistrano and Mina name the stage before the task: `cap production deploy`.
    Deploy {
        tools: &["cap", "mina"],
        subs: &["*"],
        then: "",
        short_values: "",
        long_values: &[],
        markers: &[Marker::Operand(0)],
    },
    // `heroku releases:rollback v341 -a acme-prod`: the production app's running release
    // replaced by an older one.
    Deploy {
        tools: &["heroku"],
        subs: &["releases:rollback", "rollback", "releases:promote"],
        then: "",
        short_values: "ar",
        long_values: &["--app", "--remote"],
        markers: &[Marker::Options(&["-a", "--app", "-r", "--remote"])],
    },
    // `heroku pipelines:promote`: the staging slug goes to the downstream (production) apps.
    Deploy {
        tools: &["heroku"],
        subs: &["pipelines:promote"],
        then: "",
        short_values: "art",
        long_values: &["--app", "--remote", "--to"],
        markers: &[Marker::Always],
    },
    // `gh workflow run deploy.yml -f environment=production` / `gh workflow run deploy-prod.yml`:
    // a deploy workflow started for production.
    Deploy {
        tools: &["gh"],
        subs: &["workflow"],
        then: "run",
        short_values: "fFrR",
        long_values: &["--field", "--raw-field", "--ref", "--repo", "--json"],
        markers: &[
            Marker::Options(&["-f", "-F", "--field", "--raw-field"]),
            Marker::Operand(2),
        ],
    },
    // `gh secret set KEY --env production`, `gh variable delete X -e prod`: the secrets and
    // variables of a production deployment environment changed (what the next release runs
    // with), as surely as a deploy.
    Deploy {
        tools: &["gh"],
        subs: &["secret", "variable"],
        then: "set",
        short_values: "abefoRrv",
        long_values: &[
            "--app",
            "--body",
            "--env",
            "--env-file",
            "--org",
            "--repo",
            "--repos",
            "--visibility",
        ],
        markers: &[Marker::Options(&["-e", "--env"])],
    },
    Deploy {
        tools: &["gh"],
        subs: &["secret", "variable"],
        then: "delete",
        short_values: "aeoR",
        long_values: &["--app", "--env", "--org", "--repo"],
        markers: &[Marker::Options(&["-e", "--env"])],
    },
    // `glab variable set KEY --scope production`: a GitLab CI variable of the production scope.
    Deploy {
        tools: &["glab"],
        subs: &["variable"],
        then: "set",
        short_values: "dgRsvt",
        long_values: &[
            "--description",
            "--group",
            "--repo",
            "--scope",
            "--value",
            "--type",
        ],
        markers: &[Marker::Options(&["-s", "--scope"])],
    },
    Deploy {
        tools: &["glab"],
        subs: &["variable"],
        then: "update",
        short_values: "dgRsvt",
        long_values: &[
            "--description",
            "--group",
            "--repo",
            "--scope",
            "--value",
            "--type",
        ],
        markers: &[Marker::Options(&["-s", "--scope"])],
    },
    Deploy {
        tools: &["glab"],
        subs: &["variable"],
        then: "delete",
        short_values: "gRs",
        long_values: &["--group", "--repo", "--scope"],
        markers: &[Marker::Options(&["-s", "--scope"])],
    },
    // `akamai property-manager activate -p www.acme.io --network PRODUCTION`: a property
    // version goes live on the production network.
    Deploy {
        tools: &["akamai"],
        subs: &["property-manager", "pm"],
        then: "activate",
        short_values: "pnec",
        long_values: &[
            "--property",
            "--network",
            "--email",
            "--section",
            "--edgerc",
            "--propver",
            "--note",
        ],
        markers: &[Marker::Options(&["-n", "--network"])],
    },
    // Salesforce: `sf project deploy start --target-org prod` deploys metadata (and, with
    // `--post-destructive-changes`, deletions) to the production org.
    Deploy {
        tools: &["sf", "sfdx"],
        subs: &["project"],
        then: "deploy",
        short_values: "oxdmlt",
        long_values: &[
            "--target-org",
            "--manifest",
            "--source-dir",
            "--metadata",
            "--test-level",
            "--tests",
            "--wait",
            "--api-version",
            "--pre-destructive-changes",
            "--post-destructive-changes",
        ],
        markers: &[Marker::Options(&["-o", "--target-org"])],
    },
    // Shopify: `shopify app deploy` releases the app's configuration and extensions to every
    // store that installed it (not with `--no-release`); `shopify theme publish` makes a theme
    // the live one.
    Deploy {
        tools: &["shopify"],
        subs: &["app"],
        then: "deploy",
        short_values: "",
        long_values: &[
            "--path",
            "--client-id",
            "--config",
            "--message",
            "--version",
            "--source-control-url",
        ],
        markers: &[Marker::Live {
            off: &["--no-release"],
            targets: &[],
        }],
    },
    // LaunchDarkly: `ldcli flags toggle-on|toggle-off --environment production` switches a
    // flag for every user of the production environment, a release without a deploy.
    Deploy {
        tools: &["ldcli"],
        subs: &["flags"],
        then: "toggle-on",
        short_values: "",
        long_values: LDCLI_LONG,
        markers: &[Marker::Options(&["--environment"])],
    },
    Deploy {
        tools: &["ldcli"],
        subs: &["flags"],
        then: "toggle-off",
        short_values: "",
        long_values: LDCLI_LONG,
        markers: &[Marker::Options(&["--environment"])],
    },
    // `shopify theme push --live` (`--allow-live`) uploads over the theme the store serves.
    Deploy {
        tools: &["shopify"],
        subs: &["theme"],
        then: "push",
        short_values: "stdx",
        long_values: &[
            "--store",
            "--theme",
            "--path",
            "--password",
            "--environment",
            "--only",
            "--ignore",
        ],
        markers: &[Marker::Flags(&["--live", "-l", "--allow-live", "-a"])],
    },
    Deploy {
        tools: &["shopify"],
        subs: &["theme"],
        then: "publish",
        short_values: "st",
        long_values: &[
            "--store",
            "--theme",
            "--path",
            "--password",
            "--environment",
        ],
        markers: &[Marker::Always],
    },
    // balena: `balena push FLEET` builds and releases to every device of the fleet; a
    // production-named fleet (`acme/prod-fleet`) is the live one (a local device's address
    // is development).
    Deploy {
        tools: &["balena"],
        subs: &["push"],
        then: "",
        short_values: "s",
        long_values: &[
            "--source",
            "--dockerfile",
            "--registry-secrets",
            "--release-tag",
            "--note",
        ],
        markers: &[Marker::Operand(1)],
    },
    // `dep deploy production` (Deployer), `vapor deploy production`, `eb deploy prod-env`.
    Deploy {
        tools: &["dep", "vapor", "eb"],
        subs: &["deploy"],
        then: "",
        short_values: "",
        long_values: &["--environment", "--profile", "--region", "--label"],
        markers: &[Marker::Operand(1)],
    },
];

/// Tools whose `SUB THEN` entry releases only with one of these third words: `sf project
/// deploy start|quick|resume` (not `validate`, a check-only deploy, nor `preview`, `report`,
/// `cancel`).
const RELEASING_THIRD: &[(&str, &[&str])] = &[
    ("sf", &["start", "quick", "resume"]),
    ("sfdx", &["start", "quick", "resume"]),
];

/// True when an environment, stage or stack name means production: `prod`, `production`,
/// `prd`, `live`, or such a word as a `-`/`_`/`/`/`.`/`:`/`=`-separated part (`prod-eu`,
/// `api_prod`, `acme/web/production`, a workflow input `environment=production`).
pub(crate) fn names_production(value: &str) -> bool {
    value
        .to_ascii_lowercase()
        .split(['-', '_', '/', '.', ':', '='])
        .any(|part| matches!(part, "prod" | "production" | "prd" | "live"))
}

/// True when an environment, stage or project name says it is not production: `staging`,
/// `dev`, `test`, `qa`, `preview`, `sandbox`, … as a part of the name (`acme-staging`).
fn names_nonproduction(value: &str) -> bool {
    value
        .to_ascii_lowercase()
        .split(['-', '_', '/', '.', ':', '='])
        .any(|part| {
            matches!(
                part,
                "staging"
                    | "stage"
                    | "stg"
                    | "dev"
                    | "develop"
                    | "development"
                    | "test"
                    | "testing"
                    | "qa"
                    | "uat"
                    | "preview"
                    | "sandbox"
                    | "local"
                    | "demo"
                    | "ci"
                    | "review"
            )
        })
}

/// `deploy.production` when `name words…` deploys to production (see the module doc).
/// The (first byte, length) shapes of [`DEPLOYS`]' tool names, one bit per length (63: any
/// longer): [`production_deploy`] runs for every command, and a name whose shape no tool has
/// is rejected without searching the tables.
const DEPLOY_TOOL_SHAPES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < DEPLOYS.len() {
        let tools = DEPLOYS[i].tools;
        let mut j = 0;
        while j < tools.len() {
            let b = tools[j].as_bytes();
            if !b.is_empty() {
                let len = if b.len() > 63 { 63 } else { b.len() };
                t[b[0] as usize] |= 1u64 << len;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Whether `name` may be one of [`DEPLOYS`]' tools (exact when it says no).
fn may_be_deploy_tool(name: &str) -> bool {
    name.as_bytes()
        .first()
        .is_none_or(|&b| DEPLOY_TOOL_SHAPES[usize::from(b)] & (1u64 << name.len().min(63)) != 0)
}

/// For each first byte, the [`DEPLOYS`] entries (bit `i`: entry `i`) with a tool starting
/// with it.
const DEPLOYS_BY_FIRST_BYTE: [u64; 256] = {
    assert!(
        DEPLOYS.len() <= 64,
        "DEPLOYS_BY_FIRST_BYTE holds 64 entries"
    );
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < DEPLOYS.len() {
        let tools = DEPLOYS[i].tools;
        let mut j = 0;
        while j < tools.len() {
            if let Some(&b) = tools[j].as_bytes().first() {
                t[b as usize] |= 1u64 << i;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// The [`DEPLOYS`] entries that list `name` as a tool, in table order. Why: a name that
/// passes [`may_be_deploy_tool`] (`npm` has the shape of `ntl`) was compared with every
/// entry's tools; only the entries with a tool of its first byte are visited now (the others
/// cannot list it), so the entries and their order are the full scan's.
fn deploys_of(name: &str) -> impl Iterator<Item = &'static Deploy> + '_ {
    let mut left = name
        .as_bytes()
        .first()
        .map_or(u64::MAX, |&b| DEPLOYS_BY_FIRST_BYTE[usize::from(b)]);
    std::iter::from_fn(move || {
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if let Some(d) = DEPLOYS.get(i)
                && is_one_of(name, d.tools)
            {
                return Some(d);
            }
        }
        None
    })
}

/// `tools.contains(&name)`, comparing each entry's length and first byte before its text:
/// every command that passes [`may_be_deploy_tool`] is looked for in every entry's tool list,
/// and most entries differ from it at the first byte.
fn is_one_of(name: &str, tools: &[&str]) -> bool {
    let first = name.as_bytes().first();
    tools
        .iter()
        .any(|t| t.len() == name.len() && t.as_bytes().first() == first && *t == name)
}

pub(crate) fn production_deploy(name: &str, words: &[Word]) -> Option<Verdict> {
    if !may_be_deploy_tool(name) {
        return None;
    }
    for d in deploys_of(name) {
        let (opts, mut operands) = scan(name, words, d.short_values, d.long_values);
        // `gcloud beta app deploy`: the release track is not the subcommand.
        if name == "gcloud"
            && operands
                .first()
                .is_some_and(|w| w.text == "beta" || w.text == "alpha")
        {
            operands.remove(0);
        }
        // A path operand (`vercel ./dist --prod`) is the project, not a subcommand.
        let sub = operands
            .first()
            .map(|w| w.text.as_str())
            .filter(|t| !t.starts_with('.') && !t.contains('/'))
            .unwrap_or("");
        let applies = d.subs.contains(&sub) || (d.subs.contains(&"*") && !sub.is_empty());
        if !applies || (!d.then.is_empty() && operands.get(1).is_none_or(|w| w.text != d.then)) {
            continue;
        }
        // A third word that decides whether anything is released (see [`RELEASING_THIRD`]).
        if let Some((_, words)) = RELEASING_THIRD.iter().find(|(tool, _)| *tool == name)
            && operands
                .get(2)
                .is_none_or(|w| !words.contains(&w.text.as_str()))
        {
            continue;
        }
        // A dry run (`--dry-run`, `--dry-run=server`; not `=none`/`=false`) releases nothing.
        if opts.iter().any(|o| {
            o.name == "--dry-run"
                && o.value
                    .as_ref()
                    .is_none_or(|v| !matches!(v.text.as_str(), "none" | "false"))
        }) {
            continue;
        }
        let production = d.markers.iter().any(|marker| match *marker {
            Marker::Always => true,
            Marker::Flags(flags) => opts.iter().any(|o| flags.contains(&o.name.as_str())),
            Marker::Options(names) => opts.iter().any(|o| {
                names.contains(&o.name.as_str())
                    && o.value
                        .as_ref()
                        .is_some_and(|v| v.exact && names_production(&v.text))
            }),
            Marker::Live { off, targets } => {
                // `--no-release=false` is no opt-out (an oclif boolean given `false`).
                !opts.iter().any(|o| {
                    off.contains(&o.name.as_str())
                        && o.value.as_ref().is_none_or(|v| v.text != "false")
                }) && !opts.iter().any(|o| {
                    targets.contains(&o.name.as_str())
                        && o.value
                            .as_ref()
                            .is_some_and(|v| v.exact && names_nonproduction(&v.text))
                })
            }
            Marker::Params(keys) => operands.iter().any(|w| store_param(w, keys)),
            Marker::RunAction => {
                operands
                    .get(1)
                    .is_some_and(|w| STORE_ACTIONS.contains(&w.text.as_str()))
                    && operands.iter().skip(2).any(|w| store_param(w, STORE_KEYS))
            }
            Marker::Stacks => operands.iter().skip(1).any(|w| {
                w.exact
                    && (names_production(&w.text)
                        || crate::taxonomy::names_verb(&w.text, &["prod", "production", "prd"]))
            }),
            Marker::OperandIn(i, words) => operands.get(i).is_some_and(|w| {
                w.exact && (words.contains(&w.text.as_str()) || names_production(&w.text))
            }),
            Marker::Operand(i) => {
                operands
                    .get(i)
                    .is_some_and(|w| w.exact && names_production(&w.text))
                    && (i > 0
                        || operands
                            .get(1)
                            .is_some_and(|t| t.text.starts_with("deploy")))
            }
        });
        if production {
            let mut v = ids::DEPLOY_PRODUCTION.verdict();
            if matches!(sub, "secret" | "variable") {
                "changes the secrets or variables of a production environment (what its next release runs with)"
                    .clone_into(&mut v.reason);
            }
            return Some(v);
        }
    }
    None
}

/// Words that make a task or script a release step (`make deploy`, `npm run deploy:prod`,
/// `./scripts/rollback.sh`), as a whole part of its name.
const RELEASE_WORDS: &[&str] = &[
    "deploy", "release", "rollout", "promote", "rollback", "ship", "cutover", "publish",
];

/// Task runners whose operand names the task they run.
const TASK_RUNNERS: &[&str] = &[
    "make",
    "gmake",
    "just",
    "task",
    "go-task",
    "mage",
    "rake",
    "invoke",
    "inv",
    "fab",
    "bazel",
    "bazelisk",
    "nx",
    "npm",
    "yarn",
    "pnpm",
    "bun",
    "ansible-playbook",
    "gradle",
    "gradlew",
];

/// Whether a Gradle task's name starts with a release word (`promoteReleaseArtifact`,
/// `publishReleaseBundle`, `:app:publishBundle`): Gradle tasks are camel case, their verb
/// the first lower-case run.
fn gradle_release_task(task: &str) -> bool {
    let task = task.rsplit(':').next().unwrap_or(task);
    let verb = task
        .find(|c: char| c.is_ascii_uppercase())
        .map_or(task, |end| task.get(..end).unwrap_or(task));
    RELEASE_WORDS.contains(&verb)
}

/// Whether a task or script name has a release word as a part (`deploy`, `deploy:prod`,
/// `deploy-production.sh`, `release_web`).
fn release_named(name: &str) -> bool {
    // Runs for every command name: compared without case, without allocating.
    name.split(['-', '_', ':', '.', '/'])
        .any(|part| RELEASE_WORDS.iter().any(|w| part.eq_ignore_ascii_case(w)))
}

/// `deploy.production` for a release step run through a task runner or a project script
/// when the line itself names production: `make deploy ENV=production`, `just deploy prod`,
/// `npm run deploy -- --env production`, `./scripts/deploy.sh --env prod --yes`,
/// `ansible-playbook -i inventories/production site.yml`. The task's name must say it
/// releases (`deploy`, `release`, `rollout`, `promote`, `rollback`, …; any playbook changes
/// its hosts) and an assignment, option value or operand must name production (the task's
/// own name counts: `make deploy-prod`). A task with no production word on the line is not
/// guessed at (`make release` builds release artifacts as often as it ships them); a dry run
/// (`make -n`, `--dry-run`, `ansible-playbook --check`) releases nothing.
pub(crate) fn runner_deploy(name: &str, words: &[Word]) -> Option<Verdict> {
    // Options whose value names where the release goes.
    const TARGET_OPTIONS: &[&str] = &[
        "--env",
        "-e",
        "--environment",
        "--stage",
        "-s",
        "--target",
        "-t",
        "--profile",
        "--context",
        "--cluster",
        "--inventory",
        "-i",
        "--limit",
        "-l",
        "--extra-vars",
        "--tier",
        "--configuration",
        "--app",
        "-a",
        // Gradle Play Publisher: the store track a bundle is published or promoted to.
        "--track",
        "--promote-track",
    ];
    let runner = TASK_RUNNERS.contains(&name);
    let script = !runner && release_named(name) && words.first().is_none_or(|w| w.text != "--help");
    if !runner && !script {
        return None;
    }
    let texts: Vec<&str> = words
        .iter()
        .filter(|w| w.exact)
        .map(|w| w.text.as_str())
        .collect();
    let dry = texts.iter().any(|t| {
        matches!(
            *t,
            "--dry-run" | "--check" | "--syntax-check" | "--list-hosts" | "--list-tasks" | "--help"
        ) || (matches!(name, "make" | "gmake")
            && (matches!(*t, "-n" | "--just-print" | "--recon")
                || (t.starts_with('-') && !t.starts_with("--") && t.contains('n') && t.len() <= 4)))
            || (name == "ansible-playbook" && *t == "-C")
    });
    if dry {
        return None;
    }
    // make's short options are flags of its own (`-e` environment overrides, `-t` touch,
    // `-s` silent, `-i` ignore errors): only long options name a target there.
    let make = matches!(name, "make" | "gmake");
    let gradle = matches!(name, "gradle" | "gradlew");
    let target_option = |o: &str| (!make || o.starts_with("--")) && TARGET_OPTIONS.contains(&o);
    let mut released = script || name == "ansible-playbook";
    let mut production = false;
    let mut it = texts.iter().peekable();
    while let Some(&t) = it.next() {
        if matches!(t, "--prod" | "--production") {
            production = true;
        } else if let Some((opt, value)) = t.split_once('=').filter(|(o, _)| o.starts_with('-')) {
            production |= target_option(opt) && names_production(value);
        } else if target_option(t) {
            if let Some(&&value) = it.peek() {
                production |= names_production(value);
                it.next();
            }
        } else if t.starts_with('-') {
        } else if let Some((key, value)) = t.split_once('=') {
            // `ENV=production`, `STAGE=prod` (make's and rake's variable operands).
            production |= !key.is_empty() && names_production(value);
        } else {
            // An operand: the task (`deploy`, `deploy:prod`), a stage (`production`), a
            // playbook or inventory path.
            released |= release_named(t) || (gradle && gradle_release_task(t));
            production |= names_production(t);
        }
    }
    (released && production).then(|| ids::DEPLOY_PRODUCTION.verdict())
}

/// `k8s.scale_zero` (`kubectl scale`), read for what it scales to and where. A known
/// replica count above zero outside production (`--replicas=3`, `-n dev`) is capacity work:
/// ordinary. Zero replicas stops the workload and asks unless the context or namespace names
/// a non-production environment (`--replicas=0 -n dev`); a production context or namespace
/// keeps the rule whatever the count (and `production_deploy` adds `deploy.production`); a
/// count known only at run time keeps it too.
pub(crate) fn scale_verdict(v: Verdict, name: &str, words: &[Word]) -> Verdict {
    let (opts, _) = scan(name, words, "nlfocpL", KUBE_LONG);
    let place = |o: &crate::deferred::Opt| {
        matches!(
            o.name.as_str(),
            "--context" | "--kube-context" | "--cluster" | "--namespace" | "-n"
        )
    };
    let values = |test: fn(&str) -> bool| {
        opts.iter()
            .any(|o| place(o) && o.value.as_ref().is_none_or(|w| !w.exact || test(&w.text)))
    };
    let replicas = opts
        .iter()
        .rev()
        .find(|o| o.name == "--replicas")
        .and_then(|o| o.value.as_ref())
        .filter(|w| w.exact)
        .and_then(|w| w.text.parse::<u64>().ok());
    // Unknown (`-n "$NS"`) counts as possibly production.
    let production = values(names_production);
    let nonproduction = opts.iter().any(|o| {
        place(o)
            && o.value
                .as_ref()
                .is_some_and(|w| w.exact && names_nonproduction(&w.text))
    });
    match replicas {
        Some(n) if n > 0 && !production => Verdict::normal(format!(
            "scales workloads to {n} replicas outside production"
        )),
        Some(0) if nonproduction && !production => Verdict::normal(
            "scales a non-production workload to zero (its context or namespace names a development environment)",
        ),
        _ => v,
    }
}

#[cfg(test)]
mod tests {
    use super::names_production;

    #[test]
    fn production_names_are_whole_parts_of_the_name() {
        for v in [
            "prod",
            "Production",
            "prod-eu",
            "api_prod",
            "acme/web/production",
            "live",
        ] {
            assert!(names_production(v), "{v}");
        }
        for v in [
            "dev", "staging", "preview", "product", "produce", "delivery", "pr-42",
        ] {
            assert!(!names_production(v), "{v}");
        }
    }
}

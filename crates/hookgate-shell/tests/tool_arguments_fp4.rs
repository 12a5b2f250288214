//! Tool arguments read as the tool reads them (wt-fp4). HTTP clients' methods with each
//! tool's own grammar (`src/cli`): curl, wget,
//! HTTPie/xh and `gh api` decide the method, the URLs and any rerouting exactly as the tool
//! reads its command line — clusters (`-sSfX DELETE`), attached values (`-XDELETE`, pflag's
//! `-X=DELETE`), unique abbreviations (`--write-o`, `--meth=`), ambiguous ones read as each
//! candidate (`curl --req DELETE`), value-taking options whose values are not URLs or methods
//! (`--max-t 5`, httpie's `-p HB`, `-v` a switch). One line per case: `(command, action, rule id
//! or "-")`, benign lines next to the dangerous neighbours that keep their rule. Also git
//! refspecs that publish replacement refs.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

const DELETE: &str = "net.http_delete";
const OVERWRITE: &str = "net.http_overwrite";

/// curl: every spelling curl accepts of `-X DELETE` towards a remote host asks; towards this
/// machine (a dev server) it does not, whatever value-taking options sit between — their
/// values are values, not URLs.
#[test]
fn curl_method_is_read_by_curls_own_grammar() {
    table(&[
        (
            "curl -X DELETE https://api.example.com/v1/users/1",
            ASK,
            DELETE,
        ),
        (
            "curl -XDELETE https://api.example.com/v1/users/1",
            ASK,
            DELETE,
        ),
        (
            "curl -sSfX DELETE https://api.example.com/v1/users/1",
            ASK,
            DELETE,
        ),
        (
            "curl -sSfXDELETE https://api.example.com/v1/users/1",
            ASK,
            DELETE,
        ),
        (
            "curl --request DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        ("curl -X delete https://api.example.com/1", ASK, DELETE),
        (
            "curl -X PATCH -d '{}' https://api.example.com/1",
            ASK,
            OVERWRITE,
        ),
        ("curl https://api.example.com/1 -X PUT", ASK, OVERWRITE),
        (
            "curl -X DELETE --url https://api.example.com/1",
            ASK,
            DELETE,
        ),
        ("curl -X DELETE --ur https://api.example.com/1", ASK, DELETE),
        // An ambiguous abbreviation (`request`, `request-target`): curl >= 7.55 refuses it,
        // an older one reads `--request`; judged as either.
        ("curl --req DELETE https://api.example.com/1", ASK, DELETE),
        ("curl --reque DELETE https://api.example.com/1", ASK, DELETE),
        // Several URLs: one remote is enough.
        (
            "curl -X DELETE http://localhost:3000/1 https://api.example.com/1",
            ASK,
            DELETE,
        ),
        (
            "curl -X DELETE http://localhost:3000/1 -: https://api.example.com/1",
            ASK,
            DELETE,
        ),
        // Loopback names reached another way.
        (
            "curl -X DELETE -x http://proxy:3128 http://localhost:3000/1",
            ASK,
            DELETE,
        ),
        (
            "curl -X DELETE --prox http://proxy:3128 http://localhost:3000/1",
            ASK,
            DELETE,
        ),
        (
            "curl -X DELETE --resol localhost:80:10.0.0.5 http://localhost/1",
            ASK,
            DELETE,
        ),
        (
            "curl -X DELETE --unix-socket /tmp/app.sock http://localhost/containers/x",
            ASK,
            DELETE,
        ),
        (
            "curl -X DELETE -K opts.txt http://localhost:3000/1",
            ASK,
            DELETE,
        ),
        ("curl -X DELETE \"$URL\"", ASK, DELETE),
        (
            "curl -X DELETE http://localhost@evil.example/1",
            ASK,
            DELETE,
        ),
        // Local development: the agent's own dev server.
        (
            "curl -X DELETE http://localhost:3000/api/items/1",
            ALLOW,
            "-",
        ),
        ("curl -XDELETE 127.0.0.1:8080/api/items/1", ALLOW, "-"),
        (
            "curl -sS -X DELETE --write-o '%{http_code}' http://localhost:3000/1",
            ALLOW,
            "-",
        ),
        (
            "curl -X DELETE --max-t 5 http://localhost:3000/1",
            ALLOW,
            "-",
        ),
        (
            "curl -X DELETE --retry-max 3 http://localhost:3000/1",
            ALLOW,
            "-",
        ),
        ("curl -X DELETE -i http://localhost:3000/1", ALLOW, "-"),
        (
            "curl -X DELETE -e http://ref.example http://localhost:3000/1",
            ALLOW,
            "-",
        ),
        (
            "curl -X DELETE --oauth2-bearer t http://localhost:3000/1",
            ALLOW,
            "-",
        ),
        (
            "curl -X PUT -H 'Content-Type: application/json' -d '{}' localhost:9200/test-index",
            ALLOW,
            "-",
        ),
        (
            "curl -X DELETE -X GET https://api.example.com/1",
            ALLOW,
            "-",
        ),
        ("curl -X POST -d '{}' https://api.example.com/1", ALLOW, "-"),
        (
            "curl -sSfL https://api.github.com/repos/o/r/releases/latest",
            ALLOW,
            "-",
        ),
        // curl never takes `--name=value`: it stops with "option unknown", sending nothing.
        (
            "curl --request=DELETE https://api.example.com/1",
            ALLOW,
            "-",
        ),
    ]);
}

/// wget: GNU getopt abbreviations and `=` values.
#[test]
fn wget_method_is_read_by_wgets_own_grammar() {
    table(&[
        (
            "wget --method=DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        (
            "wget --method DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        ("wget --meth=DELETE https://api.example.com/1", ASK, DELETE),
        (
            "wget --metho PUT --body-data=x https://api.example.com/1",
            ASK,
            OVERWRITE,
        ),
        (
            "wget --method=DELETE -e use_proxy=on http://localhost/1",
            ASK,
            DELETE,
        ),
        (
            "wget --method=DELETE -O- http://localhost:8000/1",
            ALLOW,
            "-",
        ),
        (
            "wget --method=DELETE --head='a: b' http://localhost/1",
            ALLOW,
            "-",
        ),
        ("wget -qO- https://example.com/file.json", ALLOW, "-"),
    ]);
}

/// `gh api`: pflag knows whole names only (`--meth` is an error: nothing is sent), and reads
/// `-X=DELETE` as `-X DELETE`.
#[test]
fn gh_api_method_is_read_by_pflags_rules() {
    table(&[
        ("gh api -X DELETE repos/o/r", ASK, DELETE),
        ("gh api -XDELETE repos/o/r", ASK, DELETE),
        ("gh api -X=DELETE repos/o/r", ASK, DELETE),
        ("gh api -iX DELETE repos/o/r", ASK, DELETE),
        ("gh api --method=DELETE repos/o/r", ASK, DELETE),
        ("gh api repos/o/r --method DELETE", ASK, DELETE),
        // Round 23: a PATCH of one pull request is `gh pr edit` (round23_lead); the
        // repository itself keeps the rule.
        ("gh api -X PATCH repos/o/r -F private=false", ASK, OVERWRITE),
        ("gh api -X PATCH repos/o/r/pulls/1 -f title=x", ALLOW, "-"),
        (
            "gh api -X GET repos/o/r/branches --jq '.[].name'",
            ALLOW,
            "-",
        ),
        ("gh api --paginate repos/o/r/issues", ALLOW, "-"),
        ("gh api -X POST repos/o/r/issues -f title=x", ALLOW, "-"),
        ("gh api -q .login user", ALLOW, "-"),
        ("gh api --meth DELETE repos/o/r", ALLOW, "-"),
    ]);
}

/// HTTPie and xh: `[METHOD] URL [ITEM…]` after options read with their grammar (`-v` is a
/// switch, `-p`/`--print` takes a value, argparse abbreviations); `--offline` sends nothing;
/// after an option the table does not know, the next operand may be the method too.
#[test]
fn httpie_method_is_the_first_letters_only_operand_after_its_options() {
    table(&[
        ("http DELETE https://api.example.com/1", ASK, DELETE),
        ("http delete api.example.com/1", ASK, DELETE),
        ("https DELETE api.example.com/1", ASK, DELETE),
        ("xh delete https://api.example.com/1", ASK, DELETE),
        ("xhs put api.example.com/1 a=1", ASK, OVERWRITE),
        ("http -v DELETE https://api.example.com/1", ASK, DELETE),
        ("xh -v delete https://api.example.com/1", ASK, DELETE),
        ("http -p HB DELETE https://api.example.com/1", ASK, DELETE),
        ("http -pHB DELETE https://api.example.com/1", ASK, DELETE),
        (
            "http --print=HB DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        ("http --verb DELETE https://api.example.com/1", ASK, DELETE),
        (
            "http --auth a:b DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        ("http -a a:b DELETE https://api.example.com/1", ASK, DELETE),
        (
            "http DELETE https://api.example.com/1 --verify=no",
            ASK,
            DELETE,
        ),
        (
            "http --frobnicate x DELETE https://api.example.com/1",
            ASK,
            DELETE,
        ),
        (
            "http --proxy http:http://p:3128 DELETE :3000/1",
            ASK,
            DELETE,
        ),
        (
            "xh --unix-socket /tmp/app.sock DELETE http://localhost/containers/x",
            ASK,
            DELETE,
        ),
        ("http DELETE :3000/api/items/1", ALLOW, "-"),
        ("xh DELETE localhost:3000/1", ALLOW, "-"),
        ("http -v PUT :8080/api/x a=1", ALLOW, "-"),
        (
            "http --offline DELETE https://api.example.com/1",
            ALLOW,
            "-",
        ),
        (
            "http GET https://api.example.com/1 'X-Method:DELETE'",
            ALLOW,
            "-",
        ),
        ("http --print=HB GET https://api.example.com/1", ALLOW, "-"),
        ("http POST https://api.example.com/items name=x", ALLOW, "-"),
        ("http https://api.example.com/1", ALLOW, "-"),
        ("xh get httpbin.org/json", ALLOW, "-"),
    ]);
}

/// Publishing replacement refs substitutes history for every clone that fetches them, the
/// same question as creating one (`git.replace_object`); pushing branches and tags, listing
/// or deleting local replacements stay ordinary.
#[test]
fn pushing_replacement_refs_is_asked_like_creating_them() {
    table(&[
        (
            "git push origin 'refs/replace/*'",
            ASK,
            "git.replace_object",
        ),
        (
            "git push origin 'refs/replace/*:refs/replace/*'",
            ASK,
            "git.replace_object",
        ),
        (
            "git push origin '+refs/replace/*:refs/replace/*'",
            DENY,
            "git.push_force_refspec",
        ),
        (
            "git push origin HEAD:refs/replace/0123abcd",
            ASK,
            "git.replace_object",
        ),
        (
            "git push -u origin feature/x refs/replace/0123abcd",
            ASK,
            "git.replace_object",
        ),
        ("git replace 0123abcd 4567ef01", ASK, "git.replace_object"),
        ("git push -u origin HEAD", ALLOW, "-"),
        ("git push origin feature/x:feature/x", ALLOW, "-"),
        ("git push origin v1.2.3", ASK, "git.push_release_tag"),
        ("git push origin refs/heads/feature/x", ALLOW, "-"),
        ("git replace -l", ALLOW, "-"),
        ("git replace -d 0123abcd", ALLOW, "-"),
        (
            "git fetch origin 'refs/replace/*:refs/replace/*'",
            ALLOW,
            "-",
        ),
    ]);
}

/// Where a qualifier names another database (MySQL, ClickHouse, CQL), a statement whose one
/// object is qualified acts on that database alone: with no database connected, a qualified
/// test database is routine; an unqualified object, several objects or a production
/// qualifier keep the verdict.
#[test]
fn a_qualified_object_is_judged_by_its_own_database() {
    table(&[
        (
            "mysql -uroot -e 'TRUNCATE TABLE app_test.sessions'",
            ALLOW,
            "-",
        ),
        (
            "mysql -uroot -e 'DROP TABLE IF EXISTS app_test.users'",
            ALLOW,
            "-",
        ),
        ("mysql -uroot -e 'DELETE FROM app_dev.jobs'", ALLOW, "-"),
        ("mariadb -e 'DROP TABLE `app_test`.`users`'", ALLOW, "-"),
        ("cqlsh localhost -e 'TRUNCATE app_test.events'", ALLOW, "-"),
        ("mysql -uroot -e 'TRUNCATE TABLE sessions'", ASK, "db.drop"),
        (
            "mysql -uroot -e 'TRUNCATE TABLE shop.sessions'",
            ASK,
            "db.drop",
        ),
        ("mysql -uroot -e 'DROP TABLE app_test.a, b'", ASK, "db.drop"),
        (
            "mysql -uroot -e 'TRUNCATE TABLE app_test.a; TRUNCATE TABLE b'",
            ASK,
            "db.drop",
        ),
        (
            "mysql -uroot -e 'TRUNCATE TABLE app_prod.sessions'",
            DENY,
            "db.drop",
        ),
        (
            "mysql -h db.internal -e 'TRUNCATE TABLE app_test.sessions'",
            DENY,
            "db.drop",
        ),
        // PostgreSQL's qualifier is a schema of the connected (here unnamed) database.
        (
            "psql -h localhost -c 'TRUNCATE public.users'",
            ASK,
            "db.drop",
        ),
    ]);
}

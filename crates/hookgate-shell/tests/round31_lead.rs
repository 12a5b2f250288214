//! Round 31's lead decisions in the shell analyzer: volumes and broker queues on this
//! machine's daemon are judged by their names as local databases are (lead31-1). One line per
//! case, `(command, expected action, expected rule id, "-" for none or "*" for any)`.
//! Workspace `/home/user/project`, home `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// A volume removed on this machine's daemon is judged by its name, as a local database is:
/// a test or development name is routine, another name asks, a production-shaped name, another
/// daemon or a prune of every unused volume keeps the deny.
#[test]
fn local_volumes_are_judged_by_their_names_like_local_databases() {
    const VOL: &str = "docker.volume_rm";
    const DOWN: &str = "docker.compose_down_volumes";
    table(&[
        ("docker volume rm app_pgdata_dev", ALLOW, "-"),
        ("docker volume rm -f myproj_test_db myproj_ci_cache", ALLOW, "-"),
        ("podman volume rm scratch-data", ALLOW, "-"),
        ("docker volume rm app_pgdata", ASK, VOL),
        ("docker volume rm app_pgdata_dev app_pgdata", ASK, VOL),
        ("docker volume rm $(docker volume ls -q)", DENY, VOL),
        ("docker volume rm pgdata_prod", DENY, VOL),
        ("docker volume rm app_test pgdata_prod", DENY, VOL),
        ("docker -H ssh://db.internal volume rm app_dev", DENY, VOL),
        ("DOCKER_HOST=tcp://10.0.0.5:2376 docker volume rm app_dev", DENY, VOL),
        ("docker volume prune -af", DENY, VOL),
        ("docker compose down -v", ASK, DOWN),
        ("docker compose down -v --remove-orphans", ASK, DOWN),
        ("docker compose -f docker-compose.dev.yml down -v", ALLOW, "-"),
        ("docker compose -p shop_test down --volumes", ALLOW, "-"),
        ("COMPOSE_PROJECT_NAME=shop_e2e docker compose down -v", ALLOW, "-"),
        ("docker compose -f docker-compose.prod.yml down -v", DENY, DOWN),
        ("docker compose --project-name=live down -v", DENY, DOWN),
        (
            "docker compose -f docker-compose.yml -f compose.test.yml down -v",
            ASK,
            DOWN,
        ),
        ("docker-compose -p app_dev down -v", ALLOW, "-"),
        ("docker-compose down -v", ASK, "docker.compose_v1_down_volumes"),
        ("docker compose down", ALLOW, "-"),
    ]);
}

/// A broker inside a container of this machine's daemon is the compose project's own: its
/// test queues are purged as routine, other queues ask, production-shaped names keep the deny;
/// a broker reached any other way keeps the rule as before.
#[test]
fn local_container_brokers_are_judged_like_local_databases() {
    const RULE: &str = "db.broker_delete";
    table(&[
        (
            "docker compose exec rabbitmq rabbitmqctl purge_queue test_jobs",
            ALLOW,
            "-",
        ),
        (
            "docker compose exec -T rabbitmq rabbitmqctl delete_queue dev.emails",
            ALLOW,
            "-",
        ),
        (
            "docker exec broker nats stream rm ORDERS_TEST -f",
            ALLOW,
            "-",
        ),
        (
            "docker compose exec rabbitmq rabbitmqctl purge_queue orders",
            ASK,
            RULE,
        ),
        (
            "docker compose exec rabbitmq rabbitmqctl purge_queue -p prod_vhost test_jobs",
            DENY,
            RULE,
        ),
        (
            "docker compose exec rabbitmq rabbitmqctl purge_queue orders_prod",
            DENY,
            RULE,
        ),
        ("rabbitmqctl purge_queue test_jobs", DENY, RULE),
        (
            "ssh mq.internal rabbitmqctl purge_queue test_jobs",
            DENY,
            RULE,
        ),
        (
            "kubectl exec rabbitmq-0 -- rabbitmqctl purge_queue test_jobs",
            DENY,
            RULE,
        ),
    ]);
}

//! Database locality (`src/dbtarget.rs`): a destructive database command is judged by where
//! its client connects and what the database is for. One line per case, `(command, expected
//! action, expected rule id or "-")`, each benign local test case beside the remote,
//! unresolved and production neighbours that keep their rule, and the local database of
//! another or no name that asks.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}

/// PostgreSQL: host from `-h`, URIs, conninfo and `PGHOST`; the database from `-d`, the
/// operand, `DROP DATABASE x` and `\c x`.
#[test]
fn postgres_drops_are_routine_only_on_a_local_test_database() {
    table(&[
        ("dropdb -h localhost app_test", ALLOW, "-"),
        ("dropdb -h localhost --if-exists app_test", ALLOW, "-"),
        ("dropdb app_test", ALLOW, "-"),
        (
            "dropdb -h 127.0.0.1 -p 5433 -U postgres myapp_development",
            ALLOW,
            "-",
        ),
        ("dropdb -h /var/run/postgresql app_ci", ALLOW, "-"),
        ("PGHOST=localhost dropdb app_test", ALLOW, "-"),
        (
            "dropdb --maintenance-db=postgres -h localhost app_test",
            ALLOW,
            "-",
        ),
        (
            "dropdb --maintenance-db='host=db.internal dbname=postgres' app_test",
            DENY,
            "db.dropdb",
        ),
        ("dropdb -h db.internal app_test", DENY, "db.dropdb"),
        ("PGHOST=db.prod dropdb app_test", DENY, "db.dropdb"),
        ("dropdb -h \"$DB_HOST\" app_test", DENY, "db.dropdb"),
        ("dropdb app_prod", DENY, "db.dropdb"),
        ("dropdb -h localhost live", DENY, "db.dropdb"),
        ("dropdb app", ASK, "db.dropdb"),
        (
            "psql -h 127.0.0.1 -U postgres -c 'DROP DATABASE IF EXISTS app_test'",
            ALLOW,
            "-",
        ),
        (
            "psql -h localhost -d postgres -c 'DROP DATABASE IF EXISTS app_test'",
            ALLOW,
            "-",
        ),
        (
            "psql -h localhost -d app_test -c 'TRUNCATE users'",
            ALLOW,
            "-",
        ),
        (
            "psql postgresql://postgres@localhost:5432/app_test -c 'TRUNCATE users'",
            ALLOW,
            "-",
        ),
        (
            "psql \"host=localhost dbname=app_test\" -c 'DROP TABLE users'",
            ALLOW,
            "-",
        ),
        ("psql app_dev -c 'DELETE FROM users'", ALLOW, "-"),
        (
            "psql -h localhost -d app_prod -c 'TRUNCATE users'",
            DENY,
            "db.drop",
        ),
        (
            "psql -h db.internal -d app_test -c 'TRUNCATE users'",
            DENY,
            "db.drop",
        ),
        (
            "psql -h app.abc.us-east-1.rds.amazonaws.com -d app_test -c 'DROP TABLE users'",
            DENY,
            "db.drop",
        ),
        (
            "psql postgresql://app@db.internal/app_test -c 'DROP TABLE users'",
            DENY,
            "db.drop",
        ),
        (
            "psql \"$DATABASE_URL\" -c 'DROP TABLE users'",
            DENY,
            "db.drop",
        ),
        (
            "psql -h localhost -d postgres -c 'DROP DATABASE app_production'",
            DENY,
            "db.drop",
        ),
        ("psql -c 'DROP DATABASE app'", ASK, "db.drop"),
        ("psql -h localhost -c 'TRUNCATE users'", ASK, "db.drop"),
        (
            "psql -h db.internal -c 'DELETE FROM users'",
            ASK,
            "db.delete_all",
        ),
    ]);
}

/// A `\c` or `USE` switches the database later statements act on, across `-c` texts and on
/// stdin: the switched-to database is the one judged.
#[test]
fn a_database_switch_in_the_sql_moves_the_target() {
    table(&[
        (
            "psql -h localhost -d app_test -c '\\c app_prod' -c 'TRUNCATE users'",
            DENY,
            "db.drop",
        ),
        (
            "printf '\\\\c app_prod\\nTRUNCATE users;\\n' | psql -h localhost app_test",
            DENY,
            "db.drop",
        ),
        (
            "psql -h localhost -d postgres -c '\\c app_test' -c 'TRUNCATE users'",
            ALLOW,
            "-",
        ),
        (
            "mysql -h 127.0.0.1 -e 'USE app_test; TRUNCATE TABLE users'",
            ALLOW,
            "-",
        ),
        (
            "mysql -h 127.0.0.1 -e 'USE shop; TRUNCATE TABLE users'",
            ASK,
            "db.drop",
        ),
    ]);
}

/// What the SQL itself reaches beyond the connection's database keeps the target unknown or
/// takes its role: a qualified name in MySQL/CQL (another database or keyspace), a file
/// SQLite attaches, a `\c` to another host, an included script, a service or option file
/// that chooses the host, a second connection opened from MongoDB's shell.
#[test]
fn what_the_sql_reaches_beyond_the_connection_counts() {
    table(&[
        (
            "mysql -h 127.0.0.1 app_test -e 'DROP TABLE app_prod.users'",
            DENY,
            "db.drop",
        ),
        (
            "mysql -h 127.0.0.1 app_test -e 'TRUNCATE TABLE shop.orders'",
            ASK,
            "db.drop",
        ),
        (
            "mysql -h 127.0.0.1 app_test -e 'TRUNCATE TABLE app_test.orders'",
            ALLOW,
            "-",
        ),
        ("cqlsh localhost -e 'TRUNCATE prod.events'", DENY, "db.drop"),
        (
            "psql -h localhost -d app_test -c 'TRUNCATE public.users'",
            ALLOW,
            "-",
        ),
        (
            "sqlite3 test.db \"ATTACH 'prod.db' AS p; DROP TABLE p.users\"",
            DENY,
            "db.drop",
        ),
        (
            "sqlite3 test.db \"ATTACH 'data.db' AS d; DROP TABLE d.users\"",
            ASK,
            "db.drop",
        ),
        (
            "psql -h localhost -d app_test -c '\\c app_test app db.internal' -c 'TRUNCATE users'",
            ASK,
            "db.drop",
        ),
        (
            "psql -h localhost -d app_test -c '\\i other.sql' -c 'TRUNCATE users'",
            ASK,
            "db.drop",
        ),
        (
            "psql -h localhost -d app_test -f setup.sql -c 'TRUNCATE users'",
            ASK,
            "db.drop",
        ),
        (
            "psql \"service=ci dbname=app_test\" -c 'TRUNCATE users'",
            DENY,
            "db.drop",
        ),
        (
            "PGSERVICE=shared psql -d app_test -c 'TRUNCATE users'",
            DENY,
            "db.drop",
        ),
        (
            "mysql --defaults-file=remote.cnf -e 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "mysql --login-path=ci app_test -e 'TRUNCATE TABLE users'",
            DENY,
            "db.drop",
        ),
        (
            "mongosh app_test --eval 'connect(\"mongodb://prod.example.com/app\").dropDatabase()'",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh --eval \"db.getMongo().getDB('app_prod').dropDatabase()\"",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh --eval 'db.getSiblingDB(name).dropDatabase()'",
            ASK,
            "db.mongo_drop",
        ),
    ]);
}

/// `pg_restore --clean` drops what the dump holds in the target first (`db.restore_clean`).
#[test]
fn restore_clean_is_judged_by_its_target() {
    table(&[
        (
            "pg_restore --clean -h localhost -d app_test dump.pgdump",
            ALLOW,
            "-",
        ),
        ("pg_restore -c -d app_dev dump.pgdump", ALLOW, "-"),
        ("pg_restore -d app_test dump.pgdump", ALLOW, "-"),
        ("pg_restore --clean -f out.sql dump.pgdump", ALLOW, "-"),
        (
            "pg_restore --clean -h db.internal -d app dump.pgdump",
            DENY,
            "db.restore_clean",
        ),
        (
            "pg_restore -c -d app_prod dump.pgdump",
            DENY,
            "db.restore_clean",
        ),
        (
            "pg_restore --clean -d app dump.pgdump",
            ASK,
            "db.restore_clean",
        ),
        (
            "pg_restore --clean --create -d app_test dump.pgdump",
            ASK,
            "db.restore_clean",
        ),
    ]);
}

/// MySQL/MariaDB: `-h`, `-S` sockets, `MYSQL_HOST`, `mysqladmin drop NAME`.
#[test]
fn mysql_drops_are_routine_only_on_a_local_test_database() {
    table(&[
        (
            "mysql -h 127.0.0.1 -u root -e 'DROP DATABASE app_test'",
            ALLOW,
            "-",
        ),
        (
            "mysql -S /tmp/mysql.sock -e 'DROP DATABASE IF EXISTS app_test'",
            ALLOW,
            "-",
        ),
        (
            "mysql -uroot app_test -e 'TRUNCATE TABLE users'",
            ALLOW,
            "-",
        ),
        ("mysqladmin -u root -f drop app_test", ALLOW, "-"),
        (
            "mysql -u dev -pchangeme -h 127.0.0.1 -e 'DROP DATABASE app_test'",
            ALLOW,
            "-",
        ),
        ("mysql -u root -e 'DROP DATABASE shop'", ASK, "db.drop"),
        (
            "mysql -h prod-db.example.com -e 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "MYSQL_HOST=db.internal mysql -e 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        ("mysql -uroot -e 'DROP DATABASE app_prod'", DENY, "db.drop"),
        (
            "mysqladmin -h db.internal -f drop app_test",
            DENY,
            "db.mysqladmin_drop",
        ),
        ("mysqladmin -f drop app_prod", DENY, "db.mysqladmin_drop"),
        ("mysqladmin -f drop shop", ASK, "db.mysqladmin_drop"),
    ]);
}

/// MongoDB: URIs (`mongodb+srv://` is a cluster), `host/db` operands, `getSiblingDB('x')`.
#[test]
fn mongo_drops_are_routine_only_on_a_local_test_database() {
    table(&[
        (
            "mongosh mongodb://localhost:27017/app_test --eval 'db.dropDatabase()'",
            ALLOW,
            "-",
        ),
        ("mongosh app_test --eval 'db.dropDatabase()'", ALLOW, "-"),
        (
            "mongosh --eval \"db.getSiblingDB('app_test').dropDatabase()\"",
            ALLOW,
            "-",
        ),
        (
            "mongosh localhost/app_test --eval 'db.users.deleteMany({})'",
            ALLOW,
            "-",
        ),
        (
            "mongosh \"mongodb+srv://cluster0.example.net/app_test\" --eval 'db.dropDatabase()'",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh mongodb://db.internal/app_test --eval 'db.dropDatabase()'",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh --host db.internal app_test --eval 'db.dropDatabase()'",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh mongodb://localhost/app_prod --eval 'db.dropDatabase()'",
            DENY,
            "db.mongo_drop",
        ),
        (
            "mongosh --eval \"db.getSiblingDB('app').orders.drop()\"",
            ASK,
            "db.mongo_drop",
        ),
        ("mongosh --eval 'db.dropDatabase()'", ASK, "db.mongo_drop"),
    ]);
}

/// Redis has numbered databases, never named ones: a local flush asks, a remote one denies.
#[test]
fn redis_flushes_ask_locally_and_deny_remotely() {
    table(&[
        ("redis-cli -h localhost FLUSHALL", ASK, "db.redis_flush"),
        ("redis-cli FLUSHALL", ASK, "db.redis_flush"),
        (
            "redis-cli -s /tmp/redis.sock flushdb",
            ASK,
            "db.redis_flush",
        ),
        (
            "redis-cli -h cache.internal FLUSHALL",
            DENY,
            "db.redis_flush",
        ),
        (
            "redis-cli -u redis://cache.prod.internal:6379/0 flushdb",
            DENY,
            "db.redis_flush",
        ),
        (
            "redis-cli -h \"$REDIS_HOST\" FLUSHALL",
            DENY,
            "db.redis_flush",
        ),
        ("redis-cli -h localhost ping", ALLOW, "-"),
    ]);
}

/// Cassandra (`cqlsh HOST`), SQLite files (local by definition, the file name says what for).
#[test]
fn cql_and_sqlite_drops_are_judged_by_host_and_file_name() {
    table(&[
        ("cqlsh localhost -e 'DROP KEYSPACE app_test'", ALLOW, "-"),
        ("cqlsh -e 'DROP KEYSPACE app_test'", ALLOW, "-"),
        (
            "cqlsh cassandra.internal -e 'DROP KEYSPACE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "cqlsh localhost -e 'DROP KEYSPACE analytics'",
            ASK,
            "db.drop",
        ),
        ("sqlite3 db/test.sqlite3 'DROP TABLE users'", ALLOW, "-"),
        (
            "sqlite3 db/development.sqlite3 'DELETE FROM users'",
            ALLOW,
            "-",
        ),
        ("sqlite3 :memory: 'DROP TABLE t'", ALLOW, "-"),
        ("sqlite3 db/app.sqlite3 'DROP TABLE users'", ASK, "db.drop"),
        ("sqlite3 prod.db 'DROP TABLE users'", DENY, "db.drop"),
        (
            "sqlite3 ~/.local/share/acme/prod.db 'DROP TABLE accounts'",
            DENY,
            "db.drop",
        ),
    ]);
}

/// Inside a container of this machine's daemon loopback is the compose project's own; in a
/// pod, over `ssh`, or with a production compose file, it is another machine.
#[test]
fn containers_of_the_local_daemon_are_local_and_pods_are_not() {
    table(&[
        (
            "docker compose exec db psql -U postgres -c 'DROP DATABASE app_test'",
            ALLOW,
            "-",
        ),
        (
            "docker compose exec -T db mysql -e 'DROP DATABASE IF EXISTS app_test'",
            ALLOW,
            "-",
        ),
        (
            "docker compose exec db psql -U postgres -c 'DROP DATABASE app'",
            ASK,
            "db.drop",
        ),
        (
            "docker compose -f docker-compose.prod.yml exec db psql -U postgres -c 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "docker -H ssh://ops@db1 exec db psql -c 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "kubectl exec pg -- psql -U postgres -c 'DROP DATABASE app_test'",
            DENY,
            "db.drop",
        ),
        (
            "ssh db1 \"psql -c 'DROP DATABASE app_test'\"",
            DENY,
            "db.drop",
        ),
    ]);
}

/// Framework tasks pick their database by environment: test/development named on the line is
/// routine, production or staging denies, none given (the session decides) or one only known
/// at run time asks.
#[test]
fn framework_resets_are_routine_only_in_a_named_test_environment() {
    table(&[
        ("RAILS_ENV=test bin/rails db:drop", ALLOW, "-"),
        ("rails db:drop RAILS_ENV=test", ALLOW, "-"),
        ("bin/rails db:schema:load -e test", ALLOW, "-"),
        ("export RAILS_ENV=test; bin/rails db:reset", ALLOW, "-"),
        (
            "RAILS_ENV=development bundle exec rake db:reset",
            ALLOW,
            "-",
        ),
        ("rails db:drop", ASK, "db.framework_reset"),
        (
            "RAILS_ENV=test DATABASE_URL=postgres://db.internal/app rails db:drop",
            ASK,
            "db.framework_reset",
        ),
        (
            "RAILS_ENV=test DATABASE_URL=postgres://localhost/app_prod rails db:drop",
            DENY,
            "db.framework_reset_production",
        ),
        (
            "RAILS_ENV=test DATABASE_URL=postgres://localhost/app_test rails db:drop",
            ALLOW,
            "-",
        ),
        (
            "RAILS_ENV=test DATABASE_URL=$URL bin/rails db:reset",
            ASK,
            "db.framework_reset",
        ),
        ("RAILS_ENV=$TARGET rails db:drop", ASK, "db.framework_reset"),
        (
            "RAILS_ENV=production rails db:drop",
            DENY,
            "db.framework_reset_production",
        ),
        (
            "RAILS_ENV=staging rails db:reset",
            DENY,
            "db.framework_reset_production",
        ),
        (
            "RAILS_ENV=test rake db:drop DISABLE_DATABASE_ENVIRONMENT_CHECK=1",
            DENY,
            "db.framework_reset_production",
        ),
        (
            "python manage.py flush --noinput --settings=config.settings.test",
            ALLOW,
            "-",
        ),
        (
            "DJANGO_SETTINGS_MODULE=app.settings.test python manage.py flush --no-input",
            ALLOW,
            "-",
        ),
        (
            "python manage.py flush --noinput",
            ASK,
            "db.framework_reset",
        ),
        (
            "python manage.py flush --noinput --settings=app.settings",
            ASK,
            "db.framework_reset",
        ),
        (
            "python manage.py flush --noinput --settings=config.settings.production",
            DENY,
            "db.framework_reset_production",
        ),
        (
            "DJANGO_SETTINGS_MODULE=app.settings.prod python manage.py flush --no-input",
            DENY,
            "db.framework_reset_production",
        ),
        ("php artisan migrate:fresh --env=testing", ALLOW, "-"),
        ("APP_ENV=local php artisan migrate:fresh", ALLOW, "-"),
        (
            "php artisan migrate:fresh --force",
            ASK,
            "db.framework_reset",
        ),
        (
            "php artisan migrate:fresh --force --env=production",
            DENY,
            "db.framework_reset_production",
        ),
        ("NODE_ENV=test npx knex migrate:rollback --all", ALLOW, "-"),
        ("npx knex migrate:rollback --all", ASK, "db.framework_reset"),
        (
            "npx knex migrate:rollback --all --env production",
            DENY,
            "db.framework_reset_production",
        ),
        ("npx sequelize-cli db:drop --env test", ALLOW, "-"),
        ("npx sequelize db:drop", ASK, "db.framework_reset"),
        (
            "NODE_ENV=production npx sequelize-cli db:drop",
            DENY,
            "db.framework_reset_production",
        ),
        ("MIX_ENV=test mix ecto.reset", ALLOW, "-"),
        (
            "MIX_ENV=prod mix ecto.reset",
            DENY,
            "db.framework_reset_production",
        ),
        // No environment of their own: the connection comes from config files.
        (
            "npx prisma migrate reset --force",
            ASK,
            "db.framework_reset",
        ),
        (
            "NODE_ENV=test npx prisma migrate reset --force",
            ASK,
            "db.framework_reset",
        ),
        ("alembic downgrade base", ASK, "db.framework_reset"),
        // Non-destructive tasks stay allowed.
        ("rails db:migrate", ALLOW, "-"),
        ("alembic upgrade head", ALLOW, "-"),
    ]);
}

//! Case tables for round 21 (sdk): the danger lives in the API verb code calls or in the
//! protocol bytes a raw network client carries. One line per case, `(command, expected action,
//! expected rule id, "*" for any)`. Benign neighbours (reads, listings, local collections,
//! loopback dev servers, listeners) are in their own table. Decisions: `DISAGREEMENTS.md`
//! (round 21 — sdk). Workspace `/home/user/project`, home `/home/user`.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)] // test code: a failure should stop loudly

mod common;

use common::{ALLOW, ASK, DENY};

#[track_caller]
fn table(cases: &[(&str, hookgate_shell::Action, &str)]) {
    common::table(&common::ctx(), cases);
}
/// Cloud and cluster SDKs' delete/terminate/purge verbs (boto3, botocore, google.cloud, azure, kubernetes, firebase_admin, @aws-sdk v2/v3 commands, @google-cloud, @kubernetes, Ruby Aws/Google::Cloud, PHP Aws): as `aws … delete-*`, `gcloud … delete` (`cloud.sdk_delete`).
#[test]
fn cloud_sdk_destroying_verbs() {
    table(&[
        (
            r#"python3 -c 'import boto3; [b.objects.all().delete() for b in boto3.resource("s3").buckets.all()]'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("ec2").terminate_instances(InstanceIds=["i-1"])'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'import boto3; s3 = boto3.client("s3"); s3.delete_bucket(Bucket="prod")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'import boto3 as b; b.client("rds").delete_db_instance(DBInstanceIdentifier="main", SkipFinalSnapshot=True)'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'import boto3; boto3.resource("dynamodb").Table("users").delete()'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("dynamodb").batch_write_item(RequestItems={}); boto3.client("sqs").purge_queue(QueueUrl=q)'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from botocore.session import get_session; get_session().create_client("s3").delete_objects(Bucket="b", Delete={})'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from google.cloud import storage; storage.Client().bucket("b").delete(force=True)'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from google.cloud import bigquery; bigquery.Client().delete_dataset("proj.ds", delete_contents=True)'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from azure.mgmt.resource import ResourceManagementClient as R; R(cred, sub).resource_groups.begin_delete("rg-prod")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from kubernetes import client, config; config.load_kube_config(); client.CoreV1Api().delete_namespace("prod")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"python3 -c 'from kubernetes import client; v = client.AppsV1Api(); v.delete_collection_namespaced_deployment("default")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            "python3 -c 'import firebase_admin.auth as a; a.delete_users(uids)'",
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node -e 'const {S3Client, DeleteBucketCommand} = require("@aws-sdk/client-s3"); new S3Client().send(new DeleteBucketCommand({Bucket:"prod"}))'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node -e 'const ec2 = require("@aws-sdk/client-ec2"); new ec2.EC2Client({}).send(new ec2.TerminateInstancesCommand({InstanceIds:["i-1"]}))'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node -e 'const AWS = require("aws-sdk"); new AWS.S3().deleteObjects({Bucket:"b", Delete:{Objects:[]}}).promise()'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node -e 'const {Storage} = require("@google-cloud/storage"); new Storage().bucket("prod").deleteFiles({force:true})'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node -e 'const k8s = require("@kubernetes/client-node"); const kc = new k8s.KubeConfig(); kc.makeApiClient(k8s.CoreV1Api).deleteNamespace("prod")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"node --input-type=module -e 'import {DynamoDBClient, DeleteTableCommand} from "@aws-sdk/client-dynamodb"; await new DynamoDBClient({}).send(new DeleteTableCommand({TableName:"users"}))'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"ruby -e 'require "aws-sdk-s3"; Aws::S3::Client.new.delete_bucket(bucket: "prod")'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"ruby -e 'require "aws-sdk-ec2"; Aws::EC2::Client.new(region: "us-east-1").terminate_instances(instance_ids: ["i-1"])'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"ruby -e 'require "google/cloud/storage"; Google::Cloud::Storage.new.bucket("b").delete'"#,
            DENY,
            "cloud.sdk_delete",
        ),
        (
            r#"php -r '$s3 = new Aws\S3\S3Client([]); $s3->deleteBucket(["Bucket" => "prod"]);'"#,
            DENY,
            "*",
        ),
    ]);
}

/// Database, cache, search, queue and vector-store clients' flush/drop/delete verbs, judged by the client's endpoint as their CLIs are (`redis-cli flushall`: local asks, remote or run-time host denies).
#[test]
fn database_client_destroying_verbs() {
    table(&[
        (
            "python3 -c 'import redis; redis.Redis().flushall()'",
            ASK,
            "db.redis_flush",
        ),
        (
            r#"python3 -c 'import redis; r = redis.StrictRedis(host="cache.prod.internal"); r.flushdb()'"#,
            DENY,
            "db.redis_flush",
        ),
        (
            r#"python3 -c 'import redis, os; redis.from_url(os.environ["REDIS_URL"]).flushall()'"#,
            DENY,
            "db.redis_flush",
        ),
        (
            r#"python3 -c 'import redis; redis.Redis.from_url("redis://cache.internal:6379/0").flushall(asynchronous=True)'"#,
            DENY,
            "db.redis_flush",
        ),
        (
            r#"node -e 'const Redis = require("ioredis"); new Redis().flushall()'"#,
            ASK,
            "db.redis_flush",
        ),
        (
            r#"node -e 'const {createClient} = require("redis"); const c = createClient({url: "redis://cache.prod:6379"}); c.connect().then(() => c.flushAll())'"#,
            DENY,
            "db.redis_flush",
        ),
        (
            r#"ruby -e 'require "redis"; Redis.new.flushdb'"#,
            ASK,
            "db.redis_flush",
        ),
        (
            r#"ruby -e 'require "redis"; Redis.new(url: "redis://cache.prod:6379").flushall'"#,
            DENY,
            "db.redis_flush",
        ),
        (
            r#"php -r '$r = new Redis(); $r->connect("cache"); $r->flushAll();'"#,
            ASK,
            "db.redis_flush",
        ),
        (
            r#"python3 -c 'import redis; redis.Redis().execute_command("FLUSHALL")'"#,
            ASK,
            "db.redis_flush",
        ),
        (
            r#"node -e 'const redis = require("redis"); const c = redis.createClient(); c.connect().then(() => c.sendCommand(["FLUSHDB"]))'"#,
            ASK,
            "db.redis_flush",
        ),
        (
            r#"python3 -c 'from pymongo import MongoClient; MongoClient("mongodb://db.internal/app").drop_database("app_prod")'"#,
            DENY,
            "db.mongo_drop",
        ),
        (
            r#"python3 -c 'import pymongo; pymongo.MongoClient("mongodb://db").app.users.delete_many({})'"#,
            DENY,
            "db.mongo_drop",
        ),
        (
            "python3 -c 'import pymongo; pymongo.MongoClient().shop.orders.drop()'",
            ASK,
            "db.mongo_drop",
        ),
        (
            r#"node -e 'const {MongoClient} = require("mongodb"); new MongoClient("mongodb://x").db("app").dropDatabase()'"#,
            DENY,
            "db.mongo_drop",
        ),
        (
            r#"node -e 'const {MongoClient} = require("mongodb"); new MongoClient(process.env.MONGO_URL).db().collection("users").deleteMany({})'"#,
            DENY,
            "db.mongo_drop",
        ),
        (
            r#"ruby -e 'require "mongo"; Mongo::Client.new(["db.prod:27017"], database: "app").database.drop'"#,
            DENY,
            "db.mongo_drop",
        ),
        (
            r#"python3 -c 'from elasticsearch import Elasticsearch; Elasticsearch("http://es:9200").indices.delete(index="logs-*")'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"python3 -c 'from opensearchpy import OpenSearch; OpenSearch(hosts=["https://search.prod:9200"]).indices.delete(index="_all")'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"python3 -c 'from kafka.admin import KafkaAdminClient; KafkaAdminClient(bootstrap_servers="k:9092").delete_topics(["orders"])'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"python3 -c 'from confluent_kafka.admin import AdminClient; AdminClient({"bootstrap.servers": "k:9092"}).delete_topics(["t"])'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"python3 -c 'from pinecone import Pinecone; Pinecone(api_key=k).delete_index("prod-embeddings")'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"python3 -c 'import qdrant_client; qdrant_client.QdrantClient(url="http://qdrant.internal:6333").delete_collection("docs")'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"node -e 'const {Client} = require("@elastic/elasticsearch"); new Client({node: "https://es.prod:9200"}).indices.delete({index: "*"})'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"node -e 'const {Kafka} = require("kafkajs"); new Kafka({brokers: ["k:9092"]}).admin().deleteTopics({topics: ["orders"]})'"#,
            DENY,
            "db.sdk_drop",
        ),
        (
            r#"ruby -e 'require "elasticsearch"; Elasticsearch::Client.new(url: "http://es.prod:9200").indices.delete(index: "logs")'"#,
            DENY,
            "db.sdk_drop",
        ),
    ]);
}

/// Forge, payment, chat and Docker clients deleting account objects (`net.sdk_delete`), as `gh repo delete`/`stripe … delete` ask.
#[test]
fn service_sdk_deletes() {
    table(&[
        (
            r#"python3 -c 'import stripe; stripe.Customer.delete("cus_1")'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            "python3 -c 'import docker; docker.from_env().containers.prune()'",
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"python3 -c 'from github import Github; Github(tok).get_repo("o/r").delete()'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"python3 -c 'import gitlab; gitlab.Gitlab("https://gitlab.com", private_token=t).projects.delete(42)'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"python3 -c 'from slack_sdk import WebClient; WebClient(token=t).conversations_archive(channel="C1"); WebClient(token=t).files_delete(file="F1")'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"node -e 'const {Octokit} = require("@octokit/rest"); new Octokit({auth: t}).repos.delete({owner: "o", repo: "r"})'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"node -e 'const Stripe = require("stripe"); Stripe(k).customers.del("cus_1"); Stripe(k).subscriptions.cancel("sub_1"); Stripe(k).products.del("p"); Stripe(k).webhookEndpoints.del("we")'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"node -e 'const Docker = require("dockerode"); new Docker().pruneImages()'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"ruby -e 'require "octokit"; Octokit::Client.new(access_token: t).delete_repository("o/r")'"#,
            ASK,
            "net.sdk_delete",
        ),
        (
            r#"ruby -e 'require "stripe"; Stripe::Customer.delete("cus_1")'"#,
            ASK,
            "net.sdk_delete",
        ),
    ]);
}

/// HTTP clients' DELETE/PUT/PATCH from code, as `curl -X DELETE` (`net.http_delete`/`net.http_overwrite`).
#[test]
fn http_client_changing_methods() {
    table(&[
        (
            r#"python3 -c 'import requests; requests.delete("https://api.example.com/v1/projects/42")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"python3 -c 'import requests; s = requests.Session(); s.delete("https://api.example.com/v1/users/7")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"python3 -c 'import requests; requests.request("DELETE", "https://api.example.com/v1/a")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"python3 -c 'import httpx; httpx.put("https://api.x.com/v1/cfg", json={})'"#,
            ASK,
            "net.http_overwrite",
        ),
        (
            r#"python3 -c 'import httpx; httpx.Client().patch("https://api.x.com/v1/cfg", json={"on": False})'"#,
            ASK,
            "net.http_overwrite",
        ),
        (
            r#"python3 -c 'import urllib.request as u; u.urlopen(u.Request("https://api.x.com/v1/a/1", method="DELETE"))'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"python3 -c 'import requests, os; requests.delete(os.environ["API"] + "/v1/all")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"node -e 'fetch("https://api.x.com/v1/items/1", {method: "DELETE"})'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"node -e 'fetch("https://api.x.com/v1/items/1", {method: "PUT", body: "{}"})'"#,
            ASK,
            "net.http_overwrite",
        ),
        (
            r#"node -e 'const axios = require("axios"); axios.delete("https://api.x.com/v1/u/3")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"node -e 'require("axios")({method: "delete", url: "https://api.x.com/v1/u/3"})'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"node -e 'const got = require("got"); got.delete("https://api.x.com/v1/u/3")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"ruby -e 'require "httparty"; HTTParty.delete("https://api.x.com/v1/u/3")'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"ruby -e 'require "net/http"; u = URI("https://api.x.com/v1/u/3"); Net::HTTP.start(u.host, 443, use_ssl: true) { |h| h.request(Net::HTTP::Delete.new(u)) }'"#,
            ASK,
            "net.http_delete",
        ),
        (
            r#"ruby -e 'require "rest-client"; RestClient.put("https://api.x.com/v1/cfg", "{}")'"#,
            ASK,
            "net.http_overwrite",
        ),
    ]);
}

/// Text written to a raw socket client read as the destination port's protocol: Redis inline and RESP, memcached, HTTP request lines.
#[test]
fn socket_protocol_bytes() {
    table(&[
        (
            r"printf 'flush_all\r\n' | nc cache.internal 11211",
            DENY,
            "db.memcached_flush",
        ),
        (
            r"printf 'FLUSHALL\r\n' | nc redis.prod 6379",
            DENY,
            "db.redis_flush",
        ),
        (
            "echo FLUSHDB | nc -q1 10.0.0.5 6379",
            DENY,
            "db.redis_flush",
        ),
        (
            "nc cache 6379 <<< 'CONFIG SET dir /tmp'",
            ASK,
            "db.redis_shutdown",
        ),
        (
            r"printf '*1\r\n$8\r\nFLUSHALL\r\n' | ncat redis.internal 6379",
            DENY,
            "db.redis_flush",
        ),
        (
            r"printf 'DELETE /v1/projects/42 HTTP/1.1\r\nHost: api.example.com\r\n\r\n' | nc api.example.com 80",
            ASK,
            "net.http_delete",
        ),
        (
            r"printf 'PUT /cfg HTTP/1.0\r\n\r\n' | openssl s_client -quiet -connect api.example.com:443",
            ASK,
            "net.http_overwrite",
        ),
        (
            "echo flush_all | socat - TCP:mc.internal:11211",
            DENY,
            "db.memcached_flush",
        ),
        (
            r"printf 'flush_all\r\n' | telnet mc 11211",
            DENY,
            "db.memcached_flush",
        ),
        (
            "nc localhost 6379 <<EOF\nFLUSHALL\nEOF",
            ASK,
            "db.redis_flush",
        ),
        (
            "echo SHUTDOWN NOSAVE | nc 127.0.0.1 6379",
            ASK,
            "db.redis_shutdown",
        ),
    ]);
}

/// Reads, listings, uploads, local collections (`Map.delete`, `del d[k]`, `Hash#delete`), in-memory SQLite, loopback dev servers, listeners and read-only protocol commands stay quiet.
#[test]
fn benign_sdk_neighbours() {
    table(&[
        (
            r#"python3 -c 'import redis; redis.Redis().execute_command("GET", "k")'"#,
            ALLOW,
            "*",
        ),
        (
            "python3 -c 'import asyncio; t = asyncio.ensure_future(asyncio.sleep(1)); t.cancel()'",
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import boto3; print(boto3.client("s3").list_buckets())'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("ec2").describe_instances()'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("s3").head_object(Bucket="b", Key="k")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("s3").get_object(Bucket="b", Key="k")["Body"].read()'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import boto3; boto3.client("s3").upload_file("a.txt", "b", "a.txt")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import requests; print(requests.get("https://api.x.com/v1/a").json())'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import requests; requests.post("https://api.x.com/v1/a", json={})'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import httpx; httpx.head("https://api.x.com/")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'd = {"a": 1}; del d["a"]; print(d)'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'd = {"a": 1}; d.pop("a"); s = {1}; s.remove(1); l = [1]; l.remove(1)'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import redis; r = redis.Redis(); print(r.get("k"))'"#,
            ALLOW,
            "*",
        ),
        (
            "python3 -c 'import redis; redis.Redis().ping()'",
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import sqlite3; c = sqlite3.connect(":memory:"); c.execute("select 1")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import sqlite3; c = sqlite3.connect(":memory:"); c.execute("create table t(x)")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'from pathlib import Path; Path("build/out.txt").unlink()'"#,
            ALLOW,
            "*",
        ),
        (
            "python3 -c 'import sys, boto3; sys.stdout.flush()'",
            ALLOW,
            "*",
        ),
        (
            "python3 -c 'import pymongo; print(pymongo.MongoClient().app.users.find_one())'",
            ALLOW,
            "*",
        ),
        (
            "python3 -c 'from kubernetes import client; print(client.CoreV1Api().list_namespace())'",
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'from elasticsearch import Elasticsearch; Elasticsearch().search(index="logs")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"python3 -c 'import os; os.environ.pop("X", None)'"#,
            ALLOW,
            "*",
        ),
        (
            "node -e 'const m = new Map(); m.set(1,2); m.delete(1)'",
            ALLOW,
            "*",
        ),
        ("node -e 'const s = new Set([1]); s.delete(1)'", ALLOW, "*"),
        (
            r#"node -e 'fetch("http://localhost:3000/api/x", {method: "DELETE"})'"#,
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'fetch("https://api.x.com/v1/a").then(r => r.json())'"#,
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'const axios = require("axios"); axios.get("https://api.x.com/v1/u")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'const Redis = require("ioredis"); const r = new Redis(); r.removeAllListeners(); r.quit()'"#,
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'const {S3Client, ListBucketsCommand} = require("@aws-sdk/client-s3"); new S3Client().send(new ListBucketsCommand({}))'"#,
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'const {S3Client, GetObjectCommand} = require("@aws-sdk/client-s3"); new S3Client().send(new GetObjectCommand({Bucket:"b", Key:"k"}))'"#,
            ALLOW,
            "*",
        ),
        (
            "node -e 'const o = {a: 1}; delete o.a; console.log(o)'",
            ALLOW,
            "*",
        ),
        (
            r#"node -e 'const url = new URL("https://x"); url.searchParams.delete("q")'"#,
            ALLOW,
            "*",
        ),
        ("ruby -e 'h = {a: 1}; h.delete(:a); p h'", ALLOW, "*"),
        (
            "ruby -e 'a = [1, 2]; a.delete(1); a.delete_if { |x| x > 1 }'",
            ALLOW,
            "*",
        ),
        (
            r#"ruby -e 'require "aws-sdk-s3"; p Aws::S3::Client.new.list_buckets'"#,
            ALLOW,
            "*",
        ),
        (
            r#"ruby -e 'require "redis"; p Redis.new.get("k")'"#,
            ALLOW,
            "*",
        ),
        (
            r#"ruby -e 'require "httparty"; p HTTParty.get("https://api.x.com/v1")'"#,
            ALLOW,
            "*",
        ),
        ("php -r '$a = [1]; unset($a[0]); print_r($a);'", ALLOW, "*"),
        (
            r#"php -r '$r = new Redis(); $r->connect("127.0.0.1"); echo $r->get("k");'"#,
            ALLOW,
            "*",
        ),
        (
            r"printf 'GET / HTTP/1.1\r\nHost: example.com\r\n\r\n' | nc example.com 80",
            ALLOW,
            "*",
        ),
        (r"printf 'stats\r\n' | nc cache.internal 11211", ALLOW, "*"),
        ("echo PING | nc localhost 6379", ALLOW, "*"),
        ("echo 'hello' | nc -l 6379", ALLOW, "*"),
        (
            r"printf 'DELETE /x HTTP/1.1\r\nHost: localhost\r\n\r\n' | nc localhost 8080",
            ALLOW,
            "*",
        ),
        ("echo INFO | nc redis.internal 6379", ALLOW, "*"),
        (r"printf 'get k\r\n' | nc mc 11211", ALLOW, "*"),
    ]);
}

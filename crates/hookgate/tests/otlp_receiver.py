"""A minimal OTLP/HTTP receiver for hookgate's tests: decodes what it is sent with the
official protobuf definitions (the `opentelemetry-proto` package) and writes one JSON line per
decoded span and log record to --out.

    python3 otlp_receiver.py --out FILE [--status CODE] [--port-file FILE]

Listens on 127.0.0.1 on a free port, printed as `OTLP_PORT=<port>` (and written to
--port-file). POST /v1/traces and /v1/logs take `application/x-protobuf` bodies; any other
path or content type is answered 404/415 and logged as {"error": ...}. --status makes every
export answer that HTTP status instead of 200 (to test failed deliveries).
"""

import argparse
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from google.protobuf.json_format import MessageToDict
from opentelemetry.proto.collector.logs.v1 import logs_service_pb2
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2

LOCK = threading.Lock()


def attributes(kvs):
    out = {}
    for kv in kvs:
        out[kv["key"]] = value(kv.get("value", {}))
    return out


def value(v):
    if "stringValue" in v:
        return v["stringValue"]
    if "intValue" in v:
        return int(v["intValue"])
    if "boolValue" in v:
        return v["boolValue"]
    if "doubleValue" in v:
        return v["doubleValue"]
    if "arrayValue" in v:
        return [value(x) for x in v["arrayValue"].get("values", [])]
    return v


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def write(self, obj):
        with LOCK, open(self.server.out, "a") as f:
            f.write(json.dumps(obj) + "\n")

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        if self.headers.get("content-type") != "application/x-protobuf":
            self.write({"error": "content-type " + str(self.headers.get("content-type"))})
            return self.answer(415)
        if self.path == "/v1/traces":
            req = trace_service_pb2.ExportTraceServiceRequest()
            req.ParseFromString(body)
            doc = MessageToDict(req)
            for rs in doc.get("resourceSpans", []):
                resource = attributes(rs.get("resource", {}).get("attributes", []))
                for ss in rs.get("scopeSpans", []):
                    for span in ss.get("spans", []):
                        self.write({
                            "signal": "span", "name": span.get("name"),
                            "resource": resource, "scope": ss.get("scope", {}).get("name"),
                            "trace_id": span.get("traceId"), "span_id": span.get("spanId"),
                            "start_ns": int(span.get("startTimeUnixNano", 0)),
                            "end_ns": int(span.get("endTimeUnixNano", 0)),
                            "status": span.get("status", {}),
                            "attributes": attributes(span.get("attributes", [])),
                            "authorization": self.headers.get("authorization"),
                        })
        elif self.path == "/v1/logs":
            req = logs_service_pb2.ExportLogsServiceRequest()
            req.ParseFromString(body)
            doc = MessageToDict(req)
            for rl in doc.get("resourceLogs", []):
                resource = attributes(rl.get("resource", {}).get("attributes", []))
                for sl in rl.get("scopeLogs", []):
                    for log in sl.get("logRecords", []):
                        self.write({
                            "signal": "log", "resource": resource,
                            "scope": sl.get("scope", {}).get("name"),
                            "event_name": log.get("eventName"),
                            "time_ns": int(log.get("timeUnixNano", 0)),
                            "severity_text": log.get("severityText"),
                            "severity_number": log.get("severityNumber"),
                            "body": value(log.get("body", {})),
                            "trace_id": log.get("traceId"), "span_id": log.get("spanId"),
                            "attributes": attributes(log.get("attributes", [])),
                            "authorization": self.headers.get("authorization"),
                        })
        else:
            self.write({"error": "path " + self.path})
            return self.answer(404)
        self.answer(self.server.status)

    def answer(self, status):
        self.send_response(status)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--status", type=int, default=200)
    parser.add_argument("--port-file")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.out = args.out
    server.status = args.status
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as f:
            f.write(str(port))
        import os
        os.rename(args.port_file + ".tmp", args.port_file)
    print(f"OTLP_PORT={port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())

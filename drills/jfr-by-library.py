#!/usr/bin/env python3
"""Where a JFR recording's CPU samples go: each jdk.ExecutionSample charged to the first library found walking
from the top frame down (self time by library), and separately what fraction of samples has a frame of each
library anywhere in the stack (inclusive)."""
import json, subprocess, sys, collections
CATS = [
    ("JSON (Jackson)", ("com.fasterxml.jackson",)),
    ("JWT / security", ("com.nimbusds", "org.springframework.security", "sun.security", "javax.crypto", "com.sun.crypto")),
    ("PostgreSQL JDBC driver", ("org.postgresql",)),
    ("Hikari", ("com.zaxxer.hikari",)),
    ("Spring JDBC / tx", ("org.springframework.jdbc", "org.springframework.transaction")),
    ("Debezium / Kafka Connect", ("io.debezium", "org.apache.kafka.connect")),
    ("Kafka clients", ("org.apache.kafka",)),
    ("Spring Kafka", ("org.springframework.kafka",)),
    ("Tracing / observation / metrics", ("io.micrometer", "io.opentelemetry", "io.prometheus")),
    ("Logging", ("ch.qos.logback", "org.slf4j", "org.apache.logging")),
    ("Resilience4j", ("io.github.resilience4j",)),
    ("Tomcat / HTTP server", ("org.apache.tomcat", "org.apache.catalina", "org.apache.coyote")),
    ("JDK HTTP client", ("jdk.internal.net.http", "java.net.http")),
    ("Spring MVC / web", ("org.springframework.web", "org.springframework.http")),
    ("Spring core / AOP / beans", ("org.springframework",)),
    ("our code", ("dev.payments",)),
    ("Netty / Reactor", ("io.netty", "reactor.")),
    ("JDK NIO / net", ("sun.nio", "java.nio", "sun.net", "java.net")),
    ("JDK other", ("java.", "jdk.", "sun.", "com.sun.")),
]
def cat(name):
    for c, prefixes in CATS:
        if name.startswith(prefixes):
            return c
    return "other"
def main(path):
    out = subprocess.run(["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ExecutionSample", path],
                         capture_output=True, text=True, check=True).stdout
    events = json.loads(out)["recording"]["events"]
    self_c = collections.Counter(); incl = collections.Counter(); threads = collections.Counter(); top = collections.Counter()
    for e in events:
        frames = e["values"]["stackTrace"]["frames"] if e["values"].get("stackTrace") else []
        names = [f["method"]["type"]["name"].replace("/", ".") + "." + f["method"]["name"] for f in frames]
        t = e["values"].get("sampledThread", {}) or {}
        tn = (t.get("javaName") or t.get("osName") or "?")
        for p in ("http-nio", "KafkaListenerEndpointContainer", "org.springframework.kafka", "kafka-producer", "debezium", "HttpClient", "scheduling", "pool-"):
            if tn.startswith(p) or p in tn:
                tn = p; break
        threads[tn] += 1
        c = next((cat(n) for n in names if cat(n) not in ("JDK other", "JDK NIO / net", "other")), cat(names[0]) if names else "none")
        self_c[c] += 1
        for k in set(cat(n) for n in names):
            incl[k] += 1
        if names:
            top[names[0]] += 1
    n = max(1, len(events))
    print(f"{path}: {len(events)} samples")
    print("  by library (first non-JDK frame from the top):")
    for k, v in self_c.most_common():
        print(f"    {100*v/n:5.1f} %  {k}")
    print("  stacks containing (inclusive):")
    for k, v in incl.most_common(12):
        print(f"    {100*v/n:5.1f} %  {k}")
    print("  threads:")
    for k, v in threads.most_common(8):
        print(f"    {100*v/n:5.1f} %  {k}")
    print("  top frames:")
    for k, v in top.most_common(12):
        print(f"    {100*v/n:5.1f} %  {k}")
for p in sys.argv[1:]:
    main(p)

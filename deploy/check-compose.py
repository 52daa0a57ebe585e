#!/usr/bin/env python3
"""Checks docker-compose.yml beyond what `docker compose config` validates (no Docker engine runs on the build
machines): every service has a healthcheck, no host port clashes with the quick start (local PostgreSQL 5432, the
management port 8081 and the embedded broker's acceptor 61616 of `./mvnw spring-boot:run`), and .dockerignore keeps
local state out of the build context."""
import pathlib
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
QUICK_START_PORTS = {5432: "the local PostgreSQL", 8081: "the quick start's management port",
                     61616: "the embedded broker's acceptor"}


def host_ports(mapping):
    """Host ports of a short-syntax mapping such as "18081-18082:8081" or "127.0.0.1:15432:5432"."""
    parts = str(mapping).split(":")
    if len(parts) < 2:
        return []
    published = parts[-2]
    low, _, high = published.partition("-")
    return list(range(int(low), int(high or low) + 1))


def problems():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name, service in compose["services"].items():
        if "healthcheck" not in service:
            yield f"service {name} has no healthcheck"
        for mapping in service.get("ports", []):
            for port in host_ports(mapping):
                if port in QUICK_START_PORTS:
                    yield f"service {name} publishes host port {port}, which is {QUICK_START_PORTS[port]}"
    ignore = ROOT / ".dockerignore"
    if not ignore.exists():
        yield ".dockerignore is missing"
    else:
        entries = {line.strip().rstrip("/") for line in ignore.read_text().splitlines()}
        for needed in ("target", "data", ".git"):
            if needed not in entries:
                yield f".dockerignore does not exclude {needed}"


found = list(problems())
for problem in found:
    print("docker-compose.yml: " + problem, file=sys.stderr)
if found:
    sys.exit(1)
print("docker-compose.yml: every service has a healthcheck, no host port clashes with the quick start, .dockerignore in place")

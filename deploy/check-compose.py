#!/usr/bin/env python3
"""Checks docker-compose.yml beyond what `docker compose config` validates (no Docker engine runs on the build
machines): every service has a healthcheck, no host port clashes with the quick start (local PostgreSQL 5432, the
management port 8081 and the embedded broker's acceptor 61616 of `./mvnw spring-boot:run`), .dockerignore keeps
local state out of the build context, and ClaimGuard runs on the two logins PostgreSQL makes at its first start
(deploy/k8s/claimguard-logins.sql): migrations as the owner, the service as the runtime login, every database
password a placeholder the environment can replace."""
import pathlib
import re
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
    yield from login_problems(compose["services"])
    ignore = ROOT / ".dockerignore"
    if not ignore.exists():
        yield ".dockerignore is missing"
    else:
        entries = {line.strip().rstrip("/") for line in ignore.read_text().splitlines()}
        for needed in ("target", "data", ".git"):
            if needed not in entries:
                yield f".dockerignore does not exclude {needed}"


def login_problems(services):
    """ClaimGuard's logins: the ones the postgres service makes, the owner for Flyway, the runtime login for the rest."""
    database = services["postgres"]
    made = database.get("environment", {})
    logins_sql = "./deploy/k8s/claimguard-logins.sql:/docker-entrypoint-initdb.d/"
    if not any(str(volume).startswith(logins_sql) for volume in database.get("volumes", [])):
        yield "service postgres does not run deploy/k8s/claimguard-logins.sql at its first start"
    service = services["claimguard"].get("environment", {})
    owner, runtime = service.get("SPRING_FLYWAY_USER"), service.get("SPRING_DATASOURCE_USERNAME")
    if not owner or owner == runtime:
        yield "service claimguard must migrate as an owner (SPRING_FLYWAY_USER) other than its runtime login"
    if made.get("CLAIMGUARD_OWNER_LOGIN") != owner or made.get("CLAIMGUARD_RUNTIME_LOGIN") != runtime:
        yield (f"service postgres makes the logins {made.get('CLAIMGUARD_OWNER_LOGIN')} and "
               f"{made.get('CLAIMGUARD_RUNTIME_LOGIN')}, service claimguard uses {owner} and {runtime}")
    database_passwords = ("POSTGRES_", "CLAIMGUARD_", "SPRING_DATASOURCE_", "SPRING_FLYWAY_")
    for name, environment in (("postgres", made), ("claimguard", service)):
        for key, value in environment.items():
            if not key.endswith("PASSWORD") or not key.startswith(database_passwords):
                continue
            if not re.fullmatch(r"\$\{[A-Z_]+:-[^}]+\}", str(value)):
                yield f"service {name}: {key} is not a placeholder the environment can replace (${{VAR:-...}})"
    pairs = ((made, "CLAIMGUARD_OWNER_PASSWORD", service, "SPRING_FLYWAY_PASSWORD"),
             (made, "CLAIMGUARD_RUNTIME_PASSWORD", service, "SPRING_DATASOURCE_PASSWORD"))
    for made_env, made_key, used_env, used_key in pairs:
        if made_env.get(made_key) != used_env.get(used_key):
            yield f"service postgres's {made_key} is not service claimguard's {used_key}"


found = list(problems())
for problem in found:
    print("docker-compose.yml: " + problem, file=sys.stderr)
if found:
    sys.exit(1)
print("docker-compose.yml: every service has a healthcheck, no host port clashes with the quick start, .dockerignore in "
      "place, ClaimGuard migrates as the owner and runs as the runtime login the database makes")

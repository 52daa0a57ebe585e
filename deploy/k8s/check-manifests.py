#!/usr/bin/env python3
"""Parses deploy/k8s and checks what a mistake would break: every document has apiVersion, kind and a name, the
kustomization lists every manifest, the Deployment's probes use the management port the ConfigMap sets, its volume
claims the PersistentVolumeClaim that exists, and the database logins hold together: the Job claimguard-logins makes
the owner and the runtime login the service's Secret names (two different logins), from the SQL file the kustomization
turns into its ConfigMap, on the database of SPRING_DATASOURCE_URL. No Kubernetes schema validator is served to this
build machine, so this is as far as it checks (`kubectl kustomize deploy/k8s` renders it where kubectl is)."""
import pathlib
import re
import sys

import yaml

folder = pathlib.Path(__file__).parent
problems = []
documents = {}
for path in sorted(folder.glob("*.yaml")):
    for document in yaml.safe_load_all(path.read_text()):
        if document is None:
            continue
        for field in ("apiVersion", "kind"):
            if field not in document:
                problems.append(f"{path.name}: no {field}")
        if document.get("kind") != "Kustomization" and not document.get("metadata", {}).get("name"):
            problems.append(f"{path.name}: no metadata.name")
        documents.setdefault(document.get("kind"), []).append((path.name, document))

kustomization = documents["Kustomization"][0][1]
listed = set(kustomization["resources"])
manifests = {name for kind, found in documents.items() if kind != "Kustomization" for name, _ in found}
if listed != manifests:
    problems.append(f"kustomization lists {sorted(listed)}, the folder has {sorted(manifests)}")

config = documents["ConfigMap"][0][1]["data"]
deployment = documents["Deployment"][0][1]
pod = deployment["spec"]["template"]["spec"]
container = pod["containers"][0]
ports = {port["name"]: port["containerPort"] for port in container["ports"]}
if ports.get("management") != int(config["CLAIMGUARD_MANAGEMENT_PORT"]):
    problems.append(f"container port 'management' {ports.get('management')} is not CLAIMGUARD_MANAGEMENT_PORT {config['CLAIMGUARD_MANAGEMENT_PORT']}")
for probe, path in (("livenessProbe", "/actuator/health/liveness"), ("readinessProbe", "/actuator/health/readiness")):
    get = container[probe]["httpGet"]
    if get["path"] != path or get["port"] != "management":
        problems.append(f"{probe} asks {get}, expected {path} on port 'management'")
claims = {name for _, claim in documents["PersistentVolumeClaim"] for name in [claim["metadata"]["name"]]}
for volume in pod["volumes"]:
    claim = volume.get("persistentVolumeClaim", {}).get("claimName")
    if claim and claim not in claims:
        problems.append(f"volume {volume['name']} claims {claim}, which no manifest defines")
if config.get("CLAIMGUARD_FILE_SHARED") != "true" and deployment["spec"]["replicas"] > 1:
    problems.append("several replicas share the inbox volume but CLAIMGUARD_FILE_SHARED is not true")
if "ReadWriteMany" not in documents["PersistentVolumeClaim"][0][1]["spec"]["accessModes"]:
    problems.append("the inbox volume must be ReadWriteMany for several replicas")


def env_of(spec):
    """A container's env as name -> value, or -> (secret, key) for a secretKeyRef."""
    found = {}
    for entry in spec.get("env", []):
        ref = entry.get("valueFrom", {}).get("secretKeyRef")
        found[entry["name"]] = (ref["name"], ref["key"]) if ref else entry.get("value")
    return found


secrets = {secret["metadata"]["name"]: secret.get("stringData", {}) for _, secret in documents.get("Secret", [])}
credentials = secrets.get("claimguard-credentials", {})
owner, runtime = credentials.get("SPRING_FLYWAY_USER"), credentials.get("SPRING_DATASOURCE_USERNAME")
if not owner or not runtime or owner == runtime:
    problems.append("Secret claimguard-credentials must name an owner (SPRING_FLYWAY_USER) and another, runtime login "
                    "(SPRING_DATASOURCE_USERNAME)")
if {"secretRef": {"name": "claimguard-credentials"}} not in container.get("envFrom", []):
    problems.append("the ClaimGuard container does not take its logins from Secret claimguard-credentials")
url = re.fullmatch(r"jdbc:postgresql://([^:/]+):(\d+)/([^?]+).*", config["SPRING_DATASOURCE_URL"])
database = {"PGHOST": url.group(1), "PGPORT": url.group(2), "PGDATABASE": url.group(3)} if url else {}
jobs = {job["metadata"]["name"]: job for _, job in documents.get("Job", [])}
job = jobs.get("claimguard-logins")
if job is None:
    problems.append("no Job claimguard-logins makes the database logins")
else:
    job_pod = job["spec"]["template"]["spec"]
    job_env = env_of(job_pod["containers"][0])
    expected = {"CLAIMGUARD_OWNER_LOGIN": ("claimguard-credentials", "SPRING_FLYWAY_USER"),
                "CLAIMGUARD_OWNER_PASSWORD": ("claimguard-credentials", "SPRING_FLYWAY_PASSWORD"),
                "CLAIMGUARD_RUNTIME_LOGIN": ("claimguard-credentials", "SPRING_DATASOURCE_USERNAME"),
                "CLAIMGUARD_RUNTIME_PASSWORD": ("claimguard-credentials", "SPRING_DATASOURCE_PASSWORD")}
    for name, source in expected.items():
        if job_env.get(name) != source:
            problems.append(f"Job claimguard-logins takes {name} from {job_env.get(name)}, not {source}")
    generated = {generator["name"]: generator.get("files", []) for generator in kustomization.get("configMapGenerator", [])}
    for volume in job_pod.get("volumes", []):
        name = volume.get("configMap", {}).get("name")
        if name and not all((folder / file.split("=")[-1]).is_file() for file in generated.get(name, [None])):
            problems.append(f"Job claimguard-logins mounts ConfigMap {name}, which the kustomization does not make from "
                            "a file in deploy/k8s")
    for init in pod.get("initContainers", []) + [job_pod["containers"][0]]:
        init_env = env_of(init)
        for name, value in database.items():
            if init_env.get(name) != value:
                problems.append(f"container {init['name']} sets {name} {init_env.get(name)}, SPRING_DATASOURCE_URL says {value}")

if problems:
    print("deploy/k8s: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"deploy/k8s: {sum(len(found) for found in documents.values())} manifests parsed and consistent")

#!/usr/bin/env python3
"""Parses deploy/k8s and checks what a mistake would break: every document has apiVersion, kind and a name, the
kustomization lists every manifest, the Deployment's probes use the management port the ConfigMap sets, and its
volume claims the PersistentVolumeClaim that exists. No Kubernetes schema validator is served to this build machine,
so this is as far as it checks."""
import pathlib
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

if problems:
    print("deploy/k8s: " + "; ".join(problems), file=sys.stderr)
    sys.exit(1)
print(f"deploy/k8s: {sum(len(found) for found in documents.values())} manifests parsed and consistent")

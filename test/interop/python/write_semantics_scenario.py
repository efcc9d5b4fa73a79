"""Write semantics as Python client users meet them (Debian's python3-kubernetes).

Usage: write_semantics_scenario.py KUBECONFIG. Prints one JSON object describing what the client saw.
Namespaces are created as the client's users write them, V1Namespace(metadata=...) without kind or
apiVersion (kube-apiserver takes both from the URL); replace_namespaced_lease of a missing Lease creates
it (the Lease strategy allows create-on-update); a replace without resourceVersion is refused (422).
"""
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
api = client.CoordinationV1Api()
out = {}

ns = core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-team")))
out["namespace"] = [ns.kind, ns.api_version, ns.metadata.name, ns.status.phase]

fresh = client.V1Lease(
    metadata=client.V1ObjectMeta(name="py-new"),
    spec=client.V1LeaseSpec(holder_identity="py-created", lease_duration_seconds=15),
)
replaced = api.replace_namespaced_lease("py-new", "py-team", fresh)
out["replace_missing"] = [replaced.metadata.name, replaced.spec.holder_identity]
out["read_back"] = api.read_namespaced_lease("py-new", "py-team").spec.holder_identity

try:
    api.replace_namespaced_lease("py-new", "py-team", fresh)  # no resourceVersion: not unconditional
    out["unconditional"] = None
except ApiException as e:
    body = json.loads(e.body)
    out["unconditional"] = {"status": e.status, "reason": body["reason"], "message": body["message"]}
print(json.dumps(out))

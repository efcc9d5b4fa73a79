"""Namespace deletion as Python client users meet it (Debian's python3-kubernetes).

Usage: namespace_delete_scenario.py KUBECONFIG. Prints one JSON object describing what the client saw.
delete_namespace answers the namespace marked Terminating (read raw: the client's declared return type is
V1Status, kube-apiserver answers a Namespace); the namespace controller empties it and it goes; creates
into a terminating namespace are refused 403 with the NamespaceTerminating cause; a re-create is 409;
kube-system may not be deleted.
"""
import json
import sys
import time

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
core = client.CoreV1Api()
api = client.CoordinationV1Api()
out = {}


def lease(name, finalizers=None):
    return client.V1Lease(
        metadata=client.V1ObjectMeta(name=name, finalizers=finalizers),
        spec=client.V1LeaseSpec(holder_identity="py", lease_duration_seconds=15),
    )


def refusal(call):
    try:
        call()
        return None
    except ApiException as e:
        body = json.loads(e.body)
        causes = [c.get("reason") for c in (body.get("details") or {}).get("causes", [])]
        return {"status": e.status, "reason": body["reason"], "message": body["message"], "causes": causes}


core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-doomed")))
api.create_namespaced_lease("py-doomed", lease("a"))
raw = core.delete_namespace(
    "py-doomed", body=client.V1DeleteOptions(propagation_policy="Background"), _preload_content=False
)
marked = json.loads(raw.data)
out["deleted"] = [raw.status, marked["kind"], marked["status"]["phase"], marked["spec"]["finalizers"]]

deadline = time.time() + 30
gone = False
while time.time() < deadline and not gone:
    try:
        core.read_namespace("py-doomed")
        time.sleep(0.05)
    except ApiException as e:
        gone = e.status == 404
out["gone"] = gone
out["leases_left"] = [item.metadata.name for item in api.list_namespaced_lease("py-doomed").items]

core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-held")))
api.create_namespaced_lease("py-held", lease("held", ["example.com/hold"]))
core.delete_namespace("py-held", _preload_content=False)
out["create_in_terminating"] = refusal(lambda: api.create_namespaced_lease("py-held", lease("late")))
out["recreate"] = refusal(
    lambda: core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name="py-held")))
)
out["protected"] = refusal(lambda: core.delete_namespace("kube-system"))
print(json.dumps(out))

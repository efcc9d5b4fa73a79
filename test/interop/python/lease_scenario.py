"""Drives the Lease API server with the official Kubernetes Python client (Debian's python3-kubernetes).

Usage: lease_scenario.py KUBECONFIG. Prints one JSON object describing what the client saw; the
vitest file asserts on it. Every call goes through the client's own generated API and config loader,
as a user's script would.
"""
import json
import sys
import threading

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1])
api = client.CoordinationV1Api()
NS = "default"


def lease(name, holder, labels):
    return client.V1Lease(
        metadata=client.V1ObjectMeta(name=name, labels=labels),
        spec=client.V1LeaseSpec(holder_identity=holder, lease_duration_seconds=15),
    )


out = {}
created = [api.create_namespaced_lease(NS, lease(n, "py", {"app": app})) for n, app in (("py-a", "demo"), ("py-b", "demo"), ("py-c", "other"))]
out["created"] = [c.metadata.name for c in created]
start_rv = created[0].metadata.resource_version

read = api.read_namespaced_lease("py-a", NS)
out["read_holder"] = read.spec.holder_identity
out["read_renew_time_none"] = read.spec.renew_time is None

read.spec.holder_identity = "py-replaced"
replaced = api.replace_namespaced_lease("py-a", NS, read)
out["replaced_holder"] = replaced.spec.holder_identity

try:
    api.replace_namespaced_lease("py-a", NS, read)  # stale resourceVersion
    out["conflict"] = None
except ApiException as e:
    out["conflict"] = {"status": e.status, "reason": json.loads(e.body)["reason"]}

patched = api.patch_namespaced_lease("py-a", NS, {"spec": {"leaseTransitions": 2}})  # a dict: strategic merge
out["strategic_transitions"] = patched.spec.lease_transitions
json_patched = api.patch_namespaced_lease("py-a", NS, [{"op": "replace", "path": "/spec/holderIdentity", "value": "py-json"}])
out["json_patch_holder"] = json_patched.spec.holder_identity

selected = api.list_namespaced_lease(NS, label_selector="app=demo")
out["selected"] = sorted(i.metadata.name for i in selected.items)

pages, cont = [], None
while True:
    page = api.list_namespaced_lease(NS, limit=1, _continue=cont) if cont else api.list_namespaced_lease(NS, limit=1)
    pages.append([i.metadata.name for i in page.items])
    cont = page.metadata._continue
    if not cont:
        break
out["pages"] = pages

try:
    api.read_namespaced_lease("missing", NS)
    out["missing"] = None
except ApiException as e:
    out["missing"] = e.status

# watch.Watch().stream sends watch=True (Python's capitalised boolean): the server must parse it as apimachinery does.
events = []
w = watch.Watch()


def change_later():
    api.patch_namespaced_lease("py-b", NS, {"spec": {"holderIdentity": "py-watched"}})


timer = threading.Timer(0.3, change_later)
for event in w.stream(api.list_namespaced_lease, NS, resource_version=start_rv, timeout_seconds=10):
    events.append([event["type"], event["object"].metadata.name, event["object"].spec.holder_identity])
    if len(events) == 1:
        timer.start()
    if event["object"].spec.holder_identity == "py-watched":
        w.stop()
out["watch_events"] = events

api.delete_namespaced_lease("py-c", NS)
out["after_delete"] = sorted(i.metadata.name for i in api.list_namespaced_lease(NS).items)
print(json.dumps(out))

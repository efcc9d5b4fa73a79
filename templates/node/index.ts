// Public entry of the k8s-lease-client-node package: Node-only cluster access for k8s-lease-client.
export {};

/**
 * The simulated Kubernetes cluster: a real HTTP API server on 127.0.0.1 that client-java and
 * kubectl v1.32 accept, answering like kube-apiserver v1.32 (docs/reference/real-apiserver-v1.32.md).
 *
 * <h2>Tour</h2>
 * <ul>
 *   <li>{@link dev.stsresize.sim.SimCluster} — start one ({@code SimCluster.start(SimOptions.defaults())}),
 *       then {@code url()}, {@code adminToken()}, {@code tokenFor(ns, sa)}, {@code load(objects…)},
 *       {@code get(apiVersion, kind, ns, name)}, {@code requests()}, {@code faults()},
 *       {@code writeKubeconfig(path)}, {@code subscribe(filter, fromRv)}, {@code registry()}, {@code close()}.</li>
 *   <li>{@code store} — the simulated etcd: raw Jackson trees, one global resourceVersion, a bounded
 *       event history (watches from before it get 410 Expired), subscriptions; the
 *       {@link dev.stsresize.sim.store.Catalog} of served resources; label and field selectors;
 *       {@link dev.stsresize.sim.store.Versions} (events.k8s.io/v1 and core v1 Events are one stored object).</li>
 *   <li>{@code registry} — what the generic registry and strategies do: defaults, status
 *       subresource rules, generation, validation, admission, managedFields (through
 *       {@code sim.patch}), delete propagation (orphan / foregroundDeletion finalizers),
 *       preconditions, dryRun, eviction (with an {@link dev.stsresize.sim.registry.EvictionPolicy} hook
 *       for PodDisruptionBudgets), scale.</li>
 *   <li>{@code admission} — defaults and canonical quantities, StatefulSet and claim update validation,
 *       the resize and quota admission plugins, the field schema that refuses unknown fields.</li>
 *   <li>{@code http} — the JDK server: discovery, /openapi/v3, resources, watch streams, Tables for
 *       kubectl get (and get -w), the request log, protobuf request bodies (kubectl's typed clients:
 *       create namespace/serviceaccount/role/job/token, auth can-i) decoded to JSON.</li>
 *   <li>{@code auth} — authentication (client certificates, bearer tokens, anonymous), impersonation and RBAC
 *       over the Roles/RoleBindings (and cluster ones) in the store; SelfSubjectAccessReview and
 *       serviceaccounts/NAME/token answer through the same tokens and authorizer.</li>
 *   <li>{@code tls} — the cluster CA made at start: serving and client certificates.</li>
 *   <li>{@code request} — {@code RequestInfo}, what a request asks for, shared by http, auth and fault.</li>
 *   <li>{@code fault} — fault rules: status codes with Status bodies, Retry-After, latency, dropped
 *       connections, watch streams cut after N events, hangs, a proxy's unreachable backend.</li>
 *   <li>{@code usage} — how full each claim is ({@code sim.usage()}), served by the node proxy's
 *       kubelet summary; {@code prometheus} — the /api/v1/query subset, on {@code sim.prometheusUrl()} and
 *       behind Service monitoring/prometheus-k8s through the service proxy.</li>
 * </ul>
 *
 * <h2>Identity</h2>
 * The server speaks HTTPS only, with a CA made at start (in the kubeconfig's certificate-authority-data).
 * A client certificate (CN the user, O the groups; the kubeconfig's admin: O=system:masters) or a bearer
 * token (the admin's, a ServiceAccount's from {@code tokenFor}, or one TokenRequest issued) names the
 * user; a request without credentials is system:anonymous, a bad credential a 401. Impersonation headers
 * are authorised with verb impersonate.
 *
 * <h2>For part-2 controllers</h2>
 * Watch with {@code sim.subscribe(event -> …, -1)} (a queue; poll it from your own thread) and write
 * through {@code sim.registry()} with {@code WriteOptions.by("statefulset-controller")}, status via
 * subresource "status". Objects being deleted keep their finalizers ("orphan", "foregroundDeletion",
 * "kubernetes.io/pvc-protection"…) until a controller removes them; removing the last one deletes the
 * object (DELETED event). Pods are deleted at once (no kubelet in part 1).
 */
package dev.stsresize.sim;

/**
 * The simulated Kubernetes cluster: an HTTPS API server on 127.0.0.1 that client-java and kubectl
 * v1.32 accept, answering like kube-apiserver v1.32 (docs/reference/real-apiserver-v1.32.md; each
 * rule and the Go source it follows: kube-sim/README.md), with the controllers behind it.
 *
 * <h2>Tour</h2>
 * <ul>
 *   <li>{@link dev.stsresize.sim.SimCluster} — start one ({@code SimCluster.start(SimOptions.defaults())}),
 *       then {@code url()}, {@code adminToken()}, {@code tokenFor(ns, sa)}, {@code load(objects…)},
 *       {@code get(apiVersion, kind, ns, name)}, {@code requests()}, {@code faults()},
 *       {@code writeKubeconfig(path)}, {@code subscribe(filter, fromRv)}, {@code registry()}, {@code usage()},
 *       {@code prometheusUrl()}, {@code close()}.</li>
 *   <li>{@code store} — the simulated etcd: raw Jackson trees, one global resourceVersion, a bounded
 *       event history (watches from before it get 410 Expired), subscriptions; the
 *       {@link dev.stsresize.sim.store.Catalog} of served resources; label and field selectors;
 *       {@link dev.stsresize.sim.store.Versions} (events.k8s.io/v1 and core v1 Events are one stored object).</li>
 *   <li>{@code registry} — what the generic registry does for every resource, and in
 *       {@code registry.strategy} each resource's strategy (one table, {@code Strategies}): defaults, status
 *       subresource rules, generation, validation, admission, managedFields (through
 *       {@code patch}), delete propagation (orphan / foregroundDeletion finalizers),
 *       preconditions, dryRun, eviction (with an {@link dev.stsresize.sim.registry.EvictionPolicy} hook
 *       for PodDisruptionBudgets), scale, a pod's graceful deletion while a kubelet runs.</li>
 *   <li>{@code admission} — object names, metadata and sizes as kube-apiserver validates them, canonical
 *       quantities, StatefulSet and claim update validation, the admission chain ({@code AdmissionChain}:
 *       the resize and quota plugins in kube-apiserver's order), the field schema that refuses unknown fields.</li>
 *   <li>{@code patch} — JSON, merge and strategic merge patch, server-side apply with managedFields.</li>
 *   <li>{@code http} — the TLS listener (Jetty; HTTP/2 by ALPN, else HTTP/1.1), each request passed through a
 *       filter chain (authentication, impersonation, faults, authorization) before it is served: discovery,
 *       /openapi/v2 and /openapi/v3, resources, watch streams, Tables for kubectl get (and get -w),
 *       the request log, protobuf request bodies (kubectl's typed clients) decoded to JSON, the node
 *       and service proxies.</li>
 *   <li>{@code auth} — authentication (client certificates, bearer tokens, anonymous), impersonation and RBAC
 *       over the Roles/RoleBindings (and cluster ones) in the store, with kube-apiserver's bootstrap
 *       ClusterRoles; SelfSubjectAccessReview and serviceaccounts/NAME/token answer through the same
 *       tokens and authorizer.</li>
 *   <li>{@code tls} — the cluster CA made at start: serving and client certificates.</li>
 *   <li>{@code request} — {@code RequestInfo}, what a request asks for, shared by http, auth and fault.</li>
 *   <li>{@code fault} — fault rules: status codes with Status bodies, Retry-After, latency, dropped
 *       connections, watch streams cut after N events, hangs, a proxy's unreachable backend.</li>
 *   <li>{@code controller} — the StatefulSet controller, garbage collector, kubelet and scheduler,
 *       volume binder and provisioner, a resizer per StorageClass, disruption budgets, quota usage;
 *       one thread in time order, started by {@code ControllerManager.start}.</li>
 *   <li>{@code state} — state files ({@code simulate --state}, {@code --save}); {@code demo} — the
 *       demo's scenario, which no controller reads by name.</li>
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
 * <h2>Writing a controller</h2>
 * Watch with {@code sim.subscribe(event -> …, -1)} (a queue; poll it from your own thread) and write
 * through {@code sim.registry()} with {@code WriteOptions.by("statefulset-controller")}, status via
 * subresource "status". Objects being deleted keep their finalizers ("orphan", "foregroundDeletion",
 * "kubernetes.io/pvc-protection"…) until a controller removes them; removing the last one deletes the
 * object (DELETED event). A pod is deleted at once unless a kubelet runs, which ends it after its
 * grace period. Controllers never read the demo scenario's names ({@code ModuleArchitectureTest}).
 */
package dev.stsresize.sim;

package dev.stsresize.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.Defaults;
import dev.stsresize.sim.fault.Faults;
import dev.stsresize.sim.http.ApiServer;
import dev.stsresize.sim.http.RecordedRequest;
import dev.stsresize.sim.http.RequestLog;
import dev.stsresize.sim.auth.BootstrapPolicy;
import dev.stsresize.sim.auth.Tokens;
import dev.stsresize.sim.auth.User;
import dev.stsresize.sim.registry.Registry;
import dev.stsresize.sim.store.Catalog;
import dev.stsresize.sim.store.ResourceType;
import dev.stsresize.sim.store.Store;
import dev.stsresize.sim.store.StoreEvent;
import dev.stsresize.sim.store.Subscription;
import dev.stsresize.sim.tls.CertificateAuthority;
import dev.stsresize.sim.request.ServiceBackend;
import dev.stsresize.sim.usage.UsageDocument;
import dev.stsresize.sim.usage.MountedVolumes;
import dev.stsresize.sim.prometheus.Prometheus;
import dev.stsresize.sim.prometheus.PrometheusServer;
import dev.stsresize.sim.usage.VolumeUsage;
import dev.stsresize.sim.node.ContainerLogs;
import dev.stsresize.sim.node.VolumeContents;
import java.util.concurrent.ConcurrentHashMap;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.X509TrustManager;

/**
 * A simulated Kubernetes cluster: the store, the registry that writes to it and an API server on
 * https://127.0.0.1 that client-java and kubectl talk to as to a real one (a CA made at start, client
 * certificates, bearer tokens, anonymous, impersonation). The entry point for tests, {@code simulate}
 * and the controllers; see package-info for the tour.
 */
public final class SimCluster implements AutoCloseable {
    private static final List<String> SYSTEM_NAMESPACES = List.of("default", "kube-node-lease", "kube-public", "kube-system");

    private final Catalog catalog = Catalog.standard();
    private final Store store;
    private final Registry registry;
    private final Tokens tokens = new Tokens();
    private final CertificateAuthority ca = CertificateAuthority.create("kube-sim-ca");
    /** kubeadm's admin.conf identity: O=system:masters, CN=kubernetes-admin. */
    private final CertificateAuthority.Issued admin = ca.issueClient(User.admin().name(), List.of(User.MASTERS));
    private final RequestLog log;
    private final Faults faults = new Faults();
    private final ApiServer server;
    private final VolumeUsage usage = new VolumeUsage(Clock.systemUTC());
    private final ContainerLogs containerLogs = new ContainerLogs();
    private final VolumeContents volumeContents = new VolumeContents();
    /** In-cluster backends the service proxy reaches, by "NS/NAME:PORT". */
    private final Map<String, ServiceBackend> services = new ConcurrentHashMap<>();
    private final Prometheus prometheus;
    private PrometheusServer prometheusServer;

    private SimCluster(SimOptions o) {
        this.store = new Store(Clock.systemUTC(), o.historyLimit());
        this.registry = new Registry(store, catalog);
        this.log = new RequestLog(o.logFile());
        for (String ns : SYSTEM_NAMESPACES) {
            ensureNamespace(ns);
        }
        // as kube-apiserver's RBAC post-start hook creates them: users are bound to admin, edit, view as on a real cluster
        load(BootstrapPolicy.objects().toArray(ObjectNode[]::new));
        this.prometheus = new Prometheus(new MountedVolumes(store, catalog), usage);
        runBehindService(Prometheus.NAMESPACE, Prometheus.SERVICE, Prometheus.PORT, prometheus);
        this.server = new ApiServer(registry, tokens, log, faults, o.port(), o.bookmarkMillis(), ca, o.anonymousAuth(),
                usage, services, containerLogs);
    }

    public static SimCluster start() {
        return start(SimOptions.defaults());
    }

    public static SimCluster start(SimOptions options) {
        return new SimCluster(options);
    }

    /** https://127.0.0.1:PORT */
    public String url() {
        return server.url();
    }

    /** The TLS connections clients opened to the API server so far: a command that shares one HTTP/2 connection opens one. */
    public long tlsConnections() {
        return server.tlsConnections();
    }

    /** A static token of the admin (system:masters), as a token file would hold. */
    public String adminToken() {
        return tokens.adminToken();
    }

    /** The cluster CA, PEM: what the kubeconfig's certificate-authority-data holds. */
    public String caCertificatePem() {
        return ca.certificatePem();
    }

    /** The admin's client certificate and key (O=system:masters, CN=kubernetes-admin), PEM. */
    public CertificateAuthority.Issued adminCertificate() {
        return admin;
    }

    /** A client certificate this cluster's x509 authenticator takes as {@code user} in {@code groups}. */
    public CertificateAuthority.Issued clientCertificate(String user, List<String> groups) {
        return ca.issueClient(user, groups);
    }

    /** TLS for a Java client: trusts this cluster's CA only. */
    public SSLContext clientTls() {
        return ca.clientContext();
    }

    public X509TrustManager trustManager() {
        return ca.trustManager();
    }

    /** The bearer token of ServiceAccount NS/NAME, authorised only by the RBAC objects in the store. */
    public String tokenFor(String namespace, String serviceAccount) {
        return tokens.forServiceAccount(namespace, serviceAccount);
    }

    public Store store() {
        return store;
    }

    /** Writes with the server's rules (defaults, validation, admission, finalizers); for controllers and tests. */
    public Registry registry() {
        return registry;
    }

    public Catalog catalog() {
        return catalog;
    }

    public Faults faults() {
        return faults;
    }

    /**
     * How full each claim is, as the kubelets report it (the summary API at
     * {@code /api/v1/nodes/NODE/proxy/stats/summary}) and Prometheus serves it: the simulator's own model,
     * invisible to clients. Set a claim's growth, the seed, or the clock (tests fix it).
     */
    /** What the simulated containers printed, served by {@code GET …/pods/NAME/log}. */
    public ContainerLogs containerLogs() {
        return containerLogs;
    }

    /** What each PersistentVolume holds (file count, bytes, manifest digest), for the copy migration's copy pods. */
    public VolumeContents volumeContents() {
        return volumeContents;
    }

    public VolumeUsage usage() {
        return usage;
    }

    /**
     * The usage model's seed and configured claims as a {@code VolumeUsage} document, which {@link #load}
     * reads back: for a saved state to keep its usage (kept out of {@link #snapshot()}, whose readers
     * expect API objects only).
     */
    public ObjectNode usageDocument() {
        return UsageDocument.of(usage);
    }

    /**
     * The simulated Prometheus on a plain-HTTP port of its own ({@code http://127.0.0.1:PORT}, started on
     * first call): a Prometheus outside the cluster. The same one answers in the cluster behind Service
     * {@code monitoring/prometheus-k8s} port 9090 once that Service object exists (through the API
     * server's service proxy). What it serves: {@link Prometheus}.
     */
    public synchronized String prometheusUrl() {
        if (prometheusServer == null) {
            prometheusServer = new PrometheusServer(prometheus);
        }
        return prometheusServer.url();
    }

    /**
     * Runs {@code backend} behind Service NS/NAME on {@code port}: the API server's service proxy
     * ({@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/…}) reaches it once the Service object exists.
     */
    public void runBehindService(String namespace, String name, int port, ServiceBackend backend) {
        services.put(namespace + "/" + name + ":" + port, backend);
    }

    /**
     * TEST ONLY: makes this server know a field client-java's models do not (".spec.someFutureField";
     * a list's items by the list's path: ".spec.template.spec.containers.someFutureField"), as a newer
     * kube-apiserver would; without it such a field is refused like any unknown one. For the tests of
     * a field newer than the client carried through re-apply and restore.
     */
    public SimCluster declareField(String apiVersion, String kind, String path) {
        registry.declareField(apiVersion, kind, path);
        return this;
    }

    /** Every request served so far, in order. */
    public List<RecordedRequest> requests() {
        return log.all();
    }

    public RequestLog requestLog() {
        return log;
    }

    /** The resource type of an apiVersion/kind, e.g. ("apps/v1", "StatefulSet"). */
    public ResourceType type(String apiVersion, String kind) {
        return catalog.byKind(apiVersion, kind).orElseThrow(() ->
                new IllegalArgumentException("the simulated cluster does not serve " + kind + " in " + apiVersion));
    }

    /** A copy of a stored object, or null. */
    public ObjectNode get(String apiVersion, String kind, String namespace, String name) {
        ResourceType t = type(apiVersion, kind);
        return store.get(t, t.namespaced() ? namespace : "", name);
    }

    /**
     * Stores objects as given (a snapshot): status kept, defaults filled, quantities canonical,
     * a List's items one by one, missing namespaces created. Returns the stored copies.
     */
    public List<ObjectNode> load(ObjectNode... objects) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode o : objects) {
            if (UsageDocument.is(o)) { // the simulator's own document: configures the model, is not stored
                UsageDocument.apply(o, usage);
                continue;
            }
            if (o.path("kind").asText().endsWith("List") && o.has("items")) {
                for (JsonNode item : o.get("items")) {
                    out.addAll(load((ObjectNode) item));
                }
                continue;
            }
            ResourceType t = type(o.path("apiVersion").asText(), o.path("kind").asText());
            ObjectNode copy = o.deepCopy();
            ObjectNode meta = copy.withObject("/metadata");
            if (t.namespaced()) {
                if (meta.path("namespace").asText("").isEmpty()) {
                    meta.put("namespace", "default");
                }
                ensureNamespace(meta.get("namespace").asText());
            } else {
                meta.remove("namespace");
            }
            Defaults.apply(t, copy);
            out.add(store.load(t, copy));
        }
        return out;
    }

    /**
     * Subscribes to store events (from {@code fromResourceVersion}, or now when negative): the hook
     * part-2 controllers watch through, writing back via {@link #registry()} under their own field manager.
     */
    public Subscription subscribe(Predicate<StoreEvent> filter, long fromResourceVersion) {
        return store.subscribe(filter, fromResourceVersion);
    }

    /**
     * Every stored object, grouped per kind (namespaces first), for {@code --save}; not the bootstrap
     * ClusterRoles and bindings, which every start creates again (a saved state is what its author made).
     */
    public List<ObjectNode> snapshot() {
        List<ObjectNode> all = new ArrayList<>();
        for (ResourceType t : catalog.all()) {
            if (dev.stsresize.sim.store.Versions.storage(t).equals(t)) { // events once, in their storage version
                store.list(t, "").stream().filter(o -> !BootstrapPolicy.isBootstrap(o)).forEach(all::add);
            }
        }
        return all;
    }

    /**
     * A kubeconfig for this cluster, as kubeadm's admin.conf plus more: cluster "sim" (https, the CA in
     * certificate-authority-data); context "sim" as the admin by client certificate, "sim-token" as the
     * admin by bearer token, and "sim-NS-NAME" per issued ServiceAccount token.
     */
    public String kubeconfig() {
        StringBuilder b = new StringBuilder();
        b.append("apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n    server: ").append(url()).append('\n')
                .append("    certificate-authority-data: ").append(base64(caCertificatePem())).append('\n');
        Map<String, String> users = new TreeMap<>(tokens.all());
        b.append("contexts:\n- name: sim\n  context:\n    cluster: sim\n    user: admin\n    namespace: default\n")
                .append("- name: sim-token\n  context:\n    cluster: sim\n    user: admin-token\n    namespace: default\n");
        for (String user : users.keySet()) {
            if (user.startsWith("system:serviceaccount:")) {
                String[] p = user.split(":");
                b.append("- name: sim-").append(p[2]).append('-').append(p[3]).append("\n  context:\n    cluster: sim")
                        .append("\n    user: \"").append(user).append("\"\n    namespace: ").append(p[2]).append('\n');
            }
        }
        b.append("current-context: sim\nusers:\n- name: admin\n  user:\n")
                .append("    client-certificate-data: ").append(base64(admin.certificatePem())).append('\n')
                .append("    client-key-data: ").append(base64(admin.keyPem())).append('\n')
                .append("- name: admin-token\n  user:\n    token: ").append(adminToken()).append('\n');
        for (Map.Entry<String, String> u : users.entrySet()) {
            if (u.getKey().startsWith("system:serviceaccount:")) {
                b.append("- name: \"").append(u.getKey()).append("\"\n  user:\n    token: ").append(u.getValue()).append('\n');
            }
        }
        return b.toString();
    }

    private static String base64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    public void writeKubeconfig(Path file) {
        try {
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, kubeconfig(), StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void ensureNamespace(String ns) {
        ResourceType namespaces = catalog.byResource("", "namespaces").orElseThrow();
        if (store.get(namespaces, "", ns) == null) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("apiVersion", "v1");
            o.put("kind", "Namespace");
            o.putObject("metadata").put("name", ns);
            Defaults.apply(namespaces, o);
            store.load(namespaces, o);
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            if (prometheusServer != null) {
                prometheusServer.close();
            }
        }
        server.close();
        log.close();
    }
}

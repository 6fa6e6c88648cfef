package dev.stsresize.sim.demo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.controller.ControllerManager;
import dev.stsresize.sim.prometheus.Prometheus;
import dev.stsresize.sim.usage.UsageDocument;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The built-in {@code demo} scenario: a settled cluster (StatefulSets with their pods Running and
 * Ready, claims Bound at full capacity, PVs, revisions, StorageClasses) and the manifest an operator
 * would bring to it, one StatefulSet per case the plugin must handle; one of them ({@code payments/ledger})
 * 92 % full and filling, in a namespace with a storage ResourceQuota, the others 10-55 % used; the
 * Service {@code monitoring/prometheus-k8s} so the simulated Prometheus answers in the cluster.
 *
 * <p>UIDs are derived from names, so every run of the demo shows the same objects. The objects are
 * written as a v1.32 API server returns them (defaults filled in), because the simulator loads
 * snapshots "as given".
 */
public final class DemoScenario {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    /** One StatefulSet of the scenario: live shape and what the manifest declares. */
    record Case(String namespace, String name, String image, int replicas, String storageClass,
            String liveTemplateSize, String claimSize, String declaredSize, int leftoverOrdinals,
            boolean deleteWithOwner, String why) {}

    /** The namespace of the filling StatefulSet, with a ResourceQuota of its own. */
    private static final String FILLING_NAMESPACE = "payments";
    /** The quota's requests.storage: 3 claims of 10Gi use 30Gi; room to grow each to 20Gi. */
    private static final String FILLING_QUOTA = "60Gi";
    /** Seed of the usage model: every claim not listed below is 10-55 % used and fills in months. */
    private static final long USAGE_SEED = 2026;

    /**
     * How full the filling StatefulSet's claims are and how fast they grow (bytes/s): the fullest fills in ~3 h. The
     * fractions are of used bytes; each file system also keeps ext4's 5 % back ({@code VolumeUsage.DEFAULT_RESERVED}),
     * so the alert's measure, 1 − available ÷ capacity, reads 92, 90 and 89 %.
     */
    private record Filling(String claim, double usedFraction, long bytesPerSecond) {}

    private static final List<Filling> FILLING = List.of(
            new Filling("data-ledger-0", 0.87, 80_000),
            new Filling("data-ledger-1", 0.85, 60_000),
            new Filling("data-ledger-2", 0.84, 50_000));

    static final List<Case> CASES = List.of(
            new Case("shop", "postgres", "postgres:16.4", 3, "fast-online", "10Gi", "10Gi", "20Gi", 0, false,
                    "grows online: claims, then orphan-delete and re-apply"),
            new Case("analytics", "clickhouse", "clickhouse/clickhouse-server:24.8", 2, "standard-offline", "50Gi",
                    "50Gi", "100Gi", 0, false, "grows offline: FileSystemResizePending until each pod restarts"),
            new Case("shop", "redis", "redis:7.4", 1, "fast-online", "8Gi", "8Gi", "4Gi", 0, false,
                    "refused: a shrink"),
            new Case("legacy", "mysql", "mysql:8.4", 1, "local-fixed", "20Gi", "20Gi", "40Gi", 0, false,
                    "refused: its class does not allow expansion"),
            new Case("analytics", "kafka", "apache/kafka:3.8.0", 3, "fast-online", "100Gi", "100Gi", "200Gi", 0,
                    true, "grows with whenDeleted: Delete: the claims carry owner references"),
            new Case("shop", "elasticsearch", "elasticsearch:8.15.0", 2, "fast-online", "30Gi", "30Gi", "60Gi", 1,
                    false, "scaled down from 3: the claim of ordinal 2 is grown too"),
            new Case("shop", "minio", "minio/minio:RELEASE.2024-10-02", 4, "fast-online", "40Gi", "20Gi", "40Gi",
                    0, false, "claims lag behind the template: grow them, no recreate"),
            new Case("legacy", "etcd", "quay.io/coreos/etcd:v3.5.15", 3, "fast-online", "8Gi", "8Gi", "8Gi", 0,
                    false, "up to date"),
            new Case(FILLING_NAMESPACE, "ledger", "postgres:16.4", 3, "fast-online", "10Gi", "10Gi", "10Gi", 0, false,
                    "92 % full and filling (full in about 3 hours): the manifest keeps 10Gi, raise it; quota 60Gi"));

    /**
     * The copy migration's scenario, kept apart from {@link #CASES} so the demo's plan stays as its tests
     * know it: a StatefulSet on rancher's local-path class, which provisions volumes but cannot expand them
     * (no {@code allowVolumeExpansion}, no resizer), whose manifest asks for twice the size.
     */
    static final List<Case> COPY_CASES = List.of(
            new Case("files", "web", "nginx:1.27", 2, "local-path", "1Gi", "1Gi", "2Gi", 0, false,
                    "cannot grow in place: its class provisions but does not expand; grows by copy"));

    private DemoScenario() {}

    /** The copy scenario's live cluster ({@link #COPY_CASES}): its namespace, the local-path class, the set's objects. */
    public static List<ObjectNode> copyCluster() {
        List<ObjectNode> out = new ArrayList<>();
        ObjectNode n = object("v1", "Namespace", null, "files");
        n.putObject("spec").putArray("finalizers").add("kubernetes");
        n.putObject("status").put("phase", "Active");
        out.add(n);
        out.add(storageClass("local-path", "rancher.io/local-path", false, "none"));
        for (Case c : COPY_CASES) {
            out.addAll(liveObjects(c));
        }
        return out;
    }

    /** The copy scenario's manifest: the set at its declared size. */
    public static List<ObjectNode> copyManifest() {
        return manifest(COPY_CASES);
    }

    /** The live cluster: namespaces, StorageClasses, and per case its StatefulSet, revision, pods, claims and PVs. */
    public static List<ObjectNode> cluster() {
        List<ObjectNode> out = new ArrayList<>();
        for (String ns : List.of("shop", "analytics", "legacy", FILLING_NAMESPACE, Prometheus.NAMESPACE)) {
            ObjectNode n = object("v1", "Namespace", null, ns);
            n.putObject("spec").putArray("finalizers").add("kubernetes");
            n.putObject("status").put("phase", "Active");
            out.add(n);
        }
        out.add(storageClass("fast-online", "ebs.csi.aws.com", true, "online"));
        out.add(storageClass("standard-offline", "pd.csi.storage.gke.io", true, "offline"));
        out.add(storageClass("local-fixed", "kubernetes.io/no-provisioner", false, "none"));
        // the two CSI drivers are deployed: each registers its CSIDriver (as the AWS EBS and GCE PD drivers' manifests do)
        out.add(csiDriver("ebs.csi.aws.com"));
        out.add(csiDriver("pd.csi.storage.gke.io"));
        for (Case c : CASES) {
            out.addAll(liveObjects(c));
        }
        out.add(quota());
        out.add(prometheusService());
        out.add(usage());
        return out;
    }

    /** The filling StatefulSet's namespace quota, status as the quota controller would have it. */
    private static ObjectNode quota() {
        ObjectNode q = object("v1", "ResourceQuota", FILLING_NAMESPACE, "storage");
        ((ObjectNode) q.get("metadata")).put("uid", uid("quota/" + FILLING_NAMESPACE + "/storage"));
        q.putObject("spec").putObject("hard").put("requests.storage", FILLING_QUOTA);
        ObjectNode st = q.putObject("status");
        st.putObject("hard").put("requests.storage", FILLING_QUOTA);
        st.putObject("used").put("requests.storage", "30Gi");
        return q;
    }

    /** kube-prometheus' Service, so the in-cluster Prometheus URL (through the service proxy) answers. */
    private static ObjectNode prometheusService() {
        ObjectNode svc = object("v1", "Service", Prometheus.NAMESPACE, Prometheus.SERVICE);
        ObjectNode meta = (ObjectNode) svc.get("metadata");
        meta.put("uid", uid("svc/" + Prometheus.NAMESPACE + "/" + Prometheus.SERVICE));
        meta.putObject("labels").put("app.kubernetes.io/name", "prometheus");
        ObjectNode spec = svc.putObject("spec");
        spec.putArray("ports").addObject().put("name", "web").put("port", Prometheus.PORT).put("protocol", "TCP")
                .put("targetPort", "web");
        spec.putObject("selector").put("app.kubernetes.io/name", "prometheus");
        spec.put("type", "ClusterIP");
        return svc;
    }

    /**
     * The simulator's usage model for the demo (a VolumeUsage document, which {@code SimCluster.load}
     * reads and never stores: the plugin sees usage only through the summary API and Prometheus).
     */
    private static ObjectNode usage() {
        ObjectNode doc = JSON.objectNode();
        doc.put("apiVersion", UsageDocument.API_VERSION);
        doc.put("kind", UsageDocument.KIND);
        doc.putObject("metadata").put("name", "volume-usage");
        doc.put("seed", USAGE_SEED);
        ArrayNode claims = doc.putArray("claims");
        for (Filling f : FILLING) {
            claims.addObject().put("namespace", FILLING_NAMESPACE).put("name", f.claim()).put("usedFraction", f.usedFraction())
                    .put("bytesPerSecond", f.bytesPerSecond());
        }
        return doc;
    }

    /** The manifest the operator brings: every StatefulSet as a user writes it, sizes as declared. */
    public static List<ObjectNode> manifest() {
        return manifest(CASES);
    }

    private static List<ObjectNode> manifest(List<Case> cases) {
        List<ObjectNode> out = new ArrayList<>();
        for (Case c : cases) {
            ObjectNode sts = object("apps/v1", "StatefulSet", c.namespace(), c.name());
            ((ObjectNode) sts.get("metadata")).putObject("labels").put("app.kubernetes.io/name", c.name());
            ObjectNode spec = sts.putObject("spec");
            spec.put("serviceName", c.name());
            spec.put("replicas", c.replicas());
            spec.putObject("selector").putObject("matchLabels").put("app.kubernetes.io/name", c.name());
            if (c.deleteWithOwner()) {
                spec.putObject("persistentVolumeClaimRetentionPolicy").put("whenDeleted", "Delete")
                        .put("whenScaled", "Retain");
            }
            ObjectNode tpl = spec.putObject("template");
            tpl.putObject("metadata").putObject("labels").put("app.kubernetes.io/name", c.name());
            ObjectNode container = tpl.putObject("spec").putArray("containers").addObject();
            container.put("name", c.name());
            container.put("image", c.image());
            container.putArray("volumeMounts").addObject().put("name", "data").put("mountPath", "/data");
            ObjectNode vct = spec.putArray("volumeClaimTemplates").addObject();
            vct.putObject("metadata").put("name", "data");
            ObjectNode vs = vct.putObject("spec");
            vs.put("storageClassName", c.storageClass());
            vs.putArray("accessModes").add("ReadWriteOnce");
            vs.putObject("resources").putObject("requests").put("storage", c.declaredSize());
            out.add(sts);
        }
        return out;
    }

    /** What each demo StatefulSet shows, for the demo's banner. */
    public static List<String> descriptions() {
        return CASES.stream().map(c -> c.namespace() + "/" + c.name() + ": " + c.why()).toList();
    }

    /** The copy scenario's StatefulSets, as {@link #descriptions} says the main one's. */
    public static List<String> copyDescriptions() {
        return COPY_CASES.stream().map(c -> c.namespace() + "/" + c.name() + ": " + c.why()).toList();
    }

    private static List<ObjectNode> liveObjects(Case c) {
        List<ObjectNode> out = new ArrayList<>();
        ObjectNode sts = object("apps/v1", "StatefulSet", c.namespace(), c.name());
        ObjectNode meta = (ObjectNode) sts.get("metadata");
        meta.put("uid", uid("sts/" + c.namespace() + "/" + c.name()));
        meta.put("generation", 1);
        meta.putObject("labels").put("app.kubernetes.io/name", c.name());
        ObjectNode spec = sts.putObject("spec");
        spec.put("serviceName", c.name());
        spec.put("replicas", c.replicas());
        spec.putObject("selector").putObject("matchLabels").put("app.kubernetes.io/name", c.name());
        ObjectNode tpl = spec.putObject("template");
        tpl.putObject("metadata").putNull("creationTimestamp");
        ((ObjectNode) tpl.get("metadata")).putObject("labels").put("app.kubernetes.io/name", c.name());
        tpl.set("spec", podSpec(c));
        ObjectNode vct = spec.putArray("volumeClaimTemplates").addObject();
        vct.put("apiVersion", "v1");
        vct.put("kind", "PersistentVolumeClaim");
        vct.putObject("metadata").putNull("creationTimestamp");
        ((ObjectNode) vct.get("metadata")).put("name", "data");
        ObjectNode vs = vct.putObject("spec");
        vs.putArray("accessModes").add("ReadWriteOnce");
        vs.putObject("resources").putObject("requests").put("storage", c.liveTemplateSize());
        vs.put("storageClassName", c.storageClass());
        vs.put("volumeMode", "Filesystem");
        vct.putObject("status").put("phase", "Pending");
        spec.put("podManagementPolicy", "OrderedReady");
        spec.put("revisionHistoryLimit", 10);
        spec.putObject("updateStrategy").put("type", "RollingUpdate").putObject("rollingUpdate").put("partition", 0);
        spec.putObject("persistentVolumeClaimRetentionPolicy").put("whenDeleted", c.deleteWithOwner() ? "Delete" : "Retain")
                .put("whenScaled", "Retain");
        String revision = c.name() + "-" + hash(c.name() + c.image());
        ObjectNode st = sts.putObject("status");
        st.put("observedGeneration", 1);
        st.put("replicas", c.replicas());
        st.put("readyReplicas", c.replicas());
        st.put("currentReplicas", c.replicas());
        st.put("updatedReplicas", c.replicas());
        st.put("availableReplicas", c.replicas());
        st.put("currentRevision", revision);
        st.put("updateRevision", revision);
        st.put("collisionCount", 0);
        out.add(sts);

        ObjectNode rev = object("apps/v1", "ControllerRevision", c.namespace(), revision);
        ObjectNode rmeta = (ObjectNode) rev.get("metadata");
        rmeta.put("uid", uid("rev/" + c.namespace() + "/" + revision));
        rmeta.putObject("labels").put("app.kubernetes.io/name", c.name())
                .put("controller.kubernetes.io/hash", revision.substring(c.name().length() + 1));
        rmeta.putArray("ownerReferences").add(ownerRef(c, true));
        ObjectNode data = rev.putObject("data").putObject("spec").putObject("template");
        data.put("$patch", "replace");
        data.putObject("metadata").putObject("labels").put("app.kubernetes.io/name", c.name());
        data.set("spec", podSpec(c));
        rev.put("revision", 1);
        out.add(rev);

        for (int i = 0; i < c.replicas() + c.leftoverOrdinals(); i++) {
            String claim = "data-" + c.name() + "-" + i;
            String pv = "pvc-" + uid("pvc/" + c.namespace() + "/" + claim);
            out.add(claim(c, claim, pv));
            out.add(volume(c, claim, pv));
            if (i < c.replicas()) {
                out.add(pod(c, i, revision));
            }
        }
        return out;
    }

    private static ObjectNode podSpec(Case c) {
        ObjectNode ps = JSON.objectNode();
        ObjectNode container = ps.putArray("containers").addObject();
        container.put("name", c.name());
        container.put("image", c.image());
        container.putObject("resources");
        container.putArray("volumeMounts").addObject().put("name", "data").put("mountPath", "/data");
        container.put("terminationMessagePath", "/dev/termination-log");
        container.put("terminationMessagePolicy", "File");
        container.put("imagePullPolicy", "IfNotPresent");
        ps.put("restartPolicy", "Always");
        ps.put("terminationGracePeriodSeconds", 30);
        ps.put("dnsPolicy", "ClusterFirst");
        ps.putObject("securityContext");
        ps.put("schedulerName", "default-scheduler");
        return ps;
    }

    private static ObjectNode pod(Case c, int ordinal, String revision) {
        String name = c.name() + "-" + ordinal;
        ObjectNode pod = object("v1", "Pod", c.namespace(), name);
        ObjectNode meta = (ObjectNode) pod.get("metadata");
        meta.put("uid", uid("pod/" + c.namespace() + "/" + name));
        meta.put("generateName", c.name() + "-");
        meta.putObject("labels").put("app.kubernetes.io/name", c.name())
                .put("controller-revision-hash", revision)
                .put("statefulset.kubernetes.io/pod-name", name)
                .put("apps.kubernetes.io/pod-index", Integer.toString(ordinal));
        meta.putArray("ownerReferences").add(ownerRef(c, true));
        ObjectNode spec = podSpec(c);
        spec.put("hostname", name);
        spec.put("subdomain", c.name());
        spec.put("nodeName", "demo-node-" + (ordinal % 3));
        spec.putArray("volumes").addObject().put("name", "data").putObject("persistentVolumeClaim")
                .put("claimName", "data-" + name);
        pod.set("spec", spec);
        ObjectNode st = pod.putObject("status");
        st.put("phase", "Running");
        ArrayNode conds = st.putArray("conditions");
        for (String t : List.of("PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady", "PodScheduled")) {
            conds.addObject().put("type", t).put("status", "True").putNull("lastProbeTime")
                    .put("lastTransitionTime", "2026-11-20T09:00:00Z");
        }
        st.put("podIP", "10.244." + (ordinal % 3) + "." + (10 + Math.abs(c.name().hashCode() % 200)));
        st.put("startTime", "2026-11-20T09:00:00Z");
        ObjectNode cs = st.putArray("containerStatuses").addObject();
        cs.put("name", c.name()).put("ready", true).put("restartCount", 0).put("image", c.image()).put("started", true);
        cs.putObject("state").putObject("running").put("startedAt", "2026-11-20T09:00:05Z");
        return pod;
    }

    private static ObjectNode claim(Case c, String name, String pv) {
        ObjectNode pvc = object("v1", "PersistentVolumeClaim", c.namespace(), name);
        ObjectNode meta = (ObjectNode) pvc.get("metadata");
        meta.put("uid", uid("pvc/" + c.namespace() + "/" + name));
        meta.putObject("labels").put("app.kubernetes.io/name", c.name());
        meta.putObject("annotations").put("pv.kubernetes.io/bind-completed", "yes")
                .put("pv.kubernetes.io/bound-by-controller", "yes")
                .put("volume.beta.kubernetes.io/storage-provisioner", provisioner(c.storageClass()))
                .put("volume.kubernetes.io/storage-provisioner", provisioner(c.storageClass()));
        meta.putArray("finalizers").add("kubernetes.io/pvc-protection");
        if (c.deleteWithOwner()) {
            meta.putArray("ownerReferences").add(ownerRef(c, true));
        }
        ObjectNode spec = pvc.putObject("spec");
        spec.putArray("accessModes").add("ReadWriteOnce");
        spec.putObject("resources").putObject("requests").put("storage", c.claimSize());
        spec.put("storageClassName", c.storageClass());
        spec.put("volumeMode", "Filesystem");
        spec.put("volumeName", pv);
        ObjectNode st = pvc.putObject("status");
        st.put("phase", "Bound");
        st.putArray("accessModes").add("ReadWriteOnce");
        st.putObject("capacity").put("storage", c.claimSize());
        return pvc;
    }

    private static ObjectNode volume(Case c, String claim, String pvName) {
        ObjectNode pv = object("v1", "PersistentVolume", null, pvName);
        ObjectNode meta = (ObjectNode) pv.get("metadata");
        meta.put("uid", uid("pv/" + pvName));
        meta.putObject("annotations").put("pv.kubernetes.io/provisioned-by", provisioner(c.storageClass()));
        meta.putArray("finalizers").add("kubernetes.io/pv-protection");
        ObjectNode spec = pv.putObject("spec");
        spec.putArray("accessModes").add("ReadWriteOnce");
        spec.putObject("capacity").put("storage", c.claimSize());
        spec.putObject("claimRef").put("apiVersion", "v1").put("kind", "PersistentVolumeClaim")
                .put("namespace", c.namespace()).put("name", claim)
                .put("uid", uid("pvc/" + c.namespace() + "/" + claim));
        spec.put("persistentVolumeReclaimPolicy", "Delete");
        spec.put("storageClassName", c.storageClass());
        spec.put("volumeMode", "Filesystem");
        if (c.storageClass().equals("local-fixed")) {
            spec.putObject("local").put("path", "/mnt/disks/" + claim);
        } else if (c.storageClass().equals("local-path")) {
            // local-path-provisioner's PV: a hostPath directory on one node
            spec.putObject("hostPath").put("path", "/opt/local-path-provisioner/" + pvName + "_" + c.namespace() + "_" + claim)
                    .put("type", "DirectoryOrCreate");
            String node = "demo-node-" + Integer.parseInt(claim.substring(claim.lastIndexOf('-') + 1)) % 3;
            ObjectNode term = spec.putObject("nodeAffinity").putObject("required").putArray("nodeSelectorTerms").addObject();
            term.putArray("matchExpressions").addObject().put("key", "kubernetes.io/hostname").put("operator", "In")
                    .putArray("values").add(node);
        } else {
            spec.putObject("csi").put("driver", provisioner(c.storageClass())).put("volumeHandle", "vol-" + hash(claim));
        }
        pv.putObject("status").put("phase", "Bound");
        return pv;
    }

    private static ObjectNode storageClass(String name, String provisioner, boolean expandable, String resizer) {
        ObjectNode sc = object("storage.k8s.io/v1", "StorageClass", null, name);
        ObjectNode meta = (ObjectNode) sc.get("metadata");
        meta.put("uid", uid("sc/" + name));
        meta.putObject("annotations").put(ControllerManager.RESIZER_ANNOTATION, resizer);
        sc.put("provisioner", provisioner);
        sc.put("reclaimPolicy", "Delete");
        boolean local = provisioner.equals("kubernetes.io/no-provisioner") || provisioner.equals("rancher.io/local-path");
        sc.put("volumeBindingMode", local ? "WaitForFirstConsumer" : "Immediate");
        if (expandable) {
            sc.put("allowVolumeExpansion", true);
        }
        return sc;
    }

    private static ObjectNode csiDriver(String name) {
        ObjectNode d = object("storage.k8s.io/v1", "CSIDriver", null, name);
        ((ObjectNode) d.get("metadata")).put("uid", uid("csidriver/" + name));
        d.putObject("spec").put("attachRequired", true).put("podInfoOnMount", false);
        return d;
    }

    private static String provisioner(String storageClass) {
        return switch (storageClass) {
            case "fast-online" -> "ebs.csi.aws.com";
            case "standard-offline" -> "pd.csi.storage.gke.io";
            case "local-path" -> "rancher.io/local-path";
            default -> "kubernetes.io/no-provisioner";
        };
    }

    private static ObjectNode ownerRef(Case c, boolean controller) {
        ObjectNode ref = JSON.objectNode();
        ref.put("apiVersion", "apps/v1");
        ref.put("kind", "StatefulSet");
        ref.put("name", c.name());
        ref.put("uid", uid("sts/" + c.namespace() + "/" + c.name()));
        ref.put("controller", controller);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    private static ObjectNode object(String apiVersion, String kind, String namespace, String name) {
        ObjectNode o = JSON.objectNode();
        o.put("apiVersion", apiVersion);
        o.put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name);
        if (namespace != null) {
            meta.put("namespace", namespace);
        }
        meta.put("creationTimestamp", "2026-11-20T09:00:00Z");
        return o;
    }

    static String uid(String seed) {
        return UUID.nameUUIDFromBytes(("stsresize-demo/" + seed).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** A hash like the controller's revision suffix: rand.SafeEncodeString of a decimal 32-bit hash. */
    private static String hash(String seed) {
        String alphanums = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder b = new StringBuilder();
        for (char ch : Integer.toUnsignedString(seed.hashCode()).toCharArray()) {
            b.append(alphanums.charAt(ch % alphanums.length()));
        }
        return b.toString();
    }
}

package dev.stsresize.job;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Renders the pre-rollout Job that converges a namespace's declared StatefulSets, and the identity
 * it runs as (the seed's Build/Objects), as raw trees in apply order: ServiceAccount, Role,
 * RoleBinding, NetworkPolicy, then (unless {@code --namespaced-only}) the ClusterRole and
 * ClusterRoleBinding that let it read StorageClasses and CSIDrivers, then the Job.
 *
 * <p>THE JOB'S NAME CARRIES A HASH OF ITS POD SPEC: a Job's spec is immutable, so a changed spec must
 * be a new object, and an unchanged one is a no-op under a re-apply or a Flux reconcile. The pod spec
 * embeds only the declared volume fields ({@link Declared}), so the Job runs again exactly when one
 * changes, not when only a pod template does.
 *
 * <p>THE IDENTITY IS NARROW: get and delete on the named StatefulSets, get, list and patch on claims,
 * get on their Leases, all in the namespace. The script learns whether a claim may grow from the API
 * server's refusal of a dry-run patch; whether anything can resize its class (a CSI driver deployed,
 * not kubernetes.io/no-provisioner) the server never says, so the Job may also read StorageClasses and
 * CSIDrivers — cluster-scoped, read-only, nothing secret. A tree that may not create cluster-scoped
 * objects renders without them ({@code --namespaced-only}); the script then warns that it cannot check.
 */
public final class JobRenderer {
    public static final String BASE_NAME = "sts-volume-resize";
    public static final String CONTAINER = "resize";
    /** kubectl and jq, pinned by digest so a retag cannot change what writes to a production volume (the seed's DefaultImage). */
    public static final String DEFAULT_IMAGE =
            "docker.io/alpine/k8s:1.34.12@sha256:d50424976a0a888d2531f13035dce45c004ec2b6f877f233005ba35c0d61be5d";
    /** The image's unprivileged user: numeric, so runAsNonRoot can be verified without reading /etc/passwd. */
    static final long RUN_AS = 65532;
    static final String LABEL_NAME = "app.kubernetes.io/name";
    static final String LABEL_INSTANCE = "app.kubernetes.io/instance";
    static final String LABEL_MANAGED_BY = "app.kubernetes.io/managed-by";
    static final String SCRATCH = "/tmp";
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Pattern DIGEST = Pattern.compile(".+@sha256:[0-9a-f]{64}");

    private JobRenderer() {}

    /** The base name of a delivery unit's objects. */
    public static String baseName(String unit) {
        return unit == null || unit.isEmpty() || unit.equals("base") ? BASE_NAME : BASE_NAME + "-" + unit;
    }

    public static List<ObjectNode> render(JobSpec spec) {
        String base = validate(spec);
        List<ObjectNode> sets = new ArrayList<>(spec.statefulSets());
        sets.sort(Comparator.comparing(s -> s.path("metadata").path("name").asText()));
        List<ObjectNode> out = new ArrayList<>();
        out.add(serviceAccount(spec, base));
        out.add(role(spec, base, sets));
        out.add(roleBinding(spec, base));
        out.add(networkPolicy(spec, base));
        if (spec.storageRead()) {
            // before the Job: its pod may start as soon as the Job exists
            out.add(storageReader(spec, base));
            out.add(storageReaderBinding(spec, base));
        }
        out.add(job(spec, base, sets));
        return out;
    }

    /**
     * The flags {@code --unit} and {@code --image} as the Job needs them; the base name of the unit's objects.
     * Public so that render-job refuses them before it asks the cluster for its version.
     */
    public static String checkUnitAndImage(String unit, String image) {
        if (unit != null && !unit.isEmpty() && !DNS_LABEL.matcher(unit).matches()) {
            throw new UserError("--unit \"" + unit + "\" is not a DNS label (lowercase letters, digits and '-'); it names the"
                    + " Job's objects, so pick one such as \"db\"");
        }
        String base = baseName(unit);
        // the Job's name becomes the job-name label of its pod, which holds at most 63 characters
        if (base.length() + 11 > 63) {
            throw new UserError("--unit \"" + unit + "\" makes the Job's name " + (base.length() + 11) + " characters long;"
                    + " a Job's name may have at most 63 here, so shorten the unit to " + (63 - 11 - BASE_NAME.length() - 1) + " or fewer");
        }
        if (image != null && !DIGEST.matcher(image).matches()) {
            throw new UserError("--image " + image + " is not pinned by digest; the Job writes to production volumes, so"
                    + " give the image as NAME@sha256:DIGEST (find it with: docker buildx imagetools inspect " + image + ")");
        }
        return base;
    }

    private static String validate(JobSpec spec) {
        KubernetesVersion v = java.util.Objects.requireNonNull(spec.kubernetesVersion(), "the target cluster's version");
        if (!v.atLeast(KubernetesVersion.OLDEST_SUPPORTED)) {
            throw new UserError("the cluster runs Kubernetes " + v + ", older than " + KubernetesVersion.OLDEST_SUPPORTED + ", the oldest"
                    + " kubectl stsresize supports: volume expansion is GA only from " + KubernetesVersion.OLDEST_SUPPORTED
                    + ", so the Job's claim patches may be refused or never acted on. Upgrade the cluster, or grow the volumes by hand");
        }
        if (spec.namespace() == null || !DNS_LABEL.matcher(spec.namespace()).matches()) {
            throw new UserError("the namespace \"" + spec.namespace() + "\" is not a valid namespace name; pass --namespace NS");
        }
        String base = checkUnitAndImage(spec.unit(), spec.image());
        if (spec.statefulSets().isEmpty()) {
            throw new UserError("the manifest declares no StatefulSet with volumeClaimTemplates in namespace " + spec.namespace()
                    + "; there is nothing for a resize Job to converge. Check -f and --namespace");
        }
        for (ObjectNode s : spec.statefulSets()) {
            String ns = s.path("metadata").path("namespace").asText(spec.namespace());
            if (!ns.equals(spec.namespace()) || s.path("spec").path("volumeClaimTemplates").isEmpty()) {
                throw new IllegalArgumentException("StatefulSet " + ns + "/" + s.path("metadata").path("name").asText()
                        + " is outside namespace " + spec.namespace() + " or has no claim template");
            }
        }
        return base;
    }

    private static ObjectNode object(String apiVersion, String kind, String name, JobSpec spec, String base) {
        ObjectNode o = Canonical.MAPPER.createObjectNode();
        o.put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name).put("namespace", spec.namespace());
        ObjectNode labels = meta.putObject("labels");
        // --label first, the standard labels last: a --label cannot take over the selector the NetworkPolicy uses
        new TreeMap<>(spec.labels()).forEach(labels::put);
        standardLabels(base).forEach(labels::put);
        return o;
    }

    static Map<String, String> standardLabels(String base) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(LABEL_NAME, BASE_NAME);
        m.put(LABEL_INSTANCE, base);
        m.put(LABEL_MANAGED_BY, "kubectl-stsresize");
        return m;
    }

    private static ObjectNode serviceAccount(JobSpec spec, String base) {
        ObjectNode sa = object("v1", "ServiceAccount", base, spec, base);
        if (!spec.imagePullSecrets().isEmpty()) {
            ArrayNode secrets = sa.putArray("imagePullSecrets");
            spec.imagePullSecrets().forEach(s -> secrets.addObject().put("name", s));
        }
        return sa;
    }

    private static ObjectNode role(JobSpec spec, String base, List<ObjectNode> sets) {
        ObjectNode role = object("rbac.authorization.k8s.io/v1", "Role", base, spec, base);
        ArrayNode rules = role.putArray("rules");
        ObjectNode sts = rules.addObject();
        sts.putArray("apiGroups").add("apps");
        sts.putArray("resources").add("statefulsets");
        ArrayNode names = sts.putArray("resourceNames");
        sets.forEach(s -> names.add(s.path("metadata").path("name").asText()));
        sts.putArray("verbs").add("get").add("delete");
        ObjectNode claims = rules.addObject();
        claims.putArray("apiGroups").add("");
        claims.putArray("resources").add("persistentvolumeclaims");
        claims.putArray("verbs").add("get").add("list").add("patch");
        // get on the CLI's Leases only: the script checks their lock and never reads a run's record (its Secret), so the
        // Role needs no Secret rights (docs/commands.md, "The run's record")
        ObjectNode leases = rules.addObject();
        leases.putArray("apiGroups").add("coordination.k8s.io");
        leases.putArray("resources").add("leases");
        ArrayNode leaseNames = leases.putArray("resourceNames");
        sets.forEach(s -> leaseNames.add(LeaseConvention.leaseName(s.path("metadata").path("name").asText())));
        leases.putArray("verbs").add("get");
        return role;
    }

    private static ObjectNode roleBinding(JobSpec spec, String base) {
        ObjectNode rb = object("rbac.authorization.k8s.io/v1", "RoleBinding", base, spec, base);
        rb.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "Role").put("name", base);
        rb.putArray("subjects").addObject().put("kind", "ServiceAccount").put("name", base).put("namespace", spec.namespace());
        return rb;
    }

    /** A cluster-scoped name per namespace and unit: {@code BASE:NAMESPACE} (a namespace holds no ':'). */
    static String storageReaderName(JobSpec spec, String base) {
        return base + ":" + spec.namespace();
    }

    private static ObjectNode clusterObject(String kind, String name, JobSpec spec, String base) {
        ObjectNode o = object("rbac.authorization.k8s.io/v1", kind, name, spec, base);
        ((ObjectNode) o.get("metadata")).remove("namespace");
        return o;
    }

    /** get StorageClasses (each claim's class and its provisioner), list CSIDrivers (which drivers are deployed). */
    private static ObjectNode storageReader(JobSpec spec, String base) {
        ObjectNode role = clusterObject("ClusterRole", storageReaderName(spec, base), spec, base);
        ArrayNode rules = role.putArray("rules");
        ObjectNode classes = rules.addObject();
        classes.putArray("apiGroups").add("storage.k8s.io");
        classes.putArray("resources").add("storageclasses");
        classes.putArray("verbs").add("get");
        ObjectNode drivers = rules.addObject();
        drivers.putArray("apiGroups").add("storage.k8s.io");
        drivers.putArray("resources").add("csidrivers");
        drivers.putArray("verbs").add("list");
        return role;
    }

    private static ObjectNode storageReaderBinding(JobSpec spec, String base) {
        ObjectNode rb = clusterObject("ClusterRoleBinding", storageReaderName(spec, base), spec, base);
        rb.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "ClusterRole").put("name", storageReaderName(spec, base));
        rb.putArray("subjects").addObject().put("kind", "ServiceAccount").put("name", base).put("namespace", spec.namespace());
        return rb;
    }

    private static ObjectNode networkPolicy(JobSpec spec, String base) {
        ObjectNode np = object("networking.k8s.io/v1", "NetworkPolicy", base, spec, base);
        ObjectNode s = np.putObject("spec");
        ObjectNode match = s.putObject("podSelector").putObject("matchLabels");
        match.put(LABEL_NAME, BASE_NAME).put(LABEL_INSTANCE, base);
        s.putArray("policyTypes").add("Egress");
        ArrayNode egress = s.putArray("egress");
        ArrayNode dns = egress.addObject().putArray("ports");
        dns.addObject().put("protocol", "UDP").put("port", 53);
        dns.addObject().put("protocol", "TCP").put("port", 53);
        ObjectNode api = egress.addObject();
        ArrayNode to = api.putArray("to");
        List<String> cidrs = spec.apiServerCidrs().isEmpty() ? List.of(DEFAULT_CIDR) : spec.apiServerCidrs();
        cidrs.forEach(c -> to.addObject().putObject("ipBlock").put("cidr", c));
        ArrayNode ports = api.putArray("ports");
        List<Integer> ps = spec.apiServerPorts().isEmpty() ? List.of(443, 6443) : spec.apiServerPorts();
        ps.forEach(p -> ports.addObject().put("protocol", "TCP").put("port", p));
        return np;
    }

    static final String DEFAULT_CIDR = "0.0.0.0/0";
    /** Written above the default ipBlock in the YAML stream ({@link RenderedStream}). */
    static final String DEFAULT_CIDR_COMMENT = "# 0.0.0.0/0: an offline render cannot know the API server's endpoint addresses;"
            + " narrow it with --api-server-cidr (kubectl get endpoints kubernetes -n default)";

    private static ObjectNode job(JobSpec spec, String base, List<ObjectNode> sets) {
        ObjectNode podSpec = podSpec(spec, base, sets);
        ObjectNode job = object("batch/v1", "Job", base + "-" + Canonical.hash(podSpec, 10), spec, base);
        ObjectNode s = job.putObject("spec");
        // retries for the transient exits (1); exit 2 is a refusal that no retry changes
        s.put("backoffLimit", 4);
        s.put("activeDeadlineSeconds", 900);
        // kept a day for its logs; under Flux a deleted Job is re-created and finds nothing to do
        s.put("ttlSecondsAfterFinished", 86400);
        if (spec.kubernetesVersion().atLeast(KubernetesVersion.POD_FAILURE_POLICY)) {
            podFailurePolicy(s);
        }
        // older servers drop or refuse podFailurePolicy: there a refusal (exit 2) is retried backoffLimit times, writing nothing
        ObjectNode template = s.putObject("template");
        ObjectNode podLabels = template.putObject("metadata").putObject("labels");
        standardLabels(base).forEach(podLabels::put);
        template.set("spec", podSpec);
        return job;
    }

    /** Exit 2 (refused) fails the Job at once; a pod disrupted (evicted, preempted) does not count against backoffLimit. */
    private static void podFailurePolicy(ObjectNode jobSpec) {
        ArrayNode rules = jobSpec.putObject("podFailurePolicy").putArray("rules");
        ObjectNode refused = rules.addObject();
        refused.put("action", "FailJob");
        ObjectNode codes = refused.putObject("onExitCodes");
        codes.put("containerName", CONTAINER).put("operator", "In");
        codes.putArray("values").add(2);
        ObjectNode disrupted = rules.addObject();
        disrupted.put("action", "Ignore");
        disrupted.putArray("onPodConditions").addObject().put("type", "DisruptionTarget");
    }

    private static ObjectNode podSpec(JobSpec spec, String base, List<ObjectNode> sets) {
        ObjectNode p = Canonical.MAPPER.createObjectNode();
        p.put("serviceAccountName", base);
        // the script needs its own ServiceAccount's token (in-cluster kubectl) and no other
        p.put("automountServiceAccountToken", true);
        p.put("restartPolicy", "Never");
        p.put("enableServiceLinks", false);
        ObjectNode psc = p.putObject("securityContext");
        psc.put("runAsNonRoot", true).put("runAsUser", RUN_AS).put("runAsGroup", RUN_AS);
        psc.putObject("seccompProfile").put("type", "RuntimeDefault");
        ObjectNode c = p.putArray("containers").addObject();
        c.put("name", CONTAINER);
        c.put("image", spec.image() == null ? DEFAULT_IMAGE : spec.image());
        c.put("imagePullPolicy", "IfNotPresent");
        c.putArray("command").add("/bin/sh").add("-c").add(Script.text()).add("stsresize");
        ArrayNode env = c.putArray("env");
        env.addObject().put("name", "RESIZE_NAMESPACE").put("value", spec.namespace());
        env.addObject().put("name", "RESIZE_DECLARED").put("value", Declared.json(sets));
        // the root filesystem is read-only: kubectl's config and discovery cache and mktemp go to the emptyDir
        env.addObject().put("name", "HOME").put("value", SCRATCH);
        env.addObject().put("name", "TMPDIR").put("value", SCRATCH);
        ObjectNode res = c.putObject("resources");
        res.putObject("requests").put("cpu", "50m").put("memory", "64Mi").put("ephemeral-storage", "16Mi");
        res.putObject("limits").put("cpu", "500m").put("memory", "256Mi").put("ephemeral-storage", "64Mi");
        ObjectNode csc = c.putObject("securityContext");
        csc.put("allowPrivilegeEscalation", false).put("readOnlyRootFilesystem", true).put("runAsNonRoot", true)
                .put("runAsUser", RUN_AS).put("runAsGroup", RUN_AS);
        csc.putObject("capabilities").putArray("drop").add("ALL");
        csc.putObject("seccompProfile").put("type", "RuntimeDefault");
        c.putArray("volumeMounts").addObject().put("name", "scratch").put("mountPath", SCRATCH);
        p.putArray("volumes").addObject().put("name", "scratch").putObject("emptyDir").put("sizeLimit", "64Mi");
        return p;
    }

    /** The StatefulSets a Job serves: the declared ones of {@code namespace} with claim templates. */
    public static List<ObjectNode> servedBy(List<ObjectNode> declared, String namespace) {
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode s : declared) {
            JsonNode templates = s.path("spec").path("volumeClaimTemplates");
            if (namespace.equals(s.path("metadata").path("namespace").asText()) && templates.isArray() && !templates.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}

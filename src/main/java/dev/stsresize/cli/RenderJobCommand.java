package dev.stsresize.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.UserError;
import dev.stsresize.cluster.ClusterConnection;
import dev.stsresize.job.JobRenderer;
import dev.stsresize.job.JobSpec;
import dev.stsresize.job.KubernetesVersion;
import dev.stsresize.job.RenderedStream;
import dev.stsresize.manifest.Manifest;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kubectl stsresize render-job}: the pre-rollout Job for a GitOps tree, and the identity it
 * runs as. Reads the manifest and writes a YAML stream to stdout; the only request it may send is a GET
 * of the target cluster's {@code /version}, when {@code --kubernetes-version} does not name it, so that
 * the Job carries only the fields that cluster serves. It connects through the same flags as every other
 * command, and says on stderr which cluster and version it rendered for.
 */
@Command(
        name = "render-job",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        usageHelpAutoWidth = true,
        description = {
            "Write the Job that grows the volumes of MANIFEST's StatefulSets in-cluster, before a GitOps rollout.",
            "The StatefulSets of namespace NS, with the Job's ServiceAccount, Role, RoleBinding, NetworkPolicy, and"
                    + " the ClusterRole and ClusterRoleBinding to read StorageClasses and CSIDrivers (in apply order), as"
                    + " one YAML stream. Put it in a tree that runs before the rollout (Flux: a Kustomization the rollout"
                    + " dependsOn).",
        },
        footer = {"", "Examples:", "  kubectl stsresize render-job -f k8s/ -R -n shop \\", "      --kubernetes-version 1.32 > pre/stsresize.yaml",
            "  kubectl stsresize render-job -f k8s/ -R -n shop \\", "      --context prod > pre/stsresize.yaml"})
public final class RenderJobCommand extends BaseCommand {
    private static final Pattern LABEL = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_./]*)=([-A-Za-z0-9_.]*)");
    private static final Pattern CIDR = Pattern.compile("[0-9.]+/[0-9]{1,2}|[0-9a-fA-F:]+/[0-9]{1,3}");

    /** Why render-job has no copy: said whole, as the one error paragraph. */
    static final String COPY_REFUSED = "render-job does not copy volumes: the copy migration runs a pod per claim, deletes and"
            + " re-creates each claim, one pod at a time, with downtime an operator watches and answers gates for, and a Job"
            + " before a rollout has no one to answer them. Run kubectl stsresize apply --copy -f MANIFEST from a terminal,"
            + " then let the rollout go on; the Job needs no change (its StatefulSets are then up to date). Nothing was written.";

    @Mixin ManifestOptions manifestFiles;

    /** -n is the Job's namespace, the context's when not given; the kubeconfig flags name the target cluster. */
    @Mixin ConnectionOptions connection;

    @Option(names = "--unit", paramLabel = "NAME",
            description = "The delivery unit, naming the objects sts-volume-resize-NAME (absent, \"\" or base: sts-volume-resize).")
    String unit;

    @Option(names = "--image", paramLabel = "REF",
            description = "The Job's image (kubectl and jq), pinned by digest (default: " + JobRenderer.DEFAULT_IMAGE + ").")
    String image;

    @Option(names = "--image-pull-secret", paramLabel = "NAME", description = "A pull Secret for the ServiceAccount. Repeatable.")
    List<String> pullSecrets = new ArrayList<>();

    @Option(names = "--label", paramLabel = "K=V", description = "A label for every object's metadata (never the pod). Repeatable.")
    List<String> labels = new ArrayList<>();

    @Option(names = "--api-server-cidr", paramLabel = "CIDR",
            description = "Where the API server's endpoints are, for the NetworkPolicy. Repeatable. Default: 0.0.0.0/0.")
    List<String> cidrs = new ArrayList<>();

    @Option(names = "--api-server-port", paramLabel = "N",
            description = "The API server's endpoint port, for the NetworkPolicy. Repeatable. Default: 443 and 6443.")
    List<Integer> ports = new ArrayList<>();

    /**
     * Accepted only to be refused with why: a Job cannot run the copy migration. Hidden, as it does nothing; an
     * operator who reaches for it from {@code apply}'s help gets the paragraph instead of "unknown option".
     */
    @Option(names = "--copy", hidden = true)
    boolean copy;

    @Option(names = "--namespaced-only",
            description = "Leave out the ClusterRole and ClusterRoleBinding that let the Job read StorageClasses and CSIDrivers (for a"
                    + " tree that may not create cluster-scoped objects): the Job then cannot refuse a class nothing can resize, only warn.")
    boolean namespacedOnly;

    @Option(names = "--kubernetes-version", paramLabel = "VERSION",
            description = "The target cluster's Kubernetes version (1.32, or v1.32.3 as kubectl version prints it): the Job carries only"
                    + " the fields it serves. Default: read from the cluster's /version (the connection flags).")
    String kubernetesVersion;

    private final Environment environment;

    public RenderJobCommand(Environment environment) {
        this.environment = environment;
    }

    @Override
    protected int run() {
        Map<String, String> stamped = labels();
        KubernetesVersion typed = kubernetesVersion == null ? null : KubernetesVersion.parse(kubernetesVersion, "--kubernetes-version");
        PrintWriter err = spec.commandLine().getErr();
        // the kubeconfig is read only for what the flags leave out: the namespace (the context's), the version (the cluster's)
        ClusterConnection conn = connection.namespace == null ? connect() : null;
        String namespace = connection.namespace != null ? connection.namespace : conn.defaultNamespace();
        Manifest manifest = manifestFiles.read(environment.stdin(), namespace, false); // other namespaces are left out, not refused
        KubernetesVersion target = typed;
        if (target == null) {
            conn = conn != null ? conn : connect();
            target = KubernetesVersion.fromVersionInfo(conn.cluster().serverVersion(), conn.server());
        }
        List<ObjectNode> served = JobRenderer.servedBy(manifest.objects(), namespace);
        JobSpec js = JobSpec.of(namespace, served, target).withUnit(unit).withImage(image)
                .withLabels(stamped).withImagePullSecrets(pullSecrets).withApiServer(cidrs, ports).withStorageRead(!namespacedOnly);
        String rendered = RenderedStream.yaml(JobRenderer.render(js));
        if (conn != null) {
            err.println(conn.target());
        }
        err.println("rendered for Kubernetes " + target + (typed == null ? " (the cluster's /version)" : " (--kubernetes-version)")
                + " in namespace " + namespace);
        err.flush();
        PrintWriter out = spec.commandLine().getOut();
        out.print(rendered);
        out.flush();
        return ExitCodes.OK;
    }

    /** The target cluster, through the kubeconfig as kubectl reads it (no request yet). */
    private ClusterConnection connect() {
        try {
            return connection.connect(environment, spec.commandLine().getErr());
        } catch (UserError e) {
            throw new UserError("render-job writes only the fields the target cluster serves, in the Job's namespace, so it needs the"
                    + " cluster's Kubernetes version and the namespace: pass --kubernetes-version (e.g. 1.32) and -n NS, or a kubeconfig"
                    + " of that cluster (" + e.getMessage() + ")");
        }
    }

    @Override
    protected void validate() {
        if (copy) {
            throw invalid(COPY_REFUSED);
        }
        manifestFiles.require(spec);
        manifestFiles.validate();
        connection.validate(spec); // -n checked as kube-apiserver checks a namespace's name: the Job would run in it
        if (connection.allNamespaces) {
            throw invalid("render-job writes the Job of one namespace: pass -n NS (or none: the context's), not -A.");
        }
        labels();
        JobRenderer.checkUnitAndImage(unit, image);
        if (kubernetesVersion != null) {
            KubernetesVersion.parse(kubernetesVersion, "--kubernetes-version");
        }
        for (String c : cidrs) {
            if (!CIDR.matcher(c).matches()) {
                throw invalid("--api-server-cidr takes a CIDR such as 10.0.0.1/32, not \"" + c + "\".");
            }
        }
        for (int p : ports) {
            if (p < 1 || p > 65535) {
                throw invalid("--api-server-port takes a port from 1 to 65535, not " + p + ".");
            }
        }
    }

    /** The --label flags as the labels every object gets; a malformed one refused. */
    private Map<String, String> labels() {
        Map<String, String> stamped = new LinkedHashMap<>();
        for (String l : labels) {
            var m = LABEL.matcher(l);
            if (!m.matches()) {
                throw invalid("--label takes KEY=VALUE (e.g. --label team=storage), not \"" + l + "\".");
            }
            stamped.put(m.group(1), m.group(2));
        }
        return stamped;
    }
}

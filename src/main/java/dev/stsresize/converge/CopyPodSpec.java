package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.CopyPodLog;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The copy pod of one claim, as docs/design.md's "The copy pod" states the contract with the simulated kubelet and
 * {@link CopyPodLog#verify}: named {@link CopyPodLog#podName}, labelled as the port's {@code createCopyPod} requires,
 * the script {@value #SCRIPT} (its first line {@value #SCRIPT_MARK}) run by {@code sh -c}, the source claim read-only at
 * {@code /src} and the run's temporary claim at {@code /dst}.
 */
public final class CopyPodSpec {
    /** The script's resource, beside this class. */
    public static final String SCRIPT = "copy.sh";
    /** The script's first line, by which the simulated kubelet knows the copy pod. */
    public static final String SCRIPT_MARK = "# stsresize-copy v1";
    public static final String SOURCE_VOLUME = "src";
    public static final String DESTINATION_VOLUME = "dst";
    private static final String TEXT = load();

    private CopyPodSpec() {}

    /** The copy script's text. */
    public static String script() {
        return TEXT;
    }

    /** The pod that copies {@code namespace/sourceClaim} onto {@code destinationClaim} with {@code image}. */
    public static ObjectNode of(String namespace, String sourceClaim, String destinationClaim, String image) {
        ObjectNode pod = Objects.MAPPER.createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", CopyPodLog.podName(sourceClaim)).put("namespace", namespace);
        meta.putObject("labels").put(CopyPodLog.MANAGED_BY_LABEL, CopyPodLog.MANAGED_BY)
                .put(CopyPodLog.COPY_OF_LABEL, CopyPodLog.copyOfLabel(sourceClaim));

        ObjectNode spec = pod.putObject("spec");
        // the copy runs once: a failed copy is read as such (its log, exit code) and never retried behind the run's back
        spec.put("restartPolicy", "Never");
        // the script reads files of the application's volume, untrusted input: it needs no API access, so no token
        // is mounted that a crafted file could make it leak
        spec.put("automountServiceAccountToken", false);
        // no Services' variables in its environment: the script reads SRC and DST, which a service named "src" or
        // "dst" would not set, but nothing else of the namespace belongs in the copy's environment either
        spec.put("enableServiceLinks", false);
        // a copy stopped half way is redone from an emptied destination, so there is nothing to flush on SIGTERM; a
        // short grace lets the pod's delete release the claims (pvc-protection) soon after a stop
        spec.put("terminationGracePeriodSeconds", 5);
        // root: it reads every file whatever its mode, and cp -a keeps every owner (chown) and device (mknod)
        spec.putObject("securityContext").put("runAsUser", 0).put("runAsGroup", 0);

        ObjectNode container = spec.putArray("containers").addObject();
        container.put("name", CopyPodLog.CONTAINER).put("image", image).put("imagePullPolicy", "IfNotPresent");
        container.putArray("command").add("sh").add("-c").add(TEXT);
        // requests small, so the pod fits on the node that holds a local volume even when that node is full; no
        // limits: sort keeps a manifest in memory, and a copy killed for memory would only be redone
        container.putObject("resources").putObject("requests").put("cpu", "50m").put("memory", "64Mi");
        ArrayNode mounts = container.putArray("volumeMounts");
        mounts.addObject().put("name", SOURCE_VOLUME).put("mountPath", "/src").put("readOnly", true);
        mounts.addObject().put("name", DESTINATION_VOLUME).put("mountPath", "/dst");

        ArrayNode volumes = spec.putArray("volumes");
        volumes.addObject().put("name", SOURCE_VOLUME).putObject("persistentVolumeClaim").put("claimName", sourceClaim).put("readOnly", true);
        volumes.addObject().put("name", DESTINATION_VOLUME).putObject("persistentVolumeClaim").put("claimName", destinationClaim);
        return pod;
    }

    private static String load() {
        try (InputStream in = CopyPodSpec.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException("the resource " + SCRIPT + " is missing from the jar: a build problem");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            if (!text.startsWith(SCRIPT_MARK + "\n")) {
                throw new IllegalStateException("the resource " + SCRIPT + " does not start with " + SCRIPT_MARK + ": a build problem");
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

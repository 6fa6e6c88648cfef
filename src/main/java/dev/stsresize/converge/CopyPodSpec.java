package dev.stsresize.converge;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.cluster.CopyPodLog;

/** The copy pod (docs/design.md, "The copy pod"). Provisional: the script itself lands with its own change. */
final class CopyPodSpec {
    private CopyPodSpec() {}

    static ObjectNode of(String namespace, String sourceClaim, String destinationClaim, String image) {
        ObjectNode pod = Objects.MAPPER.createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("name", CopyPodLog.podName(sourceClaim)).put("namespace", namespace);
        meta.putObject("labels").put(CopyPodLog.MANAGED_BY_LABEL, CopyPodLog.MANAGED_BY).put(CopyPodLog.COPY_OF_LABEL,
                CopyPodLog.copyOfLabel(sourceClaim));
        ObjectNode spec = pod.putObject("spec");
        spec.put("restartPolicy", "Never");
        ObjectNode c = spec.putArray("containers").addObject();
        c.put("name", CopyPodLog.CONTAINER).put("image", image);
        c.putArray("command").add("sh").add("-c").add("# stsresize-copy v1\ncp -a /src/. /dst/\n");
        c.putArray("volumeMounts").add(Objects.MAPPER.createObjectNode().put("name", "src").put("mountPath", "/src").put("readOnly", true))
                .add(Objects.MAPPER.createObjectNode().put("name", "dst").put("mountPath", "/dst"));
        ObjectNode src = spec.putArray("volumes").addObject();
        src.put("name", "src").putObject("persistentVolumeClaim").put("claimName", sourceClaim).put("readOnly", true);
        ObjectNode dst = ((com.fasterxml.jackson.databind.node.ArrayNode) spec.get("volumes")).addObject();
        dst.put("name", "dst").putObject("persistentVolumeClaim").put("claimName", destinationClaim);
        return pod;
    }
}

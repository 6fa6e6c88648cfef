package dev.stsresize.job;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * One resize Job's input (the seed's JobSpec).
 *
 * @param namespace the StatefulSets' namespace
 * @param unit the delivery unit; null, "" or "base" is the default one. It only names the objects
 * @param image the Job's image, pinned by digest; null is {@link JobRenderer#DEFAULT_IMAGE}
 * @param statefulSets the DECLARED StatefulSets, all in {@code namespace}, each with a claim template
 * @param labels stamped on every object's metadata, never on the pod
 * @param imagePullSecrets pull Secrets in {@code namespace}, put on the ServiceAccount
 * @param apiServerCidrs where the API server's endpoints are; empty is 0.0.0.0/0
 * @param apiServerPorts the API server's endpoint ports; empty is 443 and 6443
 * @param kubernetesVersion the target cluster's version: only the fields it serves are written
 * @param storageRead grant the Job read of StorageClasses and CSIDrivers (a ClusterRole), so that it can refuse
 *     a class without a resizer; false keeps its identity namespace-scoped, and the script then only warns
 */
public record JobSpec(String namespace, String unit, String image, List<ObjectNode> statefulSets, Map<String, String> labels,
        List<String> imagePullSecrets, List<String> apiServerCidrs, List<Integer> apiServerPorts, KubernetesVersion kubernetesVersion,
        boolean storageRead) {
    public JobSpec {
        statefulSets = List.copyOf(statefulSets);
        labels = Map.copyOf(labels);
        imagePullSecrets = List.copyOf(imagePullSecrets);
        apiServerCidrs = List.copyOf(apiServerCidrs);
        apiServerPorts = List.copyOf(apiServerPorts);
    }

    public static JobSpec of(String namespace, List<ObjectNode> statefulSets, KubernetesVersion kubernetesVersion) {
        return new JobSpec(namespace, null, null, statefulSets, Map.of(), List.of(), List.of(), List.of(), kubernetesVersion, true);
    }

    public JobSpec withUnit(String u) {
        return new JobSpec(namespace, u, image, statefulSets, labels, imagePullSecrets, apiServerCidrs, apiServerPorts, kubernetesVersion, storageRead);
    }

    public JobSpec withImage(String i) {
        return new JobSpec(namespace, unit, i, statefulSets, labels, imagePullSecrets, apiServerCidrs, apiServerPorts, kubernetesVersion, storageRead);
    }

    public JobSpec withLabels(Map<String, String> l) {
        return new JobSpec(namespace, unit, image, statefulSets, l, imagePullSecrets, apiServerCidrs, apiServerPorts, kubernetesVersion, storageRead);
    }

    public JobSpec withImagePullSecrets(List<String> s) {
        return new JobSpec(namespace, unit, image, statefulSets, labels, s, apiServerCidrs, apiServerPorts, kubernetesVersion, storageRead);
    }

    public JobSpec withStorageRead(boolean read) {
        return new JobSpec(namespace, unit, image, statefulSets, labels, imagePullSecrets, apiServerCidrs, apiServerPorts, kubernetesVersion, read);
    }

    public JobSpec withApiServer(List<String> cidrs, List<Integer> ports) {
        return new JobSpec(namespace, unit, image, statefulSets, labels, imagePullSecrets, cidrs, ports, kubernetesVersion, storageRead);
    }
}

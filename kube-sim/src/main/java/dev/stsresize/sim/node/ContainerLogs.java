package dev.stsresize.sim.node;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each container of the simulated nodes printed, by pod uid and container name: the container runtime's log
 * files the kubelet reads for {@code GET …/pods/NAME/log} (kuberuntime_logs.go ReadLogs). Kept until the pod is gone.
 */
public final class ContainerLogs {
    private final Map<String, List<String>> lines = new ConcurrentHashMap<>();

    public void println(String podUid, String container, String line) {
        List<String> out = lines.computeIfAbsent(key(podUid, container), k -> new ArrayList<>());
        synchronized (out) {
            out.add(line);
        }
    }

    /** The lines printed so far, the last {@code tailLines} of them when that is not negative. */
    public List<String> lines(String podUid, String container, long tailLines) {
        List<String> out = lines.getOrDefault(key(podUid, container), List.of());
        synchronized (out) {
            int from = tailLines < 0 ? 0 : (int) Math.max(0, out.size() - tailLines);
            return List.copyOf(out.subList(from, out.size()));
        }
    }

    public void forget(String podUid) {
        lines.keySet().removeIf(k -> k.startsWith(podUid + "/"));
    }

    private static String key(String podUid, String container) {
        return podUid + "/" + container;
    }
}

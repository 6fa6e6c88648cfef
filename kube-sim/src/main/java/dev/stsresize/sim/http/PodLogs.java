package dev.stsresize.sim.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stsresize.sim.ApiError;
import dev.stsresize.sim.node.ContainerLogs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /api/v1/namespaces/NS/pods/NAME/log} (authorised as {@code pods/log} get), text/plain:
 * pkg/registry/core/pod/rest/log.go validates the PodLogOptions (ValidatePodLogOptions: 422 on PodLogOptions), then
 * pod/strategy.go LogLocation picks the container (validateContainer: the only one when none is named, else a 400
 * naming them; a name the pod lacks is a 400) and answers an empty body for a pod on no node yet; the kubelet
 * (kubelet_pods.go validateContainerLogStatus) refuses a container that has not started with the 400 the API server
 * relays (GenericHttpResponseChecker: NewBadRequest with the kubelet's text), and reads the container's output.
 * {@code tailLines} is honoured as the kubelet reads the log file (pkg/kubelet/kuberuntime/logs/logs.go ReadLogs:
 * tail.FindTailLineStartIndex finds the start of the last N lines, and with N = 0 nothing is read); {@code follow=true} answers what was printed so far and ends, where a real
 * server keeps the stream open until the container ends; {@code timestamps}, {@code sinceSeconds} and
 * {@code limitBytes} are not applied.
 */
final class PodLogs {
    private final ContainerLogs logs;

    PodLogs(ContainerLogs logs) {
        this.logs = logs;
    }

    byte[] read(JsonNode pod, Map<String, String> query) {
        String name = pod.path("metadata").path("name").asText();
        long tail = options(name, query);
        String container = container(pod, query.getOrDefault("container", ""));
        if (pod.path("spec").path("nodeName").asText("").isEmpty()) {
            return new byte[0];
        }
        if ("true".equals(query.get("previous"))) {
            throw badRequest("previous terminated container \"" + container + "\" in pod \"" + name + "\" not found");
        }
        JsonNode status = null;
        for (JsonNode s : pod.path("status").path("containerStatuses")) {
            if (s.path("name").asText().equals(container)) {
                status = s;
            }
        }
        if (status == null) {
            // the kubelet's own status of a pod it has just been given: the container is being created
            throw badRequest("container \"" + container + "\" in pod \"" + name + "\" is waiting to start: ContainerCreating");
        }
        JsonNode state = status.path("state");
        if (state.has("waiting")) {
            throw badRequest("container \"" + container + "\" in pod \"" + name + "\" is waiting to start: "
                    + state.path("waiting").path("reason").asText());
        }
        if (!state.has("running") && !state.has("terminated")) {
            throw badRequest("container \"" + container + "\" in pod \"" + name + "\" is waiting to start - no logs yet");
        }
        StringBuilder b = new StringBuilder();
        for (String line : logs.lines(pod.path("metadata").path("uid").asText(), container, tail)) {
            b.append(line).append('\n');
        }
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** ValidatePodLogOptions: tailLines and limitBytes; the tail, or -1 for all lines. */
    private static long options(String name, Map<String, String> query) {
        List<ApiError.Cause> causes = new ArrayList<>();
        long tail = -1;
        if (query.containsKey("tailLines")) {
            tail = Long.parseLong(query.get("tailLines"));
            if (tail < 0) {
                causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + tail + ": must be greater than or equal to 0",
                        "tailLines"));
            }
        }
        if (query.containsKey("limitBytes") && Long.parseLong(query.get("limitBytes")) < 1) {
            causes.add(new ApiError.Cause("FieldValueInvalid", "Invalid value: " + query.get("limitBytes")
                    + ": must be greater than 0", "limitBytes"));
        }
        if (!causes.isEmpty()) {
            throw ApiError.invalid("", "PodLogOptions", name, causes);
        }
        return tail;
    }

    /** validateContainer. */
    private static String container(JsonNode pod, String asked) {
        String name = pod.path("metadata").path("name").asText();
        List<String> names = new ArrayList<>();
        pod.path("spec").path("initContainers").forEach(c -> names.add(c.path("name").asText()));
        List<String> main = new ArrayList<>();
        pod.path("spec").path("containers").forEach(c -> main.add(c.path("name").asText()));
        if (asked.isEmpty()) {
            if (main.size() == 1) {
                return main.get(0);
            }
            if (main.isEmpty()) {
                throw badRequest("a container name must be specified for pod " + name);
            }
            List<String> all = new ArrayList<>(names);
            all.addAll(main);
            pod.path("spec").path("ephemeralContainers").forEach(c -> all.add(c.path("name").asText()));
            throw badRequest("a container name must be specified for pod " + name + ", choose one of: [" + String.join(" ", all) + "]");
        }
        names.addAll(main);
        pod.path("spec").path("ephemeralContainers").forEach(c -> names.add(c.path("name").asText()));
        if (!names.contains(asked)) {
            throw badRequest("container " + asked + " is not valid for pod " + name);
        }
        return asked;
    }

    private static ApiError badRequest(String message) {
        return ApiError.of(400, "BadRequest", message, null);
    }
}

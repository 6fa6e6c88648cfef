package dev.stsresize.sim.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.sim.admission.Quantities;
import dev.stsresize.sim.node.ContainerLogs;
import dev.stsresize.sim.node.VolumeContents;
import dev.stsresize.sim.usage.Growth;

/**
 * A copy pod of kubectl-stsresize (its contract: docs/design.md, "The copy pod") as the simulated kubelet runs it: the one
 * container whose script starts with {@value #SCRIPT_MARK} copies the PV behind volume {@code src} to the PV behind
 * {@code dst} (the simulator's per-volume content: files, bytes, manifest digest; the destination claim's used bytes
 * become the source's), prints the contract's lines, and exits 0 after {@code verified}, or 3 after {@code differs}
 * when the destination's StorageClass carries {@value #FAULT_ANNOTATION}{@code : differs} (its content then differs).
 */
final class CopyPod {
    static final String SCRIPT_MARK = "# stsresize-copy v1";
    static final String FAULT_ANNOTATION = "sim.stsresize.dev/copy-fault";
    private static final String PREFIX = "stsresize-copy: ";

    private final Context ctx;
    private final Api kubelet;

    CopyPod(Context ctx, Api kubelet) {
        this.ctx = ctx;
        this.kubelet = kubelet;
    }

    /** A pod whose first container runs the copy script ({@code command} or {@code args} carry it). */
    static boolean is(JsonNode pod) {
        JsonNode c = pod.path("spec").path("containers").path(0);
        for (String field : new String[] {"command", "args"}) {
            for (JsonNode arg : c.path(field)) {
                if (arg.asText().startsWith(SCRIPT_MARK)) {
                    return true;
                }
            }
        }
        return false;
    }

    private ContainerLogs logs() {
        return ctx.sim().containerLogs();
    }

    private String container(JsonNode pod) {
        return pod.path("spec").path("containers").path(0).path("name").asText();
    }

    /**
     * The first lines, printed when the container starts; and the kubelet's noise of a read-only mount
     * (operation_generator.go, the NodeExpandVolume step of MountVolume, v1.24 to v1.32): a source volume whose PV is
     * larger than its claim's capacity (a file system resize pending) is not grown read-only, and the kubelet says so
     * on the pod and on the claim.
     */
    void started(JsonNode pod) {
        ObjectNode srcClaim = claim(pod, "src");
        ObjectNode pv = kubelet.get(ctx.kinds().volumes(), "", srcClaim.path("spec").path("volumeName").asText());
        if (pv != null && readOnly(pod, "src") && Quantities.compare(srcClaim.path("status").path("capacity").path("storage").asText("0"),
                pv.path("spec").path("capacity").path("storage").asText("0")) < 0) {
            String message = "MountVolume.NodeExpandVolume failed for volume \"" + ObjectMeta.name(pv) + "\" requested read-only file system";
            ctx.events().warning("kubelet", pod, "FileSystemResizeFailed", message);
            ctx.events().warning("kubelet", srcClaim, "FileSystemResizeFailed", message);
        }
        VolumeContents.Content src = source(pod);
        logs().println(ObjectMeta.uid(pod), container(pod), PREFIX + "start src-files=" + src.files() + " src-bytes=" + src.bytes());
    }

    /** Half way. */
    void progress(JsonNode pod) {
        VolumeContents.Content src = source(pod);
        logs().println(ObjectMeta.uid(pod), container(pod), PREFIX + "progress files=" + src.files() / 2 + " bytes=" + src.bytes() / 2);
    }

    /** The copy itself, its manifests and its verdict; the pod ends Succeeded (exit 0) or Failed (exit 3). */
    void finish(ObjectNode pod) {
        String uid = ObjectMeta.uid(pod);
        String name = container(pod);
        ObjectNode dstClaim = claim(pod, "dst");
        String dstVolume = dstClaim.path("spec").path("volumeName").asText();
        VolumeContents.Content src = source(pod);
        ObjectNode dstClass = ctx.storageClassOf(dstClaim);
        boolean differs = dstClass != null
                && "differs".equals(dstClass.path("metadata").path("annotations").path(FAULT_ANNOTATION).asText());
        VolumeContents.Content dst = differs ? new VolumeContents.Content(src.files(), src.bytes() - 1, src.origin() + "/torn") : src;
        ctx.sim().volumeContents().set(dstVolume, dst);
        ctx.sim().usage().set(ObjectMeta.ns(dstClaim), ObjectMeta.name(dstClaim), Growth.bytes(dst.bytes(), 0));
        logs().println(uid, name, PREFIX + "progress files=" + dst.files() + " bytes=" + dst.bytes());
        logs().println(uid, name, PREFIX + "manifest src sha256=" + src.manifestSha256() + " files=" + src.files() + " bytes=" + src.bytes());
        logs().println(uid, name, PREFIX + "manifest dst sha256=" + dst.manifestSha256() + " files=" + dst.files() + " bytes=" + dst.bytes());
        long sizeKib = capacityBytes(dstClaim) / 1024;
        logs().println(uid, name, PREFIX + "filesystem ext4 size-kib=" + sizeKib + " used-kib=" + (dst.bytes() + 1023) / 1024);
        if (differs) {
            logs().println(uid, name, PREFIX + "differs " + src.lastEntry() + " | " + dst.lastEntry());
        } else {
            logs().println(uid, name, PREFIX + "verified");
        }
        terminate(pod, differs ? 3 : 0);
    }

    private void terminate(ObjectNode pod, int exitCode) {
        String now = kubelet.store().now();
        ObjectNode st = pod.withObject("/status");
        st.put("phase", exitCode == 0 ? "Succeeded" : "Failed");
        for (JsonNode c : st.withArray("conditions")) {
            String type = c.path("type").asText();
            if (type.equals("Ready") || type.equals("ContainersReady")) {
                ((ObjectNode) c).put("status", "False").put("reason", "PodCompleted").put("lastTransitionTime", now);
            }
        }
        for (JsonNode c : st.path("containerStatuses")) {
            ObjectNode cs = (ObjectNode) c;
            String startedAt = cs.path("state").path("running").path("startedAt").asText(now);
            cs.put("ready", false).put("started", false);
            cs.putObject("state").putObject("terminated").put("exitCode", exitCode).put("reason", exitCode == 0 ? "Completed" : "Error")
                    .put("startedAt", startedAt).put("finishedAt", now).put("containerID", cs.path("containerID").asText());
        }
        kubelet.updateStatus(ctx.kinds().pods(), pod);
    }

    private VolumeContents.Content source(JsonNode pod) {
        ObjectNode claim = claim(pod, "src");
        return ctx.sim().volumeContents().of(claim.path("spec").path("volumeName").asText(),
                () -> ctx.sim().usage().measure(ObjectMeta.ns(claim), ObjectMeta.name(claim), capacityBytes(claim)).usedBytes());
    }

    private static boolean readOnly(JsonNode pod, String volume) {
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.path("name").asText().equals(volume) && v.path("persistentVolumeClaim").path("readOnly").asBoolean(false)) {
                return true;
            }
        }
        return false;
    }

    private ObjectNode claim(JsonNode pod, String volume) {
        for (JsonNode v : pod.path("spec").path("volumes")) {
            if (v.path("name").asText().equals(volume)) {
                ObjectNode claim = kubelet.get(ctx.kinds().claims(), ObjectMeta.ns(pod), v.path("persistentVolumeClaim").path("claimName").asText());
                if (claim != null) {
                    return claim;
                }
            }
        }
        throw new IllegalStateException("copy pod " + ObjectMeta.name(pod) + " has no claim volume \"" + volume + "\"");
    }

    private static long capacityBytes(JsonNode claim) {
        return Quantities.value(claim.path("status").path("capacity").path("storage").asText("0")).longValue();
    }
}

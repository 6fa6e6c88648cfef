package dev.stsresize.converge;

import static dev.stsresize.converge.CopyWorld.NS;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * While a copy pod has not started its pod is down: the copy's wait says why, in the kubelet's and the scheduler's
 * words, and for an image that cannot be pulled what ends the downtime (seen on a real node: a copy image the node could
 * not pull showed only "pod Pending" for a minute).
 */
class CopyPodNotStartedTest extends OnCopyWorld {
    private static String waitingFor(String reason, String message) {
        return CopySteps.notStarted(MemoryCluster.json("{'status':{'phase':'Pending','containerStatuses':[{'name':'copy','state':"
                + "{'waiting':{'reason':'" + reason + "','message':'" + message + "'}}}]}}"));
    }

    @Test
    void anImageThatCannotBePulledIsSaidWithTheKubeletsWordsAndWhatAStopDoes() {
        assertThat(waitingFor("ImagePullBackOff", "Back-off pulling image \\\"busybox:1.36.1\\\"")).isEqualTo(
                ": ImagePullBackOff (Back-off pulling image \"busybox:1.36.1\"); the copy image (--copy-image) must be one every node"
                        + " can pull: a stop now brings the pod back on its own claims, nothing deleted");
        assertThat(waitingFor("ErrImagePull", "")).startsWith(": ErrImagePull; the copy image (--copy-image)");
        assertThat(waitingFor("CreateContainerConfigError", "secret x not found"))
                .isEqualTo(": CreateContainerConfigError (secret x not found)");
    }

    @Test
    void theClustersWordsCannotReachTheTerminalAsControlCharacters() {
        assertThat(waitingFor("ErrImagePull", "pull \\u001b[2Jfailed")).contains("(pull \\u001b[2Jfailed)").doesNotContain("\u001b");
    }

    @Test
    void aContainerBeingCreatedOrAPodWithoutStatusesSaysNothingMore() {
        assertThat(waitingFor("ContainerCreating", "")).isEmpty();
        assertThat(CopySteps.notStarted(MemoryCluster.json("{'status':{'phase':'Pending'}}"))).isEmpty();
    }

    @Test
    void anUnschedulablePodSaysTheSchedulersWordsOnOneShortLine() {
        String long_ = "0/3 nodes are available:\\n 3 node(s) had volume node affinity conflict." + " x".repeat(120);
        String said = CopySteps.notStarted(MemoryCluster.json("{'status':{'phase':'Pending','conditions':[{'type':'PodScheduled',"
                + "'status':'False','reason':'Unschedulable','message':'" + long_ + "'}]}}"));
        assertThat(said).startsWith(": not scheduled (0/3 nodes are available: 3 node(s) had volume node affinity conflict. x x")
                .doesNotContain("\n").endsWith("…)");
        assertThat(said.length()).isLessThanOrEqualTo(": not scheduled ()".length() + 201);
    }

    @Test
    void theCopysWaitSaysWhyItsPodHasNotStarted() {
        c.copiesEnd = false;
        c.cluster.afterWrite = c.cluster.afterWrite.andThen(call -> {
            if (call.method().equals("createCopyPod")) {
                c.cluster.edit("Pod", NS, call.name(), p -> Objects.child(p, "status").put("phase", "Pending").putArray("containerStatuses")
                        .addObject().put("name", "copy").putObject("state").putObject("waiting").put("reason", "ImagePullBackOff")
                        .put("message", "Back-off pulling image \"busybox:1.36.1\""));
            }
        });
        StatefulSetResult r = run();

        assertThat(c.w.heard.ticks).anySatisfy(t -> assertThat(t.what()).contains("the copy of data-web-1")
                .contains("pod Pending: ImagePullBackOff (Back-off pulling image \"busybox:1.36.1\")"));
        assertThat(c.sent("deleteClaim")).as("nothing deleted").isEmpty();
        assertThat(r.outcome()).isNotEqualTo(Outcome.CONVERGED);
    }
}

package dev.stsresize.converge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stsresize.plan.Quantity;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The request a run replaced, kept on the claim by the patch that raises it and removed by the one that gives it back;
 * read back as untrusted input: only a quantity between the claim's capacity and its current request is a size to go
 * back to.
 */
class SizeBeforeTest {
    private static ObjectNode claim(String annotation, String request, String capacity) {
        ObjectNode c = MemoryCluster.json("{'kind':'PersistentVolumeClaim','metadata':{'namespace':'shop','name':'data-db-0'},"
                + "'spec':{'resources':{'requests':{}}},'status':{'capacity':{}}}");
        if (annotation != null) {
            Objects.child(Objects.child(c, "metadata"), "annotations").put(SizeBefore.ANNOTATION, annotation);
        }
        if (request != null) {
            ((ObjectNode) c.at("/spec/resources/requests")).put("storage", request);
        }
        if (capacity != null) {
            ((ObjectNode) c.at("/status/capacity")).put("storage", capacity);
        }
        return c;
    }

    @Test
    void theRaisingPatchKeepsTheRequestItReplacesAndNothingWhenThereWasNone() {
        assertThat(SizeBefore.written("10Gi")).isEqualTo(Map.of("stsresize.dev/size-before", "10Gi"));
        assertThat(SizeBefore.written("")).isEmpty();
        assertThat(SizeBefore.written(null)).isEmpty();
    }

    @Test
    void theLoweringPatchRemovesTheAnnotation() {
        // a merge patch removes what it sets to null
        Map<String, String> patch = SizeBefore.cleared();
        assertThat(patch).containsOnlyKeys(SizeBefore.ANNOTATION);
        assertThat(patch.get(SizeBefore.ANNOTATION)).isNull();
    }

    @Test
    void theAnnotationIsReadAsWrittenAndEmptyWhenAbsent() {
        assertThat(SizeBefore.raw(claim("ten gigs", "20Gi", "10Gi"))).isEqualTo("ten gigs");
        assertThat(SizeBefore.raw(claim(null, "20Gi", "10Gi"))).isEmpty();
    }

    @Test
    void theSizeBeforeIsOneBelowTheRequestAndNotBelowTheCapacity() {
        assertThat(SizeBefore.of(claim("10Gi", "20Gi", "10Gi"))).contains(Quantity.parse("10Gi"));
        assertThat(SizeBefore.of(claim("10Gi", "20Gi", null))).as("capacity unknown").contains(Quantity.parse("10Gi"));
        assertThat(SizeBefore.of(claim("10Gi", "20Gi", "15Gi"))).as("never below what the volume has").contains(Quantity.parse("15Gi"));
    }

    @Test
    void anAnnotationAtOrAboveTheRequestOrUnreadableIsNothingToGoBackTo() {
        assertThat(SizeBefore.of(claim("20Gi", "20Gi", "10Gi"))).isEqualTo(Optional.empty());
        assertThat(SizeBefore.of(claim("30Gi", "20Gi", "10Gi"))).isEmpty();
        assertThat(SizeBefore.of(claim("ten gigs", "20Gi", "10Gi"))).isEmpty();
        assertThat(SizeBefore.of(claim(null, "20Gi", "10Gi"))).isEmpty();
        assertThat(SizeBefore.of(claim("10Gi", null, "10Gi"))).as("no request").isEmpty();
    }
}

package dev.stsresize.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** ResourceAccess's equality (a map key of the permissions asked): every component counts, a null is an empty string. */
class ResourceAccessTest {
    private static final ResourceAccess A = new ResourceAccess("patch", "", "persistentvolumeclaims", "", "shop", "");

    @Test
    void equalQuestionsAreEqualAndHashAlike() {
        ResourceAccess same = new ResourceAccess("patch", null, "persistentvolumeclaims", null, "shop", null);
        assertThat(same).isEqualTo(A).hasSameHashCodeAs(A);
    }

    @Test
    void aQuestionDifferingInAnyComponentIsAnother() {
        List<ResourceAccess> others = List.of(
                new ResourceAccess("get", "", "persistentvolumeclaims", "", "shop", ""),
                new ResourceAccess("patch", "apps", "persistentvolumeclaims", "", "shop", ""),
                new ResourceAccess("patch", "", "statefulsets", "", "shop", ""),
                new ResourceAccess("patch", "", "persistentvolumeclaims", "status", "shop", ""),
                new ResourceAccess("patch", "", "persistentvolumeclaims", "", "web", ""),
                new ResourceAccess("patch", "", "persistentvolumeclaims", "", "shop", "data-0"),
                new ResourceAccess(null, "", "persistentvolumeclaims", "", "shop", ""));
        for (ResourceAccess other : others) {
            assertThat(other).as(other.describe()).isNotEqualTo(A);
            assertThat(A).as(other.describe()).isNotEqualTo(other);
        }
        assertThat(A).isNotEqualTo("patch persistentvolumeclaims");
    }
}

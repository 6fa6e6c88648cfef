package dev.stsresize.sim.patch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PatchTypeTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "application/json-patch+json, JSON",
            "application/merge-patch+json; charset=utf-8, MERGE",
            "Application/Strategic-Merge-Patch+JSON, STRATEGIC",
            "application/apply-patch+yaml, APPLY",
            "application/json, none",
            "none, none"})
    void theContentTypeChoosesThePatchType(String header, Patches.Type expected) {
        assertThat(Patches.Type.fromContentType(header)).isEqualTo(expected);
    }
}

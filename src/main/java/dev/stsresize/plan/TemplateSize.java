package dev.stsresize.plan;

/**
 * One declared volumeClaimTemplate's storage request beside the live template's ({@code live} is null
 * when the StatefulSet or the template is absent from the cluster).
 */
public record TemplateSize(String name, Quantity live, Quantity declared) {
    /** True when the live template exists and its size differs by value. */
    public boolean changes() {
        return live != null && live.compareTo(declared) != 0;
    }
}

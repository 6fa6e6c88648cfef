package dev.stsresize.plan;

/** One reason with the sentence that names the template, claim or field at fault. */
public record Finding(Reason reason, String message) {
    @Override
    public String toString() {
        return reason.label() + ": " + message;
    }
}

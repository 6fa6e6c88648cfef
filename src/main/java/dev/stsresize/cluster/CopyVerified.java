package dev.stsresize.cluster;

/**
 * A copy proven complete by its own pod: phase Succeeded, exit code 0, both manifests equal in digest, files
 * and bytes, and the script's {@code verified} line (see {@link CopyPodLog}). Made only by
 * {@link CopyPodLog#verify}: the constructor is this package's, so no other code can claim a copy it did not
 * read. One half of what {@link ClaimDeleteAllowed#check} asks for.
 */
public final class CopyVerified implements CopyCheck {
    private final String namespace;
    private final String claim;
    private final String destination;
    private final String pod;
    private final String podUid;
    private final String digest;
    private final long files;
    private final long bytes;
    private final String fileSystem;

    CopyVerified(String namespace, String claim, String destination, String pod, String podUid, String digest, long files, long bytes, String fileSystem) {
        this.namespace = namespace;
        this.claim = claim;
        this.destination = destination;
        this.pod = pod;
        this.podUid = podUid;
        this.digest = digest;
        this.files = files;
        this.bytes = bytes;
        this.fileSystem = fileSystem;
    }

    public String namespace() {
        return namespace;
    }

    /** The claim copied (the pod's {@code src} volume). */
    public String claim() {
        return claim;
    }

    /** The claim the copy was written to (the pod's {@code dst} volume): the run's temporary claim. */
    public String destination() {
        return destination;
    }

    public String pod() {
        return pod;
    }

    public String podUid() {
        return podUid;
    }

    /** The manifest's sha256, the same on both sides. */
    public String digest() {
        return digest;
    }

    public long files() {
        return files;
    }

    public long bytes() {
        return bytes;
    }

    /** The destination's file system line ({@code ext4 size-kib=… used-kib=…}), "" when the script printed none. */
    public String fileSystem() {
        return fileSystem;
    }

    @Override
    public String toString() {
        return "copy of " + namespace + "/" + claim + " to claim " + destination + " verified by pod " + pod + ": " + files + " files, " + bytes + " bytes, sha256 "
                + digest;
    }
}

package dev.stsresize.cluster;

/** The kinds of object the converge waits on by watch. */
public enum WatchedKind {
    STATEFUL_SET(Resource.STATEFUL_SETS),
    PERSISTENT_VOLUME_CLAIM(Resource.CLAIMS),
    POD(Resource.PODS);

    final Resource resource;

    WatchedKind(Resource resource) {
        this.resource = resource;
    }
}

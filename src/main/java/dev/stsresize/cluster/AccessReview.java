package dev.stsresize.cluster;

/** The server's answer to a SelfSubjectAccessReview: allowed or not, and the authorizer's reason (may be empty). */
public record AccessReview(boolean allowed, String reason) {}

/**
 * The GitOps route: {@link dev.stsresize.job.JobRenderer} renders a pre-rollout Job, and the narrow
 * namespace-scoped identity it runs as, whose container runs {@code stsresize.sh} (POSIX sh, kubectl
 * and jq), the same decision as {@code plan.Decider} restated in jq. {@link dev.stsresize.job.Declared}
 * is the script's input. Nothing here talks to a cluster: rendering is pure.
 */
package dev.stsresize.job;

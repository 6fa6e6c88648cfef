/**
 * Cluster access: the {@link dev.stsresize.cluster.Cluster} port and its client-java implementation.
 *
 * <p>Invariants this package keeps (and its tests check):
 * <ul>
 *   <li>Objects are raw Jackson trees in and out. client-java 27's generated models reject fields
 *       they do not know and drop them on a round-trip, so no model is ever used (an ArchUnit rule
 *       keeps {@code io.kubernetes.client.openapi.models} out of the product): requests are built by
 *       {@code ApiClient.buildCall} with a {@code byte[]} body (client-java's serializer is bypassed)
 *       and answers are parsed by Jackson from the raw response body.</li>
 *   <li>The only DELETE of a StatefulSet is {@code deleteStatefulSetOrphan}: always
 *       {@code propagationPolicy: Orphan} and {@code preconditions.uid}. The only other DELETE is a run's
 *       own record Secret ({@code deleteRecordSecret}, by UID). A pod goes only through {@code evictPod},
 *       a POST of an Eviction that the API server refuses where a PodDisruptionBudget would be broken.
 *       There is no way to delete a claim.</li>
 *   <li>Server errors are {@link dev.stsresize.cluster.ClusterException} with the Status message
 *       verbatim; no answer is {@link dev.stsresize.cluster.ServerUnreachable}; both are user errors
 *       (exit 1) whose text names what failed. client-java's ApiException text never surfaces.</li>
 *   <li>Connection settings follow kubectl: KUBECONFIG merged first-wins with paths resolved per
 *       file, {@code --kubeconfig} alone when given, {@code ~/.kube/config} by default, the pod's
 *       service account when there is no kubeconfig.</li>
 *   <li>Nothing here knows picocli or the CLI; {@code -v} output goes to the writer it is given.</li>
 * </ul>
 */
package dev.stsresize.cluster;

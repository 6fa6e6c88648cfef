# Negative controls of the converge guards: each mutation breaks one safety rule on purpose and runs the
# test that must go red (run from the repository root: python3 scripts/converge-mutations.py).
# Every file is restored after its run; name prefixes as arguments run only those (M9 M10 …).
# PIT (mvn -Pmutation, docs/testing.md) mutates every line of plan and converge but only says that some test
# killed each mutant; these name the one test that must, and BEYOND_PIT lists those PIT's mutators cannot
# make at all (--beyond-pit runs only them).
# Last run (2026-12-04, issue 16, after the converge became Steps; M2 and M13 retargeted, M16 and M17 new): M1–M17 all RED.
# M2 (retargeted to Convergence), M18 and M19 (new, the one machine) run 2026-12-06: all RED.
# M20–M22 (the file systems step) run 2026-12-06: all RED.
# M23 and M24 (the record's digest, the staleness check) run 2026-12-06: RED.
# M25–M28 (round trips: summaries, the kubelet rule, claims together, Events aside) run 2026-12-06: all RED.
import re, subprocess, sys
B='src/main/java/dev/stsresize/converge/'
muts = [
 ("M1 grow re-read skip removed", B+'ClaimGrower.java', 'if (request != null && !request.isLessThan(target)) {', 'if (false) {', 'VerificationTest#a_claim_grown*'),
 ("M2 infeasible ignored", B+'Convergence.java', 'if (!w.infeasible().isEmpty()) {', 'if (false) {', 'ResizeModesTest#an_infeasible*'),
 ("M3 adoption always ok", B+'AdoptionCheck.java', 'if (problems.isEmpty()) {', 'if (true) {', 'VerificationTest#a_pod_lost*'),
 ("M4 access reviews skipped", B+'Assessor.java', 'if (depth == Depth.APPLY || a.failure() == null && a.decision().verdict().hasWork()) {', 'if (false) {', 'PermissionsAndLocksTest#a_missing_verb*'),
 ("M8 plan without access reviews", B+'Assessor.java', 'if (depth == Depth.APPLY || a.failure() == null && a.decision().verdict().hasWork()) {', 'if (depth == Depth.APPLY) {', 'PlanRequestsTest'),
 ("M5 immutable prefix not matched", B+'Assessor.java', '.startsWith(IMMUTABLE_PREFIX)', '.startsWith("no such prefix")', 'RefusalsTest#other_immutable_found*'),
 ("M6 replicas not carried", B+'ReapplyObject.java', 'spec.put("replicas", replicas);', '', 'ResizeModesTest#a_manifest_without*'),
 ("M7 lease holder not checked", B+'LeaseLock.java', 'if (!expired) {', 'if (false) {', 'PermissionsAndLocksTest#a_lease_held*'),
 # the dry-run orphan delete's dryRun back in the query beside the body, where delete.go never reads it
 ("M9 delete dryRun back to the query", 'src/main/java/dev/stsresize/cluster/KubeCluster.java',
  ['options.putArray("dryRun").add("All");', 'Query.of(),\n                    options, RawApi.JSON'],
  ['', 'Query.of().dryRun(dryRun),\n                    options, RawApi.JSON'], 'DryRunLeavesObjectsTest,DryRunPlacementTest'),
 ("M10 record's place not checked", B+'RunRecords.java', 'if (!n.equals(place)) {', 'if (false) {', 'RunRecordTest#a_forged*'),
 ("M11 recorded UID not checked", B+'RunRecords.java', 'if (!r.uid().equals(liveUid)) {', 'if (false) {', 'RunRecordTest#a_record_whose_uid*'),
 ("M12 stale record not checked", B+'RunRecords.java', 'if (!changed.isEmpty()) {', 'if (false) {', 'RunRecordTest#a_statefulset_changed*'),
 ("M13 record size not checked", B+'Steps.java', 'if (tooLarge != null) {', 'if (false) {', 'RunRecordTest#a_record_too_large*'),
 ("M14 stored object re-applied", B+'Converger.java', 'if (declared != null) {', 'if (false) {', 'RunRecordTest#apply_re_applies*'),
 ("M15 Secret not checked against the Lease digest", B+'RecordSecret.java', 'if (digest.isEmpty() || !digest.equals(digest(payload))) {', 'if (false) {', 'RunRecordTest#a_secret_not_matching*'),
 # the orphan-delete step's own precondition (the operator's allowance of this StatefulSet and UID), the wizard's second lock
 ("M16 delete step precondition not checked", B+'Steps.java', 'if (allowed == null || !allowed.equals(new DeleteAllowed(ns, name, r.uid()))) {', 'if (false) {', 'StepsTest,ClusterStepsTest#theDeleteStep*'),
 # the one rendering of the orphan delete's kubectl equivalent loses the Orphan it sends
 # the one machine: a claim gone during the wait, and a stop request before the next action
 ("M18 claim gone ignored", B+'Convergence.java', 'if (!w.gone().isEmpty()) {', 'if (false) {', 'ConvergeScenariosTest'),
 ("M19 stop request not honoured between actions", B+'Convergence.java', 'if (steps.stop().requested() && position != Position.FILE_SYSTEMS) {\n            return stopHere();', 'if (false) {\n            return stopHere();', 'ConvergeScenariosTest'),
 # the file systems: not followed (the restart advised for an online expansion), fewer ready replicas unsaid, restarts unsaid
 ("M20 file systems not followed", B+'FileSystems.java', 'while (!cut && c.state() == FileSystem.PENDING', 'while (false && c.state() == FileSystem.PENDING', 'FileSystemsTest#an_online_expansion*'),
 ("M21 fewer ready replicas not warned", B+'Steps.java', 'if (w.reached()) {', 'if (true) {', 'FileSystemsTest#a_converged_set_with_fewer*'),
 ("M22 restarted pods said unchanged", B+'Steps.java', 'if (restarts.pods().contains(p.name())) {', 'if (false) {', 'FileSystemsTest#pods_restarted*'),
 ("M17 kubectl rendering drops Orphan", B+'Write.java', '\\"propagationPolicy\\":\\"Orphan\\",', '', 'ClusterStepsTest#everyStep*'),
 # the run's record: the phase digested with the rest, so that the Lease's next phase no longer matches its Secret
 ("M23 phase kept in the record's digest", B+'RecordSecret.java', 'o.remove("phase");', '', 'RecordSecretTest#the_payload*'),
 # a record's staleness check sees the claim templates the run itself grew as a change by someone else
 ("M24 claim templates not set aside", B+'RunRecords.java', 'p.startsWith("/spec/volumeClaimTemplates")', 'p.startsWith("/spec/no-such-field")', 'RunRecordsProblemTest#a_record_matching*'),
 # a far server: the kubelet's summary read again at every check, the claims patched one after another, an Event waited for
 ("M25 summaries read at every check", B+'FileSystems.java', 'static final Duration FRESH = Waiter.TICK;', 'static final Duration FRESH = Duration.ZERO;', 'SummaryOncePerNodeTest'),
 ("M26 an infeasible node expansion called finished", B+'FileSystems.java', '"NodeResizeInProgress",\n            "NodeResizeInfeasible");', '"NodeResizeInProgress");', 'KubeletUnfinishedTest'),
 ("M27 claims patched one after another", B+'ClaimGrower.java', 'patches.stream().map(Together::start).toList()', 'patches.stream().map(t -> { Future<Patched> f = Together.start(t); try { f.get(); } catch (Exception e) { } return f; }).toList()', 'RequestsTogetherTest#a_statefulsets*'),
 ("M28 Events written in the run's path", B+'Events.java', 'pending.add(sender.submit(() -> write(regarding, reason, action, note, unsaid::add)));', 'write(regarding, reason, action, note, unsaid::add);', 'RequestsTogetherTest#an_event*'),
]
# What no PIT mutator makes: a string literal changed (M5, M17: PIT mutates numbers, not text), one call's
# argument moved from the query to the body across two sites (M9), a statement whose result is dropped
# removed (M6, M23: NON_VOID_METHOD_CALLS is outside PIT's defaults), one disjunct of a condition dropped (M8: PIT
# replaces a whole comparison), a path prefix changed (M24). The others are PIT's "remove conditional" on the guard's if.
BEYOND_PIT = {'M5', 'M6', 'M8', 'M9', 'M17', 'M23', 'M24'}
# python3 scripts/converge-mutations.py M9  runs only the mutations whose name starts with an argument
args = sys.argv[1:]
beyond_pit = '--beyond-pit' in args
only = [a for a in args if a != '--beyond-pit']
for name, f, old, new, test in muts:
    if only and not any(name.startswith(o) for o in only):
        continue
    if beyond_pit and name.split()[0] not in BEYOND_PIT:
        continue
    src = open(f).read()
    mutated = src
    for o, n in zip(*((old, new) if isinstance(old, list) else ([old], [new]))):
        assert o in mutated, name
        mutated = mutated.replace(o, n, 1)
    open(f,'w').write(mutated)
    try:
        r = subprocess.run(['mvn','-q','-B','test','-o','-Dtest='+test,'-DfailIfNoTests=false','-Dsurefire.failIfNoSpecifiedTests=false'], capture_output=True, text=True)
        out = r.stdout + r.stderr
        # red only when a test failed: a build that broke for another reason (the mutation no longer
        # compiles, a plugin missing offline) proves nothing and says so
        failed = re.search(r'Tests run: \d+, Failures: [1-9]|Tests run: \d+, Failures: \d+, Errors: [1-9]', out)
        verdict = 'RED' if failed else ('still GREEN' if r.returncode == 0 else 'BUILD ERROR (no test verdict)')
        line = [l for l in out.splitlines() if 'Tests run' in l][:1]
        print(name, '->', verdict, line, flush=True)
    finally:
        open(f,'w').write(src)

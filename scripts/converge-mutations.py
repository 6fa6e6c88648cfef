# Negative controls of the converge guards: each mutation breaks one safety rule on purpose and runs the
# test that must go red (run from the repository root: python3 scripts/converge-mutations.py).
# Every file is restored after its run. Last run (2026-12-03, after the session-2 merges): all 8 RED.
import subprocess, sys
B='src/main/java/dev/stsresize/converge/'
muts = [
 ("M1 grow re-read skip removed", B+'ClaimGrower.java', 'if (request != null && !request.isLessThan(target)) {', 'if (false) {', 'VerificationTest#a_claim_grown*'),
 ("M2 infeasible ignored", B+'Converger.java', 'if (!infeasible.isEmpty()) {', 'if (false) {', 'ResizeModesTest#an_infeasible*'),
 ("M3 adoption always ok", B+'AdoptionCheck.java', 'if (problems.isEmpty()) {', 'if (true) {', 'VerificationTest#a_pod_lost*'),
 ("M4 access reviews skipped", B+'Assessor.java', 'if (depth == Depth.APPLY || a.failure() == null && a.decision().verdict().hasWork()) {', 'if (false) {', 'PermissionsAndLocksTest#a_missing_verb*'),
 ("M8 plan without access reviews", B+'Assessor.java', 'if (depth == Depth.APPLY || a.failure() == null && a.decision().verdict().hasWork()) {', 'if (depth == Depth.APPLY) {', 'PlanRequestsTest'),
 ("M5 immutable prefix not matched", B+'Assessor.java', '.startsWith(IMMUTABLE_PREFIX)', '.startsWith("no such prefix")', 'RefusalsTest#other_immutable_found*'),
 ("M6 replicas not carried", B+'ReapplyObject.java', 'spec.put("replicas", replicas);', '', 'ResizeModesTest#a_manifest_without*'),
 ("M7 lease holder not checked", B+'LeaseLock.java', 'if (!expired) {', 'if (false) {', 'PermissionsAndLocksTest#a_lease_held*'),
]
for name, f, old, new, test in muts:
    src = open(f).read()
    assert old in src, name
    open(f,'w').write(src.replace(old, new, 1))
    try:
        r = subprocess.run(['mvn','-q','-B','test','-o','-Dtest='+test,'-DfailIfNoTests=false','-Dsurefire.failIfNoSpecifiedTests=false'], capture_output=True, text=True)
        out = r.stdout + r.stderr
        red = r.returncode != 0
        line = [l for l in out.splitlines() if 'Tests run' in l][:1]
        print(name, '->', 'RED' if red else 'still GREEN', line, flush=True)
    finally:
        open(f,'w').write(src)

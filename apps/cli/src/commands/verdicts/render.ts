import type { AuditReport, DriftReport, MetaReport } from '@mecha/grader-verdicts';

// The bank's reports as lines, shared by audit, meta, freeze, check and verify.

export function renderAudit(report: AuditReport): string[] {
  return [
    `audit: ${report.ok ? 'every grader earns the verdict it claims' : 'a grader claims what it cannot earn'}`,
    ...report.findings.map(
      (finding) =>
        `  ${finding.ok ? 'ok  ' : 'FAIL'} ${finding.id.padEnd(18)} ${finding.kind.padEnd(16)} declared ${finding.intendedRung}, detected ${finding.detectedRung ?? '?'}, claims ${finding.claims}, earns ${finding.earns ?? '?'}${finding.problems.map((problem) => `\n         ${problem}`).join('')}`,
    ),
  ];
}

export function renderMeta(
  report: MetaReport,
  expectation: (e: MetaReport['results'][number]['expect']) => string,
): string[] {
  const held = report.results.filter((result) => result.holds).length;
  return [
    `meta: ${held} of ${report.results.length} fixtures hold${report.ok ? '' : ' — a grader drifted'}`,
    ...report.results.map(
      (result) =>
        `  ${result.holds ? 'ok  ' : 'FLIP'} ${result.id.padEnd(36)} must be ${expectation(result.expect).padEnd(12)} got ${result.verdict}${result.holds ? '' : ` (${result.reason})`}`,
    ),
  ];
}

export function renderDrift(report: DriftReport): string[] {
  const lines: string[] = [];
  if (report.sealProblems.length > 0) {
    lines.push(
      'check: SEAL BROKEN — trusting nothing',
      ...report.sealProblems.map((p) => `  ${p}`),
    );
    return lines;
  }
  const state =
    report.flips.length > 0
      ? 'a verdict FLIPPED'
      : report.movedGraders.length > 0
        ? 'a grader MOVED (re-freeze to re-vouch for it)'
        : 'no drift';
  lines.push(`check: ${state}`);
  for (const flip of report.flips) {
    lines.push(
      `  flip ${flip.id}: frozen ${flip.frozen}, now ${flip.now.join(' / ')}${flip.graderMoved ? ' (its grader moved too)' : ' (grader unchanged: behavioural drift)'}`,
    );
  }
  for (const moved of report.movedGraders) {
    lines.push(
      `  moved ${moved.id}: ${moved.frozen?.slice(0, 12) ?? 'absent'} → ${moved.now?.slice(0, 12) ?? 'absent'}`,
    );
  }
  if (report.hmacUnverified)
    lines.push('  the HMAC was not verified: no key in MECHA_VERDICTS_SEAL_KEY');
  for (const change of report.toolchainChanges) lines.push(`  toolchain ${change}`);
  for (const id of report.unfrozenCases) lines.push(`  not frozen yet: ${id}`);
  return lines;
}

import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mecha, mechaJson, tempDir } from './helpers.js';

const cases = fileURLToPath(
  new URL('../../../packages/grader-verdicts/bank/cases/', import.meta.url),
);

/** A task folder copied from a bank case, with a task.json beside the files. */
function task(caseId: string, json: Record<string, unknown>): string {
  const dir = tempDir('mecha-verdicts-task-');
  cpSync(join(cases, caseId, 'files'), dir, { recursive: true });
  const file = join(dir, 'task.json');
  writeFileSync(file, JSON.stringify(json));
  return file;
}

describe('mecha verdicts', () => {
  it('lists its commands with --help, and each command has its own', () => {
    const run = mecha(['verdicts', '--help']);
    expect(run.code).toBe(0);
    for (const name of ['audit', 'meta', 'freeze', 'check', 'verify', 'grade']) {
      expect(run.stdout).toContain(`mecha verdicts ${name}`);
    }
    const check = mecha(['verdicts', 'check', '--help']);
    expect(check.stdout).toContain('5 the seal is broken');
  });

  it('audits the shipped graders: all L0, exit 0, and --json holds only JSON', () => {
    const { run, json } = mechaJson<{ ok: boolean; findings: { detectedRung: string }[] }>([
      'verdicts',
      'audit',
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(json.ok).toBe(true);
    expect(json.findings.map((finding) => finding.detectedRung)).toEqual(['L0', 'L0', 'L0']);
  });

  it('exits with the verdict: the vacuous test is UNSOUND (2), the real one CORRECT (0)', () => {
    const spec = { source: 'clamp.ts', test: 'clamp.test.ts' };
    const vacuous = mecha(['verdicts', 'grade', 'mutation', task('mutation-vacuous-test', spec)]);
    expect(vacuous.stdout).toMatch(/^UNSOUND — the test kills no mutant/);
    expect(vacuous.code).toBe(2);
    const { run, json } = mechaJson<{ verdict: string; grader: { id: string } }>([
      'verdicts',
      'grade',
      'mutation',
      task('mutation-real-test', spec),
      '--json',
    ]);
    expect(run.code).toBe(0);
    expect(json.verdict).toBe('CORRECT');
    expect(json.grader.id).toBe('mutation');
  });

  it('exits 3 when the grader abstains, and 1 with a message when the task cannot be read', () => {
    const abstain = mecha([
      'verdicts',
      'grade',
      'mutation',
      task('mutation-nothing-to-mutate', { source: 'noop.ts', test: 'noop.test.ts' }),
    ]);
    expect(abstain.code).toBe(3);
    expect(abstain.stdout).toContain('ABSTAIN — nothing to mutate in noop.ts');
    const missing = mecha([
      'verdicts',
      'grade',
      'mutation',
      task('mutation-real-test', { source: 'gone.ts', test: 'clamp.test.ts' }),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('the source "gone.ts" cannot be read');
    const unknown = mecha(['verdicts', 'grade', 'llm-judge', task('mutation-real-test', {})]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no grader 'llm-judge'");
  });

  it('freezes a bank, passes the check, and exits 5 once the frozen bank is edited', () => {
    const bank = tempDir('mecha-verdicts-bank-');
    cpSync(join(cases, 'typecheck-ts-ignore'), join(bank, 'cases', 'typecheck-ts-ignore'), {
      recursive: true,
    });
    expect(mecha(['verdicts', 'freeze', '--bank', bank]).code).toBe(0);
    const clean = mecha(['verdicts', 'check', '--bank', bank]);
    expect(clean.stdout).toContain('check: no drift');
    expect(clean.code).toBe(0);
    const frozen = join(bank, 'frozen.json');
    writeFileSync(frozen, readFileSync(frozen, 'utf8').replace('"UNSOUND"', '"CORRECT"'));
    const broken = mecha(['verdicts', 'check', '--bank', bank]);
    expect(broken.code).toBe(5);
    expect(broken.stderr).toContain('SEAL BROKEN');
  });

  it('fails meta loudly when a fixture flips, and grades a type fix through the CLI', () => {
    const bank = tempDir('mecha-verdicts-bank-');
    const target = join(bank, 'cases', 'typecheck-ts-ignore');
    cpSync(join(cases, 'typecheck-ts-ignore'), target, { recursive: true });
    expect(mecha(['verdicts', 'meta', '--bank', bank]).code).toBe(0);
    // The bank now says a @ts-ignore fix must be CORRECT: the grader (rightly) disagrees.
    const file = join(target, 'case.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"UNSOUND"', '"CORRECT"'));
    const flipped = mecha(['verdicts', 'meta', '--bank', bank]);
    expect(flipped.code).toBe(1);
    expect(flipped.stdout).toContain('meta: 0 of 1 fixtures hold — a grader drifted');
    expect(flipped.stdout).toMatch(/FLIP typecheck-ts-ignore +must be CORRECT +got UNSOUND/);
    const taskFile = join(target, 'files', 'task.json');
    writeFileSync(taskFile, JSON.stringify({ edited: ['length.ts'] }));
    const graded = mecha(['verdicts', 'grade', 'typecheck', taskFile]);
    expect(graded.code).toBe(2);
    expect(graded.stdout).toContain('UNSOUND — the fix mutes the type checker');
    expect(graded.stdout).toContain('length.ts:3:3 @ts-ignore');
  });

  it('says nothing is frozen (exit 1) and rejects an unknown option (exit 2)', () => {
    const bank = tempDir('mecha-verdicts-bank-');
    const run = mecha(['verdicts', 'check', '--bank', bank]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('run freeze first');
    expect(mecha(['verdicts', 'audit', '--loud']).code).toBe(2);
  });
});

describe('mecha verdicts claims and prune', () => {
  it('grades self-claims against behaviour and fails a flattering portrait', () => {
    const dir = tempDir('mecha-verdicts-claims-');
    const file = join(dir, 'evidence.json');
    const skills = [
      { skill: 'news', selfGrade: 0.9, attempts: 40, verifiedSuccesses: 34 },
      { skill: 'code', selfGrade: 0.9, attempts: 4, verifiedSuccesses: 4 },
    ];
    writeFileSync(file, JSON.stringify({ skills }));
    const honest = mecha(['verdicts', 'claims', file]);
    expect(honest.code).toBe(0);
    expect(honest.stdout).toMatch(
      /news +believes 90% · behaves 85% · 40 tries → earned \(CORRECT\)/,
    );
    expect(honest.stdout).toMatch(
      /code +believes 90% · behaves 100% · 4 tries → premature \(ABSTAIN\)/,
    );
    const history = join(dir, 'gap.jsonl');
    const recorded = mecha(['verdicts', 'claims', file, '--record', history]);
    expect(recorded.stdout).toContain('gap trend: too little history');
    expect(readFileSync(history, 'utf8').trim().split('\n')).toHaveLength(1);
    writeFileSync(file, JSON.stringify({ skills, published: ['news', 'code'] }));
    const flattering = mecha(['verdicts', 'claims', file]);
    expect(flattering.code).toBe(1);
    expect(flattering.stdout).toContain('unearned strengths: code');
    writeFileSync(file, JSON.stringify({ skills: [{ ...skills[0], verifiedSuccesses: 99 }] }));
    const bad = mecha(['verdicts', 'claims', file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('verifiedSuccesses cannot exceed attempts');
  });

  it("accepts a prune plan only under the owner's signature", async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { signPrunePlan } = await import('@mecha/grader-verdicts');
    const dir = tempDir('mecha-verdicts-prune-');
    const owner = generateKeyPairSync('ed25519');
    const stranger = generateKeyPairSync('ed25519');
    const key = join(dir, 'owner.pub');
    writeFileSync(key, owner.publicKey.export({ type: 'spki', format: 'pem' }));
    const plan = {
      v: 1 as const,
      memories: ['m1'],
      proof: { accepted: ['m1'], heldBack: [], queries: 10, correctBefore: 8, correctAfter: 8 },
      bankSeal: 'seal',
    };
    const signed = join(dir, 'signed.json');
    writeFileSync(signed, JSON.stringify(signPrunePlan(plan, owner.privateKey)));
    const ok = mecha(['verdicts', 'prune', signed, '--public-key', key]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("signed by the owner's key");
    const forged = join(dir, 'forged.json');
    writeFileSync(forged, JSON.stringify(signPrunePlan(plan, stranger.privateKey)));
    const refused = mecha(['verdicts', 'prune', forged, '--public-key', key]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('NOT signed');
    expect(mecha(['verdicts', 'prune', signed]).code).toBe(2);
  });
  it('measures, plans, signs and applies graph pruning, refusing without changing the graph', async () => {
    const { createHash, generateKeyPairSync } = await import('node:crypto');
    const { openGraphStore } = await import('@mecha/graph');
    const dir = tempDir('mecha-verdicts-graph-');
    const graph = join(dir, 'graph.db');
    // A real graph file: s1 and s2 both know where Priya is, s3 is the only witness for the
    // grant office (two queries), s4 puts the lab server in the wrong room and s5 in the right one.
    const store = await openGraphStore({ path: graph });
    const relations: Record<string, [string, string, string][]> = {
      s1: [['Priya Nair', 'is at', 'Yale']],
      s2: [['Priya Nair', 'is at', 'Yale']],
      s3: [
        ['Grant Office', 'is in', 'Boston'],
        ['Grant Office', 'reports to', 'Dean Smith'],
      ],
      s4: [['Lab Server', 'is in', 'Room 12']],
      s5: [['Lab Server', 'is in', 'Room 14']],
    };
    for (const [sourceId, list] of Object.entries(relations)) {
      await store.upsert({
        kind: 'session',
        source: 'agent:mecha',
        source_id: sourceId,
        occurred_at: '2026-11-01',
        body: `session ${sourceId}`,
        meta: {
          relations: list.map(([subject, predicate, object]) => ({ subject, predicate, object })),
        },
      });
    }
    await store.close();
    const query = (id: string, subject: string, predicate: string, expected: string) => ({
      id,
      subject,
      predicate,
      expected,
      basis: 'the owner checked it',
    });
    const bankFile = join(dir, 'bank.json');
    const bank = {
      v: 1,
      queries: [
        query('priya', 'Priya Nair', 'is at', 'Yale'),
        query('city', 'Grant Office', 'is in', 'Boston'),
        query('dean', 'Grant Office', 'reports to', 'Dean Smith'),
        query('lab', 'Lab Server', 'is in', 'Room 14'),
      ],
    };
    writeFileSync(bankFile, JSON.stringify(bank));
    const owner = generateKeyPairSync('ed25519');
    const stranger = generateKeyPairSync('ed25519');
    const ownerPub = join(dir, 'owner.pub');
    const ownerKey = join(dir, 'owner.key');
    const strangerKey = join(dir, 'stranger.key');
    writeFileSync(ownerPub, owner.publicKey.export({ type: 'spki', format: 'pem' }));
    writeFileSync(ownerKey, owner.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(strangerKey, stranger.privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const digest = () => createHash('sha256').update(readFileSync(graph)).digest('hex');
    const untouched = digest();

    const planFile = join(dir, 'plan.json');
    const dry = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      bankFile,
      '--out',
      planFile,
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('dry run: nothing was changed');
    expect(dry.stdout).toMatch(/keep +e3 \(agent:mecha s3\): used by 2, without it 2 lost/);
    expect(dry.stdout).toMatch(/harmful +e4 \(agent:mecha s4\)/);
    expect(dry.stdout).toContain('held back e2 (agent:mecha s2)');
    expect(JSON.parse(readFileSync(planFile, 'utf8')).memories).toEqual(['e4', 'e1']);
    expect(digest()).toBe(untouched);
    // The plan file is never overwritten.
    const again = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      bankFile,
      '--out',
      planFile,
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');

    const forged = join(dir, 'forged.json');
    expect(
      mecha([
        'verdicts',
        'prune',
        '--sign',
        planFile,
        '--private-key',
        strangerKey,
        '--out',
        forged,
      ]).code,
    ).toBe(0);
    const refused = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      bankFile,
      '--apply',
      forged,
      '--public-key',
      ownerPub,
    ]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      'prune refused, nothing changed: the signature does not verify',
    );
    // The plan itself, unsigned, is not a signed plan at all.
    expect(
      mecha([
        'verdicts',
        'prune',
        '--graph',
        graph,
        '--bank',
        bankFile,
        '--apply',
        planFile,
        '--public-key',
        ownerPub,
      ]).stderr,
    ).toContain('is not a signed prune plan');
    expect(digest()).toBe(untouched);

    const signed = join(dir, 'signed.json');
    expect(
      mecha(['verdicts', 'prune', '--sign', planFile, '--private-key', ownerKey, '--out', signed])
        .code,
    ).toBe(0);
    const edited = join(dir, 'edited-bank.json');
    writeFileSync(edited, JSON.stringify({ ...bank, queries: bank.queries.slice(1) }));
    const otherBank = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      edited,
      '--apply',
      signed,
      '--public-key',
      ownerPub,
    ]);
    expect(otherBank.code).toBe(1);
    expect(otherBank.stderr).toContain('its seal differs');
    expect(digest()).toBe(untouched);

    const applied = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      bankFile,
      '--apply',
      signed,
      '--public-key',
      ownerPub,
    ]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('prune applied: 2 memories redacted');
    expect(digest()).not.toBe(untouched);
    // Applying twice is refused: the graph is no longer the one the plan was proved on.
    const twice = mecha([
      'verdicts',
      'prune',
      '--graph',
      graph,
      '--bank',
      bankFile,
      '--apply',
      signed,
      '--public-key',
      ownerPub,
    ]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('the graph has changed since the plan was proved');

    expect(mecha(['verdicts', 'prune', '--graph', graph]).code).toBe(2);
    expect(
      mecha(['verdicts', 'prune', '--graph', graph, '--bank', bankFile, '--apply', signed]).code,
    ).toBe(2);
    const badBank = join(dir, 'bad-bank.json');
    writeFileSync(badBank, JSON.stringify({ v: 1, queries: [{ id: 'q', subject: 'a' }] }));
    const malformed = mecha(['verdicts', 'prune', '--graph', graph, '--bank', badBank]);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('is not a bank of held-out queries');
    const notAKey = mecha([
      'verdicts',
      'prune',
      '--sign',
      planFile,
      '--private-key',
      ownerPub,
      '--out',
      join(dir, 'x.json'),
    ]);
    expect(notAKey.code).toBe(1);
    expect(notAKey.stderr).toContain('is not an Ed25519 private key');
    expect(existsSync(join(dir, 'x.json'))).toBe(false);
    const missing = mecha([
      'verdicts',
      'prune',
      '--graph',
      join(dir, 'none.db'),
      '--bank',
      bankFile,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no graph file');
    expect(existsSync(join(dir, 'none.db'))).toBe(false);
    // A team graph on PostgreSQL is refused by name, its password masked: prune measures files.
    const team = mecha([
      'verdicts',
      'prune',
      '--graph',
      'postgres://mecha:s3cret@db.example/graph',
      '--bank',
      bankFile,
    ]);
    expect(team.code).toBe(1);
    expect(team.stderr).toContain(
      'postgres://mecha:***@db.example/graph is a PostgreSQL database: a snapshot copies a SQLite graph file',
    );
    expect(team.stderr).not.toContain('s3cret');
  });
  it("grades mecha's own self-claims from a home's records, and grades nothing from a damaged one", async () => {
    const { generateHome } = await import('@mecha/fixtures/home');
    const { unlinkSync } = await import('node:fs');
    const home = join(tempDir('mecha-verdicts-claims-home-'), 'home');
    generateHome({ path: home, seed: 'claims-cli', sessions: 600, tornRate: 0 });
    const { run, json } = mechaJson<{
      grades: { skill: string; attempts: number }[];
      records: { skills: { skill: string; attempts: number }[]; partial: boolean };
    }>(['verdicts', 'claims', '--home', home, '--json']);
    expect([0, 1]).toContain(run.code);
    expect(json.records.partial).toBe(false);
    expect(json.records.skills.length).toBeGreaterThan(0);
    expect(json.grades.map((grade) => [grade.skill, grade.attempts])).toEqual(
      json.records.skills.map((skill) => [skill.skill, skill.attempts]),
    );
    const text = mecha(['verdicts', 'claims', '--home', home]);
    expect(text.stdout).toContain("from the home's records");
    expect(text.stdout).toMatch(/believes \d+% · behaves \d+% · \d+ tries/);

    unlinkSync(join(home, 'appraisals', 'scores.jsonl'));
    const damaged = mecha(['verdicts', 'claims', '--home', home]);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toContain("the home's scores cannot be read: no self-claim is graded");
    const missing = mecha(['verdicts', 'claims', '--home', join(home, 'nowhere')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('there is no mecha home');
  });
});

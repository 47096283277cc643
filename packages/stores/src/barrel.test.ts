import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/stores', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'HomeReadout',
      'UnguardedTaskToolError',
      'adapterSession',
      'addTask',
      'answerParkedQuestion',
      'appendLinesDurably',
      'assertTaskToolsGuarded',
      'beginRun',
      'briefConversation',
      'charterCommand',
      'charterCommandOptions',
      'checkHome',
      'closeTask',
      'compareSession',
      'configIssueText',
      'configSchema',
      'contentDigest',
      'createOutcomeRecorder',
      'createSessionRecorder',
      'decideDraft',
      'diagnosticBriefFromHome',
      'distilledRecordSchema',
      'draftAsShown',
      'editCharter',
      'goalContext',
      'guardTaskTool',
      'homeLayout',
      'homePorts',
      'initHome',
      'listTasks',
      'manifestSchema',
      'maxRecordBytes',
      'moveTask',
      'newTaskStatuses',
      'openHome',
      'parseConfig',
      'probeReadout',
      'readConfig',
      'readDraftVerdict',
      'readProblems',
      'readQuestionAnswer',
      'readQuestionWords',
      'readToolRegistry',
      'recordToolRegistry',
      'refuseMissingHome',
      'registerShell',
      'registrationVariables',
      'reopenTask',
      'repairHome',
      'resolveHome',
      'rightOrThrow',
      'ruleRecordSchema',
      'runPresence',
      'runsOfTranscript',
      'saturationRuns',
      'seededRandom',
      'sessionReadout',
      'sessionsForTask',
      'shellRegistrationSchema',
      'situationFromHome',
      'taskHolders',
      'textAppraisalReadout',
      'toolFindings',
      'toolRegistryFile',
      'toolRegistrySchema',
      'watchHome',
      'withDistillLedger',
      'withLock',
      'withReadLog',
    ]);
  });

  it('keeps the record checks and the record validator on the testing subpath', async () => {
    const testing = await import(new URL('../dist/testing.js', import.meta.url).href);
    expect(Object.keys(testing).sort()).toEqual([
      'recordChecks',
      'recordValidator',
      'sessionsEntry',
    ]);
  });

  it('emits the JSON Schemas of its own records', async () => {
    const { readdirSync } = await import('node:fs');
    const folder = new URL('../dist/json-schema/', import.meta.url);
    expect(readdirSync(folder).sort()).toEqual([
      'config.json',
      'distilled-record.json',
      'manifest.json',
      'rule-record.json',
      'shell-registration.json',
    ]);
  });
});

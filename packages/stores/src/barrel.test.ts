import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url).href;

describe('the built @mecha/stores', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry);
    expect(Object.keys(api).sort()).toEqual([
      'UnguardedTaskToolError',
      'agentConfigSchema',
      'assertTaskToolsGuarded',
      'checkHome',
      'closeRefusal',
      'closeTask',
      'closeTaskFromSurface',
      'configSchema',
      'createOutcomeRecorder',
      'createSessionRecorder',
      'defaultConfig',
      'distilledRecordSchema',
      'foldBoard',
      'generateHome',
      'guardTaskTool',
      'homeLayout',
      'homePorts',
      'hookTimeoutMs',
      'initHome',
      'isGuardedTaskTool',
      'manifestSchema',
      'maxRecordBytes',
      'mcpServerConfigSchema',
      'modelConfigSchema',
      'moverFor',
      'newSessionId',
      'openHome',
      'parseConfig',
      'readConfig',
      'recordValidator',
      'registrationVariables',
      'reopenTask',
      'reopenTaskFromSurface',
      'repairStore',
      'resolveHome',
      'ruleRecordSchema',
      'runHook',
      'runPresence',
      'sessionsForTask',
      'withDistillLedger',
      'withLock',
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
    ]);
  });
});

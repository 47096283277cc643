import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

// A path held in a variable: the test reads what was built, not the sources.
const entry = new URL('../dist/index.js', import.meta.url);

describe('the built @mecha/local-model', () => {
  it('exposes exactly its public surface', async () => {
    const api = await import(entry.href);
    expect(Object.keys(api).sort()).toEqual([
      'GrammarError',
      'ModelConfigError',
      'ModelDisposedError',
      'ModelLoadError',
      'PromptTooLongError',
      'ScriptExhaustedError',
      'chooseContextSize',
      'connectModelServer',
      'createDeviceScheduler',
      'createLocalModel',
      'createScriptedModel',
      'defaultThreads',
      'deviceLeaseDirectory',
      'localModelLoads',
      'lockHolder',
      'modelEndpointPath',
      'modelIdentity',
      'modelLocation',
      'modelPathKey',
      'openDeviceLease',
      'processAlive',
      'readModelEndpoint',
      'releaseLock',
      'resolveModelPath',
      'resolveModelSettings',
      'serveModel',
      'takeLock',
    ]);
  });

  it('imports node-llama-cpp only dynamically, when a model loads', async () => {
    const code = await readFile(entry, 'utf8');
    expect(code).not.toMatch(/^\s*import\b[^(]*["']node-llama-cpp["']/m);
    expect(code).toMatch(/\bimport\(\s*["']node-llama-cpp["']\s*\)/);
  });
});
